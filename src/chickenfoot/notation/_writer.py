"""Writing rounds in the notation, for any audience (docs/notation.md).

>>> from chickenfoot import Rules, deal
>>> from chickenfoot.record import Record
>>> rec = Record(deal(Rules(), seed=1), ["9-3@9-9", "draw", "pass"])
>>> text = write_game(rec, audience="spectator", headers={"Event": "club"})
>>> print(text.split("\\n\\n")[1])
0. 9-3@9-9 1. draw:?? 1. pass *
>>> "Hand0" in text, "5-3" in text.split("Hand0")[1].split("\\n")[0]
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from chickenfoot.errors import FormatError, brief
from chickenfoot.moves import DRAW, Draw, Move
from chickenfoot.notation._commit import seal
from chickenfoot.notation._headers import (
    HIDDEN,
    deal_headers,
    escape,
    is_known,
    result_headers,
    rules_text,
)
from chickenfoot.notation._model import GLYPHS, NOTATION_VERSION, Audience, Game, Node
from chickenfoot.record import Record

__all__ = ["game_of", "headers_text", "movetext", "write_game"]

_GIVEN: Final = (
    "Event",
    "Site",
    "Date",
    "Time",
    "Annotator",
    "Seed",
    "Round",
    "Commitment",
    "DealSeed",
)
_SECRET_UNTIL_END: Final = frozenset({"Seed", "DealSeed"})
_PER_SEAT: Final = ("Name", "Agent")
WIDTH: Final = 79


def _audience(audience: Audience | str) -> Audience:
    if isinstance(audience, Audience):
        return audience
    if not isinstance(audience, str):
        raise FormatError(
            "audience", f"expected 'full', 'spectator' or 'seat K', got {brief(audience)}"
        )
    return Audience.parse(audience)


def _given(headers: Mapping[str, str] | Iterable[tuple[str, str]] | None) -> dict[str, str]:
    pairs = headers.items() if isinstance(headers, Mapping) else (headers or ())
    out: dict[str, str] = {}
    for name, value in pairs:
        if not isinstance(name, str) or not isinstance(value, str):
            raise FormatError(
                "headers", f"expected text names and values, got {brief((name, value))}"
            )
        per_seat = name.startswith(_PER_SEAT) and is_known(name)
        if name not in _GIVEN and not per_seat:
            raise FormatError(
                f"headers.{brief(name, 40)}",
                "not a header a caller gives (Event, Site, Date, Time, Annotator, Seed, Round, "
                "Commitment, DealSeed, NameK, AgentK; the rest are written from the round)",
            )
        out[name] = value
    return out


def game_of(
    record: Record, *, headers: Mapping[str, str] | Iterable[tuple[str, str]] | None = None
) -> Game:
    """The ``full`` :class:`Game` of ``record``: its headers and one node per move.

    >>> from chickenfoot import Rules, deal
    >>> g = game_of(Record(deal(Rules(), seed=1), ["9-3@9-9"]), headers={"Round": "0"})
    >>> g.moves, g.header("Round"), g.header("Result")
    ((Node(seat=0, move='9-3@9-9', glyphs=(), comments=(), variations=()),), '0', '*')
    """
    if not isinstance(record, Record):
        raise FormatError("record", f"expected a Record, got {brief(record)}")
    pairs = _headers(record, Audience.FULL, _given(headers))
    return Game(tuple(pairs), tuple(_nodes(record, Audience.FULL)), record=record)


def _texts(record: Record, audience: Audience) -> tuple[list[int], list[str]]:
    """The seat and the text of every move of ``record`` as ``audience`` sees it.

    A seat's copy takes its moves from that seat's view (:func:`~chickenfoot.view`): its
    own draws name their tile, the others' do not.
    """
    seats = _seats(record)
    if audience.kind == "full":
        return seats, [_MOVE_TEXT.get(m) or _text(m) for m in record.moves]
    if audience.seat is None:
        texts = [
            _HIDDEN_DRAW if isinstance(m, Draw) else _MOVE_TEXT.get(m) or _text(m)
            for m in record.moves
        ]
        return seats, texts
    seen = record.final().view(audience.seat).history
    events = seen[len(seen) - len(record.moves) :]
    texts = [
        _HIDDEN_DRAW if e.move is DRAW else _MOVE_TEXT.get(e.move) or _text(e.move) for e in events
    ]
    return seats, texts


def _seats(record: Record) -> list[int]:
    """The seat of every move: the turn passes on after each move but a draw (a seat that
    goes out ends the round), as the rules' transitions pass it; no position is built."""
    turn, players = record.start.turn, record.start.players
    seats = []
    for move in record.moves:
        seats.append(turn)
        if not isinstance(move, Draw):
            turn = turn + 1 if turn + 1 < players else 0
    return seats


