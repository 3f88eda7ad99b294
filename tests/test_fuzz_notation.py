"""The fuzz targets of the notation's reader (``fuzz_notation``) on a short fixed budget.

``bench/fuzz.py --target "notation read (tolerant)"`` runs them for a time budget.
"""

from __future__ import annotations

import fuzz_notation
from fuzz_notation import NAMES
from fuzz_targets import IN_SUITE, Case, fuzzes, holds

IN_SUITE.update(NAMES)


@fuzzes(NAMES[0], 150)
def test_the_tolerant_reader_never_raises(case: Case) -> None:
    holds(NAMES[0], case)


@fuzzes(NAMES[1], 150)
def test_the_strict_reader_raises_only_notation_errors(case: Case) -> None:
    holds(NAMES[1], case)


def test_the_inputs_include_every_audience_and_a_match() -> None:
    joined = b"".join(fuzz_notation._FILES)
    for audience in (b"full", b"spectator", b"seat 1"):
        assert b'[Audience "' + audience + b'"]' in joined
    assert b'[Match "begin"]' in joined
