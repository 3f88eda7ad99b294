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

from collections.abc import Mapping, Sequence

import attrs

from chickenfoot._i18n import gettext as _
from chickenfoot._i18n import number
from chickenfoot.cli._save import round_moves
from chickenfoot.match import Match
from chickenfoot.moves import Draw, Move
from chickenfoot.record import Record
from chickenfoot.rules import Rules
from chickenfoot.state import State

__all__ = [
    "Game",
    "Snapshot",
    "chosen",
    "decisions",
    "match_winners",
    "round_winners",
    "who",
    "winners",
]


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


def who(seat: int, you: int, names: Mapping[int, str]) -> str:
    """``seat`` as the person at seat ``you`` reads it: ``you``, or ``seat 2 (greedy)`` (its
    player's name from ``names``, when there is one).

    >>> who(0, 0, {1: "greedy"}), who(1, 0, {1: "greedy"}), who(2, 0, {})
    ('you', 'seat 1 (greedy)', 'seat 2')
    """
    if seat == you:
        return _("you")
    name = names.get(seat)
    if name is None:
        return _("seat {seat}", seat=seat)
    return _("seat {seat} ({name})", seat=seat, name=name)


def _together(named: Sequence[str]) -> str:
    """Names listed: ``a, b and c``."""
    if len(named) == 1:
        return named[0]
    return _("{players} and {last}", players=", ".join(named[:-1]), last=named[-1])


def round_winners(final: State, you: int, names: Mapping[int, str]) -> str:
    """Who wins the round that ended in ``final``, said to the person at seat ``you``: the
    fewest penalty points (R11; going out scores 0), and equal fewest share the win, as
    equal lowest totals share a match's (R12).

    >>> from chickenfoot import Rules, deal
    >>> s = deal(Rules(players=2), seed=1)     # any position scores its hands
    >>> s.penalties()
    (161, 230)
    >>> round_winners(s, 1, {0: "greedy"}), round_winners(s, 0, {1: "greedy"})
    ('seat 0 (greedy) wins the round with 161.', 'You win the round with 161.')
    """
    points = final.penalties()
    best = min(points)
    seats = [s for s, p in enumerate(points) if p == best]
    text = winners(seats, best, you, names, "the round")
    return f"{text[0].upper()}{text[1:]}." if you in seats else f"{text}."


def match_winners(seats: Sequence[int], score: int, you: int, names: Mapping[int, str]) -> str:
    """The heading of a match's end: who won it.

    >>> match_winners([1], 12, 0, {1: "greedy"})
    'The match is over: seat 1 (greedy) wins the match with 12'
    """
    return _("The match is over: {winners}", winners=winners(seats, score, you, names, "the match"))


def winners(seats: Sequence[int], score: int, you: int, names: Mapping[int, str], of: str) -> str:
    """The words naming the winners ``seats`` of ``of`` (``the round``, ``the match``)
    with ``score``, the person (seat ``you``) first.

    >>> winners([1, 3], 0, 3, {1: "greedy"}, "the match")
    'you and seat 1 (greedy) share the win of the match with 0'
    """
    ordered = sorted(seats, key=lambda s: (s != you, s))
    named = [who(s, you, names) for s in ordered]
    points = number(score)
    match = of == "the match"
    if len(named) == 1 and ordered[0] == you:
        if match:
            return _("you win the match with {points}", points=points)
        return _("you win the round with {points}", points=points)
    if len(named) == 1:
        if match:
            return _("{player} wins the match with {points}", player=named[0], points=points)
        return _("{player} wins the round with {points}", player=named[0], points=points)
    together = _together(named)
    if match:
        return _(
            "{players} share the win of the match with {points}", players=together, points=points
        )
    return _("{players} share the win of the round with {points}", players=together, points=points)
