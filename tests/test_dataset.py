"""The data set of rounds (issue 51): ``chickenfoot dataset build/check`` and the readers."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from chickenfoot import Rules, deal
from chickenfoot.cli import main
from chickenfoot.dataset import check, decisions
from chickenfoot.dataset._rows import SCHEMA, digest, digests
from chickenfoot.encoding import Encoding
from helpers import file_digests

BUILD = ["--rounds", "12", "--agents", "greedy,random", "--players", "2,3"]
BUILD += ["--presets", "house,classic", "--seed", "5", "--part-rounds", "5"]


def _build(tmp: Path, *extra: str) -> int:
    return main(["dataset", "build", str(tmp), *BUILD, *extra])


@pytest.fixture(scope="module")
def built(built_dataset: Callable[..., Path]) -> Path:
    return built_dataset(*BUILD)


def test_build_writes_parts_by_preset_and_table_size(built: Path) -> None:
    parts = sorted(str(p.relative_to(built)) for p in built.rglob("*.parquet"))
    assert "rounds/preset=house/players=2/part-00000.parquet" in parts
    assert "rounds/preset=classic/players=3/part-00002.parquet" in parts
    assert len(parts) == 2 * 2 * 3  # 12 rounds in parts of 5: 3 parts per partition
    table = pq.read_table(built / "rounds/preset=house/players=3/part-00001.parquet")
    assert table.num_rows == 5
    row = table.slice(0, 1).to_pylist()[0]
    assert row["preset"] == "house" and row["players"] == 3 and row["round"] == 5
    assert len(row["agents"]) == 3 and set(row["agents"]) <= {"greedy", "random"}
    assert row["ending"] in ("out", "blocked")
    rules = Rules.preset("house", players=3)
    s = deal(rules, seed=row["seed"])
    enc = Encoding(rules)
    for a in row["moves"]:
        s = s.apply(enc.move(a))
    assert s.is_over() and list(s.penalties()) == row["penalties"]
    manifest = json.loads((built / "manifest.json").read_text())
    assert manifest["format"] == "chickenfoot/dataset" and len(manifest["parts"]) == 12
    card = (built / "README.md").read_text()
    assert "chickenfoot dataset build" in card and "license" in card.lower()


def test_the_same_command_gives_the_same_bytes(built: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    assert _build(again) == 0
    assert file_digests(again) == file_digests(built)


def test_an_interrupted_build_continues(built: Path, tmp_path: Path) -> None:
    root = tmp_path / "cut"
    assert _build(root) == 0
    # As if stopped: the last parts missing from disk and manifest, a half-written temp file.
    manifest = json.loads((root / "manifest.json").read_text())
    for part in manifest["parts"][-4:]:
        (root / part["path"]).unlink()
    manifest["parts"] = manifest["parts"][:-4]
    (root / "manifest.json").write_text(json.dumps(manifest))
    (root / "rounds/preset=classic/players=3/part-00002.parquet.tmp").write_bytes(b"PAR1 half")
    assert _build(root) == 0
    assert file_digests(root) == file_digests(built)


def test_a_directory_of_another_data_set_is_refused(
    built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "other"
    assert _build(root) == 0
    capsys.readouterr()
    assert main(["dataset", "build", str(root), *BUILD[:-1], "6"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "another data set" in err
    stranger = tmp_path / "stranger"
    stranger.mkdir()
    (stranger / "notes.txt").write_text("mine")
    assert main(["dataset", "build", str(stranger), *BUILD]) == 2
    assert "not a chickenfoot data set" in capsys.readouterr().err
    manifest = json.loads((root / "manifest.json").read_text())
    manifest["version"] = "0.0.1"
    (root / "manifest.json").write_text(json.dumps(manifest))
    assert _build(root) == 2
    assert "version 0.0.1" in capsys.readouterr().err


def test_check_passes_a_clean_data_set(built: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert check(built) == []
    assert main(["dataset", "check", str(built)]) == 0
    assert "48 rounds" in capsys.readouterr().out


def _edit(root: Path, part: str, column: str, row: int, value: object) -> None:
    path = root / part
    rows = pq.read_table(path).to_pylist()
    rows[row][column] = value
    table = pa.Table.from_pylist(rows, schema=pq.read_schema(path))
    pq.write_table(table, path)


def test_check_finds_every_edited_row(built: Path, tmp_path: Path) -> None:
    root = tmp_path / "edited"
    assert _build(root) == 0
    part = "rounds/preset=house/players=2/part-00000.parquet"
    rows = pq.read_table(root / part).to_pylist()
    _edit(root, part, "penalties", 1, [p + 1 for p in rows[1]["penalties"]])
    _edit(root, part, "seed", 2, rows[2]["seed"] + 1)
    moves = list(rows[3]["moves"])
    moves[-1] = (moves[-1] + 1) % 1000
    _edit(root, part, "moves", 3, moves)
    problems = check(root)
    assert sorted({p.split(": ")[0] for p in problems}) == [
        f"{part} row 1",
        f"{part} row 2",
        f"{part} row 3",
    ]


def test_check_names_every_file_that_does_not_belong(built: Path, tmp_path: Path) -> None:
    root = tmp_path / "orphans"
    shutil.copytree(built, root)
    assert check(root) == []
    part = (root / "rounds/preset=house/players=2/part-00000.parquet").read_bytes()
    strays = [
        "decisions/preset=house/players=2/part-00000.parquet",  # built without --decisions
        "labels/preset=house/players=2/part-00000.parquet",  # built without --label
        "rounds/preset=house/players=2/part-00000.parquet.tmp",  # an interrupted write
        "rounds/preset=house/players=2/part-00009.parquet",  # beyond the command's rounds
        "rounds/preset=house/players=5/part-00000.parquet",  # a partition not asked for
        "rounds/preset=house/players=5/part-00000/x.parquet",  # deeper than a part
    ]
    for rel in strays:
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(part)
    assert check(root) == [f"{rel}: a file that is not in the manifest" for rel in strays]


def test_the_digests_of_a_table_are_those_of_its_rows(built: Path) -> None:
    rows = pq.read_table(built / "rounds/preset=house/players=3/part-00000.parquet").to_pylist()
    rows[0]["agents"] = ['say "hi"', "back\\slash", "random"]  # JSON escapes them
    rows[1]["agents"] = []
    rows[2]["preset"] = "maison \u00e9"
    rows[3]["moves"], rows[3]["penalties"], rows[4]["out"] = [], [], None
    values, exact = digests(pa.Table.from_pylist(rows, schema=SCHEMA))
    assert exact.tolist() == [False, False, False, True, True]
    assert [int(v) for v in values[3:]] == [digest(r) for r in rows[3:]]


def test_check_reads_a_part_of_many_row_groups_as_one(built: Path, tmp_path: Path) -> None:
    root = tmp_path / "groups"
    shutil.copytree(built, root)
    part = root / "rounds/preset=classic/players=3/part-00001.parquet"
    rows = pq.read_table(part).to_pylist()
    rows[3]["agents"] = [*rows[3]["agents"][1:], rows[3]["agents"][0]]  # seated otherwise
    table = pa.Table.from_pylist(rows, schema=pq.read_schema(part))
    pq.write_table(table, part, row_group_size=2)  # read back in chunks of 2 rows
    assert pq.read_table(part).column("agents").num_chunks == 3
    assert {p.split(": ")[0] for p in check(root)} == {f"{part.relative_to(root)} row 3"}


def test_check_reports_a_truncated_file_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "cut"
    assert _build(root) == 0
    path = root / "rounds/preset=classic/players=2/part-00001.parquet"
    path.write_bytes(path.read_bytes()[:200])
    capsys.readouterr()
    assert main(["dataset", "check", str(root)]) == 1
    out = capsys.readouterr()
    lines = [line for line in out.out.splitlines() if "part-00001" in line]
    assert len(lines) == 1 and "cannot be read" in lines[0]
    assert "Traceback" not in out.out + out.err


def test_decisions_replay_every_move(built: Path) -> None:
    rules = Rules.preset("house", players=2)
    enc = Encoding(rules)
    batches = [
        b for b in decisions(built, batch_size=64) if b["preset"] == "house" and b["players"] == 2
    ]
    total = sum(len(b["action"]) for b in batches)
    table = pq.read_table(built / "rounds/preset=house/players=2")
    assert total == sum(len(m) for m in table.column("moves").to_pylist())
    b = batches[0]
    n = len(b["action"])
    assert b["mask"].shape == (n, enc.num_actions) and b["mask"].dtype == np.bool_
    assert b["observation"].shape == (n, enc.observation_size)
    assert b["hands"].shape == (n, 2, 55)
    assert b["mask"][np.arange(n), b["action"]].all()
    first = table.slice(0, 1).to_pylist()[0]
    s = deal(rules, seed=first["seed"])
    assert b["round"][0] == first["round"] and b["move"][0] == 0 and b["seat"][0] == s.turn
    np.testing.assert_array_equal(b["observation"][0], enc.observe(s.view(s.turn)))
    np.testing.assert_array_equal(b["mask"][0], enc.legal_mask(s))
    assert b["hands"][0].sum(axis=1).tolist() == list(s.hand_sizes)


def test_hugging_face_datasets_streams_the_rounds(built: Path) -> None:
    from datasets import load_dataset

    files = sorted(str(p) for p in built.glob("rounds/preset=house/players=*/*.parquet"))
    stream = load_dataset("parquet", data_files=files, split="train", streaming=True)
    rows = list(stream)
    assert len(rows) == 24 and {r["preset"] for r in rows} == {"house"}
    assert all(isinstance(r["moves"], list) for r in rows)


def test_the_command_line_never_shows_a_traceback(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "chickenfoot", "dataset", "check", str(tmp_path / "none")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def _example(heading: str) -> str:
    page = (Path(__file__).resolve().parent.parent / "docs" / "dataset.md").read_text()
    section = page.split(f"## {heading}", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_pages_examples_run(built: Path) -> None:
    """docs/dataset.md's examples, as printed, on a built data set."""
    hf = _example("Streaming with Hugging Face").replace("DIR", str(built))
    hf = hf.replace("players=4", "players=2")
    scope: dict[str, object] = {}
    exec(compile(hf, "docs/dataset.md", "exec"), scope)
    assert len(scope["moves"]) == 12 and len(scope["penalties"][0]) == 2  # type: ignore[arg-type,index]
    numpy = _example("Decisions, as numpy batches").replace("DIR", str(built))
    exec(compile(numpy, "docs/dataset.md", "exec"), scope)
    assert scope["b"]["observation"].dtype == np.float32  # type: ignore[index]


