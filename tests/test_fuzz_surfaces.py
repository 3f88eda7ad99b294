"""The targets of ``fuzz_surfaces`` on a short fixed budget, with the audit's inputs of
issue 18 as explicit examples (``nox -s fuzz`` runs them for longer)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import chickenfoot as cf
from fuzz_surfaces import ENTRIES
from fuzz_targets import IN_SUITE, TARGETS, Case, check
from strategies import examples

IN_SUITE.update(e.name for e in ENTRIES)  # each runs below

S = cf.deal(cf.Rules(), seed=1)
V = S.apply("9-3@9-9").view(1)

# The audit's probes, by target: each used to escape as a Python error.
AUDIT: dict[str, list[Case]] = {
    "play_round": [
        Case(state="x", agents=[cf.RandomAgent()] * 4, rng=random.Random(0)),
        Case(state=S, agents=[cf.RandomAgent()] * 4, rng=None),
    ],
    "play_match": [Case(rules="x", agents=[cf.RandomAgent()] * 4, seed=1, rng=random.Random(0), on_round=None)],
    "HeuristicAgent(**fields)": [Case(follow="x", hurt=3.0, foot=6.0, keep=3.0)],
    "render": [Case(state="x")],
    "render_compact": [Case(position=S, seat=None, width="80")],
    "Encoding.observe": [
        Case(encoding=cf.encoding.Encoding(cf.Rules()), view=V, out=[0.0] * 305),
        Case(encoding=cf.encoding.Encoding(cf.Rules()), view=V, out=np.zeros(305, np.float32)[::1].copy().__array__()),
    ],
    "mean_interval": [
        Case(values=["x"]),
        Case(values=[float("nan")]),
        Case(values=(0.0, -7.321599510556533e259, 4.0)),  # found by fuzzing: OverflowError
    ],
    "wilson_interval": [
        Case(successes="x", n=5),
        Case(successes=1, n=float("nan")),
        Case(successes=6, n=10**4301),  # found by fuzzing: OverflowError
        Case(successes=2**14333, n=2**14333),  # found by fuzzing: the message's int-to-str
    ],
    "View.sample": [Case(view_of=V, rng=5), Case(view_of=V, rng="x"), Case(view_of=V, rng=np.random.default_rng(0))],
    "View.sample_record": [Case(view_of=V, rng=5), Case(view_of=V, rng=np.random.default_rng(0))],
    "Tile.other": [Case(tile=cf.Tile(9, 4), number=7)],
    "to_json(indent=)": [Case(obj=S, indent=10**9), Case(obj=V, indent="\t")],
}  # fmt: skip


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e.name)
def test_surface(entry: Any) -> None:
    target = TARGETS[entry.name]
    for case in AUDIT.get(entry.name, []):
        failure = check(target, case)
        assert failure is None, failure.report()

    @settings(
        max_examples=examples(25),
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(target.inputs)
    def run(case: Case) -> None:
        failure = check(target, case)
        assert failure is None, failure.report()

    run()


def test_every_surface_is_fuzzed() -> None:
    assert {e.name for e in ENTRIES} <= set(TARGETS)
    assert len(ENTRIES) >= 30
