"""``chickenfoot dataset export --to openspiel``: the trajectory arrays are what OpenSpiel's
own game gives when the rounds are replayed through ``pyspiel`` (docs/dataset.md)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyspiel
import pytest

import chickenfoot.openspiel  # noqa: F401 - registers python_chickenfoot
from chickenfoot.cli import main

BUILD = ["--rounds", "5", "--agents", "greedy,random", "--players", "2,4"]
BUILD += ["--presets", "house,classic", "--seed", "9", "--part-rounds", "3"]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("data")
    assert main(["dataset", "build", str(root / "set"), *BUILD]) == 0
    assert main(["dataset", "export", str(root / "set"), str(root / "os"), "--to",
                 "openspiel"]) == 0  # fmt: skip
    return root / "os"


def _load(folder: Path) -> dict[str, np.ndarray]:
    return {p.stem: np.load(p, allow_pickle=False) for p in folder.glob("*.npy")}


@pytest.mark.parametrize(("preset", "players"), [("house", 2), ("house", 4), ("classic", 4)])
def test_the_arrays_are_pyspiels_tensors_along_each_rounds_history(
    exported: Path, preset: str, players: int
) -> None:
    index = json.loads((exported / "arrays.json").read_text())
    part = next(p for p in index["partitions"] if (p["preset"], p["players"]) == (preset, players))
    game = pyspiel.load_game(part["game"])
    a = _load(exported / f"preset={preset}" / f"players={players}")
    n = len(a["action"])
    assert a["info_state"].shape == (n, game.information_state_tensor_size())
    assert a["observation"].shape == (n, game.observation_tensor_size())
    assert a["legal_actions_mask"].shape == (n, game.num_distinct_actions())
    assert a["returns"].shape == (n, players) and len(a["round"]) == 5
    row = 0
    for e in range(len(a["round"])):
        state = game.new_initial_state()
        history = a["history"][a["history_offsets"][e] : a["history_offsets"][e + 1]]
        for j, h in enumerate(history.tolist()):
            if not state.is_chance_node():
                assert a["episode"][row] == e and a["history_index"][row] == j
                p = state.current_player()
                assert a["player"][row] == p and a["action"][row] == h
                np.testing.assert_array_equal(
                    a["info_state"][row], state.information_state_tensor(p)
                )
                np.testing.assert_array_equal(a["observation"][row], state.observation_tensor(p))
                assert a["legal_actions_mask"][row].tolist() == state.legal_actions_mask(p)
                row += 1
            else:
                assert h in dict(state.chance_outcomes())
            state.apply_action(h)
        assert state.is_terminal()
        mine = a["episode"] == e
        assert (a["returns"][mine] == np.array(state.returns())).all()
    assert row == n


def test_the_pages_openspiel_example_runs(exported: Path) -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / "dataset.md").read_text()
    section = page.split("### `--to openspiel`", 1)[1].split("\n### ", 1)[0]
    example = section.split("```python\n", 1)[1].split("```", 1)[0]
    scope: dict[str, object] = {}
    exec(compile(example.replace("OUT", str(exported)), "docs/dataset.md", "exec"), scope)
    assert scope["state"].is_terminal()  # type: ignore[attr-defined]
