"""Fuzz targets of the files a user names (issue 46, items 4 and 5): policy files and a
ladder's results file.

Importing this module registers them in ``fuzz_targets.TARGETS`` (``bench/fuzz.py`` imports
every ``tests*/fuzz_*.py``); ``tests/test_fuzz_files.py`` runs each on a short fixed budget.

``PolicyAgent.load (policy files)``: the bytes of an ``.npz``: real policy files
(``save_policy``; stored, deflated, in Fortran order) and archives written by hand
(``archives.zip_of``, where every field may lie), changed: members dropped, doubled, renamed;
headers declaring other shapes and dtypes (objects, records, text, gigabytes); members
whose data runs on for megabytes past their header (``archives.deflated``: a bomb costs
nothing to build), headers whose length says gigabytes; other compression methods, wrong checksums and sizes; bytes flipped
and cut; given as a path or as a file object. The property is ``fuzz_targets.check``'s
(an ``AgentError`` with a short message, quickly) and an accepted file gives layers that
chain from the observation to the actions.

``play_ladder(results=FILE)``: a ladder's results file (a real one, of a tiny ladder),
its header or a game line mutated (``fuzz_targets``' mutations, as JSON text: ``NaN``,
huge integers, deep nesting), lines doubled, cut, made longer than a line may be, bytes
that are not UTF-8, keys twice; the name a regular file, a symbolic link to one, a named
pipe, a folder, ``/dev/null`` or in a folder that does not exist. On top of the property:
a file refused is left byte for byte as it was, and a file accepted keeps every whole
line it had.
"""

from __future__ import annotations

import io
import json
import os
import sys
import tempfile
from typing import Any

import numpy as np
from hypothesis import strategies as st

import chickenfoot as cf
from archives import (
    BZIP2,
    DEFLATED,
    STORED,
    content_of,
    deflated,
    member,
    npy,
    policy_members,
    zip_of,
)
from chickenfoot.encoding import Encoding
from chickenfoot.ladder import LadderResult, play_ladder
from chickenfoot.policy import FORMAT, PolicyAgent, save_policy
from fuzz_targets import JSON_VALUES, Case, _mutate, _target, describe, encode

__all__ = ["NAMES", "RESULTS", "TINY"]

NAMES = ["PolicyAgent.load (policy files)", "play_ladder(results=FILE)"]
"""The targets this module registers."""

# -- policy files -----------------------------------------------------------------------------------

TINY = cf.Rules(players=2, max_pip=4, hand_size=4, opening_toes=2, foot_toes=1)


def _saved(rules: cf.Rules, hidden: int, *, fortran: bool = False, stored: bool = False) -> bytes:
    enc = Encoding(rules)
    rng = np.random.default_rng(hidden)
    layers = [rng.standard_normal((enc.observation_size, hidden)).astype(np.float32),
              np.zeros(hidden, np.float32),
              rng.standard_normal((hidden, enc.num_actions)).astype(np.float32),
              np.zeros(enc.num_actions, np.float32)]  # fmt: skip
    buf = io.BytesIO()
    if not (fortran or stored):
        save_policy(buf, rules, layers)
        return buf.getvalue()
    if fortran:
        layers[0] = np.asfortranarray(layers[0])
    arrays = {"format": np.array(FORMAT), "rules": np.array(json.dumps(rules.to_dict()))}
    arrays.update({f"{'wb'[k % 2]}{k // 2}": a for k, a in enumerate(layers)})
    np.savez(buf, **arrays)
    return buf.getvalue()


_REAL = [
    ("save_policy of the tiny rules", _saved(TINY, 4)),
    ("save_policy of Rules(players=2)", _saved(cf.Rules(players=2), 8)),
    ("np.savez (stored), Fortran order", _saved(TINY, 3, fortran=True, stored=True)),
]
_SHAPES = st.lists(
    st.sampled_from([0, 1, 3, 4, 8, 30, 94, 1157, 2**31, 10**6, 4 * 10**9]), max_size=3
).map(tuple)
_DTYPES = st.sampled_from(
    ["<f4", ">f4", "<f8", "<f2", "<i4", "|b1", "<U3", "|O", "|V8", "<c8", "<M8[s]",
     [("a", "<f4")], ("<f4", (2,))]
)  # fmt: skip
_NAMES = st.sampled_from(["format.npy", "rules.npy", "w0.npy", "b0.npy", "w1.npy", "b1.npy",
                          "w2.npy", "b9.npy", "evil.npy", "w0", "../w0.npy", "W0.npy"])  # fmt: skip


