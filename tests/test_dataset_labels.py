"""Labels of a data set (issue 51 item 2): ``chickenfoot dataset build ... --label N``."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from chickenfoot import Rules, deal, solve
from chickenfoot._rollouts import heuristic_policy
from chickenfoot.analysis import evaluate
from chickenfoot.cli import main
from chickenfoot.dataset import check, labels, manifest
from chickenfoot.encoding import Encoding
from chickenfoot.errors import BudgetError
from chickenfoot.playout import playout
from chickenfoot.state import apply
from helpers import file_digests

BUILD = ["--rounds", "6", "--agents", "greedy,random", "--players", "2", "--presets", "house"]
BUILD += ["--seed", "3", "--part-rounds", "3", "--label-iterations", "16", "--label-nodes", "5000"]
BUILD += ["--label", "8"]
LABELS = "labels/preset=house/players=2/part-00001.parquet"


def _build(root: Path, *extra: str) -> int:
    return main(["dataset", "build", str(root), *BUILD, *extra])


@pytest.fixture(scope="module")
def built(built_dataset: Callable[..., Path]) -> Path:
    return built_dataset(*BUILD)


def test_label_n_labels_n_decisions_spread_over_the_rounds(built: Path) -> None:
    rows = [r for b in labels(built) for r in b.to_pylist()]
    assert len(rows) == 8
    assert {r["round"] for r in rows} == set(range(6))  # spread: every round has one or two
    assert (built / LABELS).is_file()
    assert manifest(built)["command"]["label"] == {"decisions": 8, "iterations": 16, "nodes": 5000}


def test_each_label_is_the_search_value_and_the_solver_value_of_every_legal_move(
    built: Path,
) -> None:
    rules = Rules.preset("house", players=2)
    enc = Encoding(rules)
    rounds = pq.read_table(built / "rounds/preset=house/players=2/part-00000.parquet")
    rows = rounds.to_pylist()
    moves_of = {r["round"]: r["moves"] for r in rows}
    seeds = {r["round"]: r["seed"] for r in rows}
    solved = unsolved = 0
    for row in next(iter(labels(built))).to_pylist():
        state = deal(rules, seed=seeds[row["round"]])
        for a in moves_of[row["round"]][: row["move"]]:
            state = state.apply(enc.move(a))
        assert row["seat"] == state.turn and row["legal"] == [
            enc.action(m) for m in state.legal_moves
        ]
        assert len(row["legal"]) >= 2  # a forced move is no decision to label
        values = evaluate(state.view(state.turn), iterations=16, seed=row["search_seed"])
        assert row["search_penalty"] == pytest.approx([v.penalty for v in values], rel=1e-6)
        assert row["search_win"] == pytest.approx([v.win for v in values], rel=1e-6)
        me = state.turn
        after = [apply(state, m) for m in state.legal_moves]
        assert row["clairvoyant_penalty"] == [
            playout(s, policy=heuristic_policy).penalties()[me] for s in after
        ]
        try:
            exact = solve(state, nodes=5_000)
        except BudgetError:
            assert not row["solved"] and row["solver_penalty"] is None  # never a guess
            unsolved += 1
            continue
        assert row["solved"] and row["nodes"] == exact.nodes
        assert row["solver_penalty"] == [exact.values[enc.move(a)][me] for a in row["legal"]]
        solved += 1
    assert solved > 0 and unsolved > 0, (solved, unsolved)


def test_labels_are_deterministic_and_resumable(built: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    assert _build(again) == 0
    assert file_digests(again) == file_digests(built)
    (again / LABELS).unlink()
    assert _build(again) == 0
    assert file_digests(again) == file_digests(built)


def test_the_data_card_and_the_command_line_name_the_labels(built: Path) -> None:
    card = (built / "README.md").read_text()
    assert "--label 8 --label-iterations 16 --label-nodes 5000" in card and "## Labels" in card


def test_check_finds_an_edited_label(built: Path, tmp_path: Path) -> None:
    root = tmp_path / "edited"
    shutil.copytree(built, root)
    assert check(root) == []
    table = pq.read_table(root / LABELS)
    values = table.column("search_penalty").to_pylist()
    values[1][0] += 1.0
    i = table.schema.get_field_index("search_penalty")
    edited = table.set_column(i, "search_penalty", pa.array(values, pa.list_(pa.float32())))
    pq.write_table(edited, root / LABELS)
    assert [p.split(": ")[0] for p in check(root)] == [f"{LABELS} row 1"]


def test_check_finds_a_missing_labels_part(built: Path, tmp_path: Path) -> None:
    root = tmp_path / "missing"
    shutil.copytree(built, root)
    (root / LABELS).unlink()
    assert check(root) == [f"{LABELS}: missing (the build did not finish: run it again)"]


def test_check_names_a_labels_part_that_is_not_in_the_manifest(built: Path, tmp_path: Path) -> None:
    root = tmp_path / "orphan"
    shutil.copytree(built, root)
    stray = LABELS.replace("part-00001", "part-00002")  # 6 rounds in parts of 3: two parts
    shutil.copy(root / LABELS, root / stray)
    assert check(root) == [f"{stray}: a file that is not in the manifest"]


def test_a_bad_label_count_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["dataset", "build", str(tmp_path / "x"), *BUILD[:-2], "--label", "-1"]) == 2
    err = capsys.readouterr().err
    assert "label" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_the_pages_labels_example_runs(built: Path) -> None:
    page = (Path(__file__).resolve().parent.parent / "docs" / "dataset.md").read_text()
    section = page.split("## Labels", 1)[1]
    example = section.split("```python\n", 1)[1].split("```", 1)[0]
    scope: dict[str, object] = {}
    exec(compile(example.replace("DIR", str(built)), "docs/dataset.md", "exec"), scope)
    row = scope["row"]
    assert isinstance(row, dict) and len(row["legal"]) == len(row["search_penalty"]) >= 2


def test_a_manifest_with_a_broken_label_entry_is_refused_in_one_line(
    built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "broken"
    shutil.copytree(built, root)
    text = (root / "manifest.json").read_text()
    (root / "manifest.json").write_text(text.replace('"decisions": 8', '"decisions": "8"'))
    assert main(["dataset", "check", str(root)]) != 0
    err = capsys.readouterr().err
    assert "label" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
