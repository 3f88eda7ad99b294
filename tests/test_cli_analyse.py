"""``chickenfoot analyse FILE [--seat K] [--json]`` (docs/analysis.md, docs/cli.md).

In process through ``main`` for the outputs and the errors, and once in a subprocess to
see the real command line (exit status, one line on stderr, never a traceback).
"""

from __future__ import annotations

import io
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import chickenfoot as cf
from chickenfoot.analysis import analyse
from chickenfoot.cli import main
from chickenfoot.notation import read_game, write_game

RULES = cf.Rules(players=3, max_pip=5, hand_size=4, opening_toes=3, foot_toes=2)


def _round(seed: int, rules: cf.Rules = RULES) -> cf.Record:
    rng = random.Random(seed)
    rec = cf.Record(cf.deal(rules, seed=seed))
    while not rec.final().is_over():
        rec = rec.apply(rng.choice(list(rec.final().legal_moves)))
    return rec


@pytest.fixture
def record_file(tmp_path: Path) -> tuple[cf.Record, Path]:
    rec = _round(3)
    path = tmp_path / "r.json"
    path.write_text(rec.to_json(), encoding="utf-8")
    return rec, path


def test_json_gives_one_object_per_decision_of_the_seat(
    record_file: tuple[cf.Record, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    rec, path = record_file
    args = ["analyse", str(path), "--seat", "1", "--json", "--iterations", "12", "--seed", "4"]
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    want = analyse(rec, seats=1, iterations=12, seed=4, backend="python").to_dicts()
    got = [json.loads(line) for line in lines]
    assert len(got) == len(want) > 0
    for g, w in zip(got, want, strict=True):
        assert {k: g[k] for k in ("seat", "move", "best", "loss", "glyph")} == {
            k: w[k] for k in ("seat", "move", "best", "loss", "glyph")
        }
        assert g["seat"] == 1 and g["loss"] >= 0


def test_the_notation_output_reads_back_with_glyphs_and_variations(
    record_file: tuple[cf.Record, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    rec, path = record_file
    assert main(["analyse", str(path), "--iterations", "8"]) == 0
    text = capsys.readouterr().out
    game = read_game(io.StringIO(text), strict=True)
    assert game is not None and game.record == rec
    assert game.header("Annotator") == "chickenfoot analyse"
    assert any("[%eval " in c for n in game.moves for c in n.comments)
    assert any("hindsight" in c for n in game.moves for c in n.comments)


def test_a_notation_file_is_analysed_like_its_record(
    record_file: tuple[cf.Record, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec, path = record_file
    cfn = tmp_path / "r.cfn"
    cfn.write_text(write_game(rec), encoding="utf-8")
    assert main(["analyse", str(path), "--json", "--iterations", "5", "--no-hindsight"]) == 0
    from_json = capsys.readouterr().out
    assert main(["analyse", str(cfn), "--json", "--iterations", "5", "--no-hindsight"]) == 0
    from_cfn = capsys.readouterr().out
    strip = [
        {k: v for k, v in json.loads(x).items() if k != "ms"} for x in from_json.split("\n")[:-1]
    ]
    assert strip == [
        {k: v for k, v in json.loads(x).items() if k != "ms"} for x in from_cfn.split("\n")[:-1]
    ]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--seat", "2", "--iterations", "0"], "--iterations 0 is invalid"),
        (["--iterations", "100000000"], "--iterations 100000000 is invalid"),
        (["--nodes", "0"], "--nodes 0 is invalid"),
        (["--nodes", "99999999999999"], "--nodes 99999999999999 is invalid"),
        (["--seat", "9"], "--seat 9 is invalid"),
    ],
)
def test_bad_budgets_and_seats_are_one_line_errors(
    record_file: tuple[cf.Record, Path],
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    message: str,
) -> None:
    _, path = record_file
    assert main(["analyse", str(path), *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_bad_files_are_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    start = cf.deal(RULES, seed=1)
    one_move = cf.Record(start, [start.legal_moves[0]])
    cases = {
        "never.json": (one_move.to_json(), ["--seat", "2"], "seat 2 never moved"),
        "empty.json": (cf.Record(start).to_json(), [], "no move"),
        "position.json": (start.to_json(), [], "expected a record"),
        "seat.cfn": (write_game(_round(2), audience="seat 0"), [], "only a full copy"),
        "junk.json": ("{not json", [], "r"),
        "over.json": (json.dumps({"format": "chickenfoot/record"}), [], "r"),
    }
    for name, (text, extra, message) in cases.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        assert main(["analyse", str(path), *extra]) == 2, name
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1 and "Traceback" not in err, (name, err)
    assert main(["analyse", str(tmp_path / "missing.json")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_the_real_command_line(record_file: tuple[cf.Record, Path]) -> None:
    _, path = record_file
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent / "src")}
    ok = subprocess.run(
        [sys.executable, "-m", "chickenfoot", "analyse", str(path), "--seat", "0", "--json"],
        capture_output=True,
        check=False,
        text=True,
        env=env,
        timeout=300,
    )
    assert ok.returncode == 0, ok.stderr
    assert all(json.loads(line)["seat"] == 0 for line in ok.stdout.splitlines())
    bad = subprocess.run(
        [sys.executable, "-m", "chickenfoot", "analyse", str(path), "--nodes", "-3"],
        capture_output=True,
        check=False,
        text=True,
        env=env,
        timeout=300,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("chickenfoot: error: ") and bad.stderr.count("\n") == 1
