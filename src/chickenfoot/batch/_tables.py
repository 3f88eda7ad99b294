"""Lookup tables of the batched engine, built once per rules configuration.

Tile sets are rows of ``W = ceil(S / 64)`` little-endian ``uint64`` words: tile ``t`` is bit
``t % 64`` of word ``t // 64``, so a row viewed as bytes has tile ``t`` at bit ``t % 8`` of
byte ``t // 8``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

import numpy as np

from chickenfoot.encoding import Encoding
from chickenfoot.rules import Rules
from chickenfoot.tiles import PIPS, WITH

if TYPE_CHECKING:
    from numpy.typing import NDArray

    U64 = NDArray[np.uint64]
    I64 = NDArray[np.int64]

#: Popcount of each byte value, and the bit index of the k-th set bit of each byte (8 if none).
POP8: Final = np.array([bin(b).count("1") for b in range(256)], dtype=np.int64)
KTH8: Final = np.full((256, 8), 8, dtype=np.int64)
for _b in range(256):
    for _k, _bit in enumerate(i for i in range(8) if _b >> i & 1):
        KTH8[_b, _k] = _bit

KTH8_FLAT: Final = KTH8.reshape(-1)
_HAS_BITWISE_COUNT: Final = hasattr(np, "bitwise_count")

#: Sets of at most this many numbers (double-12) look their playable tiles up in a table.
UNION_TABLE_MAX: Final = 13


def words_of(mask: int, w: int) -> list[int]:
    """The ``w`` 64-bit words of the int bitmask ``mask``, low word first."""
    return [(mask >> (64 * i)) & 0xFFFF_FFFF_FFFF_FFFF for i in range(w)]


def int_of(words: Any) -> int:
    """The int bitmask of a row of 64-bit words (low word first)."""
    out = 0
    for i, x in enumerate(words):
        out |= int(x) << (64 * i)
    return out


def popcount_small(x: U64, axis: int) -> Any:
    """:func:`popcount` in a small integer dtype (uint8 for one word), for arithmetic on
    wide arrays."""
    if not _HAS_BITWISE_COUNT or x.shape[axis] != 1:
        return popcount(x, axis).astype(np.int16)
    return np.take(np.bitwise_count(x), 0, axis=axis)


def popcount(x: U64, axis: int = -1) -> I64:
    """Set bits of each set of words, the words along ``axis``."""
    if _HAS_BITWISE_COUNT:
        c = np.bitwise_count(x)
    else:  # numpy < 2.0: a byte table
        b = np.ascontiguousarray(x).view(np.uint8).reshape(*x.shape, 8)
        c = POP8[b].sum(axis=-1)
    if x.shape[axis] == 1:
        out: I64 = np.take(c, 0, axis=axis).astype(np.int64)
    else:
        out = c.sum(axis=axis, dtype=np.int64)
    return out


def cumsum_rows(x: Any) -> Any:
    """``np.cumsum(x, axis=0)`` for a 2-D array, row by row, in ``x``'s dtype: numpy's
    accumulate down a short axis of a wide array is several times slower than a few
    whole-row additions."""
    out = np.array(x)
    for i in range(1, out.shape[0]):
        np.add(out[i - 1], out[i], out=out[i])
    return out


_L8: Final = np.uint64(0x0101_0101_0101_0101)
_H8: Final = np.uint64(0x8080_8080_8080_8080)
_M1: Final = np.uint64(0x5555_5555_5555_5555)
_M2: Final = np.uint64(0x3333_3333_3333_3333)
_M4: Final = np.uint64(0x0F0F_0F0F_0F0F_0F0F)
_U = tuple(np.uint64(i) for i in range(256))


def select_word(x: U64, k: Any) -> I64:
    """The index of the ``k[j]``-th set bit (from 0, lowest first) of each word ``x[j]``
    (junk, up to 72, where ``k[j]`` is not below that word's popcount).

    Broadword selection, with no branch per word: the bytes' popcounts (the usual halving
    sums) times ``0x0101...01`` give in byte ``i`` the set bits of bytes ``0..i``; the bytes
    whose running count is at most ``k`` (a bytewise ``k - count >= 0`` test on the high
    bits) are the bytes before the one that holds the bit, and a byte table finishes."""
    u = _U  # numpy scalars: a Python int would turn uint64 arithmetic into float64
    k = k.astype(np.uint64)
    s = x - ((x >> u[1]) & _M1)
    s = (s & _M2) + ((s >> u[2]) & _M2)
    s = (s + (s >> u[4])) & _M4
    run = s * _L8  # byte i: the set bits of bytes 0..i (at most 64: no carries)
    below = (((k * _L8) | _H8) - run) & _H8  # high bit of byte i: run[i] <= k
    shift = (((below >> u[7]) * _L8) >> u[56]) * u[8]  # 8 x bytes before the bit's byte
    before = ((run << u[8]) >> shift) & u[255]
    byte = (x >> shift) & u[255]
    out: I64 = (shift + KTH8_FLAT[(byte * u[8] + ((k - before) & u[7])).astype(np.intp)]).astype(
        np.int64
    )
    return out


def kth_bit(x: U64, k: I64) -> I64:
    """The index of the ``k[j]``-th set bit (from 0, lowest first) of the words
    ``x[:, j]`` (``x`` is ``(W, n)``; each ``k[j]`` below that set's size, else junk).

    With several words, the word is found from the words' running popcounts, then the bit
    in it by :func:`select_word`."""
    if x.shape[0] == 1:
        return select_word(x[0], k)
    n = x.shape[1]
    cum = cumsum_rows(popcount(x[:, None, :], axis=1))  # (W, n)
    word = np.minimum((cum <= k).sum(axis=0), x.shape[0] - 1)
    cols = np.arange(n)
    before = np.where(word > 0, cum.reshape(-1)[(word - 1) * n + cols], 0)
    out: I64 = word * 64 + select_word(x.reshape(-1)[word * n + cols], k - before)
    return out


def bit_of(words: U64, t: I64, cols: I64) -> NDArray[np.bool_]:
    r"""Whether tile ``t[j]`` is in the set ``words[:, j]`` (``words`` is ``(W, k)``, ``cols``
    the ``j``\ s)."""
    word = words[t // 64, cols]
    out: NDArray[np.bool_] = ((word >> (t % 64).astype(np.uint64)) & np.uint64(1)).astype(bool)
    return out


def cols(table: U64, idx: Any) -> U64:
    """``table[:, idx]`` for a ``(W, m)`` table: with one word, a plain 1-D take (numpy's
    general multi-dimensional gather costs several times more per element)."""
    if table.shape[0] == 1:
        out: U64 = table[0][idx][None, :]
        return out
    out = table[:, idx]
    return out


class Tables:
    """Constants of one rules configuration (shared by every engine with those rules)."""

    def __init__(self, rules: Rules) -> None:
        n, s = rules.max_pip, rules.set_size
        w = (s + 63) // 64
        self.rules = rules
        self.enc = Encoding(rules)
        self.S, self.V, self.W, self.P = s, n + 1, w, rules.players
        self.slots = 2 * n + 3
        self.A = s * self.slots + 2
        self.DRAW, self.PASS = self.A - 2, self.A - 1
        self.dealt = s - (1 if rules.centre == "set_aside" else 0)
        self.bone0 = self.dealt - rules.players * rules.hand_size
        # BIT[t]: tile t alone; BIT[s] (and BIT[-1]) is the empty set
        bit = np.zeros((s + 1, w), dtype=np.uint64)
        for t in range(s):
            bit[t] = words_of(1 << t, w)
        self.BIT = bit
        self.BITT = np.ascontiguousarray(bit.T)  # (W, S + 1): BITT[:, -1] is empty
        # ONLY[:, t]: tile t alone; ONLY[:, -1]: every tile (a filter: "the drawn tile, if any")
        only = self.BITT.copy()
        only[:, -1] = np.uint64(0xFFFF_FFFF_FFFF_FFFF)
        self.ONLY = only
        self.WITH = np.array(
            [words_of(WITH[v] & ((1 << s) - 1), w) for v in range(n + 1)], dtype=np.uint64
        ).reshape(n + 1, w)
        self.WITHT = np.ascontiguousarray(self.WITH.T)  # (W, V)
        if self.V <= UNION_TABLE_MAX:
            union = np.zeros((1 << self.V, w), dtype=np.uint64)
            for v in range(self.V):
                has = (np.arange(1 << self.V) >> v & 1).astype(bool)
                union[has] |= self.WITH[v]
            self.UNION: U64 | None = union
            self.UNIONT: U64 | None = np.ascontiguousarray(union.T)
        else:
            self.UNION = self.UNIONT = None
        self.PX = np.array([PIPS[t][0] for t in range(s)], dtype=np.int64)
        self.PY = np.array([PIPS[t][1] for t in range(s)], dtype=np.int64)
        pip = (self.PX + self.PY).astype(np.int64)
        pip[0] = rules.double_blank
        self.PIP = pip
        # SLOT[t, a]: the encoding's slot of tile t against anchor a (a = s: no anchor), or -1;
        # ANCH[t, slot]: the anchor of a slot (-1: none, -2: the slot names no move).
        slot = np.full((s, s + 1), -1, dtype=np.int64)
        anch = np.full((s, self.slots), -2, dtype=np.int64)
        for t in range(s):
            for a, k in self.enc._anchor_slot[t].items():
                slot[t, s if a < 0 else a] = k
                anch[t, k] = a
        self.SLOT, self.ANCH = slot, anch
        # every (tile, anchor) pair that is some move, with its action id
        tt, aa = np.nonzero(slot[:, :s] >= 0)
        self.PAIR_T, self.PAIR_A = tt, aa
        self.PAIR_FLAT = tt * s + aa
        self.PAIR_ACTION = tt * self.slots + slot[tt, aa]

    def union_t(self, nums: I64) -> U64:
        """``(W, k)``: :meth:`union` with the words first."""
        if self.UNIONT is not None:
            return cols(self.UNIONT, nums)
        return np.ascontiguousarray(self.union(nums).T)

    def union(self, nums: I64) -> U64:
        """The tiles showing any number in each bitmask of ``nums``."""
        if self.UNION is not None:
            out: U64 = self.UNION[nums]
            return out
        has = (nums[:, None] >> np.arange(self.V)) & 1
        picked = np.where(has[:, :, None].astype(bool), self.WITH[None], np.uint64(0))
        reduced: U64 = np.bitwise_or.reduce(picked, axis=1)
        return reduced

    def unpack(self, x: U64) -> NDArray[np.bool_]:
        """Rows of words as ``(n, S)`` booleans, tile by tile."""
        b = np.ascontiguousarray(x).view(np.uint8).reshape(*x.shape[:-1], -1)
        bits = np.unpackbits(b, axis=-1, bitorder="little")
        return bits[..., : self.S].astype(bool)


_CACHE: dict[Rules, Tables] = {}


def tables(rules: Rules) -> Tables:
    """The (cached) tables of ``rules``."""
    t = _CACHE.get(rules)
    if t is None:
        if len(_CACHE) > 64:
            _CACHE.clear()
        t = _CACHE[rules] = Tables(rules)
    return t
