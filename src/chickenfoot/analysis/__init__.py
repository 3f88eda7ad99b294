"""Move-by-move analysis of a round: what each decision was worth (docs/analysis.md).

For each decision of the chosen seats in a record, :func:`analyse` gives the value of every
legal move from what the seat knew then (the search player's expected penalty and win
share, with the deals it sampled) and, marked as hindsight, from the open hands (the exact
solver within a node budget, or "not solved" when the budget runs out); the loss of the
move played against the best (expected penalty points given up, 0 or more); and a glyph
by the thresholds :data:`INACCURACY`, :data:`MISTAKE` and :data:`BLUNDER`.

>>> from chickenfoot import Record, Rules, deal
>>> rules = Rules(players=2, max_pip=4, hand_size=4, opening_toes=2, foot_toes=1)
>>> rec = Record(deal(rules, seed=25), ["4-1@4-4", "4-2@4-4", "2-0@4-2", "3-1@4-1",
...                                     "4-0@2-0", "3-0@3-1", "0-0@3-0"])
>>> a = analyse(rec, seats=0, iterations=20, backend="python")
>>> [(d.ply, str(d.move), str(d.best), round(d.loss, 2), d.glyph) for d in a.decisions]
[(0, '4-1@4-4', '4-0@4-4', 24.55, '??'), (4, '4-0@2-0', '0-0@2-0', 27.15, '??')]
>>> d = a.decisions[0]
>>> d.hindsight.solved, d.hindsight.loss, {str(m): v for m, v in d.hindsight.values.items()}
(True, 52, {'4-0@4-4': (2, 0), '4-1@4-4': (54, 0)})

Seat 0 laid ``4-1`` where ``4-0`` was better: about 25 points given up on average over
the deals it could not tell apart, and, with the hands open, 52 (it could not have known
all of it).
"""

from chickenfoot.analysis._analyse import (
    DEFAULT_ITERATIONS,
    DEFAULT_NODES,
    MAX_ITERATIONS,
    analyse,
    best_of,
    evaluate,
    hindsight,
    record_of,
)
from chickenfoot.analysis._annotate import (
    annotate,
    annotated_text,
    evaluation,
    hindsight_text,
    loss_text,
)
from chickenfoot.analysis._model import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    Analysis,
    Decision,
    Hindsight,
    MoveValue,
    glyph,
)

__all__ = [
    "BLUNDER",
    "DEFAULT_ITERATIONS",
    "DEFAULT_NODES",
    "INACCURACY",
    "MAX_ITERATIONS",
    "MISTAKE",
    "Analysis",
    "Decision",
    "Hindsight",
    "MoveValue",
    "analyse",
    "annotate",
    "annotated_text",
    "best_of",
    "evaluate",
    "evaluation",
    "glyph",
    "hindsight",
    "hindsight_text",
    "loss_text",
    "record_of",
]
