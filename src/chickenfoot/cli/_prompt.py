"""The prompt of ``chickenfoot play``: reading the person's answers, and understanding a
move among them (by its number, in notation, or a tile alone).

>>> from chickenfoot import Rules, deal
>>> s = deal(Rules(players=2), seed=1)
>>> [str(m) for m in s.legal_moves]
['9-0@9-9', '9-3@9-9', '9-8@9-9']
>>> [str(understand(text, s.view(0), s)) for text in ("2", "9|8", "9|3 at centre 9-9 (toe)")]
['9-3@9-9', '9-8@9-9', '9-3@9-9']
>>> [str(understand(text, s.view(0), s)) for text in ("9-8", "9-8@9-9", "draw:9-1")]
['9-8@9-9', '9-8@9-9', 'You cannot choose which tile to draw: draw takes the next one.']
>>> understand("²", s.view(0), s)
"'²' is not a move: type 1 to 3, a move as listed (9|0), or help."
>>> print(understand("8-7", s.view(0), s))
8-7 fits nowhere now: the centre 9-9 still needs 6 toes first, and 8-7 does not carry 9. Your moves: 1) 9|0 2) 9|3 3) 9|8 at centre 9-9 (toe).
>>> print(understand("centre 9-9", s.view(0), s))
3 moves go to centre 9-9 (toe): 1) 9|0 2) 9|3 3) 9|8. Choose one.

The person may type what the screen shows (a move's number; its tile as the list writes it,
``9|8``, with `` at `` and its place when it goes to several; a place alone, when one move
goes there; ``->`` for ``→``), or the move notation (docs/formats.md), or a tile alone; a
refusal lists the moves as the screen does.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Callable, Sequence
from contextlib import suppress
from typing import TextIO

from chickenfoot._i18n import N_, current, ngettext
from chickenfoot._i18n import gettext as _
from chickenfoot.cli._common import ascii_number
from chickenfoot.cli._places import OTHERS, Place, in_order, laid, places
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
    "help_commands",
    "help_text",
    "listing",
    "nowhere",
    "prompt_reader",
    "understand",
    "why_no_play",
]

HELP_MOVES = N_(
    "Your moves are listed by where they go, each place as the table draws it: the end "
    "of a line as that line ends (6|7 → 7: its last tile and the open number), a toe by "
    "its hub (centre 9-9 (toe)). Each tile is written as it would lie there, the touching "
    "number first: 7|4 at 6|7 → 7 leaves 4 open.\n"
    "Choose a move by its number, or type it as the list shows it: 7|4 (add at 6|7 -> 7 when "
    "it goes to several places; -> stands for →), or a place alone when one move goes there. "
    "Move notation works too: 7-4@7-6 (tile@anchor, each high number first), draw, pass. A "
    "tile alone (7-4) is enough when it fits in only one place."
)
HELP_COMMANDS = N_(
    """\
Commands:
  moves       list your legal moves again
  table       draw the table again
  undo        take back your last move and the bots' moves after it: back to your previous decision (the bots answer as they did)
  save FILE   save the game, with your seat, the bots and the options; resume it with: chickenfoot play FILE
  hint        the search player's move from your view, where the table allows hints (chickenfoot play --hints)
  review      between rounds: your decisions in the round just over, biggest loss first
  quit        leave the game (Ctrl-D and Ctrl-C leave too)
  help        this text
