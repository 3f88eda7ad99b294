"""Information-set Monte Carlo tree search, a built-in player (docs: Strength).

:class:`ISMCTSAgent` is single-observer IS-MCTS (Cowling, Powley and Whitehouse, 2012):
one tree for its seat, whose nodes are sequences of moves from the decision: its own
(by default the other seats play the heuristic rollout policy in between), or everyone's.
Each iteration deals the unseen tiles afresh, consistently with the history
(:meth:`View.sample <chickenfoot.View.sample>`), walks down the tree among the moves legal
in that deal (UCB over the children, counting each child's availability), adds one node
(the heuristic's choice first) and finishes the round with the heuristic rollout (every
seat plays as a :class:`~chickenfoot.HeuristicAgent` would: its ``hurt`` term reads who
drew or passed on which number, from the view's history and then along the walk);
each node on the walk is credited with the reward of the seat that made its move: how
much lower its penalty was than the lowest of the others' (by default at up to four
seats: winning the round is what counts), or than their mean, or the share of the others
it beat (by default from five seats).

By default (``root="common"``) every move of the root is tried on every deal, each with
its own walk below it, and the move whose rounds ended best on average is played: the
moves are compared on common deals, and one deal serves as many iterations as the root
has moves (dealing costs more than a rollout). With ``root="ucb"`` each iteration takes
its own deal and UCB picks the root's move too; the move visited most is played. The
kernel :mod:`chickenfoot._jit.ismcts` runs the same search compiled (the ``fast`` extra);
both make the same choices for the same generator and leave it in the same state.

>>> import random
>>> from chickenfoot import Rules, deal
>>> v = deal(Rules(), seed=2).view(0)
>>> agent = ISMCTSAgent(iterations=50, backend="python")
>>> m = agent.choose(v, v.legal_moves, random.Random(0))
>>> m in v.legal_moves, m == agent.choose(v, v.legal_moves, random.Random(0))   # seeded
(True, True)
"""

from __future__ import annotations

import importlib
import math
import random
import time
from collections.abc import Sequence
from typing import Any, Final

import attrs

from chickenfoot import _checks as checks
from chickenfoot._rollouts import (
    BACKENDS,
    Rollouts,
    Sampler,
    agrees,
    heuristic_policy,
    in_chunks,
    note_lacking,
    resolve,
)
from chickenfoot._slots import Weights
from chickenfoot.deal import deal
from chickenfoot.errors import AgentError
from chickenfoot.moves import DRAW, Move, Play
from chickenfoot.playout import playout
from chickenfoot.rules import Rules
from chickenfoot.sampling import public_facts, sample_state
from chickenfoot.state import LegalMoves, State, apply
from chickenfoot.view import View

__all__ = ["ISMCTSAgent", "MAX_ITERATIONS"]

MAX_ITERATIONS: Final = 1_000_000
"""The most iterations an :class:`ISMCTSAgent` runs a decision."""
_CHUNK: Final = 0.002  # seconds of compiled iterations between two reads of the clock
OPPONENTS: Final = ("tree", "heuristic")
"""The values of ``ISMCTSAgent(opponents=...)``."""
AGAINST: Final = ("auto", "best", "mean", "each")
"""The values of ``ISMCTSAgent(against=...)``."""
_REWARDS: Final = ("best", "mean", "each")  # as the kernel numbers them
_EACH_FROM: Final = 5  # the table size from which against="auto" rewards the seats beaten
ROOTS: Final = ("common", "ucb")
"""The values of ``ISMCTSAgent(root=...)``."""
DEALINGS: Final = ("uniform", "learned")
"""The values of ``ISMCTSAgent(dealing=...)``."""
_WARM: list[bool] = []
_GROW: Final = 4096  # nodes added to a compiled tree's arrays at a time


