"""An analysis written into the game notation (docs/analysis.md, "In the notation").

Each analysed move gets its evaluation command (``[%eval ...]``, every seat's expected
penalty and win share, with the deals sampled), its glyph, a comment with the loss and,
when it was not the best, a variation with the better move and its evaluation. The
hindsight (open hands) is a comment of its own, marked ``hindsight``.

>>> from chickenfoot import Record, Rules, deal
>>> from chickenfoot.analysis import analyse
>>> rules = Rules(players=2, max_pip=4, hand_size=4, opening_toes=2, foot_toes=1)
>>> rec = Record(deal(rules, seed=25), ["4-1@4-4", "4-2@4-4", "2-0@4-2"])
>>> text = annotated_text(rec, analyse(rec, seats=0, iterations=8, backend="python"))
>>> print(text.split("\\n\\n")[1])
0. 4-1@4-4 ?? {[%eval 30.25:0.375 4.875:0.625 it=8]}
{loss 27.0: the best was 4-0@4-4 (expected penalty 3.2 against 30.2)}
{hindsight: best 4-0@4-4, loss 52 (open hands, 93 nodes)} (0. 4-0@4-4
{[%eval 3.25:0.5 3.875:0.5 it=8]}) 1. 4-2@4-4 0. 2-0@4-2 *
"""

from __future__ import annotations

from chickenfoot.analysis._model import Analysis, Decision, MoveValue
from chickenfoot.notation import Evaluation, Game, Node, game_of, write_game
from chickenfoot.record import Record

__all__ = ["annotate", "annotated_text", "evaluation", "hindsight_text", "loss_text"]


def evaluation(value: MoveValue, iterations: int) -> Evaluation:
    """The notation's evaluation command of a move's value (every seat, the deals sampled)."""
    return Evaluation(value.penalties, value.wins, iterations=iterations)


def loss_text(d: Decision) -> str:
    """The loss of a decision in one sentence (for a comment or a review)."""
    return (
        f"loss {d.loss:.1f}: the best was {d.best} "
        f"(expected penalty {d.best_value.penalty:.1f} against {d.played.penalty:.1f})"
    )


def hindsight_text(d: Decision) -> str | None:
    """The hindsight of a decision in one sentence, or ``None`` when none was asked for."""
    h = d.hindsight
    if h is None:
        return None
    if not h.solved:
        return f"hindsight: not solved within {h.nodes:,} nodes (open hands)"
    return f"hindsight: best {h.best}, loss {h.loss} (open hands, {h.nodes:,} nodes)"


def _node(node: Node, d: Decision, iterations: int) -> Node:
    comments = [str(evaluation(d.played, iterations))]
    if d.move != d.best:
        comments.append(loss_text(d))
    seen = hindsight_text(d)
    if seen is not None:
        comments.append(seen)
    variations: tuple[tuple[Node, ...], ...] = ()
    if d.move != d.best:
        better = Node(
            d.seat, d.best.notation(), comments=(str(evaluation(d.best_value, iterations)),)
        )
        variations = ((better,),)
    mark = d.glyph
    return Node(
        node.seat,
        node.move,
        glyphs=() if mark is None else (mark,),
        comments=(*node.comments, *comments),
        variations=(*node.variations, *variations),
    )


def annotate(record: Record, analysis: Analysis) -> Game:
    """The ``full`` notation :class:`~chickenfoot.notation.Game` of ``record`` with the
    analysis in it (``Annotator "chickenfoot analyse"``)."""
    game = game_of(record, headers={"Annotator": "chickenfoot analyse"})
    by_ply = {d.ply: d for d in analysis.decisions}
    nodes = tuple(
        _node(node, by_ply[i], analysis.iterations) if i in by_ply else node
        for i, node in enumerate(game.moves)
    )
    return Game(game.headers, nodes, comment=game.comment, record=record)


def annotated_text(record: Record, analysis: Analysis) -> str:
    """The notation text of :func:`annotate`."""
    return write_game(annotate(record, analysis))
