"""Checking a game read from the notation against the rules (docs/notation.md, "Reading").

A ``full`` copy is replayed: its start position is built from the deal headers and every
move, of the main line and of every variation, is played with the rules' checks; the
result headers must be the round's. A ``seat K`` or ``spectator`` copy is checked for what
its audience may know: hidden hands and boneyard only as ``??``, every draw the audience
did not see as ``draw:??``, every tile in the set and laid once, hand and boneyard counts
that never run out, and seat K's own plays from the tiles it held.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from chickenfoot.errors import ChickenFootError, FormatError
from chickenfoot.formats import position_from_parts
from chickenfoot.moves import Move
from chickenfoot.notation._commit import check_deal
from chickenfoot.notation._headers import result_headers, rules_from_text
from chickenfoot.notation._hidden import Context, Report, check_hidden, move_of, tiles_of
from chickenfoot.notation._model import NOTATION_VERSION, Audience, NotationError
from chickenfoot.record import Record, RecordMoveError
from chickenfoot.view import View

if TYPE_CHECKING:
    from chickenfoot.notation._visitor import _Open
    from chickenfoot.rules import Rules
    from chickenfoot.state import State

__all__ = ["replay"]

_PARTS: Final = {"centre": "Centre", "board": "Board", "boneyard": "Boneyard", "turn": "Turn"}


def replay(
    headers: Sequence[tuple[str, str]],
    lines: dict[str, int],
    main: list[_Open],
    report: Report,
    *,
    seeds: bool = False,
) -> Record | View | None:
    """Check the game: the replayed record of a ``full`` copy, the view at the end of a
    seat's copy of a round from its deal, else ``None``. A game that reads without a
    problem and has a ``DealSeed`` (with ``seeds``, else a ``Seed``) has its deal rebuilt
    from it and its commitment checked (:func:`~chickenfoot.notation._commit.check_deal`)."""
    problems = 0

    def counted(error: NotationError) -> None:
        nonlocal problems
        problems += 1
        report(error)

    read = _replay(headers, lines, main, counted)
    if not problems and headers:
        ctx = Context(dict(headers), lines, report)
        if "DealSeed" in ctx.headers:
            check_deal(ctx, main)
        elif seeds and "Seed" in ctx.headers:
            check_deal(ctx, main, name="Seed")
    return read


def _replay(
    headers: Sequence[tuple[str, str]], lines: dict[str, int], main: list[_Open], report: Report
) -> Record | View | None:
    ctx = Context(dict(headers), lines, report)
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
        return check_hidden(ctx, rules, audience, main)
    start = _start(ctx, rules)
    if start is None:
        return None
    return _main_line(ctx, start, main)


def _start(ctx: Context, rules: Rules) -> State | None:
    h = ctx.headers
    try:
        turn = h.get("Turn", "")
        if not (turn.isascii() and turn.isdigit() and len(turn) <= 3):
            raise FormatError("turn", f"{turn[:20]!r} is not a seat number")
        return position_from_parts(
            rules,
            centre=h.get("Centre", ""),
            board=tiles_of(h.get("Board", "")),
            hands=[tiles_of(h[f"Hand{s}"]) for s in range(rules.players) if f"Hand{s}" in h],
            boneyard=tiles_of(h.get("Boneyard", "")),
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


def _main_line(ctx: Context, start: State, main: list[_Open]) -> Record:
    max_pip = start.rules.max_pip
    moves: list[Move] = []
    for node in main:
        try:
            moves.append(move_of(node.move, max_pip))
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
        if node.seat is None:
            node.seat = state.turn  # a move written without its seat: the seat to act
        elif node.seat != state.turn:
            line, col = node.at
            ctx.report(
                NotationError(line, col, f"seat {node.seat} moves, but seat {state.turn} is to act")
            )
        for variation in node.variations:
            _variation(ctx, state, variation)
    if len(record.moves) == len(main):
        _check_result(ctx, record.final())
    return record


def _variation(ctx: Context, state: State, nodes: list[_Open]) -> None:
    for node in nodes:
        line, col = node.at
        for variation in node.variations:
            _variation(ctx, state, variation)
        try:
            move = move_of(node.move, state.rules.max_pip)
            if node.seat is None:
                node.seat = state.turn
            elif node.seat != state.turn:
                raise FormatError("", f"seat {node.seat} moves, but seat {state.turn} is to act")
            state = state.apply(move)
        except ChickenFootError as err:
            ctx.report(NotationError(line, col, f"in a variation: {err}"[:240]))
            return


def _check_result(ctx: Context, final: State) -> None:
    for name, value in result_headers(final):
        given = ctx.headers.get(name)
        if given is not None and given != value:
            ctx.fail(name, f"{given[:40]!r} is not the round's ({value!r})")