def _key(m: Move) -> tuple[int, int]:
    """A move as the kernel names it: (tile, anchor), -1 the centre; a draw (-1, -1), a
    pass (-2, -1)."""
    if isinstance(m, Play):
        return m.tile.id, -1 if m.anchor is None else m.anchor.id
    return (-1, -1) if m is DRAW else (-2, -1)


def _check_choice(view: object, legal: object, rng: object) -> None:
    """The arguments of ``choose`` (the drivers always pass good ones)."""
    checks.instance(view, View, "ISMCTSAgent.choose")
    if isinstance(legal, (str, bytes)) or not isinstance(legal, Sequence) or not legal:
        raise checks.invalid("legal", legal, "must be the view's legal moves (not empty)")
    checks.random_generator(rng)


def _rewarded(against: str, players: int) -> str:
    """What ``against`` measures a seat's round against at a table of ``players``:
    ``"auto"`` is ``"best"`` (winning the round) at up to four seats and ``"each"`` (the
    share of the others beaten) from five seats on, where a seat mostly does not win
    and the order of the others' penalties is what remains to play for.

    >>> _rewarded("auto", 4), _rewarded("auto", 5), _rewarded("mean", 8)
    ('best', 'each', 'mean')
    """
    if against != "auto":
        return against
    return "each" if players >= _EACH_FROM else "best"


def _reward(pens: Sequence[int], seat: int, scale: float, against: str) -> float:
    """The reward of ``seat`` for a round that ended with penalties ``pens``, in [0, 1].

    ``"best"`` and ``"mean"``: ``0.5 - 0.5 d / (|d| + scale)``, ``d`` the seat's penalty
    minus the lowest of the others' or minus their mean (above one half: the seat won the
    round alone, or did better than the others' mean); ``"each"``: the share of the others
    whose penalty was higher, a tie counting half.

    >>> pens = [10, 5, 20, 30]   # seat 0 beat the mean and two seats, not seat 1
    >>> [round(_reward(pens, 0, 10.0, a), 3) for a in ("best", "mean", "each")]
    [0.333, 0.727, 0.667]
    """
    own = pens[seat]
    if against == "each":
        beaten = 0.0
        for s, pen in enumerate(pens):
            if s != seat:
                beaten += 1.0 if pen > own else 0.5 if pen == own else 0.0
        return beaten / float(len(pens) - 1)
    if against == "best":
        d = float(own - min(p for s, p in enumerate(pens) if s != seat))
    else:
        d = float(own) - float(sum(pens) - own) / float(len(pens) - 1)
    return 0.5 - 0.5 * d / (abs(d) + scale)


class _Node:
    __slots__ = ("avail", "key", "kids", "mover", "visits", "wins")

    def __init__(self, key: tuple[int, int], mover: int) -> None:
        self.key = key
        self.mover = mover
        self.visits = 0
        self.avail = 1
        self.wins = 0.0
        self.kids: list[_Node] = []


