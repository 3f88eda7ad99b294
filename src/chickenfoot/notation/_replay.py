"""Checking a game read from the notation against the rules (docs/notation.md, "Reading").

A ``full`` copy is replayed: its start position is built from the deal headers and every
move, of the main line and of every variation, is played with the rules' checks; the
result headers must be the round's. A ``seat K`` or ``spectator`` copy is checked for what
its audience may know: hidden hands and boneyard only as ``??``, every draw the audience
did not see as ``draw:??``, every tile in the set and laid once, hand and boneyard counts
that never run out, and seat K's own plays from the tiles it held.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final

from chickenfoot.errors import ChickenFootError, FormatError
from chickenfoot.formats import position_from_parts
from chickenfoot.moves import Draw, Move, Play, parse_move
from chickenfoot.notation._headers import HIDDEN, result_headers, rules_from_text
from chickenfoot.notation._model import NOTATION_VERSION, Audience, NotationError
from chickenfoot.record import Record, RecordMoveError
from chickenfoot.tiles import Tile

if TYPE_CHECKING:
    from chickenfoot.notation._visitor import _Open
    from chickenfoot.rules import Rules
    from chickenfoot.state import State

__all__ = ["replay"]

Report = Callable[[NotationError], None]
_PARSED: dict[tuple[str, int], Move] = {}


def _move(text: str, max_pip: int) -> Move:
    key = (text, max_pip)
    move = _PARSED.get(key)
    if move is None:
        move = parse_move(text, max_pip=max_pip)
        if len(_PARSED) > 50_000:
            _PARSED.clear()
        _PARSED[key] = move
    return move


class _Context:
    __slots__ = ("at", "headers", "report")

    def __init__(self, headers: dict[str, str], lines: dict[str, int], report: Report) -> None:
        self.headers = headers
        self.at = lines
        self.report = report

    def fail(self, name: str, message: str) -> None:
        self.report(NotationError(self.at.get(name, 1), 1, f"{name}: {message}"))


_PARTS: Final = {"centre": "Centre", "board": "Board", "boneyard": "Boneyard", "turn": "Turn"}


def replay(
    headers: Sequence[tuple[str, str]], lines: dict[str, int], main: list[_Open], report: Report
) -> Record | None:
    """Check the game; the replayed record of a ``full`` copy (``None`` otherwise)."""
    ctx = _Context(dict(headers), lines, report)
    h = ctx.headers
    if not h:
        return None
    version = h.get("Notation")
    if version != str(NOTATION_VERSION):
        ctx.fail("Notation", f"expected version {NOTATION_VERSION}, got {version!r}"[:120])
        return None
    if "Match" in h:
        return None  # a match's header block: no deal, no moves
    try:
        audience = Audience.parse(h.get("Audience", "full"))
        rules = rules_from_text(h.get("Rules", ""))
    except FormatError as err:
        ctx.fail("Audience" if err.path == "audience" else "Rules", err.reason)
        return None
    if audience.seat is not None and audience.seat >= rules.players:
        ctx.fail("Audience", f"seat {audience.seat} is not a seat of this round")
        return None
    if audience.kind != "full":
        _check_hidden(ctx, rules, audience, main)
        return None
    start = _start(ctx, rules)
    if start is None:
        return None
    return _main_line(ctx, start, main)


def _tiles(text: str) -> list[str]:
    return text.split() if text else []


def _start(ctx: _Context, rules: Rules) -> State | None:
    h = ctx.headers
    try:
        turn = h.get("Turn", "")
        if not (turn.isascii() and turn.isdigit() and len(turn) <= 3):
            raise FormatError("turn", f"{turn[:20]!r} is not a seat number")
        return position_from_parts(
            rules,
            centre=h.get("Centre", ""),
            board=_tiles(h.get("Board", "")),
            hands=[_tiles(h[f"Hand{s}"]) for s in range(rules.players) if f"Hand{s}" in h],
            boneyard=_tiles(h.get("Boneyard", "")),
            turn=int(turn),
            drawn=h.get("Drawn"),
        )
    except FormatError as err:
        part = err.path.split(".")[0].split("[")[0]
        name = _PARTS.get(part, "Drawn" if part == "drawn" else "")
        if part == "hands" and err.path[6:7].isdigit():
            name = f"Hand{err.path[6:].split(']')[0]}"
        ctx.fail(name or "Centre", err.reason[:200])
        return None


def _main_line(ctx: _Context, start: State, main: list[_Open]) -> Record:
    max_pip = start.rules.max_pip
    moves: list[Move] = []
    for node in main:
        try:
            moves.append(_move(node.move, max_pip))
        except ChickenFootError as err:
            line, col = node.at
            ctx.report(NotationError(line, col, str(err)[:200]))
            break
    try:
        record = Record(start, moves)
    except RecordMoveError as err:
        line, col = main[err.index].at
        ctx.report(NotationError(line, col, f"{err.text} cannot be played: {err.reason}"[:240]))
        record = Record(start, moves[: err.index])
    states = record.states()
    for i, node in enumerate(main[: len(record.moves)]):
        state = states[i]
        if node.seat is not None and node.seat != state.turn:
            line, col = node.at
            ctx.report(
                NotationError(line, col, f"seat {node.seat} moves, but seat {state.turn} is to act")
            )
        for variation in node.variations:
            _variation(ctx, state, variation)
    if len(record.moves) == len(main):
        _check_result(ctx, record.final())
    return record


def _variation(ctx: _Context, state: State, nodes: list[_Open]) -> None:
    for node in nodes:
        line, col = node.at
        for variation in node.variations:
            _variation(ctx, state, variation)
        try:
            move = _move(node.move, state.rules.max_pip)
            if node.seat is not None and node.seat != state.turn:
                raise FormatError("", f"seat {node.seat} moves, but seat {state.turn} is to act")
            state = state.apply(move)
        except ChickenFootError as err:
            ctx.report(NotationError(line, col, f"in a variation: {err}"[:240]))
            return


def _check_result(ctx: _Context, final: State) -> None:
    for name, value in result_headers(final):
        given = ctx.headers.get(name)
        if given is not None and given != value:
            ctx.fail(name, f"{given[:40]!r} is not the round's ({value!r})")


def _check_hidden(ctx: _Context, rules: Rules, audience: Audience, main: list[_Open]) -> None:
    """The checks of a seat's or a spectator's copy (see the module's docstring)."""
    h = ctx.headers
    n = rules.max_pip
    sizes: list[int] = []
    known: set[Tile] = set()
    for k in range(rules.players):
        raw = _tiles(h.get(f"Hand{k}", ""))
        sizes.append(len(raw))
        shown = [t for t in raw if t != HIDDEN]
        if audience.sees(k) != bool(shown) and raw:
            what = "names tiles" if shown else "hides its tiles"
            ctx.fail(f"Hand{k}", f"the hand {what}, but this is a copy for {audience}")
            return
        for text in shown:
            try:
                known.add(Tile.parse(text, max_pip=n))
            except ChickenFootError as err:
                ctx.fail(f"Hand{k}", str(err)[:200])
                return
    bone = _tiles(h.get("Boneyard", ""))
    if any(t != HIDDEN for t in bone):
        ctx.fail("Boneyard", f"a copy for {audience} may not name the boneyard's tiles")
        return
    left = len(bone)
    laid: set[Tile] = set()
    for node in main:
        line, col = node.at
        seat = node.seat
        if seat is None or not 0 <= seat < rules.players:
            ctx.report(NotationError(line, col, f"a copy for {audience} gives every move's seat"))
            return
        problem = ""
        if node.move == f"draw:{HIDDEN}":
            if audience.sees(seat):
                problem = f"seat {seat}'s draw is seen by {audience}: its tile is written"
            elif left == 0:
                problem = "a draw from an empty boneyard"
            sizes[seat] += 1
            left -= 1
        else:
            try:
                move = _move(node.move, n)
            except ChickenFootError as err:
                ctx.report(NotationError(line, col, str(err)[:200]))
                return
            if isinstance(move, Draw):
                if not audience.sees(seat) or move.tile is None:
                    problem = f"{move} names a tile that {audience} could not have seen"
                elif move.tile in known or move.tile in laid:
                    problem = f"{move.tile} cannot be in the boneyard"
                elif left == 0:
                    problem = "a draw from an empty boneyard"
                else:
                    known.add(move.tile)
                sizes[seat] += 1
                left -= 1
            elif isinstance(move, Play):
                if move.tile in laid or (
                    move.anchor is not None
                    and move.anchor not in laid
                    and move.anchor not in _board(h)
                ):
                    problem = f"{move} lays a tile twice or on no tile"
                elif audience.sees(seat) and move.tile not in known:
                    problem = f"seat {seat} does not hold {move.tile}"
                elif not audience.sees(seat) and move.tile in known:
                    problem = f"{move.tile} is in another hand"
                elif sizes[seat] == 0:
                    problem = f"seat {seat} has no tile left"
                laid.add(move.tile)
                sizes[seat] -= 1
        if problem:
            ctx.report(NotationError(line, col, problem))
            return


def _board(h: dict[str, str]) -> set[Tile]:
    out = set()
    for text in _tiles(h.get("Board", "")):
        with contextlib.suppress(ChickenFootError):
            move = parse_move(text)
            if isinstance(move, Play):
                out.add(move.tile)
    centre = h.get("Centre", "")
    with contextlib.suppress(ChickenFootError):
        out.add(Tile.parse(centre))
    return out
