"""The seeded shuffles of many deals at once (docs/formats.md, "Seeded deals").

A deal shuffles the tiles with ``random.Random(f"{seed}:{round}").shuffle``. Python's
generator is MT19937 seeded by ``init_by_array`` with the 32-bit words of
``int.from_bytes(text + sha512(text))``, and ``shuffle`` draws ``getrandbits(k)`` (the top
``k`` bits of one 32-bit output) until below the bound. This module runs those same steps
for many seeds at once on numpy arrays (one column per seed), so a thousand deals cost
about as much as a few dozen made one by one. The result is checked once per process
against ``random.Random`` itself; on any difference (another Python's generator) it falls
back to dealing one by one.
"""

from __future__ import annotations

import hashlib
import random
from typing import TYPE_CHECKING, Final

import numpy as np

from chickenfoot.deal import shuffled_tiles
from chickenfoot.rules import Rules
from chickenfoot.tiles import DOUBLE_ID, set_size

if TYPE_CHECKING:
    from numpy.typing import NDArray

    U32 = NDArray[np.uint32]

_N: Final = 624
_M: Final = 397
_MATRIX_A: Final = np.uint32(0x9908B0DF)
_UPPER: Final = np.uint32(0x80000000)
_LOWER: Final = np.uint32(0x7FFFFFFF)


