"""The ``chickenfoot`` command line: ``demo``, ``rules``, errors, ``python -m chickenfoot``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import chickenfoot as cf
from chickenfoot.cli import main
from chickenfoot.render import render

SRC = Path(__file__).resolve().parent.parent / "src"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def replay(out: str, rules: cf.Rules, seed: int, round: int = 0) -> cf.State:
    """Check a demo's output against the library, line by line; return the final state."""
    lines = out.splitlines()
    centre = rules.centre_of_round(round)
    assert lines[0].endswith(
        f"{rules.players} players, double-{rules.max_pip}, seed {seed}, round {round} "
        f"(centre {centre}-{centre})"
    )
    state = cf.deal(rules, seed, round)
    i = 1
    while lines[i]:
        seat, _, text = lines[i].partition(": ")
        assert seat == f"seat {state.turn}"
        if text.startswith("draw:"):
            # a draw was legal, and the printed tile is the one it takes: the front of the
            # boneyard (docs/formats.md, move notation: ``draw:X-Y`` names the drawn tile)
            assert "draw" in state.legal_moves, (i, text)
            assert text == f"draw:{state.boneyard[0]}"
        else:
            assert text in state.legal_moves, (i, text)
        state = cf.apply(state, text)
        i += 1
    assert state.is_over()
    moves = i - 1
    table = render(state).splitlines()
    assert lines[i + 1 : i + 1 + len(table)] == table
    rest = lines[i + 1 + len(table) :]
    assert rest[0] == ""
    assert rest[1] == f"Outcome: {state.outcome()} after {moves} moves"
    # the winner named (issue 50, item 7): who went out, or the fewest points (R11)
    points = state.penalties()
    out_seat = state.outcome().seat
    lowest = [s for s, p in enumerate(points) if p == min(points)]
    if out_seat is not None:
        assert rest[2] == f"Winner: seat {out_seat}, who went out"
    elif len(lowest) == 1:
        assert rest[2] == f"Winner: seat {lowest[0]}, with the lowest hand (R11)"
    else:
        assert rest[2].startswith(f"Winners: seat {lowest[0]}") and "share the lowest" in rest[2]
    assert rest[3] == "Penalties:"
    assert rest[4:] == [f"  seat {s}: {p}" for s, p in enumerate(points)]
    return state


def test_demo_names_the_winner_of_a_blocked_round(capsys: pytest.CaptureFixture[str]) -> None:
    # seed 1, four players, house rules: blocked after 62 moves, penalties 15, 9, 66, 40
    _, out, _ = run(capsys, "demo")
    assert "\nOutcome: blocked after 62 moves\nWinner: seat 1, with the lowest hand (R11)\n" in out


# -- demo -------------------------------------------------------------------------------------


def test_demo_defaults_are_seed_1_house_4_players_round_0(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "demo")
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == (
        "Chicken Foot demo: house rules, 4 players, double-9, seed 1, round 0 (centre 9-9)"
    )
    replay(out, cf.Rules(), seed=1)
    assert run(capsys, "demo", "--seed", "1", "--players", "4", "--preset", "house") == (
        0,
        out,
        "",
    )


def test_demo_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    first = run(capsys, "demo", "--seed", "7", "--players", "3")
    assert first == run(capsys, "demo", "--seed", "7", "--players", "3")
    assert first != run(capsys, "demo", "--seed", "8", "--players", "3")


