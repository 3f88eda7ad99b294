"""The fuzz targets of the files a user names (``fuzz_files``: policy files, a ladder's
results file) on a short fixed budget, with the files of issue 46 (items 4 and 5) as
explicit examples; ``nox -s fuzz`` runs them for longer."""

from __future__ import annotations

from hypothesis import example

import fuzz_files
from archives import DEFLATED, content_of, deflated, member, npy, policy_members, zip_of
from chickenfoot.encoding import Encoding
from fuzz_files import RESULTS, TINY
from fuzz_targets import IN_SUITE, Case, fuzzes, holds

IN_SUITE.update(fuzz_files.NAMES)  # each runs below

FILE = RESULTS


def _bomb() -> bytes:
    """A policy whose first layer runs on for 64 MiB of zeros past its header."""
    members = policy_members(TINY)
    name, _, _, crc, _ = members[2]
    head = content_of(members[2])
    members[2] = (name, deflated(head, 64), DEFLATED, crc, 0xFFFFFFFF)
    return zip_of(members)


def _declares_gigabytes() -> bytes:
    members = policy_members(TINY)
    hidden = 10**9  # the layers chain: 4 GB of float32 declared, nothing behind it
    members[2] = member("w0.npy", npy((Encoding(TINY).observation_size, hidden), data=b""))
    members[3] = member("b0.npy", npy((hidden,), data=b""))
    members[4] = member("w1.npy", npy((hidden, Encoding(TINY).num_actions), data=b""))
    return zip_of(members)


@fuzzes("PolicyAgent.load (policy files)", 40)
@example(Case(_bomb(), as_path=True))
@example(Case(_declares_gigabytes(), as_path=False))
@example(Case(zip_of(policy_members(TINY)), as_path=True))
def test_policy_files(case: Case) -> None:
    holds("PolicyAgent.load (policy files)", case)


@fuzzes("play_ladder(results=FILE)", 25)
@example(Case(b"my notes\nthe last line has no end", kind="file", deals=2))
@example(Case(FILE + b'{"deal": 2, "sea', kind="file", deals=3))
@example(Case(FILE.replace(b'"seed":9', b'"seed":9,"seed":9'), kind="file", deals=2))
@example(Case(FILE, kind="fifo", deals=2))
@example(Case(FILE, kind="devnull", deals=2))
def test_results_files(case: Case) -> None:
    holds("play_ladder(results=FILE)", case)