def _declared(shape: tuple[int, ...], descr: Any) -> bytes:
    """A member declaring ``shape`` and ``descr``, with data for at most 4 kB of it."""
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        buf, {"descr": descr, "fortran_order": False, "shape": shape}
    )
    size = int(np.prod(shape, dtype=object)) * np.dtype(descr).itemsize
    return buf.getvalue() + bytes(min(size, 4096))


@st.composite
def _policy_cases(draw: st.DrawFn) -> Case:
    if draw(st.booleans()):
        name, data = draw(st.sampled_from(_REAL))
        notes = [name]
    else:
        rules = draw(st.sampled_from([TINY, cf.Rules(players=2)]))
        members = policy_members(rules, draw(st.sampled_from([1, 4, 8])))
        notes = [f"hand-written of {rules.players} players"]
        for _ in range(draw(st.integers(0, 3))):
            k = draw(st.integers(0, len(members) - 1))
            name, payload, method, crc, size = members[k]
            op = draw(st.sampled_from(["drop", "twice", "rename", "declare", "bomb", "method",
                                       "header", "crc", "size", "extra"]))  # fmt: skip
            if op == "drop":
                del members[k]
            elif op == "twice":
                members.append(members[k])
            elif op == "rename":
                members[k] = (draw(_NAMES), payload, method, crc, size)
            elif op == "declare":
                shape, descr = draw(_SHAPES), draw(_DTYPES)
                members[k] = member(name, _declared(shape, descr))
                op = f"declare {shape} {describe(descr, 30)}"
            elif op == "bomb":
                mib = draw(st.sampled_from([1, 16, 64]))
                members[k] = (name, deflated(content_of(members[k]), mib), DEFLATED,
                              crc, draw(st.sampled_from([size, 0xFFFFFFFF])))  # fmt: skip
                op = f"bomb of {mib} MiB"
            elif op == "method":
                content = content_of(members[k])
                members[k] = member(name, content, draw(st.sampled_from([STORED, BZIP2])))
            elif op == "header":  # an .npy header whose length says 64 kB to 4 GB
                length = draw(st.sampled_from([0xFFFF, 0x10000, 0xFFFFFFF0]))
                raw = b"\x93NUMPY" + (b"\x01\x00" if length <= 0xFFFF else b"\x02\x00")
                raw += length.to_bytes(2 if length <= 0xFFFF else 4, "little")
                members[k] = (name, deflated(raw, 16), DEFLATED, crc, 0xFFFFFFFF)
            elif op == "crc":
                members[k] = (name, payload, method, crc ^ 1, size)
            elif op == "size":
                members[k] = (name, payload, method, crc, draw(st.sampled_from([0, size - 1,
                                                                                size + 1])))  # fmt: skip
            else:
                members.append(member(draw(_NAMES), npy((1,))))
            notes.append(f"{op} {name}")
        data = zip_of(members)
    if draw(st.integers(0, 3)) == 0:
        flips = draw(st.lists(st.tuples(st.integers(0, len(data) - 1), st.integers(0, 255)),
                              min_size=1, max_size=4))  # fmt: skip
        raw = bytearray(data)
        for at, byte in flips:
            raw[at] = byte
        data = bytes(raw)
        notes.append(f"bytes at {[a for a, _ in flips]} changed")
    if draw(st.integers(0, 5)) == 0:
        cut = draw(st.integers(0, len(data)))
        data = data[:cut]
        notes.append(f"cut to {cut} bytes")
    return Case(data, as_path=draw(st.booleans()), note="; ".join(notes))


def load_policy(data: bytes, as_path: bool) -> PolicyAgent:
    """``PolicyAgent.load`` of ``data``, from a file or a file object."""
    if not as_path:
        return PolicyAgent.load(io.BytesIO(data))
    with tempfile.TemporaryDirectory(prefix="chickenfoot-fuzz-policy-") as tmp:
        path = os.path.join(tmp, "p.npz")
        with open(path, "wb") as f:
            f.write(data)
        return PolicyAgent.load(path)


def _chains(case: Case, result: Any) -> str | None:
    if not isinstance(result, PolicyAgent):
        return f"returned {describe(result, 60)}, not a PolicyAgent"
    enc, layers = result.encoding, result.layers
    width = enc.observation_size
    for w, b in zip(layers[::2], layers[1::2], strict=True):
        if w.shape[0] != width or b.shape != (w.shape[1],) or w.dtype != np.float32:
            return f"accepted layers that do not chain: {[a.shape for a in layers]}"
        width = w.shape[1]
    return None if width == enc.num_actions else "accepted a last layer of the wrong width"