@pytest.mark.parametrize(
    ("argv", "rules", "seed", "round"),
    [
        (["--players", "2"], cf.Rules(players=2), 1, 0),
        (["--players", "5", "--seed", "4"], cf.Rules(players=5), 4, 0),
        (["--players", "8", "--seed", "5"], cf.Rules(players=8), 5, 0),
        (["--preset", "four-toe", "--seed", "6"], cf.Rules.preset("four-toe"), 6, 0),
        (["--preset", "classic", "--seed", "2"], cf.Rules.preset("classic"), 2, 0),
        (
            ["--preset", "classic", "--players", "7", "--seed", "9"],
            cf.Rules.preset("classic", players=7),
            9,
            0,
        ),
        (["--round", "4", "--seed", "3"], cf.Rules(), 3, 4),
        (["--round", "10", "--seed", "3"], cf.Rules(), 3, 10),  # wraps to 9-9 again
        (
            ["--set", "draw=until_playable", "--set", "drawn_tile=may_play", "--seed", "10"],
            cf.Rules(draw="until_playable", drawn_tile="may_play"),
            10,
            0,
        ),
        (
            ["--set", "may_draw_instead=true", "--set", "double_blank=25", "--seed", "11"],
            cf.Rules(may_draw_instead=True, double_blank=25),
            11,
            0,
        ),
        (
            ["--players", "10", "--set", "max_pip=15", "--set", "hand_size=12", "--seed", "12"],
            cf.Rules(players=10, max_pip=15, hand_size=12),
            12,
            0,
        ),
    ],
)
def test_demo_moves_replay_through_the_library(
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    rules: cf.Rules,
    seed: int,
    round: int,
) -> None:
    code, out, err = run(capsys, "demo", *argv)
    assert (code, err) == (0, "")
    replay(out, rules, seed, round)


def test_demo_round_selects_the_centre(capsys: pytest.CaptureFixture[str]) -> None:
    # R3: round k has centre (N-k)-(N-k); the first placement is a toe on it (R6).
    _, out, _ = run(capsys, "demo", "--round", "4")
    lines = out.splitlines()
    assert lines[0].endswith("round 4 (centre 5-5)")
    assert lines[1].startswith("seat 0: ") and lines[1].endswith("@5-5")
    assert "Table: centre 5-5" in lines


def test_demo_prints_draws_with_their_tile_and_passes(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "demo", "--seed", "3")
    moves = out.split("\n\n")[0].splitlines()[1:]
    draws = [m for m in moves if ": draw" in m]
    assert draws and all(": draw:" in m for m in draws)
    assert any(m.endswith(": pass") for m in moves)


def test_demo_of_a_forced_tiny_round(capsys: pytest.CaptureFixture[str]) -> None:
    """Double-2, 2 players of 2 tiles, 2 toes on the centre and 1 per foot, seed 1.

    docs/formats.md, seeded deals: the five tiles without the centre 2-2, in id order
    (0-0 1-0 1-1 2-0 2-1), shuffled by ``random.Random("1:0")`` give
    0-0 2-1 | 1-0 1-1 | 2-0. Every turn then has exactly one legal move, so the players'
    random choices do not matter: seat 0's only toe is 2-1; seat 1 has no 2, draws 2-0 and
    must lay it as the second toe; seat 0 lays its last tile 0-0 on the open end 0 of 2-0
    and goes out (R10), even though that foot has no toe (R8). Seat 1 keeps 1-0 and 1-1.
    """
    code, out, err = run(
        capsys,
        *("demo", "--players", "2", "--set", "max_pip=2", "--set", "hand_size=2"),
        *("--set", "opening_toes=2", "--set", "foot_toes=1"),
    )
    assert (code, err) == (0, "")
    assert out == (
        "Chicken Foot demo: house rules with max_pip=2 hand_size=2 opening_toes=2 foot_toes=1, "
        "2 players, double-2, seed 1, round 0 (centre 2-2)\n"
        "seat 0: 2-1@2-2\n"
        "seat 1: draw:2-0\n"
        "seat 1: 2-0@2-2\n"
        "seat 0: 0-0@2-0\n"
        "\n"
        "Table: centre 2-2\n"
        "  hub 2-2 (centre): toes 2/2\n"
        "    toe 2-1: 2|1 -> open 1 on 2-1\n"
        "    toe 2-0: 2|0 0|0 -> closed by the hub 0-0\n"
        "  hub 0-0 (closes the line of toe 2-0): toes 0/1\n"
        "Pending: the foot 0-0 needs 1 more toe\n"
        "Over: seat 0 went out\n"
        "Hands:\n"
        "  seat 0: none (0 tiles, 0 points)\n"
        "  seat 1: 1-0 1-1 (2 tiles, 3 points)\n"
        "Boneyard: 0 tiles\n"
        "\n"
        "Outcome: seat 0 went out after 4 moves\n"
        "Winner: seat 0, who went out\n"
        "Penalties:\n"
        "  seat 0: 0\n"
        "  seat 1: 3\n"
    )


