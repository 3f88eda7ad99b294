"""The argument checks of the batched engine: one place for what its public calls take.

Both constructors, every public method of :class:`~._engine.BatchEngine` and the
constructor of :class:`~._results.Results` check their arguments with these functions
(built on :mod:`chickenfoot._checks`) before anything is allocated or any round changes,
and refuse a wrong value with the library's errors, with one bounded line that names the
argument (docs/batch.md, "Bad input").

Actions, from :meth:`~._engine.BatchEngine.step` or from a policy, become an integer
array here (:func:`action_array`), without numpy ever being asked to guess: a numpy
integer array as it is, a list of ints (any size: one no ``int64`` holds is kept to be
shown), or an array-like that ``numpy.asarray`` makes an integer array of. Their values
are judged against the rounds by the engine (``_check_actions``).

>>> options(1, 0, "no", None)
Traceback (most recent call last):
...
chickenfoot.errors.ArgumentError: auto_reset='no' is invalid: must be True or False
>>> action_array([4, 2**70], 2, STEP)[0].tolist()
[4, -1]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from chickenfoot import _checks as checks
from chickenfoot.errors import ArgumentError, ChickenFootError, SeatError, brief
from chickenfoot.rules import Rules
from chickenfoot.state import State

if TYPE_CHECKING:
    from numpy.typing import NDArray

    I64 = NDArray[np.int64]

MAX_GAMES: Final = 1 << 20
"""The most rounds one engine holds (1,048,576)."""

_INT64: Final = 1 << 63


def rules_arg(rules: object) -> Rules:
    """``rules`` if it is a :class:`~chickenfoot.Rules`."""
    if not isinstance(rules, Rules):
        raise checks.invalid("rules", rules, "must be a Rules object")
    return rules


def size_arg(n: object) -> int:
    """The number of rounds ``n``: an integer from 1 to :data:`MAX_GAMES`."""
    must = f"must be an integer from 1 to {MAX_GAMES:,} (rounds held at once)"
    return checks.integer(n, "n", low=1, high=MAX_GAMES, index=True, must=must)


def options(
    seed: object, round: object, auto_reset: object, rng_seed: object
) -> tuple[int, int, bool, int | None]:
    """The options both constructors take, checked: the first ``seed`` and the ``round`` of
    the deals (integers of at most 4,000 digits, the round from 0, as :func:`~chickenfoot.deal`
    takes them), ``auto_reset`` (a bool) and ``rng_seed`` (None or an integer from 0)."""
    first = checks.seed(seed, "seed", index=True)
    rnd = checks.seed(round, "round", low=0, index=True)
    auto = checks.flag(auto_reset, "auto_reset")
    rng = None if rng_seed is None else checks.seed(rng_seed, "rng_seed", low=0, index=True)
    return first, rnd, auto, rng


BACKENDS: Final = ("auto", "numba", "numpy")
DEALS: Final = ("exact", "fast")


def backend_arg(backend: object, deals: object, *, numba: bool) -> tuple[str, bool]:
    """The backend, ``"auto"`` resolved (``"numba"`` when ``numba`` says it can be imported:
    ``_compiled.available()``, asked by the engine), and whether ``deals`` is ``"fast"``
    (``"exact"`` or ``"fast"``). ``"numba"`` without numba installed is refused, naming the
    extra that brings it."""
    if not isinstance(backend, str) or backend not in BACKENDS:
        raise checks.invalid("backend", backend, "must be 'auto', 'numba' or 'numpy'")
    if not isinstance(deals, str) or deals not in DEALS:
        raise checks.invalid("deals", deals, "must be 'exact' or 'fast'")
    if backend == "auto":
        backend = "numba" if numba else "numpy"
    elif backend == "numba" and not numba:
        raise ArgumentError(
            "backend='numba' needs numba, which is not installed: "
            "pip install 'chickenfoot[fast]' (or use backend='numpy')"
        )
    return backend, deals == "fast"


def seeds_arg(seeds: object, n: int) -> list[int]:
    """``seeds`` (a sequence or a 1-D numpy array) as ``n`` ints of at most 4,000 digits."""
    given: Any = seeds
    if not (isinstance(given, np.ndarray) and given.ndim == 1):
        given = checks.sequence(seeds, "seeds", "ints", low=n, high=n)
    elif len(given) != n:
        raise ArgumentError(f"seeds has {len(given):,} items: must have {n:,}")
    return [checks.seed(x, f"seeds[{i}]", index=True) for i, x in enumerate(given)]


def states_arg(states: object) -> list[State]:
    """``states``: 1 to :data:`MAX_GAMES` :class:`~chickenfoot.State`\\ s of one rules."""
    given = list(checks.sequence(states, "states", "States", low=1, high=MAX_GAMES))
    for j, s in enumerate(given):
        if not isinstance(s, State):
            raise checks.invalid(f"states[{j}]", s, "must be a State")
    if not given:  # a sequence whose len and items disagree
        raise ArgumentError("states has no items: must have from 1")
    rules = given[0].rules
    for j, s in enumerate(given):
        if s.rules != rules:
            raise ArgumentError(f"states[{j}] has other rules than states[0]")
    return given


def index_arg(i: object, n: int) -> int:
    """The round ``i``: an integer from 0 to ``n - 1``."""
    return checks.integer(
        i, "i", low=0, high=n - 1, index=True, must=f"must be a round from 0 to {n - 1:,}"
    )


def seat_arg(seat: object, players: int) -> int | None:
    """``None`` or a seat from 0 to ``players - 1``."""
    if seat is None:
        return None
    must = f"must be None or a seat from 0 to {players - 1}"
    # SeatError, as the core's view(state, seat) raises: one error for a seat everywhere
    return checks.integer(
        seat, "seat", low=0, high=players - 1, index=True, must=must, error=SeatError
    )


def out_arg(out: object, shape: tuple[int, ...], dtype: Any) -> Any:
    """``out``: None, or a C-contiguous writable numpy array of ``shape`` and ``dtype``."""
    if out is None:
        return None
    if (
        not isinstance(out, np.ndarray)
        or out.shape != shape
        or out.dtype != dtype
        or not out.flags.c_contiguous
        or not out.flags.writeable
    ):
        must = (
            f"must be None or a writable C-contiguous {np.dtype(dtype).name} array of shape {shape}"
        )
        raise checks.invalid("out", out, must)
    return out


def rounds_arg(k: object, top: int) -> int | None:
    """``None`` or a number of rounds to play, from 0 to ``top``
    (:func:`~._results.max_playout`: the rounds whose results fit in memory)."""
    if k is None:
        return None
    must = (
        f"must be None or an integer from 0 to {top:,} (the most rounds whose Results fit "
        "in 1 GiB, BatchEngine.max_playout)"
    )
    return checks.integer(k, "k", low=0, high=top, index=True, must=must)


# -- actions ------------------------------------------------------------------------------------


class Source:
    """Who gave the actions, for the messages: ``step``'s argument or a policy's answer."""

    __slots__ = ("policy",)

    def __init__(self, policy: bool) -> None:
        self.policy = policy

    def whole(self, value: object, must: str) -> ChickenFootError:
        """The error for ``value`` as a whole (it is not an action array at all)."""
        if self.policy:
            return ArgumentError(f"the policy returned {brief(value)}: {must}")
        return checks.invalid("actions", value, must)

    def name(self, r: int) -> str:
        """How a message names item ``r`` of the actions."""
        return f"the policy's answer[{r}]" if self.policy else f"actions[{r}]"

    def shown(self, r: int, rnd: int, value: object) -> str:
        """Item ``r`` of the actions, ``value``, which is for round ``rnd``, in a message."""
        if self.policy:
            return f"the policy's answer[{r}]={brief(value)} (round {rnd})"
        return f"actions[{rnd}]={brief(value)}"

    def rows(self) -> str:
        """What the items of the actions are, in a message."""
        return "one action per row of its observations" if self.policy else "one per round"


STEP: Final = Source(policy=False)
POLICY: Final = Source(policy=True)


def action_array(value: object, n: int, source: Source) -> tuple[I64, list[Any] | None]:
    """``value`` as an integer array of shape ``(n,)``, and for a list its items (which
    show a value that no ``int64`` holds: such values are -1 in the array, outside the
    action space). Refuses anything else with an :class:`~chickenfoot.ArgumentError`."""
    must = f"must be an integer numpy array or a list of ints, of shape ({n},)"
    arr: Any
    if isinstance(value, np.ndarray):
        arr = value if type(value) is np.ndarray else np.asarray(value)  # a subclass: its data
    elif isinstance(value, (list, tuple)):
        return _from_list(value, n, source)
    elif _array_like(value):
        try:
            arr = np.asarray(value)
        except Exception:  # a foreign object that numpy cannot read
            raise source.whole(value, must) from None
    else:
        raise source.whole(value, must)
    if not isinstance(arr, np.ndarray) or arr.dtype.kind not in "iu":
        dtype = str(getattr(arr, "dtype", type(arr).__name__))
        dtype = dtype if len(dtype) <= 60 else f"{dtype[:60]}... ({len(dtype):,} characters)"
        raise source.whole(value, f"must be an integer array (it has dtype {dtype})")
    if arr.shape != (n,):
        raise source.whole(
            value, f"must have shape ({n},), {source.rows()} (it has shape {brief(arr.shape)})"
        )
    return arr, None


def _array_like(value: object) -> bool:
    kind = type(value)
    return any(hasattr(kind, a) for a in ("__array__", "__array_interface__", "__array_struct__"))


def _from_list(value: Sequence[Any], n: int, source: Source) -> tuple[I64, list[Any]]:
    items = list(value)
    if len(items) != n:
        words = f"{n:,} item{'' if n == 1 else 's'}, {source.rows()}"
        raise source.whole(value, f"must have {words} (it has {len(items):,})")
    for r, x in enumerate(items):
        if type(x) is not int and not isinstance(x, np.integer):
            raise checks.invalid(source.name(r), x, "must be an integer action id")
    try:
        arr: I64 = np.array(items, dtype=np.int64)
    except OverflowError:  # an int that no int64 holds: outside the space, shown as given
        arr = np.array([x if -_INT64 <= x < _INT64 else -1 for x in map(int, items)], np.int64)
    return arr, items


# -- results --------------------------------------------------------------------------------------


def results_args(seeds: object, out: object, penalties: object, plies: object) -> list[int]:
    """The parts of :class:`~._results.Results`, checked: ``seeds`` (a sequence of ints),
    ``out`` and ``plies`` integer arrays of shape ``(k,)`` and ``penalties`` ``(k, players)``;
    returns the seeds as a list."""
    given = checks.sequence(seeds, "seeds", "ints")
    listed = [checks.seed(x, f"seeds[{i}]", index=True) for i, x in enumerate(given)]
    k = len(listed)
    for name, part, ndim in (("out", out, 1), ("penalties", penalties, 2), ("plies", plies, 1)):
        shape: Any = getattr(part, "shape", None) if isinstance(part, np.ndarray) else None
        kind = part.dtype.kind if isinstance(part, np.ndarray) else ""
        if kind not in ("i", "u") or len(shape) != ndim or shape[0] != k:
            cols = ", players" if ndim == 2 else ""
            raise checks.invalid(name, part, f"must be an integer numpy array of shape ({k}{cols})")
    return listed
