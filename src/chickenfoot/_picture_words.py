"""The words inside an SVG picture (:mod:`chickenfoot.picture`), in the language asked for.

The contract: each function writes one line a picture shows (its status, what happened
last, a hand's label, the empty table's line, a glowing place's title) with a
:class:`~chickenfoot._i18n.Translator` it is given, never the language in use, so a
picture is the same whatever the process's locale. Every line is a whole message of the
``chickenfoot`` catalog, with named placeholders (``tools/i18n.py`` extracts this
module); the status line lists independent facts (whose turn, the boneyard, the toes a
pending double needs), one message each, joined by `` · ``. English is the source text:
an English picture says what it always said, byte for byte. The tiles and moves inside
the lines are notation, never translated.

>>> from chickenfoot import Rules, deal
>>> from chickenfoot._i18n import translator
>>> s = deal(Rules(), seed=1).apply("9-3@9-9")
>>> status(s, translator("en"))
'seat 1 to play · boneyard 10 · 9-9 needs 5 more toes'
>>> status(s, translator("hr"))
'na potezu: mjesto 1 · hrpa 10 · 9-9 treba još 5 prstiju'
"""

from __future__ import annotations

from chickenfoot._i18n import Translator
from chickenfoot.moves import Draw, Pass, Play
from chickenfoot.outcome import Termination
from chickenfoot.state import State
from chickenfoot.view import View

__all__ = ["SEPARATOR", "empty_table", "hand_label", "last_event", "place_title", "status"]

SEPARATOR = " · "
"""Between the independent facts of one line."""


def last_event(position: State | View, tr: Translator) -> str:
    """What happened last (``""`` before the first move)."""
    history = position.history
    if not history:
        return ""
    event = history[-1]
    move, seat = event.move, event.seat
    if isinstance(move, Play):
        return tr.gettext("last: seat {seat} played {move}", seat=seat, move=str(move))
    if isinstance(move, Draw):
        if move.tile is None:
            return tr.gettext("last: seat {seat} drew", seat=seat)
        return tr.gettext("last: seat {seat} drew {tile}", seat=seat, tile=str(move.tile))
    assert isinstance(move, Pass)
    return tr.gettext("last: seat {seat} passed", seat=seat)


def status(position: State | View, tr: Translator) -> str:
    """Whose view it is, whose turn, the boneyard, the toes a pending double needs."""
    facts: list[str] = []
    if isinstance(position, View):
        facts.append(tr.gettext("seat {seat}'s view", seat=position.seat))
    result = position.outcome()
    if result is None and position.drawn is not None:
        facts.append(
            tr.gettext(
                "seat {seat} to play (has drawn {tile})",
                seat=position.turn,
                tile=str(position.drawn),
            )
        )
    elif result is None:
        facts.append(tr.gettext("seat {seat} to play", seat=position.turn))
    elif result.termination is Termination.OUT:
        facts.append(tr.gettext("over: seat {seat} went out", seat=result.seat))
    else:
        facts.append(tr.gettext("over: blocked"))
    facts.append(tr.gettext("boneyard {n}", n=position.boneyard_size))
    pending = position.pending_hub
    if pending is not None and result is None:
        more = position.toes_needed
        facts.append(
            tr.ngettext(
                "{hub} needs {n} more toe",
                "{hub} needs {n} more toes",
                more,
                hub=str(pending),
                n=more,
            )
        )
    return SEPARATOR.join(facts)


def hand_label(position: State | View, seat: int, tr: Translator) -> str:
    """The label over a seat's hand: the seat, whether it is the viewer's, whether it plays."""
    you = isinstance(position, View) and seat == position.seat
    plays = position.outcome() is None and seat == position.turn
    if you and plays:
        return tr.gettext("seat {seat} (you) · to play", seat=seat)
    if you:
        return tr.gettext("seat {seat} (you)", seat=seat)
    if plays:
        return tr.gettext("seat {seat} · to play", seat=seat)
    return tr.gettext("seat {seat}", seat=seat)


def empty_table(position: State | View, tr: Translator) -> str:
    """The line of a table whose centre is not laid yet."""
    return tr.gettext("the centre {centre} is not laid yet", centre=str(position.centre))


def place_title(move: Play, tr: Translator) -> str:
    """The title of the place a move lays its tile (``targets=``)."""
    if move.anchor is None:
        return tr.gettext("{tile} on the centre", tile=str(move.tile))
    return tr.gettext("{tile} on {anchor}", tile=str(move.tile), anchor=str(move.anchor))
