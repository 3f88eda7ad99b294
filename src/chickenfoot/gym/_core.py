"""The lanes of the Gymnasium environments: a batch engine, its seats, rewards, buffers.

:class:`Lanes` holds ``n`` tables of one :class:`~chickenfoot.batch.BatchEngine`, the
learner's seat (or none, in self-play), the opponents (built-in agents, played inside
the engine's kernel, or policy callables, asked batch by batch), the episode's kind
(a round or a match) and its reward, and the observation and mask buffers that the
environments hand out. Both environments (:mod:`._single`, :mod:`._vector`) are views
of it; it imports no gymnasium.

A step or a reset runs inside :meth:`Lanes.kept`: with policy opponents, it keeps a copy
of the tables first, and if a policy raises or answers what is not a move, everything
goes back as it was and an :class:`~chickenfoot.AgentError` says so (a built-in opponent
never fails, so without policies nothing is copied).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final, NamedTuple, TypeAlias

import numpy as np
from numpy.typing import ArrayLike, NDArray

from chickenfoot import _checks as checks
from chickenfoot._scoring import end_reason_of
from chickenfoot.batch import ENGINE_MEMORY, BatchEngine
from chickenfoot.deal import deal
from chickenfoot.errors import AgentError, ArgumentError, ChickenFootError, brief
from chickenfoot.record import Record
from chickenfoot.rules import Rules

from ._memory import LARGEST_SEED, TableBytes, check_env_memory, table_bytes

if TYPE_CHECKING:
    I64 = NDArray[np.int64]
    F32 = NDArray[np.float32]
    Bools = NDArray[np.bool_]

REWARDS: Final = ("win", "margin", "penalty")
"""The rewards: the share of the win, the penalty margin, minus the penalty."""
EPISODES: Final = ("round", "match")
BUILT_IN: Final = ("random", "greedy", "heuristic")

OpponentPolicy: TypeAlias = Callable[[NDArray[np.float32], NDArray[np.bool_]], ArrayLike]
"""An opponent given as a policy: ``policy(observations, legal_mask) -> actions``, one row
per table where its seat is to act (the batch engine's ``Policy``), one integer action a
row."""

Opponent: TypeAlias = str | OpponentPolicy
"""One opponent: ``"random"``, ``"greedy"``, ``"heuristic"`` or an :data:`OpponentPolicy`."""

Opponents: TypeAlias = Opponent | Sequence[Opponent]
"""The ``opponents`` option: one :data:`Opponent` for every other seat, or one a seat."""


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
        opponents: Opponents,
        reward: str,
        episode: str,
        backend: str,
        deals: str,
        copies: int = 0,
        max_bytes: int = ENGINE_MEMORY,
        records: bool = False,
    ) -> None:
        self.records = checks.flag(records, "records")
        self.finished: list[tuple[int | None, Record]] = []  # finished, from a replaced engine
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
        self.max_bytes = checks.integer(max_bytes, "max_bytes", low=1, index=True)
        self.per_table: TableBytes = table_bytes(
            rules, copies=copies, policies=bool(self.policies), match=episode == "match"
        )
        check_env_memory(n, self.per_table, self.max_bytes)
        self.engine = self._engine(seed=0, rng_seed=None)
        self.obs: F32 = np.zeros((n, self.engine.observation_size), dtype=np.float32)
        self.mask: Bools = np.zeros((n, self.engine.num_actions), dtype=np.bool_)
        self.over = np.ones(n, dtype=np.bool_)  # the episode ended (or never began)
        self.pending = np.zeros(n, dtype=np.bool_)  # deal again at the next step (NextStep)
        m = n if episode == "match" else 0  # a match's seed, rounds played and totals
        self.match_seed = np.zeros(m, dtype=np.int64)
        self.played = np.zeros(m, dtype=np.int64)
        self.totals = np.zeros((m, p), dtype=np.int64)
        self.illegal = illegal_reward(reward, rules)
        self.moves = 0  # every seat's moves so far (for the benchmarks)
        self.observed = 0  # the buffers' writes so far (a failed step rewrites them)
        self.doing = "step"  # what a failed policy undoes, for its error

    @property
    def memory(self) -> int:
        """The bytes the tables are counted for against ``max_bytes``."""
        return self.n * self.per_table.total

    def _engine(self, *, seed: int, rng_seed: int | None) -> BatchEngine:
        return BatchEngine(
            self.rules, self.n, seed=seed, rng_seed=rng_seed, backend=self.backend,
            deals=self.deals, max_bytes=self.max_bytes, records=self.records,
        )  # fmt: skip

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
        first = int(rng.integers(0, LARGEST_SEED))
        if self.records:  # the rounds the old engine finished are kept
            self.finished += self.engine.take_records()
        self.engine = self._engine(seed=first, rng_seed=int(rng.integers(0, LARGEST_SEED)))
        self.over[:] = True

    def start(self, lanes: I64) -> None:
        """New episodes at ``lanes``: deal, and play the opponents up to the learner."""
        if not len(lanes):
            return
        e = self.engine
        e.reset(lanes=lanes)
        if self.episode == "match":
            self.match_seed[lanes] = [e.seeds[i] for i in lanes.tolist()]
            self.played[lanes] = 0
            self.totals[lanes] = 0
        self.over[lanes] = False
        pending = lanes
        while len(pending):  # a round cannot end before each seat has moved: a guard
            done = self.advance(pending)[1]
            ended = pending[done[pending]]
            if not len(ended):
                break
            e.reset(lanes=ended)
            pending = ended

    def take_records(self) -> list[tuple[int | None, Record]]:
        """The rounds finished since the last call (``records=True``)."""
        if not self.records:
            raise ArgumentError("take_records() needs an environment made with records=True")
        finished, self.finished = self.finished, []
        return finished + self.engine.take_records()

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
                r, d = self._ask(s, policy, sel)
                self.moves += len(sel)
                rewards += r
                done |= d
                moved = True
            if not moved:
                break
            g = g[e.result[g] == -1]
        return rewards, done

    def _ask(self, seat: int, policy: OpponentPolicy, sel: I64) -> tuple[F32, Bools]:
        """The policy at ``seat`` moves at the tables ``sel``: ``e.step``'s answer. A policy
        that raises, or answers what is not one legal action a table, is an
        :class:`~chickenfoot.AgentError` (that :meth:`kept` turns back)."""
        e = self.engine
        who = f"opponents: the policy at seat {seat}"
        undone = f"the env is as it was before this {self.doing}"
        try:
            answer = policy(e.observe(lanes=sel), e.legal_mask(lanes=sel))
        except Exception as err:
            raise AgentError(f"{who} raised {_said(err)}; {undone}") from err
        try:
            got = np.asarray(answer)
        except Exception:  # an object numpy cannot read (a hostile __array__)
            got = np.zeros(0)
        if got.size != len(sel) or got.dtype.kind not in "iu":
            raise AgentError(
                f"{who} answered {brief(answer)}: must be {len(sel)} integer actions, one a "
                f"row it was given; {undone}"
            )
        full = np.zeros(self.n, dtype=np.int64)
        full[sel] = got.reshape(-1).astype(np.int64)
        try:
            return e.step(full, lanes=sel)
        except ChickenFootError as err:
            raise AgentError(f"{who} answered {err}; {undone}") from err

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
        """Rounds of matches ended: score each, then deal the match's next round (as
        :class:`~chickenfoot.Match` deals it) or end it."""
        e = self.engine
        for j, i in enumerate(idx.tolist()):
            self.totals[i] += pens[j]
            self.played[i] += 1
            played, totals = int(self.played[i]), self.totals[i].tolist()
            if end_reason_of(self.rules, played, totals) is not None:
                rewards[i] = reward_of(self.reward, self.totals[i : i + 1])[0]
                term[i] = True
            else:
                e.load(i, deal(self.rules, int(self.match_seed[i]), played))
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
        self.observed += 1

    # -- a failed opponent policy -------------------------------------------------------------

    @contextmanager
    def kept(self, doing: str) -> Iterator[None]:
        """Run a ``doing`` (``"step"`` or ``"reset"``) that, if it fails (an opponent policy's
        :class:`~chickenfoot.AgentError`, or anything raised from inside a policy), leaves
        the lanes as they were: the engine's tables and random choices, the episodes'
        flags and totals, the buffers. Without policies nothing can fail: nothing is kept."""
        if not self.policies:
            yield
            return
        self.doing = doing
        saved = self._saved()
        try:
            yield
        except BaseException:
            self._restore(saved)
            raise

    def _saved(self) -> _Saved:
        e = self.engine
        state = {k: _copied(v) for k, v in e.__getstate__().items()}
        flags = (self.over, self.pending, self.match_seed, self.played, self.totals)
        return _Saved(e, state, tuple(f.copy() for f in flags), self.moves, self.observed)

    def _restore(self, saved: _Saved) -> None:
        saved.engine.__setstate__(saved.state)
        self.engine = saved.engine
        flags = (self.over, self.pending, self.match_seed, self.played, self.totals)
        for now, then in zip(flags, saved.flags, strict=True):
            now[...] = then
        self.moves = saved.moves
        if self.observed != saved.observed:  # the buffers were written since: again
            self.observe()


class _Saved(NamedTuple):
    """What :meth:`Lanes.kept` restores."""

    engine: BatchEngine
    state: dict[str, Any]
    flags: tuple[NDArray[Any], ...]
    moves: int
    observed: int


def _said(err: Exception) -> str:
    """``Type: message`` of a policy's exception, on one line of at most 200 characters."""
    try:
        text = " ".join(str(err).split())
    except Exception:  # a hostile __str__: its type says enough
        text = ""
    text = text if len(text) <= 200 else text[:199] + "…"
    return f"{type(err).__name__}: {text}" if text else type(err).__name__


def _copied(value: object) -> object:
    """A copy of one value of the engine's pickled state: an array in its own memory layout
    (the compiled kernels read rounds first), a list of seeds by its items (ints, shared),
    anything else deep."""
    if isinstance(value, np.ndarray):
        return value.copy(order="K")
    if isinstance(value, list) and all(x is None or type(x) is int for x in value):
        return list(value)
    return copy.deepcopy(value)