The table: each hub (the centre, then each foot: a double laid on a line) with its toes, then its lines from the toe out, each tile as it lies:
  9|4 4|1 → 1         an open end: the next tile there shows 1 (e.g. 1-0@4-1)
  9|0 0|0 ▪ foot 0-0  closed by the double 0-0, now a foot that needs toes
  4|1*                * marks the tile laid last; > marks your hand"""
)
HELP = f"{HELP_MOVES}\n{HELP_COMMANDS}"
"""The text of ``help``, one line per item: the screen wraps it to its width (at most 78)."""


def help_commands() -> str:
    """:data:`HELP_COMMANDS` in the language in use."""
    return _(HELP_COMMANDS)


def help_text() -> str:
    """:data:`HELP` in the language in use."""
    return _(HELP_MOVES) + "\n" + _(HELP_COMMANDS)


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
    listed = listing(v)
    if text.isascii() and text.isdigit():
        i = ascii_number(text, 5) or 0
        if 1 <= i <= len(legal):
            return in_order(v.table, legal)[i - 1]  # numbered as listed: by place
        return _("There is no move {answer}: choose 1 to {n}.", answer=text[:12], n=len(legal))
    shown = _as_shown(text, v)
    if shown is not None:
        return shown
    if _LAID.fullmatch(_plain(text)):  # 3|9 where the list shows 9|3, or not playable
        text = _plain(text).replace("|", "-")
    try:
        move = parse_move(text, max_pip=v.rules.max_pip)
    except InvalidMoveError:
        example = laid(in_order(v.table, legal)[0], v.table)
        return _(
            "{answer} is not a move: type 1 to {n}, a move as listed ({example}), or help.",
            answer=brief(text, 30),
            n=len(legal),
            example=example,
        )
    if move in legal:
        return move
    if isinstance(move, Draw) and move.tile is not None:
        return _("You cannot choose which tile to draw: draw takes the next one.")
    if isinstance(move, Play) and move.anchor is None and move.tile != v.centre:
        # A tile alone: the play of that tile, when it fits in one place.
        fits = [m for m in legal if isinstance(m, Play) and m.tile is move.tile]
        if len(fits) == 1:
            return fits[0]
        if fits:
            return _(
                "{tile} fits in {n} places: {moves}. Choose one.",
                tile=move.tile,
                n=len(fits),
                moves=_where(v, fits),
            )
        if move.tile in v.hand:
            return _(
                "{tile} fits nowhere now: {reason}. Your moves: {moves}.",
                tile=move.tile,
                reason=nowhere(move.tile, v),
                moves=listed,
            )
    return _("{reason} Your moves: {moves}.", reason=_illegal(state, move), moves=listed)


def _numbered(v: View) -> list[tuple[Place, Move]]:
    """Each legal move of ``v`` with its place, in the order they are listed."""
    return [(place, m) for place in places(v.table, v.legal_moves) for m in place.moves]


def _where(v: View, moves: Sequence[Move]) -> str:
    """``moves`` (legal moves of ``v``) as the list shows them, each with its number and
    place: ``2) 5|2 at 8|5 → 5, 9) 5|2 at 9|5 → 5``."""
    return ", ".join(
        _("{n}) {tile} at {place}", n=n, tile=laid(m, v.table), place=place.label)
        for n, (place, m) in enumerate(_numbered(v), 1)
        if m in moves
    )


def listing(v: View) -> str:
    """The legal moves of ``v`` as the screen lists them, on one line: by place, each move
    with its number and its tile as it would lie (draw and pass by name).

    >>> from chickenfoot import Rules, deal
    >>> listing(deal(Rules(players=2), seed=1).view(0))
    '1) 9|0 2) 9|3 3) 9|8 at centre 9-9 (toe)'
    """
    parts: list[str] = []
    n = 0
    for place in places(v.table, v.legal_moves):
        numbered = []
        for m in place.moves:
            n += 1
            numbered.append(f"{n}) {laid(m, v.table)}")
        if place.label == OTHERS:
            parts.append(" ".join(numbered))
        else:
            parts.append(_("{moves} at {place}", moves=" ".join(numbered), place=place.label))
    return "; ".join(parts)


def _plain(text: str) -> str:
    """``text`` as the screen would write it: ``->`` is ``→``, runs of spaces one space."""
    return " ".join(text.replace("->", "→").split())


def _place_named(text: str, v: View) -> Place | None:
    """The place (of the legal moves of ``v``) that ``text`` names as the list writes it,
    with or without its ``(toe)``."""
    for place in places(v.table, v.legal_moves):
        short = place.label.rpartition(" (")[0] if place.label.endswith(")") else place.label
        if place.label != OTHERS and text in (place.label, short):
            return place
    return None


def _as_shown(text: str, v: View) -> Move | str | None:
    """The legal move ``text`` names in the screen's terms (a tile as laid, ``9|8``; a tile
    ``at`` a place; a place alone), the reply when it names several or none, or ``None``
    when ``text`` is not in the screen's terms."""
    said = _plain(text)
    place: Place | None = None
    # "9|8 at 8|5 → 5" as the list writes it, in the language in use (or in English)
    at = _("{tile} at {place}", tile="\0", place="\1").partition("\0")[2].partition("\1")[0]
    at = at if at.strip() and at.strip() in said.split() else " at "
    if at in said:
        tile_text, _sep, where = said.partition(at)
        place = _place_named(where, v)
        if place is None:
            return _(
                "No move of yours goes to {place} now. Your moves: {moves}.",
                place=brief(where, 30),
                moves=listing(v),
            )
    else:
        tile_text = said
        place = _place_named(said, v)
        if place is None and "→" in said:  # a place of the table, with no move of yours
            return _(
                "No move of yours goes to {place} now. Your moves: {moves}.",
                place=brief(said, 30),
                moves=listing(v),
            )
        if place is not None:  # a place alone
            if len(place.moves) == 1:
                return place.moves[0]
            numbered = " ".join(
                f"{n}) {laid(m, v.table)}" for n, (p, m) in enumerate(_numbered(v), 1) if p == place
            )
            return _(
                "{n} moves go to {place}: {moves}. Choose one.",
                n=len(place.moves),
                place=place.label,
                moves=numbered,
            )
    if not _LAID.fullmatch(tile_text):
        if place is None:
            return None
        return _("{answer} is not a tile as listed (9|8).", answer=brief(tile_text, 30))
    candidates = place.moves if place is not None else v.legal_moves
    as_laid = [m for m in candidates if laid(m, v.table) == tile_text]
    if len(as_laid) == 1:
        return as_laid[0]
    if as_laid:
        return _(
            "{tile} goes to {n} places: {moves}. Choose one.",
            tile=tile_text,
            n=len(as_laid),
            moves=_where(v, as_laid),
        )
    if place is not None:
        return _(
            "{tile} does not go to {place}. Your moves: {moves}.",
            tile=tile_text,
            place=place.label,
            moves=listing(v),
        )
    return None  # the tile the other way round, or not playable: as a tile alone


