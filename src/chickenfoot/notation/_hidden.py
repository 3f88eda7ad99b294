"""Checking a seat's or a spectator's copy (docs/notation.md, "Reading a hidden copy").

Such a copy cannot be replayed move by move: the other hands are not in it. It is checked
for what its audience may know (hidden hands and boneyard only as ``??``, every draw the
audience did not see as ``draw:??``, a named draw only of a seat the audience sees), for
counts that never run out and tiles laid once; and a seat's copy of a round from its deal
is rebuilt as that seat's :class:`~chickenfoot.View` document and read with
:meth:`View.from_dict <chickenfoot.View.from_dict>`, which proves that some deal of the
unseen tiles plays out exactly as written, under the rules (``sampling.check_history``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from chickenfoot._reading import read_board
from chickenfoot.errors import ChickenFootError, FormatError
from chickenfoot.formats import VERSION
from chickenfoot.moves import Draw, Move, Play, parse_move
from chickenfoot.notation._headers import HIDDEN
from chickenfoot.notation._model import Audience, NotationError
from chickenfoot.tiles import Tile
from chickenfoot.view import VIEW_FORMAT, View

if TYPE_CHECKING:
    from chickenfoot.notation._visitor import _Open
    from chickenfoot.rules import Rules

__all__ = ["Context", "Report", "check_hidden", "move_of", "tiles_of"]

Report = Callable[[NotationError], None]
_PARSED: dict[tuple[str, int], Move] = {}
_DRAW_HIDDEN: Final = f"draw:{HIDDEN}"


def move_of(text: str, max_pip: int) -> Move:
    """``parse_move`` with a cache (moves are interned values)."""
    key = (text, max_pip)
    move = _PARSED.get(key)
    if move is None:
        move = parse_move(text, max_pip=max_pip)
        if len(_PARSED) > 50_000:
            _PARSED.clear()
        _PARSED[key] = move
    return move


def tiles_of(text: str) -> list[str]:
    """The words of a header value (tiles, or ``??``)."""
    return text.split() if text else []


class Context:
    """The headers of the game being checked, where each was, and where errors go."""

    __slots__ = ("at", "headers", "report")

    def __init__(self, headers: dict[str, str], lines: dict[str, int], report: Report) -> None:
        self.headers = headers
        self.at = lines
        self.report = report

    def fail(self, name: str, message: str) -> None:
        """An error at the line of header ``name``."""
        self.report(NotationError(self.at.get(name, 1), 1, f"{name}: {message}"))


def check_hidden(ctx: Context, rules: Rules, audience: Audience, main: list[_Open]) -> View | None:
    """Check a ``seat K`` or ``spectator`` copy; report its first problem. A seat's copy
    of a round from its deal that reads gives that seat's view at its end."""
    h = ctx.headers
    n = rules.max_pip
    sizes: list[int] = []
    known: set[Tile] = set()
    for k in range(rules.players):
        raw = tiles_of(h.get(f"Hand{k}", ""))
        sizes.append(len(raw))
        shown = [t for t in raw if t != HIDDEN]
        if audience.sees(k) != bool(shown) and raw:
            what = "names tiles" if shown else "hides its tiles"
            ctx.fail(f"Hand{k}", f"the hand {what}, but this is a copy for {audience}")
            return None
        for text in shown:
            try:
                known.add(Tile.parse(text, max_pip=n))
            except ChickenFootError as err:
                ctx.fail(f"Hand{k}", str(err)[:200])
                return None
    bone = tiles_of(h.get("Boneyard", ""))
    if any(t != HIDDEN for t in bone):
        ctx.fail("Boneyard", f"a copy for {audience} may not name the boneyard's tiles")
        return None
    hand = set(known)
    left = len(bone)
    laid: set[Tile] = set()
    moves: list[tuple[int, Move | None]] = []
    for node in main:
        line, col = node.at
        seat = node.seat
        if seat is None or not 0 <= seat < rules.players:
            ctx.report(NotationError(line, col, f"a copy for {audience} gives every move's seat"))
            return None
        problem, move = "", None
        if node.move == _DRAW_HIDDEN:
            if audience.sees(seat):
                problem = f"seat {seat}'s draw is seen by {audience}: its tile is written"
            sizes[seat] += 1
            left -= 1
        else:
            try:
                move = move_of(node.move, n)
            except ChickenFootError as err:
                ctx.report(NotationError(line, col, str(err)[:200]))
                return None
            if isinstance(move, Draw):
                if not audience.sees(seat) or move.tile is None:
                    problem = f"{move} names a tile that {audience} could not have seen"
                elif move.tile in known or move.tile in laid:
                    problem = f"{move.tile} cannot be in the boneyard"
                else:
                    known.add(move.tile)
                    hand.add(move.tile)
                sizes[seat] += 1
                left -= 1
            elif isinstance(move, Play):
                if move.tile in laid:
                    problem = f"{move.tile} is laid twice"
                elif audience.sees(seat) and move.tile not in hand:
                    problem = f"seat {seat} does not hold {move.tile}"
                elif not audience.sees(seat) and move.tile in known:
                    problem = f"{move.tile} is not in seat {seat}'s hand"
                laid.add(move.tile)
                hand.discard(move.tile)
                sizes[seat] -= 1
        if not problem and (left < 0 or sizes[seat] < 0):
            problem = "more tiles leave a hand or the boneyard than it held"
        if problem:
            ctx.report(NotationError(line, col, problem))
            return None
        moves.append((seat, move))
    if not _public_replay(ctx, rules, main, moves) or audience.seat is None:
        return None
    return _check_view(ctx, rules, audience.seat, main, moves, hand, sizes, left)