def test_python_dash_m_runs_the_same_demo(capsys: pytest.CaptureFixture[str]) -> None:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    proc = subprocess.run(
        [sys.executable, "-m", "chickenfoot", "demo", "--seed", "3"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=60,
    )
    assert (proc.returncode, proc.stderr) == (0, "")
    assert (0, proc.stdout, "") == run(capsys, "demo", "--seed", "3")
    replay(proc.stdout, cf.Rules(), seed=3)


def test_python_dash_m_error_is_one_line_and_no_traceback() -> None:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    proc = subprocess.run(
        [sys.executable, "-m", "chickenfoot", "demo", "--preset", "nope"],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == (
        "chickenfoot: error: preset='nope' is invalid: "
        "must be one of 'house', 'four-toe', 'classic'\n"
    )


# -- rules ------------------------------------------------------------------------------------


def test_rules_house_default_is_the_spec_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "rules", "house")
    assert (code, err) == (0, "")
    # docs/formats.md, "Rules": the house rules for 4 players, every field.
    assert json.loads(out) == {
        "players": 4,
        "max_pip": 9,
        "hand_size": 11,
        "opening_toes": 6,
        "foot_toes": 3,
        "double_blank": 50,
        "centre": "set_aside",
        "draw": "one",
        "drawn_tile": "must_play",
        "may_draw_instead": False,
        "match": {"rounds": 10},
        "tie_break": "shared",
        "first_leader": 0,
    }
    assert out.startswith('{\n  "players": 4,\n')


def test_rules_classic_for_seven(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "--preset", "classic", "--players", "7")
    assert code == 0
    # docs/rules.md, presets: classic is 7 tiles each, holder, 4 toes, zero_rounds, double-12 for 7;
    # R3: 13 rounds with double-twelve.
    assert json.loads(out) == {
        "players": 7,
        "max_pip": 12,
        "hand_size": 7,
        "opening_toes": 4,
        "foot_toes": 3,
        "double_blank": 50,
        "centre": "holder",
        "draw": "one",
        "drawn_tile": "must_play",
        "may_draw_instead": False,
        "match": {"rounds": 13},
        "tie_break": "zero_rounds",
        "first_leader": 0,
    }


def test_rules_four_toe_compact_with_overrides(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        *("rules", "--preset", "four-toe", "--players", "2", "--compact"),
        *("--set", "double_blank=25", "--set", 'match={"threshold": 150, "inclusive": true}'),
        *("--set", "centre=holder"),  # not JSON: taken as the string
    )
    assert code == 0
    assert out.count("\n") == 1 and out.endswith("}\n")
    doc = json.loads(out)
    assert doc["players"] == 2 and doc["hand_size"] == 20 and doc["opening_toes"] == 4
    assert doc["double_blank"] == 25
    assert doc["centre"] == "holder"
    assert doc["match"] == {"threshold": 150, "inclusive": True}
    assert cf.Rules.from_dict(doc) == cf.Rules(
        players=2,
        opening_toes=4,
        double_blank=25,
        centre="holder",
        match=cf.Threshold(150, inclusive=True),
    )


# -- errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["demo", "--preset", "nope"], "preset='nope' is invalid"),
        (["rules", "--preset", "Classic"], "preset='Classic' is invalid"),
        (["demo", "--players", "1"], "players=1 is invalid"),
        (["demo", "--players", "9"], "hand_size is required"),
        (["rules", "--players", "0"], "players=0 is invalid"),
        (["demo", "--players", "four"], "argument --players: invalid int value: 'four'"),
        (["demo", "--seed", "x"], "argument --seed: invalid int value: 'x'"),
        (["demo", "--round", "-1"], "round=-1 is invalid"),
        (["demo", "--set", "double_blank"], "argument --set: expected FIELD=VALUE"),
        (["demo", "--set", "double_blank=-5"], "double_blank=-5 is invalid"),
        (["rules", "--set", "colour=1"], "colour=1 is invalid: not a rules field"),
        (["rules", "--set", "opening_toes=10"], "opening_toes=10 is invalid"),
        (["rules", "--set", "match=7"], "match=7 is invalid"),
        (["demo", "--players", "2", "--set", "hand_size=30"], "hand_size=30 is invalid"),
        ([], "the following arguments are required: COMMAND"),
        (["dance"], "invalid choice: 'dance'"),
        (["demo", "--sed", "1"], "unrecognized arguments: --sed 1"),
    ],
)
def test_errors_are_one_line_on_stderr(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("chickenfoot: error: ")
    assert err.endswith("\n") and err.count("\n") == 1
    assert needle in err
    assert "Traceback" not in err


def test_help_and_version_return_zero(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "--help")
    assert (code, err) == (0, "")
    assert out.startswith("usage: chickenfoot ") and "demo" in out and "rules" in out
    code, out, _ = run(capsys, "demo", "--help")
    assert code == 0
    for option in ("--seed", "--players", "--preset", "--round", "--set"):
        assert option in out
    code, out, _ = run(capsys, "--version")
    assert (code, out) == (0, f"chickenfoot {cf.__version__}\n")


@pytest.mark.parametrize(("command", "option"), [("play", "--bots"), ("simulate", "--agents")])
def test_the_help_of_every_agents_option_names_every_kind(
    capsys: pytest.CaptureFixture[str], command: str, option: str
) -> None:
    # ismcts played in `play` but its help and docs/cli.md never named it (issue 50, item 7)
    assert main([command, "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for kind in ("random", "greedy", "heuristic", "search", "ismcts", "ismcts:N", "search:Nms",
                 "policy:PATH", "engine:COMMAND", "module:Class"):  # fmt: skip
        assert kind in text, (command, kind)
    docs = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text()
    row = next(line for line in docs.splitlines() if line.startswith(f"| `{option} NAMES`"))
    for kind in ("ismcts", "ismcts:N", "search:Nms", "policy:PATH", "engine:COMMAND"):
        assert f"`{kind}`" in row, (option, kind)


# -- a policy trained for other rules (issue 50, item 5) ----------------------------------------

POLICY = Path(__file__).resolve().parent.parent / "examples" / "policies" / "ppo_numpy.npz"


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--players", "2", "--seed", "1", "--bots", f"policy:{POLICY}"],
        ["play", "--preset", "classic", "--seed", "1", "--bots", f"policy:{POLICY}"],
        [
            "simulate",
            "--players",
            "3",
            "--games",
            "1",
            "--agents",
            f"policy:{POLICY},random,random",
        ],
    ],
)
def test_a_policy_for_other_rules_is_refused_before_the_game_starts(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    # The example policy was trained for four seats of house rules: at two seats `play`
    # stopped after the person's first move ("the game stops (it was not saved)").
    from chickenfoot.policy import PolicyAgent

    assert PolicyAgent.load(POLICY).rules == cf.Rules()  # what the file says it learned
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""  # nothing dealt, nothing asked
    assert "it was trained for 4 players, double-9 and plays those rules only" in err
    assert err.count("\n") == 1


def test_a_ladder_refuses_a_policy_for_other_rules_before_any_game(tmp_path: Path) -> None:
    results = tmp_path / "ladder.jsonl"
    with pytest.raises(cf.LadderError, match="trained for 4 players, double-9"):
        from chickenfoot.ladder import play_ladder

        play_ladder(cf.Rules(players=2), [f"policy:{POLICY}", "random"], deals=2, seed=0,
                    results=results)  # fmt: skip
    assert not results.exists()


@pytest.mark.parametrize("url", ["ftp://x", "192.168.1.5:8000", "http://[::1", "http://a\nb"])
def test_serve_refuses_an_invite_url_that_is_not_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, url: str
) -> None:
    code, _out, err = run(capsys, "serve", "--db", str(tmp_path / "t.db"), "--invite-url", url)
    assert code == 2 and "--invite-url" in err and "must be http(s)://HOST[:PORT]" in err
    assert not (tmp_path / "t.db").exists()  # refused before the database was opened