_MOVE_TEXT: dict[Move, str] = {}
_HIDDEN_DRAW: Final = f"draw:{HIDDEN}"


def _text(move: Move) -> str:
    """The notation of ``move`` (moves are interned: kept once made)."""
    text = _MOVE_TEXT[move] = move.notation()
    return text


def _nodes(record: Record, audience: Audience) -> list[Node]:
    """One node per move of ``record`` as ``audience`` sees it (no annotations)."""
    seats, texts = _texts(record, audience)
    return [Node(seat, text) for seat, text in zip(seats, texts, strict=True)]


_VERSION: Final = str(NOTATION_VERSION)
_LAST_RULES: list[Any] = [None, ""]
"""The rules of the record written last and their ``Rules`` header."""


def _headers(record: Record, audience: Audience, given: dict[str, str]) -> list[tuple[str, str]]:
    if "DealSeed" in given:  # the commitment, in every copy: docs/notation.md, Checking a deal
        given = seal(record, given)
    final = record.final()
    over = final.is_over()
    rules = record.start.rules
    last = _LAST_RULES
    if last[0] is not rules:  # most records of a run share one Rules: no hashing it again
        last[:] = [rules, rules_text(rules)]
    out: list[tuple[str, str]] = [("Notation", _VERSION)]
    if not given:
        out += [("Rules", last[1]), ("Audience", str(audience))]
        out += deal_headers(record.start, audience)
        out += result_headers(final)
        return out
    for name in _GIVEN[:5]:
        if name in given:
            out.append((name, given[name]))
    out.append(("Rules", last[1]))
    for name in _GIVEN[5:]:
        if name in given and (over or audience.kind == "full" or name not in _SECRET_UNTIL_END):
            out.append((name, given[name]))
    out.append(("Audience", str(audience)))
    for seat in range(record.start.players):
        for kind in _PER_SEAT:
            key = f"{kind}{seat}"
            if key in given:
                out.append((key, given[key]))
    out.extend(deal_headers(record.start, audience))
    out.extend(result_headers(final))
    return out


def headers_text(pairs: Iterable[tuple[str, str]]) -> str:
    """The header lines of ``pairs``, each ``[Name "value"]``."""
    pairs = list(pairs)
    values = "".join([value for _, value in pairs])
    if '"' in values or "\\" in values or "\n" in values or "\r" in values:
        return "".join(f'[{name} "{escape(value)}"]\n' for name, value in pairs)
    return "".join([f'[{name} "{value}"]\n' for name, value in pairs])  # nothing to escape


def _tokens(nodes: Sequence[Node], out: list[str], depth: int) -> None:
    if depth > 100:
        raise FormatError("moves", "variations nested deeper than 100")
    for node in nodes:
        # A move is never cut from its seat; a move read without one (seat -1) has none.
        out.append(f"{node.seat}. {node.move}" if node.seat >= 0 else node.move)
        for glyph in node.glyphs:
            if glyph not in GLYPHS:
                raise FormatError("glyphs", f"{brief(glyph)} is not a glyph ({' '.join(GLYPHS)})")
        out.extend(node.glyphs)
        for text in node.comments:
            if "}" in text:
                raise FormatError("comments", f"a comment may not hold '}}': {brief(text)}")
            out.append(f"{{{text}}}")
        for line in node.variations:
            out.append("(")
            _tokens(line, out, depth + 1)
            out.append(")")