def test_a_process_pool_writes_the_same_bytes(built: Path, tmp_path: Path) -> None:
    root = tmp_path / "pool"
    assert _build(root, "--executor", "process", "--workers", "2") == 0
    assert file_digests(root) == file_digests(built)


def test_an_agent_failing_mid_build_stops_in_one_line_and_the_build_continues(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "flaky.py").write_text(
        "import os\n"
        "from chickenfoot.agents import GreedyAgent\n"
        "class Bot(GreedyAgent):\n"
        "    def choose(self, view, legal, rng):\n"
        "        if os.path.exists('stop') and view.turn == 1:\n"
        "            raise RuntimeError('out of memory')\n"
        "        return super().choose(view, legal, rng)\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "stop").write_text("")
    args = ["dataset", "build", "set", "--rounds", "4", "--agents", "flaky:Bot,random"]
    args += ["--players", "2", "--seed", "3", "--part-rounds", "2"]
    run = subprocess.run(
        [sys.executable, "-m", "chickenfoot", *args], capture_output=True, text=True, check=False
    )
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1 and "out of memory" in run.stderr
    assert not list((tmp_path / "set").rglob("*.parquet"))
    (tmp_path / "stop").unlink()
    assert main(args) == 0
    assert check(tmp_path / "set") == []


def test_check_reports_nulls_and_a_broken_manifest_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "nulls"
    assert _build(root) == 0
    part = root / "rounds/preset=house/players=3/part-00000.parquet"
    table = pq.read_table(part)
    loose = pa.schema([f.with_nullable(True) for f in table.schema])
    rows = table.to_pylist()
    rows[4]["moves"] = None
    pq.write_table(pa.Table.from_pylist(rows, schema=loose), part)
    problems = check(root)
    assert [p for p in problems if "row 4" in p] and all("row 4" in p for p in problems)
    manifest = json.loads((root / "manifest.json").read_text())
    manifest["command"]["rounds"] = "many"
    (root / "manifest.json").write_text(json.dumps(manifest))
    capsys.readouterr()
    assert main(["dataset", "check", str(root)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "manifest" in err


def test_decisions_on_disk_are_the_replayed_ones_and_edits_are_found(
    built: Path, tmp_path: Path
) -> None:
    root = tmp_path / "with"
    assert _build(root, "--decisions") == 0
    assert check(root) == []
    part = "decisions/preset=classic/players=2/part-00001.parquet"
    table = pq.read_table(root / part)
    replayed = next(
        b
        for b in decisions(built, batch_size=100_000)
        if (b["preset"], b["players"]) == ("classic", 2)
    )
    rows = table.column("round").to_numpy()
    first = int(np.flatnonzero(replayed["round"] == rows[0])[0])
    np.testing.assert_array_equal(
        np.stack(table.column("observation").to_numpy(zero_copy_only=False)),
        replayed["observation"][first : first + len(rows)],
    )
    actions = table.column("action").to_pylist()
    actions[7] += 1
    edited = table.set_column(3, "action", pa.array(actions, pa.uint16()))
    pq.write_table(edited, root / part)
    assert [p.split(": ")[0] for p in check(root)] == [f"{part} row 7"]


def test_the_batch_engine_without_numba_stops_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import chickenfoot.batch._compiled as compiled

    monkeypatch.setattr(compiled, "available", lambda: False)  # as without the fast extra
    assert _build(tmp_path / "b", "--engine", "batch") == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "pip install 'chickenfoot[fast]'" in err
    assert "Traceback" not in err
    assert _build(tmp_path / "c", "--engine", "gpu") == 2  # argparse: one of core, batch
    assert "--engine" in capsys.readouterr().err


@pytest.mark.parametrize(
    "path",
    [
        "rounds/preset=house/players=3/../../../../outside.parquet",
        "/etc/hostname",
        "rounds/preset=house/players=3/part-1.parquet",
        "rounds/preset=house/players=9/part-00000.parquet",  # not a table size of the command
    ],
)
def test_a_manifest_part_outside_the_data_set_is_refused_everywhere(
    built: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], path: str
) -> None:
    root = tmp_path / "moved"
    shutil.copytree(built, root)
    manifest = json.loads((root / "manifest.json").read_text())
    manifest["parts"][0]["path"] = path  # a data set from elsewhere names what it likes
    (root / "manifest.json").write_text(json.dumps(manifest))
    from chickenfoot import FormatError

    with pytest.raises(FormatError, match="parts"):
        next(decisions(root))
    with pytest.raises(FormatError, match="parts"):
        check(root)
    capsys.readouterr()
    assert main(["dataset", "check", str(root)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "parts" in err and "Traceback" not in err
