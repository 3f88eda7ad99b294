"""The typed boundary of the ``numba`` backend: the engine's calls, run by the kernels.

numba is imported here lazily (:func:`load`, when an engine with ``backend="numba"`` is
made), never by ``import chickenfoot.batch``; the kernels (:mod:`chickenfoot._jit`) are
untyped and reached only through this module, as ``Any``. They are compiled on first use and cached on disk (numba's
``cache=True``: in ``__pycache__`` beside them, or ``NUMBA_CACHE_DIR``), so a machine pays
the compile once (docs/batch.md, "Backends").
"""

from __future__ import annotations

import importlib
import importlib.util
import random
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from chickenfoot.rules import Rules
from chickenfoot.tiles import DOUBLE_ID, set_size

from ._results import Results
from ._shuffle import BLOCK, MT0, keys_by_length, shuffled_many
from ._tables import tables

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from ._store import Store
    from ._tables import Tables

    I64 = NDArray[np.int64]
    Bools = NDArray[np.bool_]

_M64: Final = (1 << 64) - 1
_MODULES: dict[str, Any] = {}
_agree: list[bool] = []


def available() -> bool:
    """Whether numba can be imported (without importing it)."""
    return importlib.util.find_spec("numba") is not None


def load() -> tuple[Any, Any]:
    """The kernel modules (imports numba on the first call)."""
    if not _MODULES:
        _MODULES["run"] = importlib.import_module("chickenfoot._jit.run")
        _MODULES["deal"] = importlib.import_module("chickenfoot._jit.deal")
        _MODULES["keys"] = importlib.import_module("chickenfoot._jit.keys")
    return _MODULES["run"], _MODULES["deal"]


_I64_MIN: Final = -(1 << 63)


def _seeds64(seeds: list[int]) -> I64 | None:
    """The seeds as int64, or None if one is out of its range."""
    if not seeds or min(seeds) < _I64_MIN or max(seeds) > _M64 >> 1:
        return None
    out: I64 = np.array(seeds, dtype=np.int64)
    return out


def compiled_keys(seeds: I64, rnd: int) -> tuple[NDArray[np.uint64], I64]:
    """:func:`keys_of` the texts ``f"{seed}:{rnd}"``, computed in the kernel
    (:func:`chickenfoot._jit.keys.seed_keys`; ``rnd`` of at most 63 digits)."""
    rtext = np.frombuffer(f":{rnd}".encode(), dtype=np.uint8).copy()
    keys = np.zeros((len(seeds), 40), dtype=np.uint64)  # (1 + 20 + 64 + 64 bytes) / 4
    lens = np.zeros(len(seeds), dtype=np.int64)
    msg, w = np.zeros(256, dtype=np.uint8), np.zeros(80, dtype=np.uint64)
    _MODULES["keys"].seed_keys(seeds, rtext, msg, w, keys, lens)
    return keys, lens


def keys_agree() -> bool:
    """Whether :func:`compiled_keys` gives :func:`keys_of`'s keys (checked once a process)."""
    if not _keys_agree:
        seeds = [0, 1, -1, 9, 10, -17, 123456789, (1 << 63) - 1, _I64_MIN, 10**18, -(10**18)]
        ok = True
        for rnd in (0, 3, 12, 10**62):
            got, glens = compiled_keys(np.array(seeds, dtype=np.int64), rnd)
            want, wlens = keys_of([f"{s}:{rnd}" for s in seeds])
            ok = ok and glens.tolist() == wlens.tolist()
            ok = ok and bool((got[:, : want.shape[1]] == want).all())
            ok = ok and not got[:, want.shape[1] :].any()
        _keys_agree.append(ok)
    return _keys_agree[0]


_keys_agree: list[bool] = []


def keys_of(texts: list[str]) -> tuple[NDArray[np.uint64], I64]:
    """The ``init_by_array`` keys of the texts, one row each, padded, and their lengths."""
    groups = keys_by_length(texts)
    width = max(groups)
    keys = np.zeros((len(texts), width), dtype=np.uint64)
    lens = np.zeros(len(texts), dtype=np.int64)
    for words, (cols, key) in groups.items():
        keys[cols, :words] = key.T
        lens[cols] = words
    return keys, lens


_NO_KEYS: Final = (np.zeros((1, 1), dtype=np.uint64), np.ones(1, dtype=np.int64))
_NO_ORDERS: Final = np.zeros((1, 1), dtype=np.int64)
_NO_SEEDS: Final = np.zeros(1, dtype=np.uint64)
_B1: Final = np.zeros(1, dtype=np.bool_)
_B2: Final = np.zeros((1, 1), dtype=np.bool_)
_I1: Final = np.zeros(1, dtype=np.int64)
_I2: Final = np.zeros((1, 1), dtype=np.int64)
_F2: Final = np.zeros((1, 1), dtype=np.float32)
_MOVES: Final = (_I1, _I1, _I1)