@attrs.frozen(kw_only=True)
class ISMCTSAgent:
    """Information-set MCTS with heuristic rollouts (the module's docstring).

    ``iterations`` (1 to 1,000,000) a decision; with ``time_limit`` (seconds, above 0) it
    stops early when the time is up (then a seed no longer fixes the game). ``explore``
    is the UCB constant, ``scale`` the penalty margin at which a round's reward is 3/4 (or
    1/4): at the default, 1, a reward is nearly a round won or lost (won by one point
    3/4, by ten 0.95). ``opponents``: ``"heuristic"`` (the default: the other seats play the rollout
    policy, and only this seat's moves branch) or ``"tree"`` (every seat's moves are nodes
    of the tree, chosen by UCB for the seat that makes them). ``against``: a seat's
    penalty is measured against ``"best"`` (the lowest of the others', so that a reward
    above one half is a round won), ``"mean"`` (the others' mean) or ``"each"`` (the
    reward is the share of the other seats it beat, ``scale`` unused); ``"auto"`` (the
    default) is ``"best"`` at up to four seats and ``"each"`` from five. ``root``:
    ``"common"`` (the default: each deal is tried with every move of the root, so that a
    decision of ``iterations`` iterations deals ``iterations // len(legal)`` times, at
    least once, and the best mean is played) or ``"ucb"`` (a deal an iteration, UCB at
    the root too, the most visited move played).
    ``backend``: ``"numba"`` compiled, ``"python"``, or ``"auto"`` (compiled when numba
    can be imported); both make the same choices. ``dealing``: how each iteration deals
    the unseen tiles: ``"uniform"`` (the default: at random among the places the history
    allows, as :meth:`View.sample <chickenfoot.View.sample>`) or ``"learned"`` (the same
    places, each tile weighted by :mod:`chickenfoot.belief`'s model of where it is; needs
    numpy).

    >>> ISMCTSAgent(iterations=0)
    Traceback (most recent call last):
    ...
    chickenfoot.errors.AgentError: iterations=0 is invalid: must be an integer from 1 to 1,000,000
    """

    iterations: int = attrs.field(default=1000)
    time_limit: float | None = attrs.field(default=None)
    explore: float = attrs.field(default=0.3)
    scale: float = attrs.field(default=1.0)
    opponents: str = attrs.field(default="heuristic")
    against: str = attrs.field(default="auto")
    backend: str = attrs.field(default="auto")
    root: str = attrs.field(default="common")
    dealing: str = attrs.field(default="uniform")

    @iterations.validator
    def _check_iterations(self, attribute: attrs.Attribute[int], value: int) -> None:
        checks.integer(value, "iterations", low=1, high=MAX_ITERATIONS, error=AgentError)

    @time_limit.validator
    def _check_time_limit(self, attribute: attrs.Attribute[float | None], value: object) -> None:
        if value is not None:
            checks.real(value, "time_limit", above=0, high=1e9, error=AgentError)

    @explore.validator
    def _check_explore(self, attribute: attrs.Attribute[float], value: object) -> None:
        checks.real(value, "explore", low=0, high=1e6, error=AgentError)

    @scale.validator
    def _check_scale(self, attribute: attrs.Attribute[float], value: object) -> None:
        checks.real(value, "scale", above=0, high=1e6, error=AgentError)

    @opponents.validator
    def _check_opponents(self, attribute: attrs.Attribute[str], value: object) -> None:
        checks.choice(value, "opponents", OPPONENTS, error=AgentError)

    @against.validator
    def _check_against(self, attribute: attrs.Attribute[str], value: object) -> None:
        checks.choice(value, "against", AGAINST, error=AgentError)

    @root.validator
    def _check_root(self, attribute: attrs.Attribute[str], value: object) -> None:
        checks.choice(value, "root", ROOTS, error=AgentError)

    @dealing.validator
    def _check_dealing(self, attribute: attrs.Attribute[str], value: object) -> None:
        checks.choice(value, "dealing", DEALINGS, error=AgentError)

    @backend.validator
    def _check_backend(self, attribute: attrs.Attribute[str], value: object) -> None:
        resolve(checks.choice(value, "backend", BACKENDS, error=AgentError))

    def choose(self, view: View, legal: LegalMoves, rng: random.Random) -> Move:
        """The move of the most visited child of the root."""
        _check_choice(view, legal, rng)
        if len(legal) == 1:
            return legal[0]
        start = time.perf_counter()
        weights = None
        if self.dealing == "learned":
            weights = importlib.import_module("chickenfoot.belief").deal_weights(view)
        compiled = None
        if resolve(self.backend) and type(rng) is random.Random and agrees():
            compiled = _Compiled(view, legal, self, weights)  # (compiled before the clock starts)
        deadline = None if self.time_limit is None else start + self.time_limit
        if compiled is not None:
            visits = compiled.search(rng, self.iterations, deadline)
            if visits is not None:
                return _most(legal, visits)
        return _most(legal, self._search(view, legal, rng, deadline, weights))

    def _search(
        self,
        view: View,
        legal: LegalMoves,
        rng: random.Random,
        deadline: float | None,
        weights: Weights | None = None,
    ) -> dict[tuple[int, int], float]:
        """The pure search: the root's children's visits (with ``common``: their mean
        rewards), by move; ``weights`` those of the learned dealing, if any."""

        def sample() -> State:
            return view.sample(rng) if weights is None else sample_state(view, rng, weights=weights)

        root = _Node((0, 0), view.seat)
        lacking = public_facts(view, viewer=True)
        against = _rewarded(self.against, view.rules.players)
        if self.root == "common":
            root.kids = [_Node(_key(m), view.seat) for m in legal]
            for _ in range(_deals(self.iterations, len(legal))):
                state = sample()
                for kid, m in zip(root.kids, legal, strict=True):
                    facts = list(lacking)
                    note_lacking(state, legal, facts)
                    self._iterate(root, apply(state, m), facts, against, kid)
                if deadline is not None and time.perf_counter() > deadline:
                    break
            return {kid.key: kid.wins / kid.visits for kid in root.kids}
        for _ in range(self.iterations):
            self._iterate(root, sample(), list(lacking), against)
            if deadline is not None and time.perf_counter() > deadline:
                break
        return {kid.key: kid.visits for kid in root.kids}

    def _iterate(
        self,
        root: _Node,
        state: State,
        lacking: list[int],
        against: str,
        first: _Node | None = None,
    ) -> None:
        """One walk from ``root`` (or from its child ``first``, whose move ``state``
        follows), one node added, a rollout, and the rewards credited (measured
        ``against``); ``lacking`` the numbers each seat lacks, by the public history
        (:func:`note_lacking` keeps it)."""
        node = root if first is None else first
        path: list[_Node] = [] if first is None else [first]
        alone = self.opponents == "heuristic"
        while not state.is_over():
            moves = state.legal_moves
            note_lacking(state, moves, lacking)
            if alone and state.turn != root.mover:
                state = apply(state, heuristic_policy(state, moves, lacking))
                continue
            keys = [_key(m) for m in moves]
            by = {kid.key: kid for kid in node.kids}
            kids = [by.get(k) for k in keys]
            fresh = -1
            for i, kid in enumerate(kids):
                if kid is None:
                    if fresh < 0:
                        fresh = i
                else:
                    kid.avail += 1
            if fresh >= 0:
                pick = fresh
                choice = heuristic_policy(state, moves, lacking)
                if isinstance(choice, Play):
                    i = moves.index(choice)
                    if kids[i] is None:
                        pick = i
                child = _Node(keys[pick], state.turn)
                node.kids.append(child)
                path.append(child)
                state = apply(state, moves[pick])
                break
            best: _Node | None = None
            best_u = -1e300
            best_i = 0
            for i, kid in enumerate(kids):
                assert kid is not None
                u = kid.wins / kid.visits + self.explore * math.sqrt(
                    math.log(kid.avail) / kid.visits
                )
                if u > best_u:
                    best, best_u, best_i = kid, u, i
            assert best is not None
            path.append(best)
            node = best
            state = apply(state, moves[best_i])

        def rollout(s: State, moves: LegalMoves) -> Move:
            note_lacking(s, moves, lacking)
            return heuristic_policy(s, moves, lacking)

        pens = playout(state, policy=rollout).penalties()
        root.visits += 1
        for kid in path:
            kid.visits += 1
            kid.wins += _reward(pens, kid.mover, self.scale, against)


