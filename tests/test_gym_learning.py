"""The numpy PPO of examples/ppo_numpy.py learns: a small, fixed budget (updates, not
seconds) against three random players, under the engine's numpy backend or numba.

The argmax policy's win share is measured over 4,000 rounds before training and after
it, each against three random players. A win share lies in [0, 1], so each estimate's
standard error is at most sqrt(0.25 / 4000) = 0.0079 and that of the difference of two
independent estimates at most 0.0112: requiring a gain above 0.04 (3.6 of those) leaves
a policy that learned nothing under a 0.02% chance to pass. This budget gained 0.07 to
0.08 (numba, numpy) when it was written: 2.7 standard errors above the bar.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "ppo_numpy.py"


def test_the_numpy_ppo_learns_against_random_players(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("ppo_numpy", EXAMPLE)
    assert spec is not None and spec.loader is not None
    ppo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ppo)
    args = ppo.parse([
        "--updates", "12", "--seconds", "1e9", "--envs", "64", "--steps", "32",
        "--opponents", "random", "--eval-opponents", "random", "--eval-every", "100",
        "--eval-rounds", "4000", "--out", str(tmp_path / "p.npz"),
    ])  # fmt: skip
    result = ppo.train(args)
    before, after = result["curve"][0], result["curve"][-1]
    assert (before["update"], after["update"]) == (0, 12)
    assert after["win"] - before["win"] > 0.04, result["curve"]
    assert (tmp_path / "p.npz").stat().st_size < 1_000_000
