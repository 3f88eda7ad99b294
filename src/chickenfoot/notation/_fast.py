"""The fast reader of plain ``full`` copies (docs/notation.md, "Reading").

Most games in a file are what :func:`~chickenfoot.notation.write_game` writes for a
:class:`~chickenfoot.Record`: a ``full`` copy of a round from its deal, headers without
escapes, every move with its seat and no annotation. :func:`read_plain` reads such a game
without the visitor's calls: the headers are split as the parser splits them, the deal is
read from a table of tile texts, the moves are replayed by :class:`~chickenfoot.Record`
(the kernel's replay, every move checked as ``apply`` checks it), and the result headers
are compared with the round's.

It decides nothing on its own: a game it accepts is one the general parser
(:func:`~chickenfoot.notation.visit_game` with a
:class:`~chickenfoot.notation.GameBuilder`) reads without an error into an equal
:class:`~chickenfoot.notation.Game`; at anything else (a header it does not know, an
escape, a comment, a glyph, a variation, a move without its seat, an unreadable byte, a
move that cannot be played, a game longer than :data:`MAX_PLAIN_LINES` lines) it puts
the game's lines back, with their numbers and errors, for the general parser, which
finds and places every problem (``tests/test_notation_fast.py`` compares the two).
"""

from __future__ import annotations

import functools
import operator
import re
from typing import IO, TYPE_CHECKING, Any, Final, cast

from chickenfoot._kernel import settle
from chickenfoot.errors import ChickenFootError
from chickenfoot.moves import Draw, Move, play_by_ids
from chickenfoot.notation._headers import ROUND_HEADERS, is_known, result_headers, rules_from_text
from chickenfoot.notation._hidden import move_of
from chickenfoot.notation._lines import Lines
from chickenfoot.notation._model import GLYPHS, NOTATION_VERSION, Game, Node
from chickenfoot.record import Record
from chickenfoot.rules import Rules
from chickenfoot.tiles import MAX_PIP, PIPS, tile_id

if TYPE_CHECKING:
    from chickenfoot.state import State

__all__ = ["MAX_PLAIN_LINES", "read_plain", "skim_plain"]

MAX_PLAIN_LINES: Final = 2_000
"""A longer game goes to the general parser, which streams it (bounded memory here)."""

_PLAIN_HEADERS: Final = frozenset(
    (
        "Notation",
        "Event",
        "Site",
        "Date",
        "Time",
        "Annotator",
        "Rules",
        "Seed",
        "Round",
        "Audience",
        "Centre",
        "Board",
        "Boneyard",
        "Turn",
        "Result",
        "Termination",
        "Winner",
        *(f"{kind}{k}" for kind in ("Hand", "Name", "Agent") for k in range(100)),
    )
)
"""The headers whose every check the fast reader makes; a game with another header
(``Match``, ``Drawn``, ``Commitment``...) is the general parser's, with all its checks."""
_VERSION: Final = str(NOTATION_VERSION)
_SEATS: Final = {f"{k}.": k for k in range(100)}
_TILES: Final = {f"{a}-{b}": tile_id(a, b) for a in range(MAX_PIP + 1) for b in range(MAX_PIP + 1)}
_NOT_PLAIN: Final = re.compile(r"[{}()]")
_GLYPH: Final = frozenset(GLYPHS)
_Entry = tuple[Move, bool, Node, int]
_PAIRS: dict[int, dict[tuple[str, str], _Entry]] = {}
"""By ``max_pip``, by the words ``K.`` and ``move``: :func:`_entry`. Bounded."""
_FIRST: Final = operator.itemgetter(0)
_THIRD: Final = operator.itemgetter(2)


_KNOWN: Final = frozenset(
    (*ROUND_HEADERS, *(f"{kind}{k}" for kind in ("Hand", "Name", "Agent") for k in range(100)))
)
"""Every header name :func:`is_known` knows."""
_HEADER_LINE: Final = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]{0,39}) "([^"\\\n]*)"\]$', re.MULTILINE)


@functools.lru_cache(maxsize=64)
def _rules(text: str) -> Rules:
    return rules_from_text(text)