def movetext(game: Game) -> str:
    """The moves of ``game`` with their glyphs, comments and variations, then ``*``,
    wrapped at 79 columns (a comment is never cut)."""
    tokens = [f"{{{c}}}" for c in game.comment]
    _tokens(game.moves, tokens, 0)
    tokens.append("*")
    return _wrap(tokens)


def _plain_movetext(record: Record, audience: Audience) -> str:
    """:func:`movetext` of a record's moves without annotations (the same bytes).

    For ``full`` and ``spectator`` copies the token ``K. move`` of each move comes from a
    table by seat and move (moves are interned), the seats counted as :func:`_seats`
    counts them, and lines are wrapped in the same pass; a seat's copy takes its texts
    from that seat's view (:func:`_texts`)."""
    if audience.seat is None:
        rows = _TOKENS if audience.kind == "full" else _PUBLIC_TOKENS
        hide = audience.kind != "full"
        turn, players = record.start.turn, record.start.players
        moves = record.moves
    else:
        seats, texts = _texts(record, audience)
        return _wrap_plain(
            [_TEXT_TOKENS[s].get(t) or _token_text(s, t) for s, t in zip(seats, texts, strict=True)]
        )
    tokens: list[str] = []
    append = tokens.append
    draw = Draw
    for move in moves:
        row = rows[turn]
        token = row.get(move)
        if token is None:
            token = _token(row, turn, move, hide)
        append(token)
        if move.__class__ is not draw:
            turn = turn + 1 if turn + 1 < players else 0
    append("*")
    # Each token holds NUL where its space goes: the spaces left are where lines may break.
    return _wrap_spaced(" ".join(tokens)).replace("\0", " ")


def _wrap_spaced(text: str) -> str:
    """Space-separated tokens (none holding a space), wrapped as :func:`_wrap` wraps
    them: each line the most tokens that fit in :data:`WIDTH` columns, a longer token
    alone on its line."""
    if len(text) <= WIDTH:
        return text
    lines: list[str] = []
    at, end = 0, len(text)
    while end - at > WIDTH:
        cut = text.rfind(" ", at, at + WIDTH + 1)
        if cut < 0:
            cut = text.find(" ", at)
            if cut < 0:
                break
        lines.append(text[at:cut])
        at = cut + 1
    lines.append(text[at:])
    return "\n".join(lines)


def _wrap_plain(tokens: list[str]) -> str:
    """The tokens ``K. move`` then ``*``, wrapped as :func:`_wrap` wraps them."""
    lines: list[str] = []
    line: list[str] = []
    size = -1
    for token in tokens:
        size += 1 + len(token)
        if size > WIDTH and line:
            lines.append(" ".join(line))
            line = [token]
            size = len(token)
        else:
            line.append(token)
    if size + 2 > WIDTH and line:
        lines.append(" ".join(line))
        line = []
    line.append("*")
    lines.append(" ".join(line))
    return "\n".join(lines)


def _token(row: dict[Move, str], seat: int, move: Move, hide: bool) -> str:
    """``K.`` NUL ``move`` for ``seat``'s ``move`` (``draw:??`` for a draw ``hide``
    hides), kept in ``row`` (bounded); :func:`_plain_movetext` turns the NUL into a space."""
    if len(row) >= 1 << 12:
        row.clear()
    text = _HIDDEN_DRAW if hide and isinstance(move, Draw) else _MOVE_TEXT.get(move) or _text(move)
    token = row[move] = f"{seat}.\0{text}"  # the space that never breaks: _plain_movetext
    return token


def _token_text(seat: int, text: str) -> str:
    row = _TEXT_TOKENS[seat]
    if len(row) >= 1 << 12:
        row.clear()
    token = row[text] = f"{seat}. {text}"
    return token


