"""Fuzz targets of the batched engine (``chickenfoot.batch``), in the shared registry.

Importing this module registers them in ``fuzz_targets.TARGETS`` (``bench/fuzz.py`` imports
every ``tests*/fuzz_*.py``, and skips this one without numpy); ``tests/test_batch_hardening.py``
runs each for a short fixed budget. The property is ``fuzz_targets.check``'s: every call
returns, or raises a ``ChickenFootError`` or the library's own ``TypeError``, with a message
of at most ``MAX_MESSAGE`` characters (and, under ``nox -s fuzz``, in under ``MAX_SECONDS``). On top of it, checked in
the calls themselves (a broken one raises ``AssertionError``, which ``check`` reports):

* a refused ``step`` or ``reset`` changes nothing: every round's ``to_state`` (derived
  fields included) is as before;
* an accepted one did what it says: each round in play moved as ``apply`` moves it; each
  round is ``deal(rules, seed)``; the constructor's first round is its seeded deal;
  ``from_states`` holds the states; ``observe``, ``to_state`` and the playouts give what the
  core gives.

Engines are built from real states of the pool (``fuzz_targets.pool``), a few rounds of
one rules (or 130, to play on numpy rather than the core below ``CORE_BELOW``). Actions
and policy answers are *recipes* (``("row", 1, 2**70, "list")``: the legal actions with row
1 replaced by ``2**70``, as a list) made into arrays inside the call, so that a failure's
input reads as what it was. Numbers that are valid but costly (an engine of a million
rounds, a playout of a million) are left out: they are slow, not wrong.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
from hypothesis import strategies as st

import chickenfoot as cf
from chickenfoot.batch import MAX_GAMES, BatchEngine, Results
from fuzz_targets import INTS, MISSING, PY_VALUES, Case, _call, _target, pool

__all__ = ["NAMES", "STATE"]

HUGE = 10**5000

STATE = pool().states[0]
"""``deal(Rules(), seed=1)``, the pool's first state."""

NAMES: list[str] = []
"""The targets this module registers."""


def _register(name: str, inputs: st.SearchStrategy[Case], call: Any) -> None:
    NAMES.append(name)
    _target(name, inputs, call)


# -- values ---------------------------------------------------------------------------------------

NUMPY_VALUES = st.sampled_from(
    [
        np.int64(1),
        np.int8(-1),
        np.uint64(2**64 - 1),
        np.uint64(2**63),
        np.float64(1.0),
        np.float32(np.nan),
        np.True_,
        np.array(3),
        np.array([1, 2]),
        np.zeros((2, 2), dtype=np.int64),
        np.array([None], dtype=object),
        np.array(["9-4"]),
        np.datetime64("2026-01-01"),
    ]
)
JUNK = st.one_of(PY_VALUES, NUMPY_VALUES)
"""Anything a caller could pass, numpy's values included."""


def _not_costly(top: int) -> Any:
    """Filter out integers that are valid and above ``top`` (slow, not wrong)."""
    return lambda v: not (type(v) is int and top < v <= MAX_GAMES * 16)


SMALL = st.one_of(st.integers(-2, 6), INTS, JUNK).filter(_not_costly(64))
"""A small count, or anything."""

OPTIONS: dict[str, tuple[st.SearchStrategy[Any], st.SearchStrategy[Any]]] = {
    "seed": (
        st.one_of(
            st.integers(-3, 10**6), st.integers(), st.sampled_from([np.int64(7), -(10**3999)])
        ),
        st.one_of(INTS, JUNK),
    ),
    "round": (
        st.one_of(st.integers(0, 30), st.integers(0), st.sampled_from([np.uint8(3), 10**3999])),
        st.one_of(st.integers(-2, 30), INTS, JUNK),
    ),
    "auto_reset": (st.booleans(), JUNK),
    "rng_seed": (
        st.one_of(st.none(), st.integers(0, 10**6), st.integers(0), st.just(np.int16(5))),
        st.one_of(st.integers(-2, 10), INTS, JUNK),
    ),
    "max_bytes": (  # from budgets too small for one round (refused) to huge ones
        st.one_of(st.integers(1, 100_000), st.integers(1), st.just(np.int64(1 << 30))),
        st.one_of(st.integers(-2, 10), INTS, JUNK),
    ),
}
"""The constructors' options: (valid values, any values)."""


