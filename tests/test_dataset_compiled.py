"""Data sets with the batch engine under them (numba): ``--engine batch`` plays the rounds
with its compiled agents, and the check and the decisions reader replay them in its
compiled replay. In the fast session; left out of the numpy-only tests session."""

from __future__ import annotations

import json
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from itertools import islice
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from chickenfoot import Rules, deal
from chickenfoot.agents import GreedyAgent, HeuristicAgent, RandomAgent
from chickenfoot.cli import main
from chickenfoot.dataset import build, check, decisions
from chickenfoot.dataset._rows import digest
from chickenfoot.encoding import Encoding
from chickenfoot.errors import ArgumentError
from helpers import file_digests

pytest.importorskip("numba")
pytest.importorskip("pyarrow")

BUILD = ["--rounds", "350", "--agents", "heuristic,greedy,random", "--players", "2,4"]
BUILD += ["--presets", "house,classic", "--seed", "3", "--part-rounds", "150"]
BUILD += ["--engine", "batch"]
AGENTS = [("heuristic", HeuristicAgent()), ("greedy", GreedyAgent()), ("random", RandomAgent())]


@pytest.fixture(scope="module")
def built(built_dataset: Callable[..., Path]) -> Path:
    return built_dataset(*BUILD)


def test_the_batch_engine_builds_rounds_the_rules_replay(built: Path) -> None:
    manifest = json.loads((built / "manifest.json").read_text())
    assert manifest["command"]["engine"] == "batch" and len(manifest["parts"]) == 12
    assert "--engine batch" in (built / "README.md").read_text()
    table = pq.read_table(built / "rounds/preset=classic/players=4/part-00002.parquet")
    assert table.num_rows == 50 and table.column("round").to_pylist()[0] == 300
    rules = Rules.preset("classic", players=4)
    enc = Encoding(rules)
    endings = set()
    for row in table.to_pylist():
        s = deal(rules, seed=row["seed"])
        for a in row["moves"]:
            s = s.apply(enc.move(a))
        assert s.is_over() and list(s.penalties()) == row["penalties"]
        assert row["digest"] == digest(row)
        endings.add(row["ending"])
    assert endings == {"out", "blocked"}
    assert check(built) == []


def test_the_same_deals_as_the_core_engine(built: Path, tmp_path: Path) -> None:
    core = tmp_path / "core"
    build(core, rounds=5, agents=AGENTS, players=[4], presets=["house"], seed=3)
    batch = tmp_path / "batch"
    build(batch, rounds=5, agents=AGENTS, players=[4], presets=["house"], seed=3, engine="batch")
    part = "rounds/preset=house/players=4/part-00000.parquet"
    a, b = pq.read_table(core / part), pq.read_table(batch / part)
    for name in ("round", "seed", "agents"):
        assert a.column(name).equals(b.column(name))


def test_the_same_command_gives_the_same_bytes_in_a_process_pool(
    built: Path, tmp_path: Path
) -> None:
    again = tmp_path / "again"
    assert main(["dataset", "build", str(again), *BUILD, "--executor", "process"]) == 0
    assert file_digests(again) == file_digests(built)
    manifest = json.loads((again / "manifest.json").read_text())
    for part in manifest["parts"][-5:]:  # as if interrupted, continued in a process pool
        (again / part["path"]).unlink()
    manifest["parts"] = manifest["parts"][:-5]
    (again / "manifest.json").write_text(json.dumps(manifest))
    kw: dict[str, Any] = {"players": [2, 4], "presets": ["house", "classic"], "seed": 3}
    with ProcessPoolExecutor(2) as pool:
        build(again, rounds=350, agents=AGENTS, part_rounds=150, engine="batch", executor=pool,
              **kw)  # fmt: skip
    assert file_digests(again) == file_digests(built)


