"""Issue 46, item 5: a policy file is bounded by what it inflates to, not by its size.

``PolicyAgent.load`` reads the members' ``.npy`` headers (shape, dtype) and checks them
against the file's rules and :data:`MAX_POLICY_BYTES` before any array is read; an array
is then inflated to exactly the bytes its header declares (one more is an error), so a
small file that inflates to gigabytes is refused at once, in bounded memory, whatever its
zip directory says. The archives below are written by hand (``archives.zip_of``, which
``nox -s fuzz`` uses too) so that every field may lie.
"""

from __future__ import annotations

import io
import json
import os
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

import chickenfoot as cf
from archives import BZIP2, DEFLATED, deflated, member, npy, policy_members, text, zip_of
from chickenfoot.encoding import Encoding
from chickenfoot.errors import AgentError
from chickenfoot.policy import FORMAT, MAX_POLICY_BYTES, PolicyAgent, save_policy

RULES = cf.Rules(players=2)
ENC = Encoding(RULES)
OBS, ACTIONS = ENC.observation_size, ENC.num_actions


def good_members(hidden: int = 8) -> list[tuple[str, bytes, int, int, int]]:
    return policy_members(RULES, hidden)


def test_a_hand_written_archive_of_the_right_arrays_loads() -> None:
    agent = PolicyAgent.load(io.BytesIO(zip_of(good_members())))
    assert [w.shape for w in agent.layers] == [(OBS, 8), (8,), (8, ACTIONS), (ACTIONS,)]


# -- bombs: refused fast, in bounded memory ---------------------------------------------------

CHILD = """
import sys, time, tracemalloc
from chickenfoot.errors import AgentError
from chickenfoot.policy import PolicyAgent
tracemalloc.start()
start = time.perf_counter()
try:
    PolicyAgent.load(sys.argv[1])
    said = "loaded"
except AgentError as err:
    said = "refused: " + str(err)
seconds = time.perf_counter() - start
print(said)
print(tracemalloc.get_traced_memory()[1], seconds)
"""


def load_in_a_child(path: Path) -> tuple[str, int, float]:
    """``PolicyAgent.load(path)`` in a process of its own whose address space is capped at
    2 GiB (a bomb that inflates there fails with MemoryError, not the test machine): what
    it said, its peak traced memory and its seconds (reported, never asserted)."""

    def cap() -> None:  # pragma: no cover - runs in the child
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))

    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)],
        check=False, capture_output=True, text=True, timeout=120, preexec_fn=cap,
    )  # fmt: skip
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and len(lines) == 2, done.stderr[-2000:]
    peak, seconds = lines[1].split()
    print(f"{path.name}: {lines[0][:120]} | peak {int(peak):,} bytes, {float(seconds):.3f} s")
    return lines[0], int(peak), float(seconds)


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_AS is POSIX")
def test_a_member_that_declares_gigabytes_is_refused_before_it_is_read(tmp_path: Path) -> None:
    # The layers say 4,000,000 hidden units in float32: 23 GB; w0's data inflates to 1 GiB
    # of zeros (the others' to nothing).
    hidden = 4_000_000
    members = good_members()
    head = npy((OBS, hidden), data=b"")
    members[2] = ("w0.npy", deflated(head, zero_mib=1024), DEFLATED, 0, 0xFFFFFFFF)
    members[3] = member("b0.npy", npy((hidden,), data=b""))
    members[4] = member("w1.npy", npy((hidden, ACTIONS), data=b""))
    path = tmp_path / "bomb.npz"
    path.write_bytes(zip_of(members))
    assert path.stat().st_size < 2 << 20  # under 2 MB on the disk
    said, peak, _ = load_in_a_child(path)
    assert said.startswith("refused: ") and "would inflate to" in said, said
    assert peak < 32 << 20


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_AS is POSIX")
def test_a_member_whose_data_runs_on_past_its_header_is_refused(tmp_path: Path) -> None:
    # w0's header is right for the rules, but its data inflates on for 1 GiB (the zip's
    # directory says 4 GB): only the declared bytes and one more are ever inflated.
    head = npy((OBS, 8))
    members = good_members()
    members[2] = ("w0.npy", deflated(head, zero_mib=1024), DEFLATED, 0, 0xFFFFFFFF)
    path = tmp_path / "long.npz"
    path.write_bytes(zip_of(members))
    said, peak, _ = load_in_a_child(path)
    assert said.startswith("refused: ") and "w0" in said and "more" in said, said
    assert peak < 32 << 20


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_AS is POSIX")
def test_an_npy_header_that_says_it_is_gigabytes_long_is_refused(tmp_path: Path) -> None:
    # An .npy 2.0 header's length is 4 bytes: 4 GB of "header", 1 GiB of it there.
    head = b"\x93NUMPY\x02\x00" + struct.pack("<I", 0xFFFFFFF0)
    members = good_members()
    members[2] = ("w0.npy", deflated(head, 1024), DEFLATED, 0, 0xFFFFFFFF)
    path = tmp_path / "header.npz"
    path.write_bytes(zip_of(members))
    said, peak, _ = load_in_a_child(path)
    assert said.startswith("refused: ") and "w0" in said, said
    assert peak < 32 << 20


