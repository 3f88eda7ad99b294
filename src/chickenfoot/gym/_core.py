"""The lanes of the Gymnasium environments: a batch engine, its seats, rewards, buffers.

:class:`Lanes` holds ``n`` tables of one :class:`~chickenfoot.batch.BatchEngine`, the
learner's seat (or none, in self-play), the opponents (built-in agents, played inside
the engine's kernel, or policy callables, asked batch by batch), the episode's kind
(a round or a match) and its reward, and the observation and mask buffers that the
environments hand out. Both environments (:mod:`._single`, :mod:`._vector`) are views
of it; it imports no gymnasium.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from chickenfoot import _checks as checks
from chickenfoot.batch import BatchEngine
from chickenfoot.errors import ArgumentError, brief
from chickenfoot.match import Match
from chickenfoot.rules import Rules

if TYPE_CHECKING:
    from numpy.typing import NDArray

    I64 = NDArray[np.int64]
    F32 = NDArray[np.float32]
    Bools = NDArray[np.bool_]

REWARDS: Final = ("win", "margin", "penalty")
"""The rewards: the share of the win, the penalty margin, minus the penalty."""
EPISODES: Final = ("round", "match")
BUILT_IN: Final = ("random", "greedy", "heuristic")

OpponentPolicy = Callable[["NDArray[np.float32]", "NDArray[np.bool_]"], Any]
"""An opponent given as a policy: ``policy(observations, legal_mask) -> actions``, one row
per table where its seat is to act (the batch engine's ``Policy``)."""


def reward_of(kind: str, pens: I64) -> F32:
    """The rewards of finished episodes, ``(k, players)`` float32, from each seat's
    penalty (a round's, or a match's totals): ``"win"``, ``1/j`` for each of the ``j``
    seats with the fewest points and 0 for the others; ``"margin"``, the other seats'
    mean penalty minus the seat's own (the rewards sum to 0); ``"penalty"``, minus it.

    >>> reward_of("win", np.array([[0, 9, 3, 0]])).tolist()
    [[0.5, 0.0, 0.0, 0.5]]
    >>> reward_of("margin", np.array([[0, 9, 3, 0]])).tolist()
    [[4.0, -8.0, 0.0, 4.0]]
    """
    p = pens.shape[1]
    pf = pens.astype(np.float32)
    if kind == "penalty":
        return -pf
    if kind == "margin":
        out: F32 = (pf.sum(axis=1, keepdims=True) - pf) / np.float32(p - 1) - pf
        return out
    best = pens == pens.min(axis=1, keepdims=True)
    share: F32 = (best / best.sum(axis=1, keepdims=True)).astype(np.float32)
    return share


def illegal_reward(kind: str, rules: Rules) -> float:
    """The reward of a seat whose action was illegal (the episode ends, as a loss): -1
    (``"win"``), else minus the most points a hand can hold (``rules.max_penalty``)."""
    return -1.0 if kind == "win" else -float(rules.max_penalty)


class Lanes:
    """``n`` tables under ``rules`` (see the module doc); ``seat`` None is self-play."""

    def __init__(
        self,
        rules: Rules,
        n: int,
        *,
        seat: int | None,
        opponents: object,
        reward: str,
        episode: str,
        backend: str,
        deals: str,
    ) -> None:
        if not isinstance(rules, Rules):
            raise checks.invalid("rules", rules, "must be a Rules object")
        p = rules.players
        self.rules, self.n, self.players = rules, n, p
        if reward not in REWARDS:
            raise checks.invalid("reward", reward, f"must be one of {', '.join(REWARDS)}")
        if episode not in EPISODES:
            raise checks.invalid("episode", episode, "must be 'round' or 'match'")
        self.reward, self.episode = reward, episode
        self.seat = seat
        self.names: list[str | None] = [None] * p
        self.policies: dict[int, OpponentPolicy] = {}
        if seat is not None:
            self._opponents(opponents, seat, p)
        self.backend, self.deals = backend, deals
        self.engine = BatchEngine(rules, n, backend=backend, deals=deals)
        self.obs: F32 = np.zeros((n, self.engine.observation_size), dtype=np.float32)
        self.mask: Bools = np.zeros((n, self.engine.num_actions), dtype=np.bool_)
        self.over = np.ones(n, dtype=np.bool_)  # the episode ended (or never began)
        self.scores: list[list[tuple[int, ...]]] = [[] for _ in range(n)]
        self.match_seed = [0] * n
        self.illegal = illegal_reward(reward, rules)
        self.moves = 0  # every seat's moves so far (for the benchmarks)

    def _opponents(self, opponents: object, seat: int, p: int) -> None:
        others = [s for s in range(p) if s != seat]
        must = (
            f"must be one opponent or {p - 1} (one per other seat): 'random', 'greedy', "
            "'heuristic' or a policy(observations, legal_mask) -> actions"
        )
        if isinstance(opponents, str) or callable(opponents):
            given: list[object] = [opponents] * (p - 1)
        elif isinstance(opponents, Sequence) and len(opponents) == p - 1:
            given = list(opponents)
        else:
            raise checks.invalid("opponents", opponents, must)
        for s, o in zip(others, given, strict=True):
            if isinstance(o, str) and o.lower() in BUILT_IN:
                self.names[s] = o.lower()
            elif callable(o) and not isinstance(o, str):
                self.policies[s] = o
            else:
                raise ArgumentError(f"opponents: {brief(o)} is invalid: {must}")

    # -- seeding and deals -------------------------------------------------------------------

    def seed(self, rng: np.random.Generator) -> None:
        """A new engine whose deals and random agents come from ``rng`` (a seeded reset)."""
        first = int(rng.integers(0, 1 << 62))
        self.engine = BatchEngine(
            self.rules,
            self.n,
            seed=first,
            rng_seed=int(rng.integers(0, 1 << 62)),
            backend=self.backend,
            deals=self.deals,
        )
        self.over[:] = True

    def start(self, lanes: I64) -> None:
        """New episodes at ``lanes``: deal, and play the opponents up to the learner."""
        if not len(lanes):
            return
        e = self.engine
        e.reset(lanes=lanes)
        if self.episode == "match":
            for i in lanes.tolist():
                self.scores[i] = []
                self.match_seed[i] = int(e.seeds[i])
        self.over[lanes] = False
        pending = lanes
        while len(pending):  # a round cannot end before each seat has moved: a guard
            done = self.advance(pending)[1]
            ended = pending[done[pending]]
            if not len(ended):
                break
            e.reset(lanes=ended)
            pending = ended

    # -- moves ---------------------------------------------------------------------------------

    def advance(self, lanes: I64) -> tuple[F32, Bools]:
        """The opponents' moves in ``lanes`` until the learner is to act or the round ends:
        ``(rewards, done)`` of the engine (minus the penalties of the rounds that ended)."""
        e = self.engine
        rewards = np.zeros((self.n, self.players), dtype=np.float32)
        done = np.zeros(self.n, dtype=np.bool_)
        if self.seat is None:
            return rewards, done
        g = lanes
        while len(g):
            r, d, m = e.play_agents(self.names, lanes=g)
            self.moves += int(m.sum())
            if d.any():
                rewards += r
                done |= d
            if not self.policies:
                break
            g = g[e.result[g] == -1]
            turn = e.turn[g]
            moved = False
            for s, policy in self.policies.items():
                sel = g[turn == s]
                if not len(sel):
                    continue
                answer = policy(e.observe(lanes=sel), e.legal_mask(lanes=sel))
                full = np.zeros(self.n, dtype=np.int64)
                full[sel] = np.asarray(answer, dtype=np.int64).reshape(-1)[: len(sel)]
                r, d = e.step(full, lanes=sel)
                self.moves += len(sel)
                rewards += r
                done |= d
                moved = True
            if not moved:
                break
            g = g[e.result[g] == -1]
        return rewards, done

    def act(self, actions: object, active: Bools) -> tuple[F32, Bools, Bools]:
        """The learner's (or the seat to act's) moves in the ``active`` lanes, then the
        opponents'. Returns ``(rewards (n, players), terminated, illegal)``: an illegal
        action ends its episode as a loss; a round that ends scores (a match's last round
        scores the match, its other rounds deal the next one and score nothing)."""
        e, n = self.engine, self.n
        a = np.asarray(actions).reshape(-1)
        if a.shape != (n,) or a.dtype.kind not in "iu":
            raise checks.invalid("actions", actions, f"must be {n} integer actions")
        a64 = a.astype(np.int64, copy=False)
        ok = (a64 >= 0) & (a64 < e.num_actions)
        rows = np.arange(n)
        legal = active & ok
        legal[legal] = self.mask[rows[legal], a64[legal]]
        illegal = active & ~legal
        seats = e.turn.copy()
        g = rows[legal]
        r1, d1 = e.step(a64, lanes=g)
        self.moves += len(g)
        live = g[~d1[g]]
        r2, d2 = self.advance(live)
        ended = d1 | d2
        rewards = np.zeros((n, self.players), dtype=np.float32)
        term = illegal.copy()
        if ended.any():
            idx = rows[ended]
            pens = -(r1[idx] + r2[idx]).astype(np.int64)
            if self.episode == "round":
                rewards[idx] = reward_of(self.reward, pens)
                term[idx] = True
            else:
                self._match_rounds(idx, pens, rewards, term)
        if illegal.any():
            bad = rows[illegal]
            rewards[bad] = 0.0
            rewards[bad, seats[bad]] = self.illegal
        self.over |= term
        return rewards, term, illegal

    def _match_rounds(self, idx: I64, pens: I64, rewards: F32, term: Bools) -> None:
        """Rounds of matches ended: score each, then deal the match's next round or end it."""
        e = self.engine
        for j, i in enumerate(idx.tolist()):
            self.scores[i].append(tuple(int(x) for x in pens[j]))
            m = Match.from_scores(self.rules, seed=self.match_seed[i], scores=self.scores[i])
            if m.round is None:
                rewards[i] = reward_of(self.reward, np.array([m.totals]))[0]
                term[i] = True
            else:
                e.load(i, m.round)
                self.advance(np.array([i], dtype=np.int64))

    # -- what the learner sees -------------------------------------------------------------

    def observe(self) -> None:
        """Fill the buffers: each table seen by the learner's seat (the seat to act in
        self-play), the legal moves of the seat to act; a finished episode's mask row is
        all True (any action is accepted, and ignored, so samplers never see an empty
        row)."""
        e = self.engine
        e.observe(self.seat, out=self.obs)
        e.legal_mask(out=self.mask)
        if self.over.any():
            self.mask[self.over] = True