@st.composite
def mostly(draw: st.DrawFn, valid: st.SearchStrategy[Any], anything: st.SearchStrategy[Any]) -> Any:
    """A value of ``valid`` four times in five, else of ``anything`` (``st.one_of`` would
    flatten ``anything``'s many branches and pick ``valid`` rarely)."""
    return draw(valid if draw(st.integers(0, 4)) else anything)


@st.composite
def _options(draw: st.DrawFn) -> dict[str, Any]:
    """Each option left out, valid (most often) or anything."""
    out = {}
    for name, (valid, anything) in OPTIONS.items():
        pick = draw(st.integers(0, 9))
        out[name] = MISSING if pick < 3 else draw(valid) if pick < 8 else draw(anything)
    return out


@functools.cache
def _groups() -> list[list[cf.State]]:
    """The pool's states, grouped by rules."""
    out: dict[cf.Rules, list[cf.State]] = {}
    for s in pool().states:
        out.setdefault(s.rules, []).append(s)
    return list(out.values())


@st.composite
def engine_states(draw: st.DrawFn) -> list[cf.State]:
    """1 to 4 states of one rules; sometimes 130 (an engine that plays on numpy), of at
    most double-nine (130 rounds of the double-15 pool rules take over a second to play)."""
    group = draw(st.sampled_from(_groups()))
    states = draw(st.lists(st.sampled_from(group), min_size=1, max_size=4))
    if draw(st.integers(0, 9)) == 0 and group[0].rules.max_pip <= 9:
        states = (states * 130)[:130]
    return states


ENGINES = st.deferred(engine_states)


def same(a: cf.State, b: cf.State) -> bool:
    """Equal states, derived fields and outcome included."""
    return (
        a == b
        and a._ends == b._ends
        and a._pending == b._pending
        and a._need == b._need
        and a._mask == b._mask
        and a._nums == b._nums
        and a._outcome == b._outcome
    )


def _snapshot(e: BatchEngine) -> list[cf.State]:
    return [e.to_state(i) for i in range(e.n)]


def _unchanged(e: BatchEngine, before: list[cf.State], what: str) -> None:
    for i, s in enumerate(before):
        if not same(e.to_state(i), s):
            raise AssertionError(f"a refused {what} changed round {i}")


def _engine(states: list[cf.State]) -> BatchEngine:
    return BatchEngine.from_states(states, seed=100, rng_seed=0)


# -- action recipes -------------------------------------------------------------------------------

_DTYPES = [
    "int8",
    "uint8",
    "int16",
    "uint16",
    "int32",
    "uint32",
    "int64",
    "uint64",
    ">i8",
    "float32",
    "float64",
    "bool",
    "object",
    "complex64",
    "U4",
    "S2",
    "datetime64[s]",
    "timedelta64[s]",
]
_SHAPES = st.one_of(
    st.sampled_from([(), (0,), (1,), (2, 1), (1, 2), (130, 1), (3, 3), (2, 2, 2), (10**6,)]),
    st.lists(st.integers(0, 5), max_size=4).map(tuple),
)
_VALUES = st.one_of(st.integers(-3, 8000), INTS, st.sampled_from(["draw", "pass", "top"]))