class Compiled:
    """The compiled calls of one engine's rules (``tb``); ``fast``: fast deals."""

    def __init__(self, tb: Tables, fast: bool) -> None:
        self.k, self.dl = load()
        rules = tb.rules
        self.fast = fast
        self.cf = np.array(
            [
                tb.S,
                tb.V,
                tb.W,
                tb.P,
                tb.slots,
                tb.A,
                tb.DRAW,
                tb.PASS,
                rules.draw == "until_playable",
                rules.may_draw_instead,
                rules.drawn_tile == "may_play",
                rules.opening_toes,
                rules.foot_toes,
                rules.hand_size,
                rules.centre == "set_aside",
                tb.bone0,
            ],
            dtype=np.int64,
        )
        self.tb = (tb.WITH, tb.PX, tb.PY, tb.PIP, tb.SLOT, tb.ANCH)
        names = ["hand", "table", "anchors", "open_numbers", "pending", "toes_needed"]
        names += ["centre", "drawn", "hand_sizes", "boneyard", "turn"]
        self.off = np.array([tb.enc._span(k)[0] for k in names], dtype=np.int64)
        self.obs_size = tb.enc.observation_size
        self.rules = rules
        self.mt0 = MT0.astype(np.uint64)
        self.sc = scratch(tb.S, tb.A)
        self.lo = local_scratch(tb.S, tb.V, tb.W, tb.P)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (and copied) as what it is made of: its kernels are modules, which do not
        pickle, so they are loaded again (a checkpoint of an engine is a pickle)."""
        return (_remade, (self.rules, self.fast))

    # -- deals -----------------------------------------------------------------------------------

    def _round(self, rnd: int) -> tuple[I64, int, int]:
        rules = self.rules
        centre = DOUBLE_ID[rules.centre_of_round(rnd)]
        tiles = list(range(set_size(rules.max_pip)))
        if rules.centre == "set_aside":
            del tiles[centre]
        return np.array(tiles, dtype=np.int64), centre, rules.leader_of_round(rnd)

    def _source(
        self, e: Store, seeds: list[int]
    ) -> tuple[int, NDArray[np.uint64], I64, NDArray[np.uint64], I64]:
        """How the deals of ``seeds`` are shuffled: ``(mode, keys, klens, seeds64, orders)``."""
        if self.fast:
            fit = _seeds64(seeds)  # the seeds mod 2**64: as int64 if they fit (faster)
            if fit is not None:
                s64 = fit.view(np.uint64)
            else:
                s64 = np.array([s & _M64 for s in seeds], dtype=np.uint64)
            return 1, _NO_KEYS[0], _NO_KEYS[1], s64, _NO_ORDERS
        if len(seeds) < 4 or not self.agrees():
            orders = np.ascontiguousarray(shuffled_many(self.rules, seeds, e.round))
            return 2, _NO_KEYS[0], _NO_KEYS[1], _NO_SEEDS, orders
        given = _seeds64(seeds) if e.round < 10**63 else None
        if given is not None and keys_agree():
            keys, lens = compiled_keys(given, e.round)
        else:
            keys, lens = keys_of([f"{s}:{e.round}" for s in seeds])
        return 0, keys, lens, _NO_SEEDS, _NO_ORDERS

    def agrees(self) -> bool:
        """Whether the compiled shuffle gives ``random.Random``'s (checked once a process)."""
        if not _agree:
            ok = True
            # 16 keys of one length (seeded together), then keys of other lengths
            same = [f"{1000 + q}:7" for q in range(16)]
            for texts in (same, ["0:0", "-17:3", f"{2**200}:1", "123456789:12"]):
                tiles = np.arange(90, dtype=np.int64)
                keys, lens = keys_of(texts)
                got = np.zeros((len(texts), 90), dtype=np.int64)
                self.dl.shuffles(scratch(90, 1), 0, tiles, self.mt0, keys, lens,
                                 np.zeros(2, dtype=np.uint64), _NO_SEEDS, np.uint64(0),
                                 _NO_ORDERS, got)  # fmt: skip
                for row, text in zip(got.tolist(), texts, strict=True):
                    want = list(range(90))
                    random.Random(text).shuffle(want)
                    ok = ok and row == want
            _agree.append(ok)
        return _agree[0]

    def deal(self, e: Store, g: I64, seeds: list[int], key: NDArray[np.uint64]) -> None:
        """Deal ``seeds[j]`` into lane ``g[j]``."""
        tiles, centre, leader = self._round(e.round)
        for i in range(0, len(g), BLOCK):
            part = seeds[i : i + BLOCK]
            mode, keys, lens, s64, orders = self._source(e, part)
            lanes = np.ascontiguousarray(g[i : i + BLOCK], dtype=np.int64)
            dl = (mode, orders, tiles, self.mt0, keys, lens, key, s64, np.uint64(e.round & _M64),
                  centre, leader, 0, 0, 0)  # fmt: skip
            self._play(0, e, lanes, dl=dl)
        for j, lane in enumerate(g.tolist()):
            e.seeds[lane] = seeds[j]

    def _dl(self) -> tuple[Any, ...]:
        return (0, _NO_ORDERS, _I1, self.mt0, _NO_KEYS[0], _NO_KEYS[1], _NO_SEEDS, _NO_SEEDS,
                np.uint64(0), 0, 0, 0, 0, 0)  # fmt: skip

    def _play(
        self,
        op: int,
        e: Store,
        lanes: I64 = _I1,
        rs: NDArray[np.uint64] = _NO_SEEDS,
        moves: tuple[I64, I64, I64] = _MOVES,
        ended: Bools = _B1,
        dl: tuple[Any, ...] | None = None,
        out: I64 = _I1,
        pens: I64 = _I2,
        plies: I64 = _I1,
    ) -> None:
        """:func:`chickenfoot._jit.run.play`, the arguments ``op`` does not use filled in."""
        self.k.play(op, arrays(e), self.cf, self.tb, self.sc, self.lo, rs, _lanes(lanes), moves, ended,
                    self._dl() if dl is None else dl, out, pens, plies)  # fmt: skip

    def _read(
        self,
        op: int,
        e: Store,
        lanes: I64,
        seat: int = -1,
        mask: Bools = _B2,
        ids: I64 = _I2,
        obs: NDArray[np.float32] = _F2,
        counts: I64 = _I1,
        act: I64 = _I1,
        moves: tuple[I64, I64, I64] = _MOVES,
    ) -> int:
        """:func:`chickenfoot._jit.run.read`, the arguments ``op`` does not use filled in."""
        got = self.k.read(op, arrays(e), self.cf, self.tb, self.sc, _lanes(lanes), seat,
                          self.off, mask, ids, obs, counts, act, moves)  # fmt: skip
        return int(got)

    # -- reads -------------------------------------------------------------------------------------

    def legal_mask(self, e: Store, lanes: I64, out: Bools | None = None) -> Bools:
        if out is None:
            out = np.empty((len(lanes), int(self.cf[5])), dtype=bool)  # the kernel clears it
        self._read(0, e, lanes, mask=out)
        return out

    def legal_actions(self, e: Store, lanes: I64) -> I64:
        counts = np.zeros(len(lanes), dtype=np.int64)
        self._read(1, e, lanes, counts=counts)
        out = np.full((len(lanes), int(counts.max(initial=0))), -1, dtype=np.int64)
        self._read(2, e, lanes, ids=out)
        return out

    def observe(
        self, e: Store, g: I64, seat: int | None, out: NDArray[np.float32] | None = None
    ) -> NDArray[np.float32]:
        if out is None:
            out = np.empty((len(g), self.obs_size), dtype=np.float32)  # the kernel clears it
        me = -1 if seat is None else seat
        self._read(3, e, g, seat=me, obs=out)
        return out

    def penalties(self, e: Store, g: I64) -> I64:
        out = np.zeros((len(g), int(self.cf[3])), dtype=np.int64)
        self._read(5, e, g, ids=out)
        return out

    # -- moves ------------------------------------------------------------------------------------

    def check(self, e: Store, act: I64, g: I64) -> tuple[I64, I64, I64] | None:
        """The moves ``(kind, tile, anchor)`` of the actions, or None if one is not legal."""
        k = len(g)
        kind = np.zeros(k, dtype=np.int64)
        tile = np.zeros(k, dtype=np.int64)
        anc = np.zeros(k, dtype=np.int64)
        a = np.ascontiguousarray(act, dtype=np.int64)
        bad = self._read(4, e, g, act=a, moves=(kind, tile, anc))
        return None if bad >= 0 else (kind, tile, anc)

    def apply(self, e: Store, g: I64, kind: I64, t: I64, a: I64) -> I64:
        """Make the checked moves; returns the rounds that ended."""
        ended = np.zeros(len(g), dtype=np.bool_)
        ln = _lanes(g)
        self._play(3, e, ln, moves=(_lanes(kind), _lanes(t), _lanes(a)), ended=ended)
        out: I64 = ln[ended]
        return out

    def random_actions(self, e: Store, rs: NDArray[np.uint64]) -> I64:
        out = np.zeros(e.n, dtype=np.int64)
        self._play(2, e, rs=rs, out=out)
        return out

    def random_steps(self, e: Store, g: I64, rs: NDArray[np.uint64]) -> None:
        """One step of the random playout in each round ``g`` (none over)."""
        self._play(1, e, g, rs=rs)

    def random_playout(
        self, e: Store, k: int | None, rs: NDArray[np.uint64], key: NDArray[np.uint64]
    ) -> Results:
        """``random_playout(k)``: round ``j`` of ``k`` in lane ``j % min(k, n)``."""
        p, n = int(self.cf[3]), e.n
        if k is None:
            seeds = [-1 if x is None else x for x in e.seeds]
            out = np.zeros(n, dtype=np.int64)
            pens = np.zeros((n, p), dtype=np.int64)
            plies = np.zeros(n, dtype=np.int64)
            self._play(4, e, np.arange(n), rs=rs, out=out, pens=pens, plies=plies)
            return Results._of(seeds, out, pens, plies)
        seeds = e._take_seeds(k)
        out = np.zeros(k, dtype=np.int64)
        pens = np.zeros((k, p), dtype=np.int64)
        plies = np.zeros(k, dtype=np.int64)
        h = min(k, n)
        tiles, centre, leader = self._round(e.round)
        r64 = np.uint64(e.round & _M64)
        for j0 in range(0, k, BLOCK):
            j1 = min(j0 + BLOCK, k)
            mode, keys, lens, s64, orders = self._source(e, seeds[j0:j1])
            dl = (
                mode,
                orders,
                tiles,
                self.mt0,
                keys,
                lens,
                key,
                s64,
                r64,
                centre,
                leader,
                h,
                j0,
                k,
            )
            self._play(5, e, rs=rs, dl=dl, out=out[j0:j1], pens=pens[j0:j1], plies=plies[j0:j1])
        for i in range(h):
            e.seeds[i] = seeds[i + h * ((k - 1 - i) // h)]
        return Results._of(seeds, out, pens, plies)


def _remade(rules: Rules, fast: bool) -> Compiled:
    """The :class:`Compiled` calls of ``rules``, made again (for :meth:`Compiled.__reduce__`)."""
    return Compiled(tables(rules), fast)


def scratch(tiles: int, actions: int) -> tuple[Any, ...]:
    """The kernels' working arrays (they allocate nothing: compiled without numba's
    reference counting, ``_nrt=False``, which costs more than the rules themselves): a
    shuffle's tiles, an MT19937 state and its position, a generator state, a row of
    action ids, the MT19937 states seeded together (``LANES`` of
    :mod:`chickenfoot._jit.deal`, which must be loaded), which deals they are, their keys
    and their first outputs (twice: by output, by state)."""
    dl = _MODULES["deal"]
    lanes, keyw, outs = dl.LANES, dl.KEYW, dl.OUTS
    return (np.zeros(tiles, dtype=np.int64), np.zeros(624, dtype=np.uint64),
            np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.uint64),
            np.zeros(actions, dtype=np.int64), np.zeros((624, lanes), dtype=np.uint32),
            np.zeros(2, dtype=np.int64), np.zeros((keyw + 1, lanes), dtype=np.uint32),
            np.zeros((outs, lanes), dtype=np.uint32),
            np.zeros((lanes, outs), dtype=np.uint32))  # fmt: skip


def local_scratch(s: int, v: int, w: int, p: int) -> tuple[Any, ...]:
    """The working arrays of a round played in local state (:mod:`chickenfoot._jit.local`):
    hands, open ends, their counts per number, the playable tiles, the table, the board
    and the scalars."""
    return (np.zeros(p * w, dtype=np.uint64), np.zeros(v * w, dtype=np.uint64),
            np.zeros(v, dtype=np.int64), np.zeros(w, dtype=np.uint64),
            np.zeros(w, dtype=np.uint64), np.zeros(max(s, 1), dtype=np.int32),
            np.zeros(10, dtype=np.int64))  # fmt: skip


def _lanes(g: Any) -> I64:
    out: I64 = np.ascontiguousarray(g, dtype=np.int64)
    return out


def arrays(e: Store) -> tuple[Any, ...]:
    """The store's arrays in the kernels' order (:mod:`chickenfoot._jit.rules`, ``H`` to ``PLIES``),
    the round first (as the compiled backend holds them: C-contiguous)."""
    return (
        _first(e.hands), _first(e.ends), _first(e.mask), _first(e.table), _first(e.bone),
        e.bpos, e.bend, e.nums, e.pending, e.need, e.turn, e.drawn, e.centre, e.result,
        _first(e.board), e.nboard, e.plies,
    )  # fmt: skip


def _first(a: Any) -> Any:
    return np.moveaxis(a, -1, 0)