_target("PolicyAgent.load (policy files)", _policy_cases(), load_policy, _chains)


# -- a ladder's results file -------------------------------------------------------------------------

_AGENTS = ["random", "greedy"]
_SEED = 9


def _results() -> bytes:
    with tempfile.TemporaryDirectory(prefix="chickenfoot-fuzz-ladder-") as tmp:
        path = os.path.join(tmp, "l.jsonl")
        play_ladder(TINY, _AGENTS, deals=2, seed=_SEED, results=path)
        with open(path, "rb") as f:
            return f.read()


RESULTS = _results()
_KINDS = ["file", "file", "file", "file", "symlink", "folder", "devnull", "no folder"]
if sys.platform != "win32":
    _KINDS.append("fifo")  # named pipes are POSIX


@st.composite
def _ladder_cases(draw: st.DrawFn) -> Case:
    lines = RESULTS.decode().splitlines()
    notes = ["a results file of 2 deals"]
    for _ in range(draw(st.integers(0, 3))):
        k = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["mutate", "mutate", "twice", "drop", "twice key", "long",
                                   "not utf-8", "empty"]))  # fmt: skip
        if op == "mutate":
            try:
                doc = json.loads(lines[k])
            except ValueError:  # a line already changed past JSON (RecursionError too)
                doc = {}
            except RecursionError:
                doc = {}
            doc, note = _mutate(draw, doc, JSON_VALUES)
            lines[k] = encode(doc)
            op = note
        elif op == "twice":
            lines.insert(k, lines[k])
        elif op == "drop":
            del lines[k]
        elif op == "twice key":
            lines[k] = lines[k].replace("{", '{"deal":0,', 1)
        elif op == "long":
            lines[k] = lines[k][:-1] + ', "x": "' + "x" * (1 << 20) + '"}'
        elif op == "not utf-8":
            lines[k] = lines[k][:5] + "\udcff" + lines[k][5:]
        else:
            lines[k] = ""
        notes.append(f"line {k + 1}: {op}")
    data = "".join(line + "\n" for line in lines).encode("utf-8", "surrogateescape")
    if draw(st.booleans()):
        cut = draw(st.integers(0, len(data)))
        data = data[:cut]
        notes.append(f"cut to {cut} bytes")
    kind = draw(st.sampled_from(_KINDS))
    deals = draw(st.sampled_from([1, 2, 3]))
    return Case(data, kind=kind, deals=deals, note="; ".join(notes))


class HarmedError(Exception):
    """The file named was changed, then refused; or lost lines it had."""


def ladder_on(data: bytes, kind: str, deals: int) -> LadderResult:
    """``play_ladder(results=NAME)`` with NAME holding ``data`` (or being a ``kind`` of
    name that is not a regular file)."""
    with tempfile.TemporaryDirectory(prefix="chickenfoot-fuzz-ladder-") as tmp:
        path = os.path.join(tmp, "l.jsonl")
        target = path
        if kind in ("file", "symlink"):
            with open(path, "wb") as f:
                f.write(data)
            if kind == "symlink":
                target = os.path.join(tmp, "link.jsonl")
                os.symlink(path, target)
        elif kind == "fifo" and hasattr(os, "mkfifo"):
            os.mkfifo(path)
        elif kind == "folder":
            os.mkdir(path)
        elif kind == "devnull":
            target = os.devnull
        elif kind == "no folder":
            target = os.path.join(tmp, "no", "l.jsonl")
        try:
            result = play_ladder(TINY, _AGENTS, deals=deals, seed=_SEED, results=target)
        except cf.ChickenFootError:
            if kind in ("file", "symlink") and _bytes(path) != data:
                raise HarmedError("the file was changed, then refused") from None
            raise
        if kind in ("file", "symlink"):
            kept = data[: data.rfind(b"\n") + 1]
            if not _bytes(path).startswith(kept):
                raise HarmedError("a file accepted lost lines it had")
        return result


def _bytes(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _is_result(case: Case, result: Any) -> str | None:
    return None if isinstance(result, LadderResult) else f"returned {describe(result, 60)}"


_target("play_ladder(results=FILE)", _ladder_cases(), ladder_on, _is_result)