class _ArrayLike:
    """What numpy reads as an array: ``value``, or an error if ``value`` is None."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        if self.value is None:
            raise RuntimeError("no array here")
        return np.asarray(self.value)

    def __repr__(self) -> str:
        return "_ArrayLike(...)"


RECIPES = st.one_of(
    st.just(("legal",)),
    st.just(("legal",)),
    st.just(("list",)),
    st.tuples(
        st.just("row"),
        st.integers(0, 200),
        _VALUES,
        st.sampled_from(["list", "int64", "uint64", "int8", "uint16", "object"]),
    ),
    st.tuples(st.just("dtype"), st.sampled_from(_DTYPES)),
    st.tuples(st.just("shape"), _SHAPES),
    st.just(("ragged",)),
    st.just(("nested",)),
    st.tuples(st.just("shift"), st.integers(1, 5000)),
    st.tuples(st.just("array-like"), st.sampled_from(["legal", "floats", "broken"])),
    st.tuples(st.just("junk"), JUNK),
)
"""How to make actions from the legal ones (see :func:`actions_of`)."""


def _value(v: Any, e: BatchEngine) -> Any:
    """``v``, with ``"draw"``, ``"pass"`` and ``"top"`` (one past the space) as their ids."""
    if not isinstance(v, str):
        return v
    return {"draw": e.encoding.draw_action, "pass": e.encoding.pass_action}.get(v, e.num_actions)


def actions_of(recipe: tuple[Any, ...], legal: Any, e: BatchEngine) -> Any:
    """The actions ``recipe`` makes from ``legal`` (one legal action per row; -1 in a row
    that is over): itself, as a list, one row replaced, another dtype or shape, ragged or
    nested lists, shifted ids, an array-like, or junk."""
    kind, *rest = recipe
    if kind == "legal":
        return legal.copy()
    if kind == "list":
        return legal.tolist()
    if kind == "row":
        r, v, form = rest
        r %= len(legal)
        v = _value(v, e)
        if form == "list":
            out = legal.tolist()
            out[r] = v
            return out
        arr = legal.astype(form)
        try:
            arr[r] = v
        except (OverflowError, ValueError, TypeError):  # no such value in that dtype
            out = legal.tolist()
            out[r] = v
            return out
        return arr
    if kind == "dtype":
        try:
            return legal.astype(rest[0])
        except (ValueError, TypeError, OverflowError):
            return legal.astype(object)
    if kind == "shape":
        return np.resize(legal, rest[0])
    if kind == "ragged":
        return [[int(x)] * (i % 3) for i, x in enumerate(legal)]
    if kind == "nested":
        return [[int(x)] for x in legal]
    if kind == "shift":
        return (legal + rest[0]) % (e.num_actions + 7)
    if kind == "array-like":
        form = rest[0]
        return _ArrayLike(None if form == "broken" else legal if form == "legal" else legal * 1.0)
    return rest[0]


# -- the constructors -----------------------------------------------------------------------------


RULES_ARGS = st.one_of(st.deferred(lambda: st.sampled_from(pool().rules)), JUNK)
"""Rules, or anything."""


def _new(rules: Any, n: Any, **options: Any) -> Any:
    e = _call(BatchEngine, rules, n, **options)
    seed = options.get("seed", 0)
    rnd = options.get("round", 0)
    seed, rnd = (0 if seed is MISSING else int(seed)), (0 if rnd is MISSING else int(rnd))
    if not same(e.to_state(0), cf.deal(rules, seed, rnd)):
        raise AssertionError("round 0 is not the seeded deal")
    return e


_RULES_VALID = st.deferred(lambda: st.sampled_from(pool().rules))
_register(
    "BatchEngine(rules, n)",
    st.builds(
        lambda r, n, options: Case(r, n, **options),
        mostly(_RULES_VALID, RULES_ARGS),
        mostly(st.integers(1, 6), SMALL),
        _options(),
    ),
    _new,
)


@st.composite
def _states_args(draw: st.DrawFn) -> Any:
    states: Any = draw(ENGINES)
    how = draw(st.integers(0, 15))
    if how == 0:
        states = list(states)
        states.insert(draw(st.integers(0, len(states))), draw(JUNK))
    elif how == 1:
        other = draw(st.sampled_from(_groups()))
        states = [*states, other[0]]
    elif how == 2:
        states = tuple(states)
    elif how == 3:
        states = draw(st.one_of(JUNK, st.sampled_from([[], range(10**20), iter(states)])))
    return states


def _from_states(states: Any, **options: Any) -> Any:
    e = _call(BatchEngine.from_states, states, **options)
    if e.n != len(states) or not all(same(e.to_state(i), s) for i, s in enumerate(states)):
        raise AssertionError("from_states does not hold the states")
    return e


_register(
    "BatchEngine.from_states",
    st.builds(lambda states, options: Case(states, **options), _states_args(), _options()),
    _from_states,
)


# -- step, reset ----------------------------------------------------------------------------------


def _step(states: list[cf.State], recipe: tuple[Any, ...]) -> Any:
    e = _engine(states)
    legal = e.random_actions()
    actions = actions_of(recipe, legal, e)
    before = _snapshot(e)
    try:
        rewards, done = e.step(actions)
    except BaseException:
        _unchanged(e, before, "step")
        raise
    # accepted: every round in play made its action's move, as apply makes it
    enc = e.encoding
    plain = np.asarray(actions).astype(np.int64) if not isinstance(actions, list) else actions
    for i, s in enumerate(before):
        if s.is_over():
            if not same(e.to_state(i), s) or done[i] or rewards[i].any():
                raise AssertionError(f"finished round {i} changed")
            continue
        after = cf.apply(s, enc.move(int(plain[i])))
        if not same(e.to_state(i), after) or bool(done[i]) != after.is_over():
            raise AssertionError(f"round {i} did not move as apply moves it")
        want = [-p for p in after.penalties()] if after.is_over() else [0] * s.rules.players
        if rewards[i].tolist() != want:
            raise AssertionError(f"round {i}: rewards {rewards[i].tolist()}, not {want}")
    return rewards, done


_register(
    "BatchEngine.step",
    st.builds(Case, ENGINES, RECIPES),
    _step,
)


@st.composite
def _seeds_args(draw: st.DrawFn) -> Case:
    states = draw(ENGINES)
    n = len(states) + draw(st.sampled_from([0, 0, 0, -1, 1]))
    item = st.one_of(
        st.integers(-5, 10**6), INTS, st.sampled_from([np.int64(3), np.uint64(2**64 - 1)])
    )
    seeds: Any = draw(st.lists(item, min_size=max(n, 0), max_size=max(n, 0)))
    how = draw(st.integers(0, 9))
    if how == 0 and seeds:
        seeds[draw(st.integers(0, len(seeds) - 1))] = draw(JUNK)
    elif how == 1:
        seeds = np.array([draw(st.integers(-(2**63), 2**63 - 1)) for _ in range(max(n, 0))])
    elif how == 2:
        seeds = tuple(seeds)
    elif how == 3:
        seeds = draw(st.one_of(JUNK, st.sampled_from([range(10**20), range(len(states)), {0: 1}])))
    return Case(states, seeds)


def _reset(states: list[cf.State], seeds: Any) -> Any:
    e = _engine(states)
    before = _snapshot(e)
    try:
        e.reset(seeds)
    except BaseException:
        _unchanged(e, before, "reset")
        raise
    for i in range(e.n):  # (seeds=None: the engine's next ones, from 100)
        seed = 100 + i if seeds is None else int(seeds[i])
        if not same(e.to_state(i), cf.deal(e.rules, seed)):
            raise AssertionError(f"round {i} is not deal(rules, {seed})")
    return e


_register("BatchEngine.reset(seeds)", _seeds_args(), _reset)


# -- reads ----------------------------------------------------------------------------------------


def _observe(states: list[cf.State], seat: Any) -> Any:
    e = _engine(states)
    obs = e.observe(seat)
    if obs.shape != (e.n, e.observation_size) or obs.dtype != np.float32:
        raise AssertionError(f"observe returned shape {obs.shape}, dtype {obs.dtype}")
    s = states[0]
    want = e.encoding.observe(s.view(s.turn if seat is None else int(seat)))
    if not (obs[0] == want).all():
        raise AssertionError("observe's row 0 is not the encoding's observation")
    return obs


_register(
    "BatchEngine.observe(seat)",
    st.builds(Case, ENGINES, mostly(st.none() | st.integers(0, 2), st.integers(-2, 11) | SMALL)),
    _observe,
)


def _to_state(states: list[cf.State], i: Any) -> Any:
    e = _engine(states)
    s = e.to_state(i)
    if not same(s, states[int(i)]):
        raise AssertionError(f"to_state({i}) is not the state given")
    return s


_register(
    "BatchEngine.to_state(i)",
    st.builds(Case, ENGINES, mostly(st.integers(0, 3), st.one_of(st.integers(-2, 140), SMALL))),
    _to_state,
)


# -- playouts -------------------------------------------------------------------------------------

KS = mostly(
    st.sampled_from([MISSING, None, 0, 1, 2, 3, 4, 5, 6, np.int64(3)]),
    st.one_of(st.sampled_from([-1, -2, 10**10, 2**40, 2**64, HUGE]), INTS, JUNK).filter(
        _not_costly(6)
    ),
)


def _finished(e: BatchEngine, res: Any, k: Any) -> Any:
    want = e.n if k is MISSING or k is None else int(k)
    if not isinstance(res, Results) or len(res) != want:
        raise AssertionError(f"returned {res!r}, not the Results of {want} rounds")
    if res.penalties.shape != (want, e.rules.players):
        raise AssertionError(f"penalties of shape {res.penalties.shape}")
    played = e.n if k is MISSING or k is None else min(want, e.n)
    for i in range(played):  # these lanes hold finished rounds
        if not e.to_state(i).is_over():
            raise AssertionError(f"lane {i} is not over")
    return res


def _random_playout(states: list[cf.State], k: Any) -> Any:
    e = _engine(states)
    return _finished(e, e.random_playout() if k is MISSING else e.random_playout(k), k)


_register("BatchEngine.random_playout(k)", st.builds(Case, ENGINES, KS), _random_playout)


class _Policy:
    """Answers the first legal action of each row ``legal`` times, then ``recipe``'s."""

    def __init__(self, recipe: tuple[Any, ...], legal: int, engine: BatchEngine) -> None:
        self.recipe, self.legal, self.engine = recipe, legal, engine

    def __call__(self, obs: Any, mask: Any) -> Any:
        first = np.where(mask.any(axis=1), mask.argmax(axis=1), -1)
        if self.legal > 0:
            self.legal -= 1
            return first
        return actions_of(self.recipe, first, self.engine)


