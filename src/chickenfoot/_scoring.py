"""The scoring of a match: :class:`MatchResult` and :class:`Standing`, and when a match ends.

Private; :mod:`chickenfoot.match` is the public home of both classes (their ``__module__``
says so). The rules are R12 of the rules page (docs/rules.md): totals, ranks with their
tie-breaks, and the end of a match after a number of rounds or at a threshold.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import attrs

from chickenfoot.rules import Rounds, Rules, Threshold

__all__ = ["MatchResult", "Scores", "Standing", "busts", "end_reason", "end_reason_of", "rank_key"]


Scores = tuple[tuple[int, ...], ...]
"""The scores of finished rounds: one tuple per round, one entry per seat."""


@attrs.frozen
class Standing:
    """One seat's place in the standings: competition rank (1, 2, 2, 4), seat and total.

    >>> Standing(rank=1, seat=2, total=37)
    Standing(rank=1, seat=2, total=37)
    """

    rank: int
    seat: int
    total: int


@attrs.frozen
class MatchResult:
    """Where a match stands, in the style of :class:`~chickenfoot.Outcome`.

    ``totals`` are the per-seat sums of the round scores; ``standings`` lists every seat
    best first with its competition rank (equal places share a rank, the next rank skips:
    1, 2, 2, 4). Lower totals rank better; under ``tie_break="zero_rounds"`` seats with
    equal totals are ordered by that tie-break (most rounds scored 0, then the lowest
    non-zero single-round score) at every place, not only the first. Seats sharing a rank
    are listed by seat number.

    Once the match is over (:meth:`is_over`), ``winners`` are the seats ranked 1 (R12:
    several share the win) and ``losers`` are the seats that lose: under a threshold match,
    every other seat whose total is over the threshold (reaches it, if ``inclusive``);
    under a ``{"rounds": k}`` match, every seat that does not win. While the match goes
    on, ``winners`` and ``losers`` are empty.

    >>> r = Match.from_scores(Rules(match=Rounds(1)), seed=0, scores=[(10, 0, 20, 0)]).result()
    >>> r.is_over(), r.winners, r.losers, [s.rank for s in r.standings], str(r)
    (True, (1, 3), (0, 2), [1, 1, 3, 4], 'seats 1, 3 share the win with 0')
    """

    totals: tuple[int, ...]
    standings: tuple[Standing, ...]
    winners: tuple[int, ...]
    losers: tuple[int, ...]
    rounds: int
    """How many rounds have been scored."""
    over: bool

    @classmethod
    def _of(cls, rules: Rules, scores: Scores) -> MatchResult:
        """The result of a match with ``rules`` after the rounds scored ``scores`` (trusted)."""
        players = rules.players
        totals = tuple(sum(row[seat] for row in scores) for seat in range(players))
        keys = [rank_key(rules, scores, totals, seat) for seat in range(players)]
        order = sorted(range(players), key=lambda seat: (keys[seat], seat))
        standings = tuple(
            Standing(rank=1 + sum(k < keys[seat] for k in keys), seat=seat, total=totals[seat])
            for seat in order
        )
        over = end_reason(rules, scores) is not None
        winners: tuple[int, ...] = ()
        losers: tuple[int, ...] = ()
        if over:
            winners = tuple(sorted(s.seat for s in standings if s.rank == 1))
            rest = [seat for seat in range(players) if seat not in winners]
            m = rules.match
            if isinstance(m, Threshold):
                losers = tuple(seat for seat in rest if busts(m, totals[seat]))
            else:
                losers = tuple(rest)
        return cls(totals, standings, winners, losers, len(scores), over)

    def is_over(self) -> bool:
        """Whether the match has ended (then ``winners`` is not empty)."""
        return self.over

    @property
    def ranks(self) -> tuple[int, ...]:
        """Each seat's rank, by seat.

        >>> Match.from_scores(Rules(players=3), seed=0, scores=[(4, 0, 4)]).result().ranks
        (2, 1, 2)
        """
        out = [0] * len(self.totals)
        for s in self.standings:
            out[s.seat] = s.rank
        return tuple(out)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary.

        >>> rules = Rules(players=2, match=Rounds(1))
        >>> d = Match.from_scores(rules, seed=0, scores=[(3, 0)]).result().to_dict()
        >>> list(d)
        ['over', 'rounds', 'totals', 'ranks', 'winners', 'losers']
        >>> d["over"], d["totals"], d["ranks"], d["winners"], d["losers"]
        (True, [3, 0], [2, 1], [1], [0])
        """
        return {
            "over": self.over,
            "rounds": self.rounds,
            "totals": list(self.totals),
            "ranks": list(self.ranks),
            "winners": list(self.winners),
            "losers": list(self.losers),
        }

    def __str__(self) -> str:
        if not self.over:
            return f"in progress after {self.rounds} round{'s' if self.rounds != 1 else ''}"
        best = self.totals[self.winners[0]]
        if len(self.winners) == 1:
            return f"seat {self.winners[0]} wins with {best}"
        return f"seats {', '.join(map(str, self.winners))} share the win with {best}"


def rank_key(rules: Rules, scores: Scores, totals: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """Lower is better. ``zero_rounds`` adds (-rounds scored 0, lowest non-zero round score).

    A seat with no non-zero round has total 0, and every seat with the same total and as
    many zero rounds has none either, so the placeholder 0 never decides anything.
    """
    if rules.tie_break == "shared":
        return (totals[seat],)
    column = [row[seat] for row in scores]
    zeros = column.count(0)
    lowest = min((x for x in column if x), default=0)
    return (totals[seat], -zeros, lowest)


def busts(m: Threshold, total: int) -> bool:
    return total >= m.points if m.inclusive else total > m.points


def end_reason(rules: Rules, scores: Scores) -> str | None:
    """Why the match is over after ``scores``, or ``None`` while it goes on."""
    totals = [sum(row[seat] for row in scores) for seat in range(rules.players)]
    return end_reason_of(rules, len(scores), totals)


def end_reason_of(rules: Rules, played: int, totals: Sequence[int]) -> str | None:
    """:func:`end_reason` after ``played`` rounds that gave ``totals``."""
    m = rules.match
    if isinstance(m, Rounds):
        if played >= m.count:
            return f"all {m.count} rounds are played"
        return None
    if not played:
        return None
    for seat, total in enumerate(totals):
        if busts(m, total):
            verb = "reaches" if m.inclusive else "exceeds"
            return f"the total {total} of seat {seat} {verb} the threshold {m.points}"
    return None


Standing.__module__ = MatchResult.__module__ = "chickenfoot.match"  # their public home
