"""Zip archives and ``.npy`` members written by hand, every field as given (a size, a
checksum, a method, a shape that lies), for the tests and fuzz targets of policy files
(``tests/test_policy_files.py``, ``tests/fuzz_files.py``).

>>> len(zip_of([member("w0.npy", npy((2,)))])) > 0
True
"""

from __future__ import annotations

import io
import json
import struct
import zlib
from typing import Any

import numpy as np

import chickenfoot as cf
from chickenfoot.encoding import Encoding
from chickenfoot.policy import FORMAT

__all__ = [
    "BZIP2",
    "DEFLATED",
    "STORED",
    "Member",
    "content_of",
    "deflated",
    "member",
    "npy",
    "policy_members",
    "text",
    "zip_of",
]

STORED, DEFLATED, BZIP2, LZMA = 0, 8, 12, 14


def npy(shape: tuple[int, ...], descr: Any = "<f4", data: bytes | None = None) -> bytes:
    """An ``.npy`` member: a header declaring ``shape`` and ``descr``, then ``data``
    (default: zeros of the declared size)."""
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        buf, {"descr": descr, "fortran_order": False, "shape": shape}
    )
    if data is None:
        data = bytes(int(np.prod(shape, dtype=object)) * np.dtype(descr).itemsize)
    return buf.getvalue() + data


def text(value: str) -> bytes:
    """An ``.npy`` member of one text, as ``np.array(value)`` writes it."""
    return npy((), f"<U{len(value)}", value.encode("utf-32-le"))


_C = zlib.compressobj(9, zlib.DEFLATED, -15)
_MIB_OF_ZEROS = _C.compress(bytes(1 << 20)) + _C.flush(zlib.Z_FULL_FLUSH)
_END = zlib.compressobj(9, zlib.DEFLATED, -15).flush()


def deflated(head: bytes, zero_mib: int = 0) -> bytes:
    """A raw deflate stream of ``head`` then ``zero_mib`` MiB of zeros, built in a blink:
    after a full flush the compressor starts afresh, so one MiB's blocks repeat as is."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(head) + c.flush(zlib.Z_FULL_FLUSH) + _MIB_OF_ZEROS * zero_mib + _END


Member = tuple[str, bytes, int, int, int]
"""``(name, payload as stored, method, crc, declared size)``."""


def zip_of(members: list[Member]) -> bytes:
    """A zip archive of ``members``, every field as given."""
    out, directory = io.BytesIO(), io.BytesIO()
    for name, payload, method, crc, declared in members:
        offset, size = out.tell(), declared & 0xFFFFFFFF
        raw = name.encode()
        out.write(struct.pack("<4s2B4HL2L2H", b"PK\x03\x04", 20, 0, 0, method, 0, 33,
                              crc, len(payload), size, len(raw), 0))  # fmt: skip
        out.write(raw + payload)
        directory.write(struct.pack("<4s4B4HL2L5H2L", b"PK\x01\x02", 20, 3, 20, 0, 0, method,
                                    0, 33, crc, len(payload), size, len(raw), 0, 0, 0, 0, 0,
                                    offset))  # fmt: skip
        directory.write(raw)
    start, cd = out.tell(), directory.getvalue()
    out.write(cd)
    n = len(members)
    out.write(struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, n, n, len(cd), start, 0))
    return out.getvalue()


def content_of(m: Member) -> bytes:
    """What member ``m`` holds, inflated."""
    _, payload, method, _, _ = m
    if method == DEFLATED:
        return zlib.decompressobj(-15).decompress(payload, 1 << 24)
    if method == BZIP2:
        import bz2

        return bz2.decompress(payload)
    return payload


def member(name: str, content: bytes, method: int = DEFLATED) -> Member:
    """The member ``name`` holding ``content``, honestly described."""
    if method == DEFLATED:
        payload = deflated(content)
    elif method == BZIP2:
        import bz2

        payload = bz2.compress(content)
    else:
        payload = content
    return (name, payload, method, zlib.crc32(content), len(content))


def policy_members(rules: cf.Rules, hidden: int = 8) -> list[Member]:
    """The members of a policy of ``rules`` with one hidden layer of ``hidden`` units."""
    enc = Encoding(rules)
    return [
        member("format.npy", text(FORMAT)),
        member("rules.npy", text(json.dumps(rules.to_dict(), sort_keys=True))),
        member("w0.npy", npy((enc.observation_size, hidden))),
        member("b0.npy", npy((hidden,))),
        member("w1.npy", npy((hidden, enc.num_actions))),
        member("b1.npy", npy((enc.num_actions,))),
    ]