def _init_genrand(s: int) -> list[int]:
    mt = [s & 0xFFFFFFFF]
    for i in range(1, _N):
        prev = mt[-1]
        mt.append((1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF)
    return mt


MT0: Final = np.array(_init_genrand(19650218), dtype=np.uint32)


def keys_by_length(texts: list[str]) -> dict[int, tuple[list[int], U32]]:
    """The init_by_array keys of the texts (the 32-bit words, low first, of
    ``int.from_bytes(a + sha512(a))``), grouped by length: ``{words: (indices, (words, m))}``.

    Every text starts with a digit or ``-`` (a nonzero byte), so the key of ``b`` bytes has
    ``ceil(b / 4)`` words: the bytes reversed, padded with zeros."""
    sha = hashlib.sha512
    blobs = [a + sha(a).digest() for a in [t.encode() for t in texts]]
    sizes = np.fromiter(map(len, blobs), dtype=np.int64, count=len(blobs))
    out: dict[int, tuple[list[int], U32]] = {}
    for size in np.unique(sizes).tolist():
        cols = np.nonzero(sizes == size)[0].tolist()
        joined = b"".join([blobs[c] for c in cols]) if len(cols) < len(blobs) else b"".join(blobs)
        words = (size + 3) // 4
        raw = np.zeros((len(cols), words * 4), dtype=np.uint8)
        raw[:, :size] = np.frombuffer(joined, dtype=np.uint8).reshape(len(cols), size)[:, ::-1]
        key = np.ascontiguousarray(raw.view("<u4").T.astype(np.uint32))
        if words in out:  # two byte lengths with the same word count
            old_cols, old_key = out[words]
            out[words] = (old_cols + cols, np.concatenate([old_key, key], axis=1))
        else:
            out[words] = (cols, key)
    return out


def _seeded(length: int, key: U32) -> U32:
    """MT19937 states ``(624, n)`` after ``init_by_array`` with keys of ``length`` words.

    The first pass reads each word of ``init_genrand(19650218)`` (the same for every seed)
    before writing it, so that state is never built: its words enter as scalars."""
    n = key.shape[1]
    mt = np.empty((_N, n), dtype=np.uint32)
    mt[0] = MT0[0]
    tmp = np.empty(n, dtype=np.uint32)
    c1, c2 = np.uint32(1664525), np.uint32(1566083941)
    keyj = key + np.arange(length, dtype=np.uint32)[:, None]  # key[j] + j
    fresh = [True] * _N  # mt[i] still holds init_genrand's value
    i, j = 1, 0
    for _ in range(max(_N, length)):
        prev = mt[i - 1]
        np.right_shift(prev, 30, out=tmp)
        np.bitwise_xor(tmp, prev, out=tmp)
        np.multiply(tmp, c1, out=tmp)
        if fresh[i]:
            np.bitwise_xor(tmp, MT0[i], out=tmp)
            fresh[i] = False
        else:
            np.bitwise_xor(tmp, mt[i], out=tmp)
        np.add(tmp, keyj[j], out=mt[i])
        i += 1
        j += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
        if j >= length:
            j = 0
    for _ in range(_N - 1):
        prev = mt[i - 1]
        np.right_shift(prev, 30, out=tmp)
        np.bitwise_xor(tmp, prev, out=tmp)
        np.multiply(tmp, c2, out=tmp)
        np.bitwise_xor(tmp, mt[i], out=tmp)
        np.subtract(tmp, np.uint32(i), out=mt[i])
        i += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
    mt[0] = _UPPER
    return mt


BLOCK: Final = 8192
"""Seeds shuffled together at most: the generators' states take 624 x 4 bytes each (20 MB
for a block), and per seed a block of 8,192 cost the least where this was tuned."""

_ROWS: Final = np.arange(_N)
_LOOK: Final = 4  # outputs tried at once for each draw of the shuffle
_AHEAD: Final = np.arange(_LOOK)


def _temper(y: U32) -> U32:
    y = y ^ (y >> np.uint32(11))
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    y ^= y >> np.uint32(18)
    return y


class _Outputs:
    """The outputs of ``n`` generators (``(n, k)``, one row each), computed as far as read.

    MT19937's state update ``new[i] = f(mt[i], mt[i + 1], mt[i + 397])`` (indices mod 624)
    reads old words except ``mt[i + 397]`` for ``i >= 227`` and ``mt[0]`` for ``i = 623``,
    which are new: done in order, in blocks of at most 227 rows, every block reads what the
    full update would, so the outputs come block by block."""

    def __init__(self, mt: U32) -> None:
        self.mt = mt  # (624, n)
        self.at = 0  # next state row to update
        self.values = np.empty((mt.shape[1], 0), dtype=np.uint32)

    @property
    def ready(self) -> int:
        return int(self.values.shape[1])

    def upto(self, count: int) -> U32:
        """All outputs so far, at least ``count`` per generator."""
        mt = self.mt
        while self.ready < count:
            lo = self.at
            hi = min(lo + max(count - self.ready, 32), _N, lo + 227)
            rows = _ROWS[lo:hi]
            y = (mt[lo:hi] & _UPPER) | (mt[(rows + 1) % _N] & _LOWER)
            mag = (np.uint32(0) - (y & np.uint32(1))) & _MATRIX_A  # MATRIX_A if y is odd
            mt[lo:hi] = mt[(rows + _M) % _N] ^ (y >> np.uint32(1)) ^ mag
            self.at = hi % _N
            self.values = np.concatenate([self.values, _temper(mt[lo:hi]).T], axis=1)
        return self.values


def _shuffle_columns(texts: list[str], tiles: list[int]) -> NDArray[np.int64]:
    """``random.Random(text).shuffle(list(tiles))`` for each text, as rows."""
    out = np.empty((len(texts), len(tiles)), dtype=np.int64)
    first = len(tiles) + len(tiles) // 2  # outputs most shuffles need
    for length, (cols, key) in keys_by_length(texts).items():
        gen = _Outputs(_seeded(length, key))
        m = len(cols)
        ptr = np.zeros(m, dtype=np.int64)
        x = np.repeat(np.array(tiles, dtype=np.int64)[:, None], m, axis=1)  # (tiles, m)
        flat_x = x.reshape(-1)
        rows = np.arange(m)
        outputs = np.ascontiguousarray(gen.upto(first))
        flat, width = outputs.reshape(-1), outputs.shape[1]
        base = rows * width
        ahead = _AHEAD[:, None]
        for i in range(len(tiles) - 1, 0, -1):
            bound = i + 1
            shift = np.uint32(32 - bound.bit_length())
            if int(ptr.max()) + _LOOK > width:
                outputs = np.ascontiguousarray(gen.upto(width + _LOOK))
                flat, width = outputs.reshape(-1), outputs.shape[1]
                base = rows * width
            # getrandbits until below the bound: the first of the next _LOOK outputs that is
            # (at least half of the values are, so rarely none of them)
            tries = (flat[base + ptr + ahead] >> shift).astype(np.int64)  # (_LOOK, m)
            # j: the first that fits (_LOOK - 1 if none: then the loop below goes on)
            miss = tries >= bound
            run = miss[0].copy()
            j = run.view(np.int8).astype(np.int64)
            for row in miss[1 : _LOOK - 1]:
                run &= row
                j += run
            pick = tries.reshape(-1)[j * m + rows]
            ptr += j + 1
            bad = np.nonzero(run & miss[_LOOK - 1])[0]
            while len(bad):
                if int(ptr[bad].max()) >= width:
                    outputs = np.ascontiguousarray(gen.upto(width + 1))
                    flat, width = outputs.reshape(-1), outputs.shape[1]
                    base = rows * width
                rb = (flat[base[bad] + ptr[bad]] >> shift).astype(np.int64)
                ptr[bad] += 1
                pick[bad] = rb
                bad = bad[rb >= bound]
            at = pick * m + rows  # swap x[i] and x[pick], column by column
            xi = x[i].copy()
            x[i] = flat_x[at]
            flat_x[at] = xi
        out[cols] = x.T
    return out


_checked: list[bool] = []


def _agrees() -> bool:
    """Whether the vectorized shuffle gives ``random.Random``'s (checked once)."""
    if not _checked:
        texts = ["0:0", "-17:3", f"{2**200}:1", "123456789:12"]
        tiles = list(range(90))
        got = _shuffle_columns(texts, tiles)
        ok = True
        for row, text in zip(got.tolist(), texts, strict=True):
            want = list(tiles)
            random.Random(text).shuffle(want)
            ok = ok and row == want
        _checked.append(ok)
    return _checked[0]


def shuffled_many(rules: Rules, seeds: list[int], round: int) -> NDArray[np.int64]:
    """``(len(seeds), dealt)``: row ``j`` is ``shuffled_tiles(rules, seeds[j], round)``."""
    if len(seeds) < 8 or not _agrees():
        return np.array([shuffled_tiles(rules, s, round) for s in seeds], dtype=np.int64).reshape(
            len(seeds), -1
        )
    centre = DOUBLE_ID[rules.centre_of_round(round)]
    tiles = list(range(set_size(rules.max_pip)))
    if rules.centre == "set_aside":
        del tiles[centre]
    texts = [f"{s}:{round}" for s in seeds]
    if len(texts) <= BLOCK:
        return _shuffle_columns(texts, tiles)
    return np.concatenate(
        [_shuffle_columns(texts[i : i + BLOCK], tiles) for i in range(0, len(texts), BLOCK)]
    )


# -- fast deals ---------------------------------------------------------------------------------

_M64: Final = (1 << 64) - 1
_GOLD: Final = np.uint64(0x9E37_79B9_7F4A_7C15)
_MIX1: Final = np.uint64(0xBF58_476D_1CE4_E5B9)
_MIX2: Final = np.uint64(0x94D0_49BB_1331_11EB)


def _mix(z: NDArray[np.uint64]) -> NDArray[np.uint64]:
    """splitmix64's finaliser, on arrays (uint64 arithmetic wraps)."""
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    out: NDArray[np.uint64] = z ^ (z >> np.uint64(31))
    return out


def fast_key(rng_seed: int | None) -> NDArray[np.uint64]:
    """The two words that, with a seed and a round, make a fast deal (from ``rng_seed``;
    fresh entropy for ``None``)."""
    words = np.random.SeedSequence(rng_seed).generate_state(2, np.uint64)
    return np.asarray(words, dtype=np.uint64)


def fast_many(
    rules: Rules, seeds: list[int], round: int, key: NDArray[np.uint64]
) -> NDArray[np.int64]:
    """``(len(seeds), dealt)``: the fast deals' shuffles, one row per seed.

    The tiles (as :func:`shuffled_many` takes them) are shuffled by Fisher-Yates with
    exactly uniform draws (Lemire's method: the top 32 bits of a splitmix64 output times
    the bound, redrawn below the threshold) from the splitmix64 state
    ``mix(mix(seed ^ key[0]) ^ (round + key[1]))`` (seed and round mod 2**64): uniformly
    random, reproducible from the key, and not :func:`~chickenfoot.deal`'s. The compiled
    kernel (:func:`chickenfoot._jit.deal.fast_shuffle`) makes the same shuffles."""
    centre = DOUBLE_ID[rules.centre_of_round(round)]
    tiles = list(range(set_size(rules.max_pip)))
    if rules.centre == "set_aside":
        del tiles[centre]
    m = len(seeds)
    s64 = np.array([s & _M64 for s in seeds], dtype=np.uint64)
    r64 = np.full(m, round & _M64, dtype=np.uint64)
    state = _mix(_mix(s64 ^ key[0]) ^ (r64 + key[1]))
    x = np.repeat(np.array(tiles, dtype=np.int64)[:, None], m, axis=1)  # (tiles, m)
    flat_x = x.reshape(-1)
    rows = np.arange(m)
    m32 = np.uint64(0xFFFF_FFFF)
    for i in range(len(tiles) - 1, 0, -1):
        bound = np.uint64(i + 1)
        floor = np.uint64(((1 << 32) - (i + 1)) % (i + 1))
        state += _GOLD
        prod = (_mix(state) >> np.uint64(32)) * bound
        bad = np.nonzero((prod & m32) < floor)[0]
        while len(bad):  # rare: at most (i + 1) / 2**32 of the draws
            state[bad] += _GOLD
            prod[bad] = (_mix(state[bad]) >> np.uint64(32)) * bound
            bad = bad[(prod[bad] & m32) < floor]
        at = (prod >> np.uint64(32)).astype(np.int64) * m + rows
        xi = x[i].copy()
        x[i] = flat_x[at]
        flat_x[at] = xi
    return np.ascontiguousarray(x.T)