_LAID = re.compile(r"\d{1,2}\|\d{1,2}")
"""A tile as the screen writes it once laid: the touching number, a bar, the other."""


def _illegal(state: State, move: Move) -> str:
    """Why ``move`` is not legal for the seat to act, said to that seat's player."""
    try:
        state.apply(move)
    except ChickenFootError as err:
        if current().lang != "en":  # the rules' words are English: the reason said here
            return _refused(state, move)
        reason = str(err)
        prefix = f"{move} by seat {state.turn}: "
        if reason.startswith(prefix):
            reason = reason[len(prefix) :]
        reason = reason.replace(f"seat {state.turn} ", "you ")
        for third, second in (("has ", "have "), ("holds ", "hold "), ("does ", "do ")):
            reason = reason.replace(f"you {third}", f"you {second}")
        reason = reason.replace(", so may not ", ", so you may not ")
        return f"{move}: {_moves_as_shown(reason, state)}."
    return f"{move} is not one of your moves."  # pragma: no cover - listed moves are legal


_NOTATION = re.compile(r"\d{1,2}-\d{1,2}@\d{1,2}-\d{1,2}")


def _moves_as_shown(reason: str, state: State) -> str:
    """``reason`` (the rules' words) with each legal move it names in notation written as
    the list shows it: ``2-0@0-0`` becomes ``0|2 at foot 0-0 (toe)``."""
    v = state.view(state.turn)
    at = {
        str(m): _("{tile} at {place}", tile=laid(m, v.table), place=p.label)
        for p, m in _numbered(v)
    }
    return _NOTATION.sub(lambda found: at.get(found.group(), found.group()), reason)


def _refused(state: State, move: Move) -> str:
    """Why ``move`` is not legal for the seat to act, in the language in use (the rules'
    own reason is English: :func:`_illegal` says it in English)."""
    v = state.view(state.turn)
    if isinstance(move, Play):
        if move.tile not in v.hand:
            return _("{move}: you do not hold {tile}.", move=move, tile=move.tile)
        return _("{move}: {tile} cannot be laid there now.", move=move, tile=move.tile)
    if isinstance(move, Draw):
        return _("{move}: you may not draw now.", move=move)
    return _("{move}: you may not pass now.", move=move)


def nowhere(tile: Tile, v: View) -> str:
    """Why ``tile``, in the hand of the seat to play, has no legal play now.

    >>> from chickenfoot import Rules, Tile, deal
    >>> nowhere(Tile(8, 6), deal(Rules(), seed=1).view(0))
    'the centre 9-9 still needs 6 toes first, and 8-6 does not carry 9'
    """
    if v.phase is Phase.SEEKING_CENTRE:
        return _("the centre {centre} must be laid first", centre=v.centre)
    if v.drawn is not None and tile != v.drawn:
        return _(
            "you drew {drawn} this turn, and only the drawn tile may be played now", drawn=v.drawn
        )
    hub = v.pending_hub
    if hub is not None:
        values = {"hub": hub, "n": v.toes_needed, "tile": tile, "number": hub.high}
        if hub == v.centre:
            return ngettext(
                "the centre {hub} still needs {n} toe first, and {tile} does not carry {number}",
                "the centre {hub} still needs {n} toes first, and {tile} does not carry {number}",
                v.toes_needed,
                **values,
            )
        return ngettext(
            "the foot {hub} still needs {n} toe first, and {tile} does not carry {number}",
            "the foot {hub} still needs {n} toes first, and {tile} does not carry {number}",
            v.toes_needed,
            **values,
        )
    numbers = ", ".join(map(str, sorted({n for _anchor, n in v.open_ends})))
    if not numbers:
        return _("no line of the table is open")
    if tile.is_double:
        return _(
            "no open end shows {number} (the open ends show {numbers})",
            number=tile.high,
            numbers=numbers,
        )
    return _(
        "no open end shows {high} or {low} (the open ends show {numbers})",
        high=tile.high,
        low=tile.low,
        numbers=numbers,
    )


def why_no_play(v: View) -> str:
    """Why nothing in the hand can be played, in brackets (for a forced draw).

    >>> from chickenfoot import Rules, deal
    >>> why_no_play(deal(Rules(), seed=1).view(1))
    ' (the centre 9-9 needs toes, and you hold no 9)'
    """
    hub = v.pending_hub
    if v.phase is Phase.SEEKING_CENTRE:
        return _(
            " (the centre {centre} is not on the table, and you do not hold it)", centre=v.centre
        )
    if hub is not None:
        if hub == v.centre:
            return _(
                " (the centre {hub} needs toes, and you hold no {number})", hub=hub, number=hub.high
            )
        return _(" (the foot {hub} needs toes, and you hold no {number})", hub=hub, number=hub.high)
    numbers = sorted({n for _anchor, n in v.open_ends})
    if not numbers:
        return ""
    return _(" (the open ends show {numbers})", numbers=", ".join(map(str, numbers)))
