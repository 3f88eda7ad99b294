"""The game of ``chickenfoot play``: a whole match, or a record of one round; and the
person's decisions in it, where ``undo`` goes back to.

>>> from chickenfoot import Match, Rules
>>> m = Match.start(Rules(players=2), seed=1)
>>> m = m.apply(m.legal_moves[1])          # seat 0 chose among 3 moves
>>> while m.round.turn != 0:
...     m = m.apply(m.legal_moves[0])
>>> [(s.moves, s.chosen) for s in decisions(Game(match=m), 0)]
[(0, '9-3@9-9')]
"""

from __future__ import annotations

import attrs

from chickenfoot.cli._save import round_moves
from chickenfoot.match import Match
from chickenfoot.moves import Draw, Move
from chickenfoot.record import Record
from chickenfoot.rules import Rules
from chickenfoot.state import State

__all__ = ["Game", "Snapshot", "chosen", "decisions"]


@attrs.frozen
class Game:
    """The game in play: a whole match, or a record of one round. Immutable."""

    match: Match | None = None
    record: Record | None = None

    @property
    def state(self) -> State | None:
        """The round in play (a finished round's final state in round mode; ``None`` once
        the match is over)."""
        if self.match is not None:
            return self.match.round
        assert self.record is not None
        return self.record.final()

    @property
    def rules(self) -> Rules:
        if self.match is not None:
            return self.match.rules
        assert self.record is not None
        return self.record.start.rules

    def is_over(self) -> bool:
        state = self.state
        return state is None or state.is_over()

    def apply(self, move: Move) -> tuple[Game, State | None]:
        """The game after ``move``, and the finished round's final state if it ended one."""
        if self.match is not None:
            before = self.match
            m = before.apply(move)
            if m.rounds_played == before.rounds_played:
                return Game(match=m), None
            return Game(match=m), m.last_round
        assert self.record is not None
        rec = self.record.apply(move)
        final = rec.final()
        return Game(record=rec), final if final.is_over() else None

    def to_json(self) -> str:
        """The saved file: a match document, or the record of the round."""
        if self.match is not None:
            return self.match.to_json()
        assert self.record is not None
        return self.record.to_json()


@attrs.frozen
class Snapshot:
    """Where ``undo`` goes back to: the game before one of the person's decisions."""

    game: Game
    moves: int
    """The moves made before it (counted as the session counts them)."""
    chosen: str
    """The move chosen there, as the person chose it (:func:`chosen`)."""


def chosen(move: Move) -> str:
    """A move as the person chose it: a draw is ``draw``, whatever it drew.

    >>> from chickenfoot import Tile
    >>> chosen(Draw(Tile(6, 3)))
    'draw'
    """
    return "draw" if isinstance(move, Draw) else str(move)


def decisions(game: Game, seat: int) -> list[Snapshot]:
    """The decisions of ``seat`` (moves chosen among several) in the round in play, oldest
    first, as ``undo`` keeps them; ``moves`` counts from the round's first known move.

    A match's round gives them only when its moves since the deal are known (a round read
    from a match document alone has no history: then there are none); a record gives those
    of its moves.
    """
    steps: list[tuple[Game, State, Move]] = []
    if game.match is not None:
        m = game.match
        moves = round_moves(m)
        if moves is None:
            return []
        from chickenfoot.deal import deal

        at = Match(
            m.rules,
            m.seed,
            m.scores,
            deal(m.rules, m.seed, m.rounds_played),
            last_round=m.last_round,
        )
        for move in moves:
            assert at.round is not None
            steps.append((Game(match=at), at.round, move))
            at = at.apply(move)
    else:
        assert game.record is not None
        rec = Record(game.record.start)
        for move in game.record.moves:
            steps.append((Game(record=rec), rec.final(), move))
            rec = rec.apply(move)
    return [
        Snapshot(before, i, chosen(move))
        for i, (before, state, move) in enumerate(steps)
        if state.turn == seat and len(state.legal_moves) > 1
    ]
