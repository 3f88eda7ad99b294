"""What a ladder's games say: ratings, pairs, the variance of the score, a sequential test.

Only complete deals count (every seating of the deal played without error), so every
agent of a deal's table met its cards from every seat. The unit of the intervals is the
deal: per deal, a pair's penalty difference and win share are averaged over the seatings
where both sat, and the 95% intervals are over those per-deal values (the games of one
deal are not independent; the deals are).

The ratings are ``openskill``'s Plackett-Luce model (the ``ladder`` extra), updated game by
game in the order of deal then seating, each game ranking its seats by penalty (lower is
better, equal penalties tie); ``mu`` is the skill, ``sigma`` its uncertainty. The
model's ``tau`` (how far a skill may drift between two games) is 0: a program's skill does
not change during a ladder, so no game is discounted for its age and ``sigma`` keeps shrinking with
the deals. (openskill's default, 25/300, is for people: it holds ``sigma`` near a floor,
however many deals are played, and weighs the last games most, so the order of the
ratings would depend on which deals came last.)
"""

from __future__ import annotations

import importlib
import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Any, Final

import attrs

from chickenfoot.errors import ChickenFootError
from chickenfoot.ladder._play import Game
from chickenfoot.simulation import mean_interval

__all__ = ["Pair", "Rating", "Sprt", "Variance", "complete", "pairs", "ratings", "variance"]

_Z: Final = 1.96


@attrs.frozen
class Rating:
    """An agent's rating: ``mu`` its skill, ``sigma`` the uncertainty of it."""

    agent: str
    mu: float
    sigma: float

    def to_dict(self) -> dict[str, Any]:
        """``{"agent", "mu", "sigma"}``."""
        return {"agent": self.agent, "mu": self.mu, "sigma": self.sigma}


@attrs.frozen
class Pair:
    """Agent ``a`` against agent ``b`` over the ``deals`` deals where both sat:
    ``difference`` the mean of ``a``'s penalty minus ``b``'s (negative: ``a`` is better),
    ``share`` the share of their meetings ``a`` finished ahead (a tie counts a half),
    each with its 95% interval over the deals."""

    a: str
    b: str
    deals: int
    difference: float
    difference_ci: tuple[float, float]
    share: float
    share_ci: tuple[float, float]

    def to_dict(self) -> dict[str, Any]:
        """The pair as JSON (the intervals as lists)."""
        return {
            "a": self.a,
            "b": self.b,
            "deals": self.deals,
            "difference": self.difference,
            "difference_ci": list(self.difference_ci),
            "share": self.share,
            "share_ci": list(self.share_ci),
        }


@attrs.frozen
class Variance:
    """How the variance of a seat's penalty splits: ``deal`` (the cards: the variance of
    the hands' mean penalties, each hand of a deal played by every agent of its table),
    ``skill`` (the variance of the agents' mean penalties relative to the hands they held)
    and ``rest`` (who sat beside whom, the draws, the interplay), as shares of ``total``.
    The duplicate design makes them estimable: every hand is played by every agent of its
    table. (With rotations the shares add up to one; with more agents than seats, close to
    it.)"""

    total: float
    deal: float
    skill: float
    rest: float

    def to_dict(self) -> dict[str, float]:
        """The shares as JSON."""
        return attrs.asdict(self)


def complete(games: Sequence[Game], seatings: dict[int, int]) -> dict[int, list[Game]]:
    """The complete deals: deal -> its games in seating order, when all ``seatings[deal]``
    seatings were played without error (a game played twice counts once)."""
    by: dict[int, dict[int, Game]] = defaultdict(dict)
    for g in games:
        if g.error is None:
            by[g.task.deal].setdefault(g.task.seating, g)
    return {
        d: [played[k] for k in sorted(played)]
        for d, played in sorted(by.items())
        if len(played) == seatings.get(d, -1)
    }


def ratings(names: Sequence[str], deals: dict[int, list[Game]]) -> list[Rating]:
    """Every agent's rating, strongest first (by ``mu``; ``names`` order among equals)."""
    try:
        models = importlib.import_module("openskill.models")
    except ImportError:
        raise ChickenFootError(
            "the ladder's ratings need openskill: pip install 'chickenfoot[ladder]'"
        ) from None
    model = models.PlackettLuce(tau=0.0)  # fixed skills: see the module's docstring
    current = [model.rating(name=n) for n in names]
    for played in deals.values():
        for g in played:
            teams = [[current[i]] for i in g.task.seats]
            rated = model.rate(teams, ranks=[float(p) for p in g.penalties])
            for i, team in zip(g.task.seats, rated, strict=True):
                current[i] = team[0]
    out = [Rating(n, float(r.mu), float(r.sigma)) for n, r in zip(names, current, strict=True)]
    order = sorted(range(len(out)), key=lambda i: -out[i].mu)
    return [out[i] for i in order]


def _head_to_head(played: list[Game], a: int, b: int) -> tuple[float, float] | None:
    """A deal's mean penalty difference and win share of ``a`` over ``b``, or ``None``."""
    diffs, shares = [], []
    for g in played:
        seats = g.task.seats
        if a in seats and b in seats:
            pa, pb = g.penalties[seats.index(a)], g.penalties[seats.index(b)]
            diffs.append(pa - pb)
            shares.append(1.0 if pa < pb else 0.5 if pa == pb else 0.0)
    if not diffs:
        return None
    return sum(diffs) / len(diffs), sum(shares) / len(shares)