_TOKENS: Final[list[dict[Move, str]]] = [{} for _ in range(100)]
"""``K.`` NUL ``move`` of a full copy, by seat and move (bounded): :func:`_token`."""
_PUBLIC_TOKENS: Final[list[dict[Move, str]]] = [{} for _ in range(100)]
"""``K.`` NUL ``move`` of a spectator's copy (another seat's draw hidden), by seat and move."""
_TEXT_TOKENS: Final[list[dict[str, str]]] = [{} for _ in range(100)]
"""``K. move`` by seat and move text (bounded)."""


def _wrap(tokens: list[str]) -> str:
    lines: list[str] = []
    line = ""
    size = 0
    for token in tokens:
        if not line:
            line, size = token, len(token)
        elif token == ")" or line[-1] == "(":
            line += token
            size += len(token)
        elif size + 1 + len(token) <= WIDTH:
            line = f"{line} {token}"
            size += 1 + len(token)
        else:
            lines.append(line)
            line, size = token, len(token)
    lines.append(line)
    return "\n".join(lines)


def write_game(
    source: Record | Game,
    *,
    audience: Audience | str = "full",
    headers: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
) -> str:
    """The text of one round (headers, a blank line, the moves, a blank line after).

    ``source`` is a :class:`~chickenfoot.Record`, or a ``full`` :class:`Game` whose
    annotations (glyphs, comments, variations) are kept in the ``full`` copy. A ``seat K``
    or ``spectator`` copy holds what that audience may know at the end of the record: the
    other hands and the boneyard as ``??``, another seat's draw as ``draw:??``, no
    annotation (they may speak of hidden tiles), and ``Seed``/``DealSeed`` only once the
    round is over. ``headers`` adds the headers a caller gives (Event, Site, Date, Time,
    Annotator, Seed, Round, Commitment, DealSeed, NameK, AgentK); a ``DealSeed`` must deal
    the round (with ``Round``), and its ``Commitment`` is written in every copy.

    >>> from chickenfoot import Rules, deal
    >>> rules = Rules(players=2, max_pip=3, hand_size=3, opening_toes=2, foot_toes=1)
    >>> rec = Record(deal(rules, seed=2), ["3-2@3-3"])
    >>> print(write_game(rec, audience="seat 1"), end="")
    [Notation "1"]
    [Rules "house players=2 max_pip=3 hand_size=3 opening_toes=2 foot_toes=1 match={\\"rounds\\":4}"]
    [Audience "seat 1"]
    [Centre "3-3"]
    [Board "3-3"]
    [Hand0 "?? ?? ??"]
    [Hand1 "0-0 2-0 2-2"]
    [Boneyard "?? ?? ??"]
    [Turn "0"]
    [Result "*"]
    [Termination "*"]
    [Winner "*"]
    <BLANKLINE>
    0. 3-2@3-3 *
    <BLANKLINE>
    """
    aud = _audience(audience)
    if isinstance(source, Game):
        if source.record is None:
            raise FormatError("game", "only a full game with its record can be written")
        record = source.record
        given = {k: v for k, v in source.headers if k in _GIVEN or k.startswith(_PER_SEAT)}
        given.update(_given(headers))
        if aud.kind == "full":
            seats, texts = _texts(record, aud)
            if [(n.seat, n.move) for n in source.moves] != list(zip(seats, texts, strict=True)):
                raise FormatError("game", "its moves do not match the record's (seat and notation)")
            game = Game(tuple(_headers(record, aud, given)), source.moves, comment=source.comment)
        else:
            game = Game(tuple(_headers(record, aud, given)), tuple(_nodes(record, aud)))
    elif isinstance(source, Record):
        if aud.seat is not None and aud.seat >= source.start.players:
            raise FormatError("audience", f"seat {aud.seat} is not a seat of this round")
        pairs = _headers(source, aud, _given(headers))
        return f"{headers_text(pairs)}\n{_plain_movetext(source, aud)}\n\n"
    else:
        raise FormatError("source", f"expected a Record or a Game, got {brief(source)}")
    if aud.seat is not None and aud.seat >= record.start.players:
        raise FormatError("audience", f"seat {aud.seat} is not a seat of this round")
    return f"{headers_text(game.headers)}\n{movetext(game)}\n\n"
