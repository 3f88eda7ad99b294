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
from typing import Any

import pytest

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


def _example() -> Any:
    spec = importlib.util.spec_from_file_location("ppo_numpy", EXAMPLE)
    assert spec is not None and spec.loader is not None
    ppo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ppo)
    return ppo


TINY = ["--updates", "1", "--envs", "4", "--steps", "2", "--eval-rounds", "8",
        "--opponents", "random", "--eval-opponents", "random"]  # fmt: skip


def test_the_ppo_recipe_makes_the_folder_it_saves_in(tmp_path: Path) -> None:
    # docs/gym.md's command saves to runs/ppo.npz, in a folder a new checkout lacks: it
    # trained for its whole budget, then lost it all to FileNotFoundError (issue 50, item 1)
    ppo = _example()
    out = tmp_path / "runs" / "deeper" / "ppo.npz"
    ppo.train(ppo.parse([*TINY, "--out", str(out)]))
    assert out.stat().st_size > 0 and out.with_suffix(".json").is_file()


@pytest.mark.parametrize("where", ["a-file/ppo.npz", "a-folder"])
def test_the_ppo_recipe_refuses_a_place_it_cannot_write_before_any_work(
    tmp_path: Path, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a-file").write_text("kept")
    (tmp_path / "a-folder").mkdir()
    ppo = _example()
    with pytest.raises(SystemExit, match="cannot write"):
        ppo.train(ppo.parse([*TINY, "--out", str(tmp_path / where)]))
    assert capsys.readouterr().out == ""  # refused before the first evaluation's line
    assert (tmp_path / "a-file").read_text() == "kept"