def _public_replay(
    ctx: Context, rules: Rules, main: list[_Open], moves: list[tuple[int, Move | None]]
) -> bool:
    """Check what is public: whose turn each move is, and every play on the table (its
    anchor, the hubs' toes), as the library reads a board. Whether the problem was none."""
    h = ctx.headers
    turn_text = h.get("Turn", "")
    if not (turn_text.isascii() and turn_text.isdigit() and len(turn_text) < 4):
        ctx.fail("Turn", f"{turn_text[:20]!r} is not a seat number")
        return False
    turn, players = int(turn_text), rules.players
    board = tiles_of(h.get("Board", ""))
    plays = [-1] * len(board)
    for i, (seat, move) in enumerate(moves):
        if seat != turn:
            line, col = main[i].at
            ctx.report(NotationError(line, col, f"seat {seat} moves, but seat {turn} is to act"))
            return False
        if not (move is None or isinstance(move, Draw)):
            turn = (turn + 1) % players
        if isinstance(move, Play):
            board.append(str(move))
            plays.append(i)
    seen: set[int] = set()

    def place(tile: Tile, where: str) -> None:
        if tile.id in seen:
            raise FormatError(where, f"{tile} is laid twice")
        seen.add(tile.id)

    try:
        read_board(
            board, "board", rules, Tile.parse(h.get("Centre", ""), max_pip=rules.max_pip), place
        )
    except FormatError as err:
        index = err.path.partition("[")[2].partition("]")[0]
        node = plays[int(index)] if index.isdigit() and int(index) < len(plays) else -1
        line, col = main[node].at if node >= 0 else (ctx.at.get("Board", 1), 1)
        ctx.report(NotationError(line, col, f"cannot be played: {err.reason}"[:240]))
        return False
    except ChickenFootError as err:
        ctx.fail("Centre", str(err)[:200])
        return False
    return True


def _check_view(
    ctx: Context,
    rules: Rules,
    seat: int,
    main: list[_Open],
    moves: list[tuple[int, Move | None]],
    hand: set[Tile],
    sizes: list[int],
    left: int,
) -> View | None:
    """Rebuild seat ``seat``'s view at the end of the copy and have the library check it."""
    h = ctx.headers
    centre = h.get("Centre", "")
    board = tiles_of(h.get("Board", ""))
    if board not in ([], [centre]) or not h.get("Turn", "").isdigit():
        return None  # not a round from its deal: the history does not say how the table came to be
    players = rules.players
    turn = int(h["Turn"][:4])
    over = h.get("Result", "*") != "*"
    drawn = h.get("Drawn") if turn == seat else None
    history: list[list[Any]] = []
    plays: list[int] = [-1] * len(board)  # the node of each board entry (-1: the deal's)
    for i, (who, move) in enumerate(moves):
        last = i == len(moves) - 1
        if move is None or isinstance(move, Draw):
            history.append([who, "draw" if move is None else str(move)])
            turn, drawn = who, (None if move is None else str(move.tile))
            continue
        history.append([who, str(move)])
        if isinstance(move, Play):
            board.append(str(move))
            plays.append(i)
        went_out = last and over and h.get("Termination") == "out"
        turn, drawn = (who, None) if went_out else ((who + 1) % players, None)
    outcome = None
    if over:
        kind = h.get("Termination", "")
        winner = h.get("Winner", "")
        won = int(winner) if kind == "out" and winner.isdigit() and len(winner) < 4 else None
        outcome = {"kind": kind, "seat": won}
    doc = {
        "format": VIEW_FORMAT,
        "version": VERSION,
        "rules": rules.to_dict(),
        "seat": seat,
        "centre": centre,
        "board": board,
        "hand": [str(t) for t in sorted(hand)],
        "hand_sizes": sizes,
        "boneyard_size": left,
        "turn": turn,
        "drawn": drawn if turn == seat else None,
        "history": history,
        "outcome": outcome,
    }
    try:
        view = View.from_dict(doc)
    except FormatError as err:
        where, _, _ = err.path.partition("]")
        name, _, index = where.partition("[")
        node = -1
        if index.isdigit() and len(index) < 9:
            i = int(index)
            if name == "history" and i < len(main):
                node = i
            elif name == "board" and i < len(plays):
                node = plays[i]
        if node >= 0:
            line, col = main[node].at
            ctx.report(NotationError(line, col, f"cannot be played: {err.reason}"[:240]))
        else:
            ctx.fail("Audience", f"the copy is not what seat {seat} could have seen: {err}"[:240])
        return None
    result = h.get("Result", "*").split()
    if over and len(result) == players and result[seat] != str(view.penalty):
        ctx.fail("Result", f"seat {seat}'s penalty is {view.penalty}, not {result[seat][:20]}")
        return None
    return view
