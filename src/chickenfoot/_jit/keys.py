"""The keys of exact deals compiled with numba (see :mod:`.deal`): SHA-512 in the kernel.

``random.Random(text)`` seeds MT19937 by ``init_by_array`` with the 32-bit words, low
first, of ``int.from_bytes(text + sha512(text).digest())``; :func:`seed_keys` makes those
words for the texts ``f"{seed}:{round}"`` of int64 seeds (and a round given as its
digits), as :func:`chickenfoot.batch._shuffle._keys` does in Python, so that an exact deal
costs no Python work per seed. SHA-512 is FIPS 180-4's; its constants are computed here
from the primes, in integers.
"""

from __future__ import annotations

from math import isqrt

import numpy as np
from numba import njit

_M64 = (1 << 64) - 1


def _primes(count: int) -> list[int]:
    out: list[int] = []
    n = 2
    while len(out) < count:
        if all(n % p for p in out):
            out.append(n)
        n += 1
    return out


def _icbrt(n: int) -> int:
    """The integer cube root of ``n`` (the largest ``r`` with ``r**3 <= n``)."""
    r = 1 << ((n.bit_length() + 2) // 3)  # above the root: Newton's steps go down to it
    while True:
        s = (2 * r + n // (r * r)) // 3
        if s >= r:
            break
        r = s
    while r**3 > n:
        r -= 1
    while (r + 1) ** 3 <= n:
        r += 1
    return r


# the first 64 bits of the fractional parts of the cube roots of the first 80 primes, and
# of the square roots of the first 8
K = np.array([_icbrt(p << 192) & _M64 for p in _primes(80)], dtype=np.uint64)
H0 = np.array([isqrt(p << 128) & _M64 for p in _primes(8)], dtype=np.uint64)
BYTE = np.uint64(0xFF)


@njit(cache=True, _nrt=False, inline="always")
def rotr(x, n):
    return (x >> np.uint64(n)) | (x << np.uint64(64 - n))


@njit(cache=True, _nrt=False, inline="always")
def sha512_short(msg, n, w, out):
    """The SHA-512 digest of ``msg[:n]`` (``n <= 111``: one block) into ``out[:64]``;
    ``w``: 80 uint64 words of scratch."""
    for t in range(16):
        x = np.uint64(0)
        for b in range(8):
            k = 8 * t + b
            if k < n:
                byte = np.uint64(msg[k])
            elif k == n:
                byte = np.uint64(0x80)
            else:
                byte = np.uint64(0)
            x = (x << np.uint64(8)) | byte
        w[t] = x
    w[15] = np.uint64(8 * n)  # the length in bits (the high word, w[14], stays 0)
    for t in range(16, 80):
        a, b = w[t - 15], w[t - 2]
        s0 = rotr(a, 1) ^ rotr(a, 8) ^ (a >> np.uint64(7))
        s1 = rotr(b, 19) ^ rotr(b, 61) ^ (b >> np.uint64(6))
        w[t] = w[t - 16] + s0 + w[t - 7] + s1
    a, b, c, d, e, f, g, h = H0[0], H0[1], H0[2], H0[3], H0[4], H0[5], H0[6], H0[7]
    for t in range(80):
        t1 = h + (rotr(e, 14) ^ rotr(e, 18) ^ rotr(e, 41)) + ((e & f) ^ (~e & g)) + K[t] + w[t]
        t2 = (rotr(a, 28) ^ rotr(a, 34) ^ rotr(a, 39)) + ((a & b) ^ (a & c) ^ (b & c))
        h, g, f, e, d, c, b, a = g, f, e, d + t1, c, b, a, t1 + t2
    hs = (a, b, c, d, e, f, g, h)
    for i in range(8):
        v = H0[i] + hs[i]
        for m in range(8):
            out[8 * i + m] = np.uint8((v >> np.uint64(56 - 8 * m)) & BYTE)


@njit(cache=True, _nrt=False)
def seed_keys(seeds, rtext, msg, w, keys, klens):
    """``keys[j, :klens[j]]``: the ``init_by_array`` key of the text ``f"{seeds[j]}:{r}"``
    (``seeds`` int64, ``rtext`` the bytes of ``":"`` and the round's digits, at most 64);
    ``msg``: 256 bytes of scratch, ``w``: 80 words."""
    rl = rtext.shape[0]
    for j in range(seeds.shape[0]):
        s = seeds[j]
        n = 0
        if s < 0:
            msg[0] = 45  # "-"
            n = 1
            u = np.uint64(-(s + 1)) + np.uint64(1)  # |s|, also for -2**63
        else:
            u = np.uint64(s)
        digits = 1
        q = u
        while q >= np.uint64(10):
            q //= np.uint64(10)
            digits += 1
        for k in range(digits - 1, -1, -1):
            msg[n + k] = np.uint8(48 + np.int64(u % np.uint64(10)))
            u //= np.uint64(10)
        n += digits
        for k in range(rl):
            msg[n + k] = rtext[k]
        n += rl
        sha512_short(msg, n, w, msg[n:])  # the blob: the text, then its digest
        b = n + 64
        words = (b + 3) // 4
        for k in range(words):
            x = np.uint64(0)
            for m in range(3, -1, -1):  # the bytes of the blob from its end, low first
                i = b - 1 - 4 * k - m
                x = (x << np.uint64(8)) | (np.uint64(msg[i]) if i >= 0 else np.uint64(0))
            keys[j, k] = x
        for k in range(words, keys.shape[1]):
            keys[j, k] = np.uint64(0)
        klens[j] = words