def read_plain(lines: Lines, handle: IO[Any]) -> tuple[bool, Game | None]:
    """``(True, game)`` for the next game of ``lines`` if it is plain, ``(True, None)`` at
    the end of the file; else ``(False, None)`` with the game's lines put back."""
    block = _block(lines)
    if block is not None:
        game = _block_game(block[0], block[1])
        if game is not None:
            lines.skip(block[2], block[3])
            lines.mark()
            return True, game
    line = lines.next()
    while line is not None and (not line or line.isspace()) and not lines.errors:
        line = lines.next()
    if line is None and not lines.errors:
        return True, None
    taken: list[str] = []
    headers: dict[str, str] = {}
    while line is not None and not lines.errors and line[:1] == "[":
        taken.append(line)
        if not _plain_header(line, headers):
            return _give_back(lines, taken, None, handle)
        line = lines.next()
    words: list[str] = []
    while True:
        if line is None or lines.errors or not headers or len(taken) > MAX_PLAIN_LINES:
            return _give_back(lines, taken, line, handle)
        taken.append(line)
        if line[:1] == "[" or _NOT_PLAIN.search(line) is not None:
            return _give_back(lines, taken, None, handle)
        if "*" in line:
            last = line.split()
            if last[-1] != "*" or line.count("*") != 1:
                return _give_back(lines, taken, None, handle)
            words += last
            words.pop()
            break
        words += line.split()
        line = lines.next()
    game = _game(headers, words)
    if game is None:
        return _give_back(lines, taken, None, handle)
    lines.mark()
    return True, game


def _plain_header(line: str, headers: dict[str, str]) -> bool:
    """Add the header ``line`` to ``headers`` if it is plain (known, once, no escape)."""
    cut = line.find(' "')
    name, value = line[1:cut], line[cut + 2 : -2]
    if (
        cut < 2
        or not line.endswith('"]')
        or '"' in value
        or "\\" in value
        or name in headers
        or name not in _PLAIN_HEADERS
        or not is_known(name)
    ):
        return False
    headers[name] = value
    return True


def _block_game(header_text: str, moves_text: str) -> Game | None:
    """:func:`read_plain`'s game of a block of :func:`_block`, when it takes it."""
    headers: dict[str, str] = {}
    for line in header_text[:-1].split("\n"):
        if not _plain_header(line, headers):
            return None
    if _NOT_PLAIN.search(moves_text) is not None:
        return None
    last_line = moves_text[moves_text.rfind("\n", 0, len(moves_text) - 1) + 1 : -1]
    last = last_line.split()
    if last[-1] != "*" or last_line.count("*") != 1:
        return None
    words = moves_text.split()
    words.pop()
    return _game(headers, words)


def skim_plain(lines: Lines, handle: IO[Any]) -> tuple[bool, tuple[tuple[str, str], ...] | None]:
    """``(True, headers)`` of the next game of ``lines``, its moves skipped, when its
    headers are plain (known, once each, no escapes) and its moves hold no comment;
    ``(True, None)`` at the end of the file; else ``(False, None)``, the lines put back."""
    block = _block(lines)
    if block is not None:
        pairs = _HEADER_LINE.findall(block[0])
        headers = dict(pairs)
        if (
            len(pairs) == block[0].count("\n")
            and len(headers) == len(pairs)
            and headers.keys() <= _KNOWN
        ):
            lines.skip(block[2], block[3])
            lines.mark()
            return True, tuple(pairs)
    line = lines.next()
    while line is not None and (not line or line.isspace()) and not lines.errors:
        line = lines.next()
    if line is None and not lines.errors:
        return True, None
    taken: list[str] = []
    while line is not None and not lines.errors and line[:1] == "[":
        taken.append(line)
        line = lines.next()
    pairs = _HEADER_LINE.findall("\n".join(taken))
    if len(pairs) != len(taken) or not taken:
        return _give_back(lines, taken, line, handle)
    headers = dict(pairs)
    if len(headers) != len(pairs) or not headers.keys() <= _KNOWN:
        return _give_back(lines, taken, line, handle)
    while True:
        if line is None or lines.errors or len(taken) > MAX_PLAIN_LINES:
            return _give_back(lines, taken, line, handle)
        taken.append(line)
        if line[:1] == "[" or "{" in line:
            return _give_back(lines, taken, None, handle)
        if "*" in line:
            break
        line = lines.next()
    lines.mark()
    return True, tuple(pairs)


_BLOCK_BYTES: Final = 1 << 16
"""The longest game :func:`_block` takes (below :data:`MAX_LINE`: no line of it is too
long); a longer one is read line by line."""
_HEADER_BLOCK: Final = re.compile(rb"\n*((?:\[[^\n]*\n)+)")


def _block(lines: Lines) -> tuple[str, str, int, int] | None:
    """The next game of a chunked handle's buffer, when it is plain ASCII text, within
    :data:`_BLOCK_BYTES`: its header lines (each with its line break), its move lines up to
    and with the terminator's (no line of them starting with ``[``, no ``{``), where it ends
    in the buffer and how many lines it takes (the blank lines before it with it); else
    ``None``, and the caller reads the game line by line (the same decisions, as the lines
    of the game are the same)."""
    window = lines.window(_BLOCK_BYTES)
    if window is None:
        return None
    buf, at = window
    m = _HEADER_BLOCK.match(buf, at)
    if m is None:
        return None
    moves_at = m.end()
    star = buf.find(b"*", moves_at, at + _BLOCK_BYTES)
    if star < 0:
        return None
    stop = buf.find(b"\n", star, at + _BLOCK_BYTES) + 1
    if (
        not stop
        or buf.find(b"{", moves_at, stop) >= 0
        or buf.find(b"\n[", moves_at - 1, star) >= 0
        or not buf[at:stop].isascii()
    ):
        return None
    count = buf.count(b"\n", at, stop)
    if count - (m.start(1) - at) > MAX_PLAIN_LINES:
        return None
    return buf[m.start(1) : moves_at].decode(), buf[moves_at:stop].decode(), stop, count