def test_layers_that_inflate_past_the_limit_together_are_refused() -> None:
    # Shapes that chain and end in ACTIONS logits, each layer under 64 MiB, all over it.
    hidden = 4000
    members = good_members()[:2] + [
        member("w0.npy", npy((OBS, hidden), data=b"")),
        member("b0.npy", npy((hidden,), data=b"")),
        member("w1.npy", npy((hidden, hidden), data=b"")),
        member("b1.npy", npy((hidden,), data=b"")),
        member("w2.npy", npy((hidden, ACTIONS), data=b"")),
        member("b2.npy", npy((ACTIONS,), data=b"")),
    ]
    with pytest.raises(AgentError, match=f"more than {MAX_POLICY_BYTES:,} bytes"):
        PolicyAgent.load(io.BytesIO(zip_of(members)))


@pytest.mark.parametrize(
    ("shape", "descr", "said"),
    [
        ((OBS + 1, 8), "<f4", "layer 0 has the wrong shape"),
        ((OBS, 8, 1), "<f4", "layer 0 has the wrong shape"),
        ((OBS, 8), "|O", "w0"),
        ((OBS, 8), "<i4", "layer 0"),
        ((OBS, 8), "<f4, <f4", "w0"),
    ],
)
def test_declared_shapes_and_dtypes_are_checked_before_reading(
    shape: tuple[int, ...], descr: str, said: str
) -> None:
    members = good_members()
    # no data at all after the header: a check that read the array would say "shorter"
    head = io.BytesIO()
    if descr == "<f4, <f4":
        header = {"descr": [("a", "<f4"), ("b", "<f4")], "fortran_order": False, "shape": shape}
    else:
        header = {"descr": descr, "fortran_order": False, "shape": shape}
    np.lib.format.write_array_header_1_0(head, header)
    members[2] = member("w0.npy", head.getvalue())
    with pytest.raises(AgentError, match=said) as caught:
        PolicyAgent.load(io.BytesIO(zip_of(members)))
    assert "shorter" not in str(caught.value)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ("bzip2", "compressed"),
        ("unknown", "unknown member"),
        ("twice", "twice"),
        ("short", "shorter"),
        ("crc", "w0"),
        ("nan", "NaN"),
        ("huge", "infinity"),
        ("rules", "rules"),
        ("many", "members"),
    ],
)
def test_archives_that_lie_are_refused(change: str, said: str) -> None:
    members = good_members()
    w0 = npy((OBS, 8))
    if change == "bzip2":
        import bz2

        members[2] = ("w0.npy", bz2.compress(w0), BZIP2, zlib.crc32(w0), len(w0))
    elif change == "unknown":
        members.append(member("evil.npy", npy((3,))))
    elif change == "twice":
        members.append(member("w0.npy", w0))
    elif change == "short":
        members[2] = member("w0.npy", w0[:-4])
    elif change == "crc":
        members[2] = ("w0.npy", deflated(w0), DEFLATED, 12345, len(w0))
    elif change == "nan":
        members[3] = member("b0.npy", npy((8,), data=np.full(8, np.nan, "<f4").tobytes()))
    elif change == "huge":
        members[3] = member("b0.npy", npy((8,), "<f8", np.full(8, 1e300).tobytes()))
    elif change == "rules":
        members[1] = member("rules.npy", text('{"players": 2, "players": 3}'))
    else:
        members += [member(f"x{k}.npy", npy((1,))) for k in range(2000)]
    with pytest.raises(AgentError, match=said):
        PolicyAgent.load(io.BytesIO(zip_of(members)))


# -- files that are not regular -----------------------------------------------------------------


@pytest.mark.skipif(sys.platform == "win32", reason="named pipes are POSIX")
def test_a_named_pipe_is_refused_not_waited_on(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.npz")
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(tmp_path / "pipe.npz")],
        check=False, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert "refused: " in done.stdout and "a named pipe, not a regular file" in done.stdout


def test_a_device_and_a_folder_are_refused(tmp_path: Path) -> None:
    for path in (os.devnull, str(tmp_path)):
        with pytest.raises(AgentError, match="not a regular file"):
            PolicyAgent.load(path)


def test_a_policy_written_by_save_policy_still_loads(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    layers = [rng.standard_normal((OBS, 8)).astype(np.float32), np.zeros(8, np.float32),
              rng.standard_normal((8, ACTIONS)).astype(np.float32), np.ones(ACTIONS, np.float32)]  # fmt: skip
    path = tmp_path / "p.npz"
    save_policy(path, RULES, layers)
    agent = PolicyAgent.load(path)
    assert all((a == b).all() for a, b in zip(agent.layers, layers, strict=True))
    fortran = tmp_path / "f.npz"
    np.savez(fortran, format=np.array(FORMAT), rules=np.array(json.dumps(RULES.to_dict())),
             w0=np.asfortranarray(layers[0]), b0=layers[1], w1=layers[2], b1=layers[3])  # fmt: skip
    assert (PolicyAgent.load(fortran).layers[0] == layers[0]).all()