def head_to_head(deals: dict[int, list[Game]], a: int, b: int) -> list[float]:
    """Per complete deal where ``a`` and ``b`` met: ``a``'s win share over ``b``."""
    out = []
    for played in deals.values():
        got = _head_to_head(played, a, b)
        if got is not None:
            out.append(got[1])
    return out


def pairs(names: Sequence[str], deals: dict[int, list[Game]]) -> list[Pair]:
    """Every pair of agents that met, ``a`` before ``b`` in ``names`` order."""
    out = []
    for a in range(len(names)):
        for b in range(a + 1, len(names)):
            found = [h for played in deals.values() if (h := _head_to_head(played, a, b))]
            if not found:
                continue
            diff, diff_ci = mean_interval([d for d, _ in found])
            share, (lo, hi) = mean_interval([s for _, s in found])
            ci = (max(0.0, lo), min(1.0, hi))
            out.append(Pair(names[a], names[b], len(found), diff, diff_ci, share, ci))
    return out


def variance(deals: dict[int, list[Game]], agents: int) -> Variance | None:
    """The split of the variance of a seat's penalty (``None`` without two deals).

    ``deal`` is the share of the cards: the variance of each hand's mean penalty (deal
    ``d``, seat ``s``, over the seatings, every agent of the table having played it);
    ``skill`` that of the agents' mean penalties relative to the hands they held; ``rest``
    what is left (who sat beside whom, the draws, the interplay)."""
    rows: list[tuple[tuple[int, int], int, float]] = []  # ((deal, seat), agent, penalty)
    for d, played in deals.items():
        for g in played:
            for seat, (i, p) in enumerate(zip(g.task.seats, g.penalties, strict=True)):
                rows.append(((d, seat), i, float(p)))
    if len(deals) < 2:
        return None
    n = len(rows)
    grand = sum(y for *_, y in rows) / n
    hands: dict[tuple[int, int], list[float]] = defaultdict(lambda: [0.0, 0.0])
    for h, _, y in rows:
        hands[h][0] += y
        hands[h][1] += 1
    hand = {h: s / k for h, (s, k) in hands.items()}
    skill: dict[int, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for h, i, y in rows:
        skill[i][0] += y - hand[h]
        skill[i][1] += 1
    effect = {i: s / k for i, (s, k) in skill.items()}
    total = sum((y - grand) ** 2 for *_, y in rows) / n
    if total == 0:
        return Variance(0.0, 0.0, 0.0, 0.0)
    of_deal = sum((hand[h] - grand) ** 2 for h, _, _ in rows) / n
    of_skill = sum(effect[i] ** 2 for _, i, _ in rows) / n
    rest = sum((y - hand[h] - effect[i]) ** 2 for h, i, y in rows) / n
    return Variance(total, of_deal / total, of_skill / total, rest / total)


def _score(elo: float) -> float:
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


@attrs.define(kw_only=True)
class Sprt:
    """A sequential probability ratio test on paired results, as fishtest runs them:
    H0 "A is ``elo0`` stronger than B (or less)" against H1 "``elo1`` (or more)", with
    error rates ``alpha`` (accepting H1 when H0 holds) and ``beta``.

    Each unit is a score from 0 to 1 (in a ladder: a deal, A's win share over B across
    the deal's seatings). The log-likelihood ratio is the normal approximation of the
    generalized SPRT (``N (s1 - s0) (2 x̄ - s0 - s1) / (2 σ²)``, ``s = 1 / (1 + 10^(-elo/400))``,
    ``x̄`` and ``σ²`` the units' mean and variance, the variance counting one pseudo-unit at
    0 and one at 1 so that a streak cannot make it zero). The test stops at the first
    unit where it leaves ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``.

    >>> t = Sprt(elo0=0, elo1=50)
    >>> for x in [1.0, 0.5, 1.0, 1.0, 0.0, 1.0] * 10:
    ...     if t.add(x) is not None:
    ...         break
    >>> t.decision, t.units
    ('H1', 28)
    """

    a: str = ""
    """The agent tested as the stronger (in a ladder: its spec)."""
    b: str = ""
    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    units: int = attrs.field(default=0, init=False)
    """The units added before the decision (in a ladder: deals)."""
    decision: str | None = attrs.field(default=None, init=False)
    _sum: float = attrs.field(default=0.0, init=False, repr=False)
    _squares: float = attrs.field(default=0.0, init=False, repr=False)

    def __attrs_post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ChickenFootError(f"the SPRT needs elo0 < elo1, got {self.elo0}, {self.elo1}")
        for name, p in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < p < 0.5:
                raise ChickenFootError(f"the SPRT's {name} must be above 0 and below 0.5: {p}")

    @property
    def bounds(self) -> tuple[float, float]:
        """The log-likelihood ratio's lower (accept H0) and upper (accept H1) bound."""
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    @property
    def llr(self) -> float:
        """The log-likelihood ratio of the units so far."""
        if self.units == 0:
            return 0.0
        mean = self._sum / self.units
        n = self.units + 2
        spread = (self._squares + 1.0) / n - ((self._sum + 1.0) / n) ** 2
        s0, s1 = _score(self.elo0), _score(self.elo1)
        return self.units * (s1 - s0) * (2 * mean - s0 - s1) / (2 * spread)

    def add(self, score: float) -> str | None:
        """Add one unit; the decision once made (``"H1"``: A is stronger, ``"H0"``: it is
        not ``elo1`` stronger), else ``None``. Units after the decision are not counted."""
        if self.decision is not None:
            return self.decision
        self.units += 1
        self._sum += score
        self._squares += score * score
        low, high = self.bounds
        llr = self.llr
        self.decision = "H1" if llr >= high else "H0" if llr <= low else None
        return self.decision