def _playout(states: list[cf.State], recipe: tuple[Any, ...], k: Any, legal: int = 0) -> Any:
    e = _engine(states)
    policy = _Policy(recipe, legal, e)
    return _finished(e, e.playout(policy) if k is MISSING else e.playout(policy, k), k)


_register(
    "BatchEngine.playout(policy, k)",
    st.builds(
        lambda states, recipe, k, legal: Case(states, recipe, k, legal=legal),
        ENGINES,
        RECIPES,
        KS,
        st.integers(0, 3),
    ),
    _playout,
)


# -- Results --------------------------------------------------------------------------------------


@st.composite
def _results_args(draw: st.DrawFn) -> Case:
    k, p = draw(st.integers(0, 3)), draw(st.integers(2, 4))
    parts: list[Any] = [
        draw(st.lists(st.integers(-5, 10**6), min_size=k, max_size=k)),
        np.zeros(k, dtype=np.int64),
        np.zeros((k, p), dtype=np.int64),
        np.zeros(k, dtype=np.int64),
    ]
    for _ in range(draw(st.integers(0, 2))):
        part = draw(st.integers(0, 3))
        parts[part] = draw(
            st.one_of(
                JUNK,
                st.sampled_from(
                    [np.zeros(k + 1, np.int64), np.zeros((k, p), np.float64), [0] * k, [HUGE]]
                ),
            )
        )
    return Case(*parts)


def _results(*parts: Any) -> Any:
    res = Results(*parts)
    if len(res) != len(parts[0]):
        raise AssertionError("Results has another length than its seeds")
    return res


_register("Results(...)", _results_args(), _results)
