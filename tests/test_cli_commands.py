"""The document commands (show, moves, apply, perft, replay, validate), rules and simulate."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest

import chickenfoot as cf
from chickenfoot.cli import main
from chickenfoot.match import Match
from chickenfoot.record import Record
from chickenfoot.render import render, render_compact

START = cf.deal(cf.Rules(players=3), seed=5)
RECORD = Record(START, ["9-0@9-9", "9-2@9-9", "draw", "pass"])
MATCH = Match.from_scores(cf.Rules(players=3, match=cf.Rounds(3)), seed=2, scores=[(4, 0, 9)])
VIEW = RECORD.final().view(1)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def ok(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, out, err = run(capsys, *argv)
    assert (code, err) == (0, ""), err
    return out


def fails(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("chickenfoot: error: ") and err.count("\n") == 1
    assert "Traceback" not in err and len(err) < 600
    return err


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    docs = {
        "pos": START.to_json(),
        "rec": RECORD.to_json(),
        "match": MATCH.to_json(),
        "view": VIEW.to_json(),
        "rules": json.dumps({"players": 3, "double_blank": 25}),
    }
    paths = {}
    for name, text in docs.items():
        path = tmp_path / f"{name}.json"
        path.write_text(text)
        paths[name] = str(path)
    return paths


# -- validate ---------------------------------------------------------------------------------


def test_validate_says_what_each_document_is(
    capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    expected = {
        "pos": "a valid chickenfoot/position document (3 players, double-9, centre 9-9, "
        "seat 0 to play)",
        "rec": "a valid chickenfoot/record document (3 players, double-9, 4 moves, final: "
        "centre 9-9, seat 0 to play)",
        "match": "a valid chickenfoot/match document (3 players, double-9, seed 2, 1 round "
        "scored, round 2: centre 8-8, seat 1 to play)",
        "view": "a valid chickenfoot/view document (seat 1 of 3 players, double-9, centre 9-9, "
        "seat 0 to play)",
        "rules": "a valid rules object (3 players, double-9, 10 rounds)",
    }
    for name, text in expected.items():
        assert ok(capsys, "validate", files[name]) == f"{files[name]}: {text}\n"


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("", "not valid JSON"),
        ("[1, 2]", "expected a JSON object"),
        ('{"format": "chickenfoot/game"}', "format: 'chickenfoot/game' is not a chickenfoot"),
        ('{"players": 1}', "players=1 is invalid"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"a": ' + "9" * 5000 + "}", "<stdin>: "),
        ("[" + "0," * 3_000_000 + "0]", "at most 4,194,304 are read"),
    ],
)
def test_validate_invalid_from_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, text: str, needle: str
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    err = fails(capsys, "validate", "-")
    assert err.startswith("chickenfoot: error: <stdin>: ") and needle in err


def test_validate_names_the_path_of_the_bad_part(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = START.to_dict()
    doc["hands"][2][3] = "10-1"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    err = fails(capsys, "validate", str(bad))
    assert f"{bad}: hands[2][3]: '10-1' " in err
    rec = RECORD.to_dict()
    rec["moves"][1] = "9-9@9-0"
    bad.write_text(json.dumps(rec))
    assert "moves[1]: '9-9@9-0' cannot be played" in fails(capsys, "validate", str(bad))
    bad.write_bytes(b"\xff\xfe{}")
    assert "not a text file" in fails(capsys, "validate", str(bad))
    assert "cannot read" in fails(capsys, "validate", str(tmp_path))
    assert "No such file" in fails(capsys, "validate", str(tmp_path / "none.json"))


# -- show ---------------------------------------------------------------------------------------


def test_show_draws_every_kind(capsys: pytest.CaptureFixture[str], files: dict[str, str]) -> None:
    assert ok(capsys, "show", files["pos"]) == render_compact(START) + "\n"
    assert ok(capsys, "show", files["pos"], "--long") == render(START) + "\n"
    assert ok(capsys, "show", files["view"]) == render_compact(VIEW) + "\n"
    out = ok(capsys, "show", files["rec"])
    assert out == "Record: 4 moves; the final position:\n" + render_compact(RECORD.final()) + "\n"
    out = ok(capsys, "show", files["match"])
    assert out.startswith(
        "Match: seed 2, 1 of 3 rounds played\n"
        "round  centre  seat 0  seat 1  seat 2\n"
        "    1     9-9       4       0       9\n"
        "total               4       0       9\n"
        "Result: in progress after 1 round\n\nRound 2 in play:\n"
    )
    assert out.endswith(render_compact(MATCH.round) + "\n")  # type: ignore[arg-type]
    assert json.loads(ok(capsys, "show", files["rules"]))["double_blank"] == 25


def test_show_svg(
    capsys: pytest.CaptureFixture[str], files: dict[str, str], tmp_path: Path
) -> None:
    from chickenfoot.picture import svg

    target = tmp_path / "t.svg"
    assert ok(capsys, "show", files["pos"], "--svg", str(target)) == ""
    assert target.read_text() == svg(START, hands="all")
    assert ok(capsys, "show", files["view"], "--svg", "-") == svg(VIEW, hands="all") + "\n"
    out = ok(
        capsys, "show", files["pos"], "--svg", "-", "--seat", "1", "--hands", "1", "--size", "300"
    )
    assert out == svg(START, seat=1, hands=1, size=300) + "\n"
    out = ok(capsys, "show", files["match"], "--svg", "-", "--hands", "none")
    assert out == svg(MATCH.round, hands="none") + "\n"  # type: ignore[arg-type]
    assert "has no table to draw" in fails(capsys, "show", files["rules"], "--svg", "-")
    assert "cannot write" in fails(capsys, "show", files["pos"], "--svg", str(tmp_path))
    assert "seat=5 is invalid" in fails(capsys, "show", files["pos"], "--svg", "-", "--seat", "5")
    assert "--hands 'x' is invalid" in fails(
        capsys, "show", files["pos"], "--svg", "-", "--hands", "x"
    )
    assert "--size 0 is invalid" in fails(capsys, "show", files["pos"], "--svg", "-", "--size", "0")


# -- moves, apply, perft -----------------------------------------------------------------------


def test_moves_lists_legal_moves_in_order(
    capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    assert ok(capsys, "moves", files["pos"]).split() == [str(m) for m in START.legal_moves]
    final = RECORD.final()
    assert ok(capsys, "moves", files["rec"]).split() == [str(m) for m in final.legal_moves]
    assert ok(capsys, "moves", files["view"]) == ""  # seat 1 is not to play
    assert ok(capsys, "moves", files["match"]).split()[0].endswith("@8-8")
    assert "expected a position, a record, a match, a view or a saved game" in fails(
        capsys, "moves", files["rules"]
    )


def test_apply_prints_the_position_document(
    capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    out = ok(capsys, "apply", files["pos"], "9-0@9-9", "9-2@9-9", "draw")
    assert cf.State.from_json(out) == START.apply("9-0@9-9").apply("9-2@9-9").apply("draw")
    out = ok(capsys, "apply", files["pos"], "9-0@9-9", "--text")
    assert out == render_compact(START.apply("9-0@9-9")) + "\n"
    first = str(MATCH.legal_moves[0])
    out = ok(capsys, "apply", files["match"], first)
    assert Match.from_json(out) == MATCH.apply(first)
    assert ok(capsys, "apply", files["match"], first, "--text").startswith("Match: seed 2")
    err = fails(capsys, "apply", files["pos"], "9-0@9-9", "9-0@9-9")
    assert "move 2 ('9-0@9-9'): 9-0@9-9 by seat 1: seat 1 does not hold 9-0" in err
    assert "move 1 ('x'): " in fails(capsys, "apply", files["pos"], "x")
    assert "move 1 (" in fails(capsys, "apply", files["pos"], "9" * 5000)
    assert "expected a position, a record, a match or a saved game" in fails(
        capsys, "apply", files["view"], "draw"
    )


def test_apply_reads_stdin_and_pipes_into_show(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(START.to_json()))
    out = ok(capsys, "apply", "-", "9-7@9-9")
    monkeypatch.setattr("sys.stdin", io.StringIO(out))
    assert ok(capsys, "show", "-") == render_compact(START.apply("9-7@9-9")) + "\n"


def test_perft(capsys: pytest.CaptureFixture[str], files: dict[str, str]) -> None:
    for depth in range(4):
        out = ok(capsys, "perft", files["pos"], "--depth", str(depth))
        assert out == f"{cf.perft(START, depth)}\n"
    out = ok(capsys, "perft", files["pos"], "--depth", "2", "--divide").splitlines()
    assert out[-1] == f"total: {cf.perft(START, 2)}"
    assert [line.split(":")[0] for line in out[:-1]] == [str(m) for m in START.legal_moves]
    assert ok(capsys, "perft", files["pos"]) == f"{cf.perft(START, 1)}\n"
    assert "--depth -1 is invalid" in fails(capsys, "perft", files["pos"], "--depth", "-1")
    assert "--depth 201 is invalid" in fails(capsys, "perft", files["pos"], "--depth", "201")
    assert "invalid int value" in fails(capsys, "perft", files["pos"], "--depth", "9" * 5000)
    err = fails(capsys, "perft", files["pos"].replace("pos", "view"))
    assert "this is a view; expected a position, a record, a match or a saved game" in err


# -- replay ---------------------------------------------------------------------------------------


def test_replay_prints_every_step_when_not_a_terminal(
    capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    out = ok(capsys, "replay", files["rec"])
    assert out.startswith("Start (a position of 3 players, double-9):\n")
    assert "Move 1/4: seat 0: 9-0@9-9\n" in out
    drawn = RECORD.states()[3].drawn
    assert f"Move 3/4: seat 2: draw (drew {drawn})\n" in out
    assert "Move 4/4: seat 2: pass\n" in out
    assert out.endswith("End of the record: the round goes on.\n")
    final = ok(capsys, "replay", files["rec"], "--final")
    assert final == "Record: 4 moves; the final position:\n" + render_compact(RECORD.final()) + "\n"
    assert "expected a record" in fails(capsys, "replay", files["pos"])


# -- rules --------------------------------------------------------------------------------------


def test_rules_lists_the_presets(capsys: pytest.CaptureFixture[str]) -> None:
    out = ok(capsys, "rules").splitlines()
    assert [line.split()[0] for line in out[:3]] == list(cf.PRESETS)
    assert out[-1].startswith("Print one as JSON: chickenfoot rules NAME")


def test_rules_preset_positional_and_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert ok(capsys, "rules", "classic") == ok(capsys, "rules", "--preset", "classic")
    assert json.loads(ok(capsys, "rules", "--players", "3"))["hand_size"] == 14
    assert json.loads(ok(capsys, "rules", "--compact"))["players"] == 4
    assert "two presets given" in fails(capsys, "rules", "classic", "--preset", "house")
    assert "preset='nope' is invalid" in fails(capsys, "rules", "nope")
    assert "unrecognized arguments" in fails(capsys, "rules", "house", "classic")


# -- simulate -----------------------------------------------------------------------------------


def test_simulate_plain_table_matches_the_library(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--games", "6", "--players", "2", "--set", 'match={"rounds": 1}']
    out = ok(capsys, *argv, "--agents", "greedy,random").splitlines()
    rules = cf.Rules(players=2, match=cf.Rounds(1))
    result = cf.simulate(rules, [cf.GreedyAgent(), cf.RandomAgent()], games=6, seed=1)
    assert out[0] == str(result).splitlines()[0]
    assert out[1].split() == [
        "seat",
        "agent",
        "mean",
        "score",
        "95%",
        "CI",
        "win",
        "rate",
        "95%",
        "CI",
    ]
    assert out[2].split()[:3] == ["0", "greedy", f"{result.agents[0].mean_score:.1f}"]
    doc = json.loads(ok(capsys, *argv, "--agents", "greedy,random", "--json"))
    assert doc == json.loads(json.dumps(result.to_dict()))


def test_simulate_workers_give_the_same_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--games", "4", "--set", 'match={"rounds": 1}', "--json"]
    one = json.loads(ok(capsys, *argv))
    two = json.loads(ok(capsys, *argv, "--workers", "2"))
    assert one == two
    assert [a["agent"] for a in one["agents"]] == [
        repr(cf.HeuristicAgent()),
        "GreedyAgent()",
        "RandomAgent()",
        "RandomAgent()",
    ]


def test_simulate_players_follow_the_agents(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--games", "2", "--set", 'match={"rounds": 1}', "--json"]
    doc = json.loads(ok(capsys, *argv, "--agents", "greedy,greedy,search:2"))
    assert doc["rules"]["players"] == 3 and len(doc["agents"]) == 3
    doc = json.loads(ok(capsys, *argv, "--agents", "random", "--players", "5"))
    assert doc["rules"]["players"] == 5


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--games", "0"], "--games 0 is invalid"),
        (["--games", "9" * 5000], "invalid int value"),
        (["--workers", "0"], "--workers 0 is invalid"),
        (["--workers", "1000"], "--workers 1000 is invalid"),
        (
            ["--players", "4", "--agents", "greedy,random"],
            "--agents names 2 agents, but 4 are needed",
        ),
        (["--agents", "clever"], "unknown agent 'clever'"),
        (["--agents", "search:x"], "search:N takes N"),
        (["--agents", "greedy:3"], "unknown agent 'greedy:3'"),
        (["--players", "1"], "players=1 is invalid"),
        (["--seed", "1" + "0" * 4200], "--seed"),
    ],
)
def test_simulate_errors(capsys: pytest.CaptureFixture[str], argv: list[str], needle: str) -> None:
    assert needle in fails(capsys, "simulate", *argv)


# -- help ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command",
    ["play", "simulate", "show", "moves", "apply", "perft", "replay", "validate", "rules", "demo"],
)
def test_every_command_has_help_with_an_example(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    out = ok(capsys, command, "--help")
    assert out.startswith(f"usage: chickenfoot {command} ")
    assert f"examples:\n  chickenfoot {command}" in out
    assert "SPEC" not in out


def test_main_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    out = ok(capsys, "--help")
    for command in ("play", "simulate", "show", "moves", "apply", "perft", "replay", "validate"):
        assert f"    {command} " in out


class _Terminal(io.StringIO):
    """Standard output that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_simulate_on_a_terminal_draws_progress_and_a_table(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    argv = ["simulate", "--games", "3", "--players", "2", "--set", 'match={"rounds": 1}']
    screen = _Terminal()
    monkeypatch.setattr("sys.stdout", screen)
    assert main(argv) == 0
    text = screen.getvalue()
    pytest.importorskip("rich")
    plain = re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", text)  # without the colours
    assert "┃ seat ┃ agent" in plain and "│ heuristic │" in plain
    assert "games" in plain and "3/3" in plain  # the progress bar


def test_simulate_without_rich_counts_games_in_plain_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "rich", None)  # as if the cli extra were missing
    argv = ["simulate", "--games", "3", "--players", "2", "--set", 'match={"rounds": 1}']
    screen = _Terminal()
    monkeypatch.setattr("sys.stdout", screen)
    assert main(argv) == 0
    text = screen.getvalue()
    assert "\rgames 3/3" in text
    assert "seat  agent      mean score" in text and "┃" not in text
