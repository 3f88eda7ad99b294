"""Issue 47, item 5 (in part): ``chickenfoot convert`` between JSON records or match
documents and the notation, for any audience, and ``chickenfoot validate`` on notation
files (docs/notation.md, docs/cli.md)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import chickenfoot as cf
from chickenfoot.cli import main
from chickenfoot.notation import write_game
from chickenfoot.record import Record


def _round(seed: int, rules: cf.Rules) -> Record:
    rng = random.Random(seed)
    rec = Record(cf.deal(rules, seed))
    while not rec.final().is_over():
        rec = rec.apply(rng.choice(list(rec.final().legal_moves)))
    return rec


@pytest.mark.parametrize("preset", list(cf.PRESETS))
def test_a_record_of_every_preset_converts_to_notation_and_back(
    preset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = _round(4, cf.Rules.preset(preset, players=3))
    src, text, back = tmp_path / "r.json", tmp_path / "r.cfn", tmp_path / "back.json"
    src.write_text(rec.to_json(), encoding="utf-8")
    assert main(["convert", str(src), str(text), "--to", "notation"]) == 0
    assert text.read_text(encoding="utf-8") == write_game(rec)
    assert main(["convert", str(text), str(back), "--to", "json"]) == 0
    assert Record.from_json(back.read_text(encoding="utf-8")) == rec
    assert main(["validate", str(text)]) == 0
    assert "a valid notation file (1 round: 1 full)" in capsys.readouterr().out


def test_copies_for_a_seat_and_a_spectator(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = _round(2, cf.Rules())
    src = tmp_path / "r.json"
    src.write_text(rec.to_json(), encoding="utf-8")
    assert main(["convert", str(src), "-", "--to", "notation", "--audience", "seat:2"]) == 0
    assert capsys.readouterr().out == write_game(rec, audience="seat 2")
    full = tmp_path / "full.cfn"
    full.write_text(write_game(rec), encoding="utf-8")
    assert main(["convert", str(full), "-", "--to", "notation", "--audience", "spectator"]) == 0
    assert capsys.readouterr().out == write_game(rec, audience="spectator")
    spectator = tmp_path / "s.cfn"
    spectator.write_text(write_game(rec, audience="spectator"), encoding="utf-8")
    assert main(["convert", str(spectator), "-", "--to", "json"]) == 2
    assert "only a full copy" in capsys.readouterr().err


def test_a_match_document_converts_both_ways(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    m = cf.Match.start(cf.Rules(players=2, match=cf.Rounds(3)), seed=8)
    for _ in range(40):
        m = m.apply(m.legal_moves[0])
    src, text = tmp_path / "m.json", tmp_path / "m.cfn"
    src.write_text(m.to_json(), encoding="utf-8")
    assert main(["convert", str(src), str(text), "--to", "notation"]) == 0
    assert main(["convert", str(text), "-", "--to", "json"]) == 0
    assert cf.Match.from_json(capsys.readouterr().out) == m


def test_validate_names_the_line_and_column_of_a_bad_notation_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rec = _round(2, cf.Rules())
    good = write_game(rec)
    bad = tmp_path / "bad.cfn"
    bad.write_text(
        good + good.replace('[Rules "house"]', '[Rules "house"]\n[Colour "red"]'), encoding="utf-8"
    )
    assert main(["validate", str(bad)]) == 2
    err = capsys.readouterr().err
    line = good.count("\n") + 3  # the second game's third line
    assert err.count("\n") == 1 and f"line {line}, column 2: unknown header 'Colour'" in err
    junk = tmp_path / "junk.cfn"
    junk.write_bytes(b"[\xff\xfe" + bytes(range(256)) * 100)
    assert main(["validate", str(junk)]) == 2
    assert "Traceback" not in capsys.readouterr().err