def test_only_the_kernels_agents_and_no_mixing_with_the_core(
    built: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(ArgumentError, match="agents"):
        build(built.parent / "x", rounds=1, agents=[("search:5", GreedyAgent())], players=[2],
              presets=["house"], seed=1, engine="batch")  # fmt: skip
    with pytest.raises(ArgumentError, match="engine"):
        build(built.parent / "y", rounds=1, agents=AGENTS, players=[2], presets=["house"],
              seed=1, engine="gpu")  # fmt: skip
    core = [a for a in BUILD if a not in ("--engine", "batch")]
    assert main(["dataset", "build", str(built), *core]) == 2
    assert "another data set" in capsys.readouterr().err


def _rewrite(root: Path, part: str, edits: dict[int, dict[str, Any]]) -> None:
    """Edit rows and give them their digest again: only a replay can find them."""
    path = root / part
    rows = pq.read_table(path).to_pylist()
    for i, changes in edits.items():
        rows[i].update(changes)
        rows[i]["digest"] = digest(rows[i])
    pq.write_table(pa.Table.from_pylist(rows, schema=pq.read_schema(path)), path)


def test_check_finds_every_edited_row_by_the_compiled_replay(built: Path, tmp_path: Path) -> None:
    root = tmp_path / "edited"
    assert main(["dataset", "build", str(root), *BUILD]) == 0
    part = "rounds/preset=house/players=4/part-00001.parquet"
    rows = pq.read_table(root / part).to_pylist()
    out_row = next(i for i, r in enumerate(rows) if r["ending"] == "out")
    moves = list(rows[7]["moves"])
    moves[3], moves[4] = moves[4], moves[3]
    edits = {
        2: {"penalties": [p + 1 for p in rows[2]["penalties"]]},
        7: {"moves": moves},
        9: {"moves": rows[9]["moves"][:-1]},
        11: {"moves": [*rows[11]["moves"], rows[11]["moves"][-1]]},
        out_row: {"out": (rows[out_row]["out"] + 1) % 4},
        120: {"ending": "blocked" if rows[120]["ending"] == "out" else "out"},
    }
    _rewrite(root, part, edits)
    found = sorted({int(p.split(": ")[0].split(" row ")[1]) for p in check(root)})
    assert found == sorted(edits)


def test_check_finds_rows_edited_where_the_replay_does_not_look(
    built: Path, tmp_path: Path
) -> None:
    # The compiled replay reads the seeds, moves, penalties and endings; the partition,
    # the round, the seating and the digest are checked on whole columns, and only the
    # rows they flag are read one by one: every edit is found, its digest redone or not.
    root = tmp_path / "columns"
    assert main(["dataset", "build", str(root), *BUILD]) == 0
    part = "rounds/preset=classic/players=2/part-00001.parquet"
    rows = pq.read_table(root / part).to_pylist()
    edits = {
        3: {"round": rows[4]["round"]},
        5: {"agents": rows[5]["agents"][::-1]},
        8: {"agents": ['heuristic"', rows[8]["agents"][1]]},  # a name JSON escapes
        13: {"preset": "house"},
        21: {"players": 3},
        34: {"agents": [*rows[34]["agents"], "random"]},
    }
    _rewrite(root, part, edits)
    path = root / part
    table = pq.read_table(path)
    kept = table.to_pylist()
    kept[40]["agents"] = kept[41]["agents"]  # its old digest kept
    pq.write_table(pa.Table.from_pylist(kept, schema=table.schema), path)
    found = sorted({int(p.split(": ")[0].split(" row ")[1]) for p in check(root)})
    assert found == sorted([*edits, 40])


def test_the_compiled_reader_gives_the_cores_decisions(
    built: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    compiled = list(islice(decisions(built, batch_size=500), 24))
    import chickenfoot.dataset._batch as batch

    monkeypatch.setattr(batch, "engine_for", lambda *a, **k: None)
    core = list(islice(decisions(built, batch_size=500), 24))
    assert len(compiled) == len(core) == 24
    for a, b in zip(compiled, core, strict=True):
        assert a.keys() == b.keys()
        for key in a:
            if isinstance(a[key], np.ndarray):
                assert np.array_equal(a[key], b[key]), key
            else:
                assert a[key] == b[key]
