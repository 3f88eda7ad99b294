"""Issue 47, item 5 (in part): ``chickenfoot convert`` between JSON records or match
documents and the notation, for any audience, and ``chickenfoot validate`` on notation
files (docs/notation.md, docs/cli.md)."""

from __future__ import annotations

import io
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


def _simulated(tmp_path: Path) -> Path:
    """A full notation file of two finished matches of two rounds each (as ``simulate``
    writes them)."""
    from chickenfoot.agents import GreedyAgent, RandomAgent
    from chickenfoot.simulation import simulate

    handle = io.StringIO()
    rules = cf.Rules(players=3, match=cf.Rounds(2))
    simulate(rules, [GreedyAgent(), RandomAgent(), GreedyAgent()], games=2, seed=5, records=handle)
    path = tmp_path / "games.cfn"
    path.write_text(handle.getvalue(), encoding="utf-8")
    return path


@pytest.mark.parametrize("audience", ["spectator", "seat:1"])
def test_a_file_of_matches_converts_whole_to_another_audience_and_verifies(
    audience: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from chickenfoot.notation import read_match

    full = _simulated(tmp_path)
    copy = tmp_path / "copy.cfn"
    assert main(["convert", str(full), str(copy), "--to", "notation", "--audience", audience]) == 0
    ours, theirs = io.StringIO(full.read_text()), io.StringIO(copy.read_text())
    count = 0
    while (m := read_match(ours, strict=True)) is not None:
        c = read_match(theirs, strict=True)
        assert c is not None and c.end is not None and m.end is not None
        assert c.begin.audience.kind == audience.split(":", maxsplit=1)[0]
        # every round, with every move (as many, by the same seats), and the match's seed,
        # which may be told now that the match is over
        assert [len(r.moves) for r in c.rounds] == [len(r.moves) for r in m.rounds]
        assert [[n.seat for n in r.moves] for r in c.rounds] == [
            [n.seat for n in r.moves] for r in m.rounds
        ]
        assert {r.header("Seed") for r in c.rounds} == {m.begin.header("Seed")}
        assert c.end.headers == m.end.headers
        count += 1
    assert count == 2 and read_match(theirs) is None
    capsys.readouterr()
    assert main(["verify", str(copy)]) == 0
    assert "4 rounds verified" in capsys.readouterr().out


def test_a_match_in_play_converts_without_its_seed(tmp_path: Path) -> None:
    from chickenfoot.notation import read_match, write_match_rounds

    rules = cf.Rules(players=2, match=cf.Rounds(3))
    first = _round(3, rules)  # seeded 3: the match's seed deals round 0 as deal(rules, 3, 0)
    assert first.start == cf.deal(rules, 3, 0)
    second = Record(cf.deal(rules, 3, 1), [cf.deal(rules, 3, 1).legal_moves[0]])
    full = tmp_path / "m.cfn"
    full.write_text(write_match_rounds(rules, seed=3, rounds=[first, second]), encoding="utf-8")
    copy = tmp_path / "s.cfn"
    assert (
        main(["convert", str(full), str(copy), "--to", "notation", "--audience", "spectator"]) == 0
    )
    text = copy.read_text(encoding="utf-8")
    assert "Seed" not in text  # it deals the rounds still to come
    games = read_match(io.StringIO(text), strict=True)
    assert games is not None and len(games.rounds) == 2
    assert [len(r.moves) for r in games.rounds] == [len(first.moves), 1]
    assert games.end is not None and games.end.header("Winners") == "*"


def test_json_from_a_file_of_two_matches_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    full = _simulated(tmp_path)
    assert main(["convert", str(full), "-", "--to", "json"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "more than one match" in err


def test_convert_writes_whole_or_not_at_all(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import os

    rec = _round(2, cf.Rules())
    src = tmp_path / "r.json"
    src.write_text(rec.to_json(), encoding="utf-8")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)  # opening it for writing would wait for a reader
    assert main(["convert", str(src), str(fifo), "--to", "notation"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "a named pipe, not a regular file" in err
    bad = tmp_path / "bad.cfn"
    bad.write_text(write_game(rec).replace("[Turn", '[Colour "red"]\n[Turn'), encoding="utf-8")
    out = tmp_path / "out.cfn"
    out.write_text("kept", encoding="utf-8")
    assert main(["convert", str(bad), str(out), "--to", "notation", "--audience", "spectator"]) == 2
    assert out.read_text(encoding="utf-8") == "kept"
    assert "unknown header 'Colour'" in capsys.readouterr().err
