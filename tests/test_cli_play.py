"""``chickenfoot play``: whole games in a real pseudo-terminal (pexpect), and scripted ones.

The pty tests run the installed code as ``python -m chickenfoot`` and read what a person
would see; every one checks that no traceback ever appears. They see the plain screen
(rich blocked, as without the ``cli`` extra); tests/test_cli_screen.py drives the rich one.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import chickenfoot as cf
from chickenfoot.cli import main
from chickenfoot.cli._save import PlaySave
from chickenfoot.cli.play import Game, Session
from chickenfoot.match import Match
from chickenfoot.record import Record
from chickenfoot.specs import Trust, agents_of
from helpers import SRC, WITHOUT_RICH, Transcript, decision

# The pty tests need a POSIX pseudo-terminal: they are skipped on Windows only. Elsewhere
# pexpect is required (the tests session installs it), so they can never be skipped quietly.
if sys.platform == "win32":  # pragma: no cover
    pexpect = None
else:
    import pexpect

needs_pty = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")

SMALL = ["--players", "2", "--set", 'match={"rounds": 1}', "--bots", "greedy"]
PROMPT = r"move \[1-\d+, help\]> "
OVER = r"== The match is over: [^=]+ =="


def spawn(*argv: str, cwd: Path | None = None, rich: bool = False) -> Any:
    env = {**os.environ, "PYTHONPATH": str(SRC), "PYTHONUNBUFFERED": "1"}
    env.pop("NO_COLOR", None)
    start = ["-m", "chickenfoot"] if rich else ["-c", WITHOUT_RICH]
    child = pexpect.spawn(
        sys.executable,
        [*start, "play", *argv],
        env=env,
        cwd=str(cwd) if cwd else None,
        encoding="utf-8",
        timeout=20,
        dimensions=(50, 100),
        # Ctrl-C as a person's terminal delivers it: a run started in the background (``&``
        # in a script: CI) ignores SIGINT, which the child would inherit, and keep
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    child.logfile_read = Transcript()  # everything the child printed, to check for tracebacks
    return child


def transcript(child: Any) -> str:
    log = child.logfile_read
    assert isinstance(log, Transcript)
    return log.text()


def finish(child: Any) -> int:
    child.expect(pexpect.EOF)
    child.close()
    assert "Traceback" not in transcript(child)
    status = child.exitstatus
    assert isinstance(status, int)
    return status


def play_to_the_end(child: Any, answer: str = "1") -> int:
    """Answer every decision with ``answer``; return how many decisions there were."""
    decisions = 0
    while child.expect([PROMPT, OVER]) == 0:
        child.sendline(answer)
        decisions += 1
        assert decisions < 200
    return decisions


# -- real terminal ----------------------------------------------------------------------------


@needs_pty
def test_a_whole_round_in_a_pty_choosing_move_1() -> None:
    child = spawn(*SMALL, "--seed", "3")
    child.expect("You are seat 0; seat 1: greedy.")
    decisions = play_to_the_end(child)
    assert decisions > 3
    assert finish(child) == 0
    seen = transcript(child)
    assert "== The round is over: " in seen
    assert "Round scores: you " in seen
    assert "seat 1 (greedy) plays " in seen
    assert "  1. " in seen  # the standings
    # the winner of the round is named: the fewer points of the scores just printed
    scores = re.search(r"Round scores: you (\d+), seat 1 (\d+)\r\n(.*)\r\n", seen)
    assert scores is not None
    mine, theirs = int(scores[1]), int(scores[2])
    winner = {
        mine < theirs: f"You win the round with {mine}.",
        mine > theirs: f"seat 1 (greedy) wins the round with {theirs}.",
        mine == theirs: f"You and seat 1 (greedy) share the win of the round with {mine}.",
    }[True]
    assert scores[3] == winner


def notation(label: str, laid: str) -> str:
    """The notation of a listed move: ``laid`` (the tile as it would lie, ``2|6``) at the
    place ``label`` (``5|2 → 2``: the anchor is the end's last tile; ``foot 0-0 (toe)``: the
    hub), so ``6-2@5-2`` (either order is accepted)."""
    tile = laid.replace("|", "-")
    if label == "or":
        return tile  # draw, pass
    hub = re.fullmatch(r"(?:centre|foot) (\d+-\d+) \(toe\)", label)
    anchor = hub.group(1) if hub else label.split(" → ", maxsplit=1)[0].replace("|", "-")
    return f"{tile}@{anchor}"


@needs_pty
def test_a_single_round_in_a_pty_driven_by_notation() -> None:
    # --round: one round, saved as a record. Answer each decision with the notation of the
    # first listed move, written from its place as the table draws it and the tile as it
    # would lie there; the last line names the winner of the round.
    child = spawn("--players", "2", "--round", "--seed", "5", "--bots", "random")
    decisions = 0
    first = r"the table:\r\n  (\S.*?\S) +1\) (\S+)"
    while child.expect([first, r"wins the round|win the round|share the win"]) == 0:
        move = notation(child.match.group(1), child.match.group(2))
        child.expect(PROMPT)
        child.sendline(move)
        child.expect(re.escape(move))  # echoed; a refusal would not be a move played
        decisions += 1
        assert decisions < 200
    assert finish(child) == 0
    assert decisions > 0
    assert "is not a move" not in transcript(child) and "Your moves: " not in transcript(child)


@needs_pty
def test_prompt_commands_help_bad_input_undo_save_quit_and_resume(tmp_path: Path) -> None:
    child = spawn(*SMALL, "--seed", "1", cwd=tmp_path)
    child.expect(PROMPT)
    child.sendline("help")
    child.expect("undo        take back your last move")
    child.expect(PROMPT)
    for bad, reply in [
        ("", "Type a move number from 1 to"),
        ("42", "There is no move 42: choose 1 to"),
        ("hello", "'hello' is not a move: type 1 to"),
        ("9-9@9-9", r"9-9@9-9: "),
        ("draw:5-5", "You cannot choose which tile to draw"),
        ("save", "save needs a file name"),
        ("undo", "Nothing to undo: you have not chosen a move yet."),
        ("x" * 5000, "is not a move"),
    ]:
        child.sendline(bad)
        child.expect(reply)
        child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    child.sendline("undo")
    child.expect(r"Undone: your move 9-0@9-9 and the \d+ moves? after it")
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    child.sendline("save game.json")
    child.expect("Saved the match, your seat and the bots to game.json.")
    child.expect("Resume it with: chickenfoot play game.json")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect("You left the game. The game is saved in game.json.")
    assert finish(child) == 0
    saved = PlaySave.from_json((tmp_path / "game.json").read_text()).game
    assert isinstance(saved, Match)
    assert saved.round is not None and len(saved.round.board) > 1

    again = spawn("game.json", "--bots", "greedy", cwd=tmp_path)
    again.expect("Resumed the match in game.json")
    play_to_the_end(again)
    assert finish(again) == 0


@needs_pty
def test_ctrl_d_and_ctrl_c_leave_cleanly() -> None:
    child = spawn(*SMALL, "--seed", "2")
    child.expect(PROMPT)
    child.sendeof()
    child.expect("End of input: you left the game.")
    assert finish(child) == 0

    child = spawn(*SMALL, "--seed", "2")
    child.expect(PROMPT)
    child.sendintr()
    child.expect("Interrupted: you left the game.")
    assert finish(child) == 130


@needs_pty
def test_bad_options_fail_before_the_game_with_one_line() -> None:
    child = spawn("--players", "2", "--bots", "greedy,random")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert transcript(child).strip() == (
        "chickenfoot: error: --bots names 2 agents, but 1 are needed (or give one name for all)"
    )


# -- scripted, in this process ------------------------------------------------------------------


def test_scripted_round_saves_a_record_that_replays(
    answers: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "round.json"
    answers += ["1", "1", f"save {path}", "quit"]
    code = main(["play", "--players", "3", "--round", "2", "--seed", "4", "--bots", "random"])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    assert f"Saved the round, your seat and the bots to {path}." in out
    rec = PlaySave.from_json(path.read_text()).game
    assert isinstance(rec, Record)
    assert rec.start == cf.deal(rec.start.rules, 4, 2)  # round 2: centre 7-7
    assert str(rec.start.centre) == "7-7" and len(rec.moves) >= 2
    # play FILE resumes it, and the record grows from where it was
    answers[:] = ["1", f"save {path}", "quit"]
    assert main(["play", str(path), "--bots", "random"]) == 0
    longer = PlaySave.from_json(path.read_text()).game
    assert isinstance(longer, Record)
    assert longer.moves[: len(rec.moves)] == rec.moves and len(longer.moves) > len(rec.moves)


def test_undo_restores_the_game_and_the_bots_answer_the_same(
    answers: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    argv = ["play", "--players", "3", "--seed", "8", "--bots", "random", "--round"]
    answers += ["2", "1", f"save {a}", "undo", "1", f"save {b}", "quit"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Undone: your move" in out
    assert json.loads(a.read_text()) == json.loads(b.read_text())


def test_end_of_input_at_the_first_prompt(
    answers: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", *SMALL, "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().endswith("End of input: you left the game.")


def test_a_whole_match_of_two_rounds_scripted(
    answers: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    answers += ["1"] * 300  # moves, and Enter... "1" at the between-rounds prompt is refused
    argv = ["play", "--players", "2", "--set", 'match={"rounds": 2}', "--seed", "6"]
    code = main([*argv, "--bots", "heuristic", "--seat", "1"])
    out = capsys.readouterr().out
    assert code == 0
    assert "press Enter for the next round" in out  # "1" is not Enter
    assert "Traceback" not in out


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--seat", "2", "--players", "2"], "--seat 2 is invalid: seats are 0 to 1"),
        (["--seat", "-1"], "--seat -1 is invalid"),
        (["--bots", "smart"], "unknown agent 'smart'"),
        (["--bots", "search:0"], "search:N takes N from 1"),
        (["--bots", "search:" + "9" * 5000], "search:N takes N from 1"),
        (["--players", "3", "--bots", "a,b,c"], "--bots names 3 agents, but 2 are needed"),
        (["--seed", "9" * 5000], "--seed"),
        (["--round", "-1"], "--round -1 is invalid: must be from 0 to 1,000,000"),
        (["--round", "9" * 30], "--round 999999999999999999999999999999 is invalid"),
        (["--round", "x"], "argument --round: invalid int value"),
        (["--round", "0", "--match"], "not allowed with argument"),
        (["--preset", "nope"], "preset='nope' is invalid"),
        (["missing.json"], "cannot read 'missing.json'"),
        (["a.json", "--resume", "b.json"], "give the saved game once"),
    ],
)
def test_play_option_errors(
    argv: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and needle in err


def test_resume_refuses_views_finished_games_and_rules_options(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    s = cf.deal(cf.Rules(players=2), seed=1)
    view = tmp_path / "view.json"
    view.write_text(s.view(0).to_json())
    over = tmp_path / "over.json"
    over.write_text(
        Match.from_scores(
            cf.Rules(players=2, match=cf.Rounds(1)), seed=1, scores=[(0, 9)]
        ).to_json()
    )
    pos = tmp_path / "pos.json"
    pos.write_text(s.to_json())
    for argv, needle in [
        (
            [str(view)],
            "this is a view; expected a saved game of chickenfoot play, a match, a record or a "
            "position",
        ),
        ([str(over)], "the match is over (seat 0 wins with 0): nothing to play"),
        ([str(pos), "--players", "3"], "cannot be used with a saved game"),
        ([str(pos), "--round"], "--round and --match cannot be used with a saved game"),
    ]:
        assert main(["play", *argv]) == 2
        _, err = capsys.readouterr()
        assert needle in err, err


# -- the prompt, driven through Session ---------------------------------------------------------


def session(
    game: Game, answer: Callable[[Session, str], str], seat: int = 0, bots: str = "greedy"
) -> tuple[Session, io.StringIO]:
    """A session whose answers come from ``answer(session, prompt)``."""
    out = io.StringIO()
    players = game.rules.players
    named = agents_of(bots, players - 1, "--bots", trust=Trust.user())
    others = [s for s in range(players) if s != seat]
    box: list[Session] = []

    def ask(prompt: str) -> str:
        out.write(prompt + "\n")
        return answer(box[0], prompt)

    s = Session(
        game,
        seat=seat,
        bots=dict(zip(others, named, strict=True)),
        rng=random.Random(0),
        out=out,
        ask=ask,
        header="test",
    )
    box.append(s)
    return s, out


def scripted(*lines: str) -> Callable[[Session, str], str]:
    """Answer with ``lines``, then with end of input."""
    queue = list(lines)

    def answer(s: Session, prompt: str) -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)

    return answer


def always_1(s: Session, prompt: str) -> str:
    """Move 1 at every decision; Enter between rounds."""
    return "" if prompt.startswith("Enter: deal round") else "1"


def test_a_tile_alone_plays_where_it_fits() -> None:
    start = cf.deal(cf.Rules(players=2), seed=1)
    first = start.legal_moves[0]
    assert isinstance(first, cf.Play)
    s, _ = session(Game(record=Record(start)), scripted(str(first.tile), "quit"))
    assert s.run() == 0
    assert s.game.record is not None and s.game.record.moves[0] == first


def test_a_tile_that_fits_in_several_places_asks_which() -> None:
    def two_places(st: cf.State) -> bool:
        tiles = [m.tile for m in st.legal_moves if isinstance(m, cf.Play)]
        return any(tiles.count(t) > 1 for t in tiles)

    state = decision(cf.Rules(players=2), two_places)
    tiles = [m.tile for m in state.legal_moves if isinstance(m, cf.Play)]
    tile = next(t for t in tiles if tiles.count(t) > 1)
    blocked = (
        next(t for t in state.hand(0) if t not in tiles)
        if len(set(tiles)) < len(state.hand(0))
        else None
    )
    other = next(t for t in cf.tiles_of_set(9) if t not in state.hand(0) and t.is_double)
    lines = [str(tile), "moves", "table", str(other)]
    if blocked is not None:
        lines.append(str(blocked))
    s, out = session(Game(record=Record(state)), scripted(*lines, "quit"))
    assert s.run() == 0
    text = out.getvalue()
    assert f"{tile} fits in {tiles.count(tile)} places: " in text
    assert text.count("Your moves, by where") >= 3  # at the start, after moves, after table
    assert f"{other}@" not in text and (f"you do not hold {other}" in text or f"{other}: " in text)
    if blocked is not None:
        assert f"{blocked} fits nowhere now: " in text
    assert "Traceback" not in text


def test_a_single_round_ends_with_your_score(capsys: pytest.CaptureFixture[str]) -> None:
    s, out = session(Game(record=Record(cf.deal(cf.Rules(players=2), seed=3))), always_1)
    assert s.run() == 0
    text = out.getvalue()
    assert "== The round is over: " in text
    # the last line names the winner: the fewest points (R11), shared when equal (R12)
    points = s.game.record.final().penalties() if s.game.record is not None else ()
    best = min(points)
    last = text.splitlines()[-1]
    if points.count(best) > 1:
        assert last.endswith(f" share the win of the round with {best}.")
    elif points[0] == best:
        assert last == f"You win the round with {best}."
    else:
        assert last == f"seat 1 (greedy) wins the round with {best}."
    assert "lowest" not in text


def test_between_rounds_commands(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    between = ["help", "nonsense", "save", f"save {path}", "undo"]
    state = {"undone": False}

    def answer(s: Session, prompt: str) -> str:
        if prompt.startswith("Enter: deal round"):
            if between:
                return between.pop(0)
            return "" if state["undone"] else "quit"
        if not between and not state["undone"]:
            state["undone"] = True  # back in round 1 after the undo
        return "1"

    rules = cf.Rules(players=2, match=cf.Rounds(2))
    s, out = session(Game(match=Match.start(rules, seed=5)), answer, bots="random")
    assert s.run() == 0
    text = out.getvalue()
    assert "Enter deals the next round." in text
    assert "'nonsense': press Enter for the next round, or type help." in text
    assert "save needs a file name" in text
    saved = PlaySave.from_json(path.read_text()).game
    assert isinstance(saved, Match) and saved.rounds_played == 1
    assert "Undone: your move" in text
    assert "== Round 2 of 2 (centre 8-8): " in text
    assert "== The match is over: " in text


def test_holder_mode_and_threshold_matches() -> None:
    rules = cf.Rules.preset("classic", players=3, match=cf.Threshold(30))
    s, out = session(Game(match=Match.start(rules, seed=4)), always_1, bots="greedy")
    assert s.run() == 0
    text = out.getvalue()
    assert "lays the centre 9-9" in text or "You hold the centre 9-9: you lay it." in text
    assert "is not the centre 9-9: you pass." in text  # seed 4: 9-9 is deep in the boneyard
    assert "== Round 1 (centre 9-9): " in text  # no "of N" under a threshold
    assert "== The match is over: " in text


def test_may_play_passes_are_explained() -> None:
    rules = cf.Rules(players=2, drawn_tile="may_play", match=cf.Rounds(1))
    s, out = session(Game(match=Match.start(rules, seed=2)), always_1, bots="random")
    assert s.run() == 0
    assert "Traceback" not in out.getvalue()


def test_watch_draws_the_table_after_every_move(
    answers: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    answers += ["1"] * 5
    argv = ["play", "--players", "2", "--round", "--seed", "3", "--bots", "greedy", "--watch"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    moves = (
        out.count("seat 1 (greedy) ")
        + out.count("You have no tile")
        + out.count("Your only legal move")
    )
    assert out.count(" to play · boneyard ") > moves > 0