def _deals(iterations: int, width: int) -> int:
    """The deals of a search with ``root="common"``: each is tried with all ``width`` moves
    of the root, one iteration each (at least one deal).

    >>> _deals(1000, 3), _deals(2, 3)
    (333, 1)
    """
    return max(1, iterations // width)


def _most(legal: LegalMoves, visits: dict[tuple[int, int], float]) -> Move:
    """The legal move with the most visits or the best mean (the first listed among
    equals)."""
    best, most = legal[0], -1.0
    for m in legal:
        n = visits.get(_key(m), 0.0)
        if n > most:
            best, most = m, n
    return best


class _Compiled:
    """The compiled search of one decision (:mod:`chickenfoot._jit.ismcts`)."""

    def __init__(
        self,
        view: View,
        legal: LegalMoves,
        agent: ISMCTSAgent,
        weights: Weights | None = None,
    ) -> None:
        if not _WARM:  # the kernel's first call compiles it (or loads it from numba's cache)
            _WARM.append(True)
            warm = deal(Rules(), 0).view(0)
            _Compiled(warm, warm.legal_moves, agent).search(random.Random(0), 1, None)
        self.rollouts = Rollouts(view.rules, legal, "heuristic", view.seat)
        self.sampler = Sampler(view, self.rollouts, weights)
        self.agent = agent
        self.width = len(legal)
        self.kernel: Any = importlib.import_module("chickenfoot._jit.ismcts")
        self.np: Any = importlib.import_module("numpy")
        self.size = 0
        self.tree: tuple[Any, ...] = ()
        self.wins: Any = None
        self.used: Any = self.np.zeros(1, dtype=self.np.int64)
        self._grow(_GROW)
        tree: Any = self.tree
        tk, ta, tm, tn, tv, tf, tl, ts = tree
        tk[0], ta[0], tm[0], tn[0], tv[0], tf[0], tl[0], ts[0] = 0, 0, view.seat, 0, 1, -1, -1, -1
        self.used[0] = 1
        self.lacking = self.np.array(public_facts(view, viewer=True), dtype=self.np.int64)
        self.against = _REWARDS.index(_rewarded(agent.against, view.rules.players))

    def _grow(self, room: int) -> None:
        np = self.np
        size = max(self.size * 2, self.size + room)
        grown = []
        for old in self.tree or [None] * 8:
            new = np.empty(size, dtype=np.int64)
            if old is not None:
                new[: self.size] = old
            grown.append(new)
        wins = np.empty(size, dtype=np.float64)
        if self.wins is not None:
            wins[: self.size] = self.wins
        self.tree, self.wins, self.size = tuple(grown), wins, size

    def _run(self, count: int) -> None:
        common = self.agent.root == "common"
        room = count * (self.width + 1) if common else count  # new nodes
        if int(self.used[0]) + room > self.size:
            self._grow(room)
        s, r = self.sampler, self.rollouts
        ok = self.kernel.iterations(
            s.pr, s.mt, s.pos, count, s.bits, s.sc, (r.px, r.py, r.val, r.withw), r.cf,
            s.hand, self.tree, self.wins, self.used, float(self.agent.explore),
            float(self.agent.scale), self.agent.opponents == "heuristic",
            self.against, common, self.lacking,
        )  # fmt: skip
        if not ok:  # pragma: no cover - assign never fails once the problem is built
            raise AssertionError("a compiled sample failed")

    def search(
        self, rng: random.Random, iterations: int, deadline: float | None
    ) -> dict[tuple[int, int], float] | None:
        """The root's children's visits or, with ``common``, their mean rewards (``None``:
        this view needs the pure sampler)."""
        s = self.sampler
        if not s.ok:
            return None
        s.start(rng)
        if self.agent.root == "common":
            iterations = _deals(iterations, self.width)
        try:
            in_chunks(self._run, iterations, deadline, _CHUNK)
        finally:
            s.finish(rng)
        tk, ta, _, tn, _, tf, _, ts = self.tree
        visits: dict[tuple[int, int], float] = {}
        c = int(tf[0])
        while c >= 0:
            if self.agent.root == "common":
                visits[(int(tk[c]), int(ta[c]))] = float(self.wins[c]) / max(1, int(tn[c]))
            else:
                visits[(int(tk[c]), int(ta[c]))] = int(tn[c])
            c = int(ts[c])
        return visits