def _give_back(
    lines: Lines, taken: list[str], line: str | None, handle: IO[Any]
) -> tuple[bool, None]:
    """Put the game's lines back (and ``line``, with the errors found reading it)."""
    errors = lines.errors[:]
    lines.errors.clear()
    if line is not None or errors:
        lines.push_back(line, errors)
    for text in reversed(taken):
        lines.push_back(text)
    lines.mark()
    return False, None


def _game(h: dict[str, str], words: list[str]) -> Game | None:
    """The game of headers ``h`` and move words ``words`` if it reads without an error."""
    if h.get("Notation") != _VERSION or h.get("Audience", "full") != "full" or len(words) % 2:
        return None
    rules_text = h.get("Rules", "")
    try:
        rules = _rules(rules_text) if len(rules_text) <= 1_000 else None
    except ValueError:
        return None
    if rules is None:
        return None
    start = _start(rules, h)
    if start is None:
        return None
    max_pip = rules.max_pip
    cache = _PAIRS.get(max_pip)
    if cache is None:
        cache = _PAIRS[max_pip] = {}
    pairs = list(zip(words[::2], words[1::2], strict=True))
    entries = list(map(cache.get, pairs))  # most moves were met before: one lookup each
    try:
        if None in entries:
            if len(cache) >= 1 << 14:
                cache.clear()
            for i, got in enumerate(entries):
                if got is None:
                    made = _entry(pairs[i], max_pip)
                    if made is None:
                        return None
                    entries[i] = cache[pairs[i]] = made
        known = cast("list[_Entry]", entries)
        turn, players = start.turn, rules.players
        for entry in known:  # every move by the seat whose turn it is
            if entry[3] != turn:
                return None
            if not entry[1]:
                turn = turn + 1 if turn + 1 < players else 0
        record = Record(start, list(map(_FIRST, known)))
    except ChickenFootError:
        return None
    nodes = tuple(map(_THIRD, known))
    for name, value in result_headers(record.final()):
        given = h.get(name)
        if given is not None and given != value:
            return None
    return Game(tuple(h.items()), nodes, record=record)


def _entry(pair: tuple[str, str], max_pip: int) -> tuple[Move, bool, Node, int] | None:
    """The move of the words ``K.`` and ``move``, whether it is a draw (the seat keeps the
    turn), its node (a node without annotations is a value) and the seat; ``None`` for
    words that are not a seat and a move (the general parser says why). Raises
    :class:`~chickenfoot.errors.ChickenFootError` for a move that cannot be read."""
    seat = _SEATS.get(pair[0], -1)
    text = pair[1]
    if seat < 0 or "." in text or text in _GLYPH:
        return None
    move = move_of(text, max_pip)
    return move, isinstance(move, Draw), Node(seat, text), seat


def _start(rules: Rules, h: dict[str, str]) -> State | None:
    """The start position of the deal headers when it reads as ``position_from_parts``
    reads it without an error (a round from its deal, nothing drawn), else ``None``."""
    turn_text = h.get("Turn", "")
    if not (turn_text.isascii() and turn_text.isdigit() and len(turn_text) <= 3):
        return None
    turn, players, size = int(turn_text), rules.players, rules.set_size
    centre = _TILES.get(h.get("Centre", ""), size)
    if turn >= players or centre >= size or PIPS[centre][0] != PIPS[centre][1]:
        return None
    tiles = _TILES
    board_words = h.get("Board", "").split()
    if not board_words:
        if rules.centre == "set_aside":
            return None
        board: tuple[Any, ...] = ()
        placed = []
    elif len(board_words) == 1 and tiles.get(board_words[0]) == centre:
        board = (play_by_ids(centre, -1),)
        placed = [centre]
    else:
        return None
    hands = []
    for seat in range(players):
        text = h.get(f"Hand{seat}")
        if text is None:
            return None
        ids = [tiles.get(w, size) for w in text.split()]
        placed += ids
        mask = 0
        for t in ids:
            mask |= 1 << t
        hands.append(mask)
    bone = tuple(tiles.get(w, size) for w in h.get("Boneyard", "").split())
    placed += bone
    if len(placed) != size or max(placed) >= size or len(set(placed)) != size:
        return None  # a tile outside the set, twice, or missing: the general reader says which
    return settle(rules, centre, board, tuple(hands), bone, turn, -1)
