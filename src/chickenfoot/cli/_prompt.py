"""The prompt of ``chickenfoot play``: reading the person's answers, and understanding a
move among them (by its number, in notation, or a tile alone).

>>> from chickenfoot import Rules, deal
>>> s = deal(Rules(players=2), seed=1)
>>> [str(m) for m in s.legal_moves]
['9-0@9-9', '9-3@9-9', '9-8@9-9']
>>> [str(understand(text, s.view(0), s)) for text in ("2", "9-8", "draw:9-1")]
['9-3@9-9', '9-8@9-9', 'You cannot choose which tile to draw: draw takes the next one.']
>>> understand("²", s.view(0), s)
"'²' is not a move: type 1 to 3, a move such as 9-0@9-9, or help."
>>> print(understand("8-7", s.view(0), s))
8-7 fits nowhere now: the centre 9-9 still needs 6 toes first, and 8-7 does not carry 9. Your moves: 9-0@9-9, 9-3@9-9, 9-8@9-9.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable
from contextlib import suppress
from typing import TextIO

from chickenfoot.cli._common import ascii_number
from chickenfoot.cli._places import Place, in_order, laid, places
from chickenfoot.cli._streams import is_terminal
from chickenfoot.errors import ChickenFootError, InvalidMoveError, brief
from chickenfoot.moves import Draw, Move, Play, parse_move
from chickenfoot.state import Phase, State
from chickenfoot.tiles import Tile
from chickenfoot.view import View

__all__ = [
    "HELP",
    "HELP_COMMANDS",
    "ClosedInputError",
    "nowhere",
    "prompt_reader",
    "understand",
    "why_no_play",
]

HELP_MOVES = (
    "Your moves are listed by where they go, each place as the table draws it: the end "
    "of a line as that line ends (6|7 → 7: its last tile and the open number), a toe by "
    "its hub (centre 9-9 (toe)). Each tile is written as it would lie there, the touching "
    "number first: 7|4 at 6|7 → 7 leaves 4 open.\n"
    "Choose a move by its number, or type it in notation: 7-4@7-6 (tile@anchor, each high "
    "number first), draw, pass. A tile alone (7-4) is enough when it fits in only one place."
)
HELP_COMMANDS = """\
Commands:
  moves       list your legal moves again
  table       draw the table again
  undo        take back your last move and the bots' moves after it: back to your previous decision (the bots answer as they did)
  save FILE   save the game, with your seat, the bots and the options; resume it with: chickenfoot play FILE
  quit        leave the game (Ctrl-D and Ctrl-C leave too)
  help        this text
