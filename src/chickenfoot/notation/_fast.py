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
import re
from typing import IO, TYPE_CHECKING, Any, Final, cast

from chickenfoot._kernel import settle
from chickenfoot.errors import ChickenFootError
from chickenfoot.moves import Draw, Move, Play, play_by_ids
from chickenfoot.notation import _compiled as compiled
from chickenfoot.notation._headers import (
    ROUND_HEADERS,
    is_known,
    result_headers,
    result_of,
    rules_from_text,
)
from chickenfoot.notation._hidden import move_of
from chickenfoot.notation._lines import Lines
from chickenfoot.notation._model import GLYPHS, NOTATION_VERSION, Game, Node
from chickenfoot.record import Record, checked_record
from chickenfoot.rules import Rules
from chickenfoot.tiles import MAX_PIP, PIPS, set_size, tile_id

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
_HAND_NAMES: Final = tuple(f"Hand{k}" for k in range(100))
_BIT: Final = tuple(1 << t for t in range(set_size(MAX_PIP) + 1))
"""Each tile alone as a bitmask (the last: the id that stands for a tile not in the set)."""
_NOT_PLAIN: Final = re.compile(r"[{}()\x00]")
_GLYPH: Final = frozenset(GLYPHS)
_Entry = tuple[Move, bool, Node, int, int]
_PAIRS: dict[int, dict[str, _Entry]] = {}
"""By ``max_pip``, by the token ``K.`` NUL ``move`` (:func:`_tokens`): :func:`_entry`. Bounded."""
_NO_MOVES: Final[tuple[tuple[Any, ...], ...]] = ((), (), (), (), ())


_KNOWN: Final = frozenset(
    (*ROUND_HEADERS, *(f"{kind}{k}" for kind in ("Hand", "Name", "Agent") for k in range(100)))
)
"""Every header name :func:`is_known` knows."""


class _Names:
    """A set of header names as :func:`_split_headers` meets them in a header block split
    at its quotes: the first ``[Name `` and each later ``]\\n[Name `` (bounded sets)."""

    def __init__(self, names: frozenset[str]) -> None:
        self.first: Final = frozenset(f"[{n} " for n in names)
        self.later: Final = {f"]\n[{n} ": n for n in names}
        self.later_set: Final = frozenset(self.later)


_KNOWN_NAMES: Final = _Names(_KNOWN)
_PLAIN_NAMES: Final = _Names(_PLAIN_HEADERS)


def _split_headers(text: str, names: _Names) -> list[tuple[str, str]] | None:
    """The ``(name, value)`` pairs of a header block ``text`` (its lines, each with its
    line break) when every line is ``[Name "value"]`` with a name of ``names`` and a value
    without ``"``, ``\\`` or a line break (as :data:`_HEADER_LINE` takes a line), each name
    once; else ``None``. Split at the quotes, the block is ``[Name ``, then value and
    ``]\\n[Name `` in turn, then the last value and ``]\\n``: checked part by part in C."""
    parts = text.split('"')
    count = len(parts) >> 1
    later = parts[2:-1:2]
    if (
        parts[-1] != "]\n"
        or parts[0] not in names.first
        or text.count("\n") != count
        or "\\" in text
        or not names.later_set.issuperset(later)
    ):
        return None
    names_read = [parts[0][1:-1], *map(names.later.__getitem__, later)]
    pairs = list(zip(names_read, parts[1::2], strict=True))
    if len(set(names_read)) != count:
        return None
    return pairs


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
            last = _tokens(line)
            if last[-1] != "*" or line.count("*") != 1:
                return _give_back(lines, taken, None, handle)
            words += last
            words.pop()
            break
        words += _tokens(line)
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
    pairs = _split_headers(header_text, _PLAIN_NAMES)  # as _plain_header takes each line
    if pairs is None:
        return None
    headers = dict(pairs)
    if _NOT_PLAIN.search(moves_text) is not None:
        return None
    last_line = moves_text[moves_text.rfind("\n", 0, len(moves_text) - 1) + 1 : -1]
    last = last_line.split()
    if last[-1] != "*" or last_line.count("*") != 1:
        return None
    words = _tokens(moves_text)
    words.pop()
    return _game(headers, words)


def _tokens(text: str) -> list[str]:
    """The moves of ``text`` (no NUL in it), each ``K. move`` one token with NUL for its
    space: one dictionary lookup a move (a word not so joined is looked up alone, and the
    game handed back, as the general parser reads a seat and its move apart)."""
    return text.replace(". ", ".\0").split()


def skim_plain(lines: Lines, handle: IO[Any]) -> tuple[bool, tuple[tuple[str, str], ...] | None]:
    """``(True, headers)`` of the next game of ``lines``, its moves skipped, when its
    headers are plain (known, once each, no escapes) and its moves hold no comment;
    ``(True, None)`` at the end of the file; else ``(False, None)``, the lines put back."""
    block = _block(lines, moves=False)
    if block is not None:
        got = _split_headers(block[0], _KNOWN_NAMES)
        if got is not None:
            lines.skip(block[2], block[3])
            lines.mark()
            return True, tuple(got)
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


