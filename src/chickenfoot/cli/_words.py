"""The sentences ``chickenfoot play`` says about the game (whole sentences with named
placeholders, in the language in use: :mod:`chickenfoot._i18n`): where the game is, what
a bot did, a forced move.

>>> from chickenfoot import Rules, deal
>>> where_words(deal(Rules(players=2), seed=1), None)
'The round (centre 9-9)'
"""

from __future__ import annotations

from chickenfoot._i18n import gettext as _
from chickenfoot._i18n import ngettext, number
from chickenfoot.cli._game import who
from chickenfoot.cli._prompt import why_no_play
from chickenfoot.cli._setup import Resume
from chickenfoot.match import Match
from chickenfoot.moves import Draw, Move, Pass, Play
from chickenfoot.outcome import Outcome, Termination
from chickenfoot.rules import Rounds
from chickenfoot.state import Phase, State
from chickenfoot.tiles import Tile
from chickenfoot.view import View

__all__ = [
    "bot_words",
    "forced_draw",
    "forced_move",
    "round_over_heading",
    "round_scores",
    "start_heading",
    "where_words",
]


def bot_words(state: State, move: Move) -> tuple[str, str, str]:
    """What a bot's ``move`` in ``state`` is said as: its verb, what, and why in brackets."""
    if isinstance(move, Draw):
        why = "" if state.rules.may_draw_instead else _("(nothing to play)")
        return _("draws a tile"), "", why
    if isinstance(move, Pass):
        if state.drawn is not None:
            why = _("(the drawn tile did not fit)")
            if state.rules.drawn_tile == "may_play":
                why = _("(keeping the drawn tile)")
        else:
            why = _("(nothing to play, and the boneyard is empty)")
        return _("passes"), "", why
    if isinstance(move, Play) and move.anchor is None:
        return _("lays the centre"), str(move.tile), ""
    return _("plays"), str(move), ""


def forced_draw(v: View, drawn: Tile | None) -> str:
    """The person had no tile to play (in ``v``), and drew ``drawn``."""
    why = why_no_play(v)
    if drawn is None:
        return _("You have no tile to play{why}: you draw.", why=why)
    return _("You have no tile to play{why}: you draw {tile}.", why=why, tile=drawn)


def forced_move(v: View, move: Move) -> str:
    """The person's only legal ``move`` in ``v`` (not a draw), made for them."""
    if isinstance(move, Pass):
        if v.drawn is not None and v.phase is Phase.SEEKING_CENTRE:
            return _(
                "The tile you drew, {tile}, is not the centre {centre}: you pass.",
                tile=v.drawn,
                centre=v.centre,
            )
        if v.drawn is not None:
            return _("The tile you drew, {tile}, fits nowhere: you pass.", tile=v.drawn)
        return _("You have no tile to play and the boneyard is empty: you pass.")
    if isinstance(move, Play) and move.anchor is None:
        return _("You hold the centre {tile}: you lay it.", tile=move.tile)
    if v.drawn is not None:
        return _("The tile you drew fits in one place: you play {move}.", move=move)
    return _("Your only legal move: you play {move}.", move=move)


def start_heading(where: str, seat: int, mine_first: bool, resume: Resume | None) -> str:
    """The heading of a round's start (``where``), ``seat`` to play (the person when
    ``mine_first``), as resumed from ``resume``."""
    if resume is None or resume.moves == 0:
        if resume is None and mine_first:
            now = _("{where}: you play first", where=where)
        elif resume is None:
            now = _("{where}: seat {seat} plays first", where=where, seat=seat)
        elif mine_first:
            now = _("{where}, resumed at its start: you play first", where=where)
        else:
            now = _(
                "{where}, resumed at its start: seat {seat} plays first", where=where, seat=seat
            )
    elif resume.moves is None:
        now = (
            _(
                "{where}, resumed (the file keeps the position, not its moves): your turn",
                where=where,
            )
            if mine_first
            else _(
                "{where}, resumed (the file keeps the position, not its moves): seat {seat} to play",
                where=where,
                seat=seat,
            )
        )
    else:
        n = resume.moves
        now = (
            ngettext(
                "{where}, resumed after {n} move: your turn",
                "{where}, resumed after {n} moves: your turn",
                n,
                where=where,
                n=n,
            )
            if mine_first
            else ngettext(
                "{where}, resumed after {n} move: seat {seat} to play",
                "{where}, resumed after {n} moves: seat {seat} to play",
                n,
                where=where,
                n=n,
                seat=seat,
            )
        )
    return now


def where_words(state: State, m: Match | None) -> str:
    """Where the game is: the round (of the match ``m``) and its centre."""
    centre = state.centre
    if m is None:
        return _("The round (centre {centre})", centre=centre)
    length = m.rules.match
    k = m.rounds_played + 1
    if isinstance(length, Rounds):
        return _(
            "Round {round} of {rounds} (centre {centre})",
            round=k,
            rounds=length.count,
            centre=centre,
        )
    return _("Round {round} (centre {centre})", round=k, centre=centre)


def round_over_heading(result: Outcome, seat: int, names: dict[int, str]) -> str:
    """The heading over the table at a round's end, for the person at ``seat``."""
    if result.termination is Termination.OUT:
        assert result.seat is not None
        if result.seat == seat:
            return _("The round is over: you went out")
        return _("The round is over: {player} went out", player=who(result.seat, seat, names))
    return _("The round is over: blocked: the boneyard is empty and nobody can play")


def round_scores(points: tuple[int, ...] | list[int], seat: int) -> str:
    """The round's penalties, the person at ``seat`` named ``you``."""
    scores = ", ".join(
        _("you {points}", points=number(p))
        if s == seat
        else _("seat {seat} {points}", seat=s, points=number(p))
        for s, p in enumerate(points)
    )
    return _("Round scores: {scores}", scores=scores)