The table: each hub (the centre, then each foot: a double laid on a line) with its toes, then its lines from the toe out, each tile as it lies:
  9|4 4|1 → 1         an open end: the next tile there shows 1 (e.g. 1-0@4-1)
  9|0 0|0 ▪ foot 0-0  closed by the double 0-0, now a foot that needs toes
  4|1*                * marks the tile laid last; > marks your hand"""
HELP = f"{HELP_MOVES}\n{HELP_COMMANDS}"
"""The text of ``help``, one line per item: the screen wraps it to its width (at most 78)."""


# -- reading -------------------------------------------------------------------------------------


def prompt_reader(out: TextIO) -> Callable[[str], str]:
    """The ``ask`` of a prompt on standard input: ``input()``, with line editing on a
    terminal.

    Off a terminal (a pipe, a file) every answer is echoed after its prompt, so the output
    reads as the terminal would have shown it. Bytes that are not text in the input's
    encoding are read as U+FFFD, never as an error; a closed standard input is the end of
    input at the first question (:class:`ClosedInputError`, an ``EOFError``).
    """
    stdin = sys.stdin
    if stdin is None:  # ``<&-``
        return _closed(out)
    if isinstance(stdin, io.TextIOWrapper):
        with suppress(OSError, ValueError):
            stdin.reconfigure(errors="replace")
    if is_terminal(stdin):
        with suppress(ImportError):  # line editing and history for input()
            import readline  # noqa: F401
        return input

    def echoing(prompt: str) -> str:
        out.write(prompt)
        out.flush()
        line = input()  # the prompt is written above: an error here is the input's
        out.write(line[:200] + "\n")
        return line

    return echoing


class ClosedInputError(EOFError):
    """The end of input of a closed standard input (``<&-``: Python has no ``sys.stdin``)."""


def _closed(out: TextIO) -> Callable[[str], str]:
    def ask(prompt: str) -> str:
        out.write(prompt)
        raise ClosedInputError("standard input is closed")

    return ask


# -- understanding -------------------------------------------------------------------------------


def understand(text: str, v: View, state: State) -> Move | str:
    """The legal move that ``text`` names for the person (seat ``v.seat``, to play in
    ``state``), or the reply saying why it names none."""
    legal = v.legal_moves
    listed = ", ".join(map(str, legal))
    if text.isascii() and text.isdigit():
        i = ascii_number(text, 5) or 0
        if 1 <= i <= len(legal):
            return in_order(v.table, legal)[i - 1]  # numbered as listed: by place
        return f"There is no move {text[:12]}: choose 1 to {len(legal)}."
    try:
        move = parse_move(text, max_pip=v.rules.max_pip)
    except InvalidMoveError:
        return (
            f"{brief(text, 30)} is not a move: type 1 to {len(legal)}, a move such as "
            f"{legal[0]}, or help."
        )
    if move in legal:
        return move
    if isinstance(move, Draw) and move.tile is not None:
        return "You cannot choose which tile to draw: draw takes the next one."
    if isinstance(move, Play) and move.anchor is None and move.tile != v.centre:
        # A tile alone: the play of that tile, when it fits in one place.
        fits = [m for m in legal if isinstance(m, Play) and m.tile is move.tile]
        if len(fits) == 1:
            return fits[0]
        if fits:
            where = ", ".join(
                f"{n}) {laid(m, v.table)} at {place.label}"
                for n, (place, m) in enumerate(_numbered(v), 1)
                if m in fits
            )
            return f"{move.tile} fits in {len(fits)} places: {where}. Choose one."
        if move.tile in v.hand:
            return f"{move.tile} fits nowhere now: {nowhere(move.tile, v)}. Your moves: {listed}."
    return f"{_illegal(state, move)} Your moves: {listed}."


def _numbered(v: View) -> list[tuple[Place, Move]]:
    """Each legal move of ``v`` with its place, in the order they are listed."""
    return [(place, m) for place in places(v.table, v.legal_moves) for m in place.moves]


def _illegal(state: State, move: Move) -> str:
    """Why ``move`` is not legal for the seat to act, said to that seat's player."""
    try:
        state.apply(move)
    except ChickenFootError as err:
        reason = str(err)
        prefix = f"{move} by seat {state.turn}: "
        if reason.startswith(prefix):
            reason = reason[len(prefix) :]
        reason = reason.replace(f"seat {state.turn} ", "you ")
        for third, second in (("has ", "have "), ("holds ", "hold "), ("does ", "do ")):
            reason = reason.replace(f"you {third}", f"you {second}")
        reason = reason.replace(", so may not ", ", so you may not ")
        return f"{move}: {reason}."
    return f"{move} is not one of your moves."  # pragma: no cover - listed moves are legal


def _toes(n: int) -> str:
    return f"{n} toe" if n == 1 else f"{n} toes"


def nowhere(tile: Tile, v: View) -> str:
    """Why ``tile``, in the hand of the seat to play, has no legal play now.

    >>> from chickenfoot import Rules, Tile, deal
    >>> nowhere(Tile(8, 6), deal(Rules(), seed=1).view(0))
    'the centre 9-9 still needs 6 toes first, and 8-6 does not carry 9'
    """
    if v.phase is Phase.SEEKING_CENTRE:
        return f"the centre {v.centre} must be laid first"
    if v.drawn is not None and tile != v.drawn:
        return f"you drew {v.drawn} this turn, and only the drawn tile may be played now"
    hub = v.pending_hub
    if hub is not None:
        what = "centre" if hub == v.centre else "foot"
        return (
            f"the {what} {hub} still needs {_toes(v.toes_needed)} first, and {tile} does not "
            f"carry {hub.high}"
        )
    numbers = sorted({n for _, n in v.open_ends})
    if not numbers:
        return "no line of the table is open"
    shows = str(tile.high) if tile.is_double else f"{tile.high} or {tile.low}"
    return f"no open end shows {shows} (the open ends show {', '.join(map(str, numbers))})"


def why_no_play(v: View) -> str:
    """Why nothing in the hand can be played, in brackets (for a forced draw).

    >>> from chickenfoot import Rules, deal
    >>> why_no_play(deal(Rules(), seed=1).view(1))
    ' (the centre 9-9 needs toes, and you hold no 9)'
    """
    hub = v.pending_hub
    if v.phase is Phase.SEEKING_CENTRE:
        return f" (the centre {v.centre} is not on the table, and you do not hold it)"
    if hub is not None:
        what = "centre" if hub == v.centre else "foot"
        return f" (the {what} {hub} needs toes, and you hold no {hub.high})"
    numbers = sorted({n for _, n in v.open_ends})
    if not numbers:
        return ""
    return f" (the open ends show {', '.join(map(str, numbers))})"