def _block(lines: Lines, *, moves: bool = True) -> tuple[str, str, int, int] | None:
    """The next game of a chunked handle's buffer, when it is plain ASCII text, within
    :data:`_BLOCK_BYTES`: its header lines (each with its line break: the lines up to the
    first blank one, the first starting with ``[``), its move lines up to and with the
    terminator's (no line of them starting with ``[``, no ``{``), where it ends
    in the buffer and how many lines it takes (the blank lines before it with it; the move
    lines' text only with ``moves``, else empty); else
    ``None``, and the caller reads the game line by line (the same decisions, as the lines
    of the game are the same)."""
    window = lines.window(_BLOCK_BYTES)
    if window is None:
        return None
    buf, at = window
    first = at
    while buf[first : first + 1] == b"\n":  # the blank lines before the game
        first += 1
    ends = buf.find(b"\n\n", first, at + _BLOCK_BYTES)  # the headers' last line, then a blank
    if ends < 0 or buf[first : first + 1] != b"[":
        return None
    moves_at = ends + 1  # the header lines themselves are the caller's to check
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
    if count - (first - at) > MAX_PLAIN_LINES:
        return None
    text = buf[moves_at:stop].decode() if moves else ""
    return buf[first:moves_at].decode(), text, stop, count


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
    """The game of headers ``h`` and move tokens ``words`` (:func:`_tokens`) if it reads
    without an error."""
    if h.get("Notation") != _VERSION or h.get("Audience", "full") != "full":
        return None
    rules_text = h.get("Rules", "")
    try:
        rules = _rules(rules_text) if len(rules_text) <= 1_000 else None
    except ValueError:
        return None
    if rules is None:
        return None
    dealt = _start(rules, h)
    if dealt is None:
        return None
    start, spec, board, bone = dealt
    max_pip = rules.max_pip
    cache = _PAIRS.get(max_pip)
    if cache is None:
        cache = _PAIRS[max_pip] = {}
    entries = list(map(cache.get, words))  # most moves were met before: one lookup each
    try:
        if None in entries:
            if len(cache) >= 1 << 14:
                cache.clear()
            for i, got in enumerate(entries):
                if got is None:
                    made = _entry(words[i], max_pip)
                    if made is None:
                        return None
                    entries[i] = cache[words[i]] = made
        known = cast("list[_Entry]", entries)
        moves, draws, nodes, seats, actions = zip(*known, strict=True) if known else _NO_MOVES
        record = None
        if not start.is_over() and compiled.ready():
            spec[3] = len(known)
            spec += actions
            spec += seats
            reached = compiled.replayed(rules, spec, moves, seats, draws, board, bone)
            if reached is not None:
                record = checked_record(start, moves, reached[0])
                results = result_of(reached[0].outcome(), reached[1])
        if record is None:
            turn, players = start.turn, rules.players
            for entry in known:  # every move by the seat whose turn it is
                if entry[3] != turn:
                    return None
                if not entry[1]:
                    turn = turn + 1 if turn + 1 < players else 0
            record = Record(start, moves)
            results = result_headers(record.final())
    except ChickenFootError:
        return None
    for name, value in results:
        given = h.get(name)
        if given is not None and given != value:
            return None
    return Game(tuple(h.items()), nodes, record=record)


def _entry(token: str, max_pip: int) -> _Entry | None:
    """The move of the token ``K.`` NUL ``move``, whether it is a draw (the seat keeps the
    turn), its node (a node without annotations is a value), the seat and the move's
    action id (:func:`~chickenfoot.notation._compiled.action_of`); ``None`` for a token
    that is not a seat and a move (the general parser says why). Raises
    :class:`~chickenfoot.errors.ChickenFootError` for a move that cannot be read."""
    seat_word, joined, text = token.partition("\0")
    seat = _SEATS.get(seat_word, -1)
    if seat < 0 or not joined or "." in text or text in _GLYPH:
        return None
    move = move_of(text, max_pip)
    return move, isinstance(move, Draw), Node(seat, text), seat, compiled.action_of(move, max_pip)


def _start(
    rules: Rules, h: dict[str, str]
) -> tuple[State, list[int], tuple[Play, ...], tuple[int, ...]] | None:
    """The start position of the deal headers when it reads as ``position_from_parts``
    reads it without an error (a round from its deal, nothing drawn), else ``None``; with
    it the compiled replay's deal (:func:`~chickenfoot.notation._compiled.replayed`'s
    ``spec`` up to the moves, their count 0), the board and the boneyard."""
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
        board: tuple[Play, ...] = ()
        placed = []
    elif len(board_words) == 1 and tiles.get(board_words[0]) == centre:
        board = (play_by_ids(centre, -1),)
        placed = [centre]
    else:
        return None
    spec = [turn, centre, len(board), 0]
    hands = []
    for name in _HAND_NAMES[:players]:
        text = h.get(name)
        if text is None:
            return None
        read = list(map(tiles.get, text.split()))
        if None in read:
            return None  # not a tile: the general reader says which
        ids = cast("list[int]", read)
        placed += ids
        spec.append(len(ids))
        spec += ids
        hands.append(sum(map(_BIT.__getitem__, ids)))  # each tile once: checked below
    bone_read = tuple(map(tiles.get, h.get("Boneyard", "").split()))
    if None in bone_read:
        return None
    bone = cast("tuple[int, ...]", bone_read)
    placed += bone
    if len(placed) != size or max(placed) >= size or len(set(placed)) != size:
        return None  # a tile outside the set, twice, or missing: the general reader says which
    spec += bone
    start = settle(rules, centre, board, tuple(hands), bone, turn, -1)
    return start, spec, board, bone
