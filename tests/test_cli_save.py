"""``chickenfoot play``'s saved games (issue 19, items 8 and 9): the ``chickenfoot/play``
document holds the bots, the seat, the seed and the options; resuming restores them (or
says what a file without them falls back to), announces where the round stands, and lets
``undo`` go back through the round; the file commands understand a save.
"""

from __future__ import annotations

import io
import json
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chickenfoot as cf
from chickenfoot.cli import main
from chickenfoot.cli.play import Game, Session
from chickenfoot.match import Match
from chickenfoot.record import Record

if TYPE_CHECKING:
    from chickenfoot.cli._save import PlaySave


def _save_class() -> type[PlaySave]:
    from chickenfoot.cli._save import PlaySave  # imported late: the tests run on any version

    return PlaySave


def read_save(text: str) -> PlaySave:
    """A ``chickenfoot/play`` document, read."""
    return _save_class().from_json(text)


TWO_ROUNDS = 'match={"rounds": 2}'
THREE = ["--players", "3", "--set", TWO_ROUNDS, "--seed", "9", "--bots", "random,greedy"]


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def play(lines: list[str], answers: list[str], *argv: str) -> tuple[int, str, str]:
    """Run ``chickenfoot play ARGV`` answering ``lines``; return status, stdout, stderr."""
    answers[:] = list(lines)
    return run("play", *argv)


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def one_error(result: tuple[int, str, str]) -> str:
    code, out, err = result
    assert (code, out) == (2, ""), result
    assert err.count("\n") == 1 and err.startswith("chickenfoot: error: "), err
    assert "Traceback" not in err
    return err


# -- item 8: what a save holds, and resuming from it --------------------------------------------


def test_a_save_holds_the_bots_the_seat_the_seed_and_the_options(
    answers: list[str], here: Path
) -> None:
    code, out, _ = play(
        ["1", "1", "save g.json", "quit"], answers, *THREE, "--seat", "1", "--watch"
    )
    assert code == 0
    assert "Saved the match, your seat and the bots to g.json." in out
    doc = json.loads((here / "g.json").read_text())
    assert doc["format"] == "chickenfoot/play" and doc["version"] == 1
    assert (doc["seat"], doc["bots"], doc["seed"], doc["watch"]) == (
        1,
        ["random", "greedy"],
        9,
        True,
    )
    assert doc["game"]["format"] == "chickenfoot/match" and doc["game"]["seed"] == 9
    assert Match.from_dict(doc["game"]).round is not None  # the library's own document, as is
    assert doc["moves"] and all(isinstance(m, str) for m in doc["moves"])

    code, out, _ = play(["quit"], answers, "g.json")
    assert code == 0
    assert "Resumed the match in g.json: 3 players, double-9, seed 9." in out
    assert "You are seat 1; seat 0: random, seat 2: greedy." in out
    assert "holds no players" not in out and "--bots" not in out
    assert "You left the game. The game is saved in g.json." in out  # nothing new to save


def test_a_save_of_one_round_is_a_record_with_its_players(answers: list[str], here: Path) -> None:
    argv = ["--round", "3", "--players", "2", "--seed", "5", "--bots", "search:2"]
    assert play(["1", "save r.json", "quit"], answers, *argv)[0] == 0
    save = read_save((here / "r.json").read_text())
    assert isinstance(save.game, Record) and save.game.start == cf.deal(save.rules, 5, 3)
    assert (save.seat, save.bots, save.seed, save.watch) == (0, ("search:2",), 5, False)
    assert "moves" not in json.loads((here / "r.json").read_text())  # a record holds its own
    code, out, _ = play(["quit"], answers, "r.json")
    assert code == 0 and "You are seat 0; seat 1: search:2." in out


@pytest.mark.parametrize("kind", ["match", "record", "position"])
def test_a_file_without_players_says_what_it_falls_back_to(
    answers: list[str], here: Path, kind: str
) -> None:
    rules = cf.Rules(players=3, match=cf.Rounds(2))
    start = cf.deal(rules, 4, 0)
    first = start.legal_moves[0]
    m = Match.start(rules, seed=4).apply(first)
    assert m.round is not None
    text = {
        "match": m.to_json(),
        "record": Record(start, [first]).to_json(),
        "position": m.round.to_json(),
    }[kind]
    (here / "f.json").write_text(text)
    code, out, _ = play(["quit"], answers, "f.json")
    assert code == 0
    assert (
        f"f.json is a {kind} document, which holds no players: you are seat 0, and the bots "
        "play the other seats. --seat and --bots choose others."
    ) in out
    assert "You are seat 0; seat 1: heuristic, seat 2: heuristic." in out
    code, out, _ = play(["quit"], answers, "f.json", "--seat", "2")
    assert (
        "which holds no players: you are seat 2, and the bots play the other seats. "
        "--bots chooses others." in out
    )
    code, out, _ = play(["quit"], answers, "f.json", "--seat", "2", "--bots", "greedy,random")
    assert "you are seat 2, and the bots play the other seats.\n" in out
    assert "You are seat 2; seat 0: greedy, seat 1: random." in out


def test_options_given_with_a_save_override_it_and_say_so(answers: list[str], here: Path) -> None:
    assert play(["1", "save g.json", "quit"], answers, *THREE)[0] == 0
    code, out, _ = play(["quit"], answers, "g.json", "--seat", "2", "--bots", "greedy", "--watch")
    assert code == 0
    assert "--seat 2: you play seat 2 (the file has seat 0)." in out
    assert "--bots: the bots are greedy, greedy (the file has random, greedy)." in out
    assert "--watch: the table is drawn after every move (the file has --no-watch)." in out
    assert "You are seat 2; seat 0: greedy, seat 1: greedy." in out
    # the same as the file: nothing to say
    code, out, _ = play(["quit"], answers, "g.json", "--seat", "0", "--no-watch")
    assert "the file has" not in out


def test_seed_cannot_be_given_with_a_file_that_holds_one(answers: list[str], here: Path) -> None:
    assert play(["1", "save g.json", "quit"], answers, *THREE)[0] == 0
    err = one_error(play([], answers, "g.json", "--seed", "3"))
    assert "--seed cannot be used with g.json: its seed (9) is in the file" in err
    # a record document holds no seed: --seed seeds the bots' choices
    rec = Record(cf.deal(cf.Rules(players=2), 1, 0))
    (here / "r.json").write_text(rec.to_json())
    code, out, _ = play(["quit"], answers, "r.json", "--seed", "3")
    assert code == 0 and "The bots' seed" not in out
    code, out, _ = play(["quit"], answers, "r.json")
    assert "The bots' seed is " in out and "gives the same choices again" in out


def test_saved_bots_that_no_longer_load_name_the_file_and_the_bot(
    answers: list[str], here: Path
) -> None:
    assert play(["1", "save g.json", "quit"], answers, *THREE)[0] == 0
    doc = json.loads((here / "g.json").read_text())
    doc["bots"][1] = "nosuchmodule_xyz:Bot"
    (here / "g.json").write_text(json.dumps(doc))
    err = one_error(play([], answers, "g.json", "--trust-bots"))  # run only if trusted
    assert "g.json: bots[1]: agent 'nosuchmodule_xyz:Bot': no module named" in err


# -- reading a save: as strict as the library's readers ----------------------------------------


@pytest.fixture
def saved(answers: list[str], here: Path) -> dict[str, Any]:
    assert play(["1", "1", "save g.json", "quit"], answers, *THREE)[0] == 0
    doc: dict[str, Any] = json.loads((here / "g.json").read_text())
    return doc


def _set(doc: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    out = json.loads(json.dumps(doc))
    where = out
    keys = path.split(".")
    for k in keys[:-1]:
        where = where[k]
    if value is _DELETE:
        del where[keys[-1]]
    else:
        where[keys[-1]] = value
    return out


_DELETE = object()


@pytest.mark.parametrize(
    ("path", "value", "needle"),
    [
        ("extra", 1, "extra: unknown key (a chickenfoot/play has format, version, game, seat"),
        ("seat", _DELETE, "seat: missing"),
        ("version", 2, "version: version 2 is newer than this library reads (1)"),
        ("seat", 3, "seat: 3 is not a seat (0 to 2)"),
        ("seat", True, "seat: True is not a seat"),
        ("bots", ["random"], "bots: 1 bots, but the game has 2 seats for bots"),
        ("bots", "random", "bots: expected an array of agent names"),
        ("bots", ["random", "smart"], "bots[1]: unknown agent 'smart'"),
        ("bots", ["random", 7], "bots[1]: expected an agent name such as 'heuristic', got 7"),
        ("seed", 8, "seed: 8 differs from the match's seed 9"),
        ("seed", "9", "seed: '9' is not an integer"),
        ("watch", "no", "watch: expected true or false, got 'no'"),
        ("moves", "9-8@9-9", "moves: expected an array of moves"),
        ("moves", ["pass"], "moves[0]: 'pass' cannot be played: pass by seat 0"),
        (
            "moves",
            [],
            "moves: the 0 moves from the deal of round 1 do not reach the round of the game",
        ),
        ("moves", [None], "moves[0]: expected a move such as '9-4@9-9', got None"),
        ("game", [], "game: expected a chickenfoot/match or chickenfoot/record document, got []"),
        (
            "game.format",
            "chickenfoot/view",
            "game: expected a chickenfoot/match or chickenfoot/record document, got format 'chickenfoot/view'",
        ),
        ("game.round.turn", 7, "game.round.turn: "),
        ("game.seed", 10, "seed: 9 differs from the match's seed 10"),
        ("game.scores", [[0, 1]], "game.scores[0]: expected 3 scores"),
    ],
)
def test_a_save_is_read_strictly_with_the_path_of_the_bad_part(
    saved: dict[str, Any], here: Path, path: str, value: Any, needle: str
) -> None:
    (here / "bad.json").write_text(json.dumps(_set(saved, path, value)))
    for command in ("validate", "show", "play"):
        err = one_error(run(command, "bad.json"))
        assert f"bad.json: {needle}" in err, err


def test_a_record_save_takes_no_moves(answers: list[str], here: Path) -> None:
    assert (
        play(["1", "save r.json", "quit"], answers, "--round", "--players", "2", "--seed", "2")[0]
        == 0
    )
    doc = json.loads((here / "r.json").read_text())
    (here / "bad.json").write_text(json.dumps({**doc, "moves": []}))
    err = one_error(run("validate", "bad.json"))
    assert "bad.json: moves: a record holds its own moves: moves is for a match's round" in err


def test_a_save_without_moves_still_resumes(
    saved: dict[str, Any], here: Path, answers: list[str]
) -> None:
    (here / "nomoves.json").write_text(json.dumps(_set(saved, "moves", _DELETE)))
    code, out, _ = play(["undo", "quit"], answers, "nomoves.json")
    assert code == 0
    assert "resumed (the file keeps the position, not its moves): your turn ==" in out
    assert "Nothing to undo: the file kept this round's position, not the moves" in out


# -- the file commands understand a save ----------------------------------------------------------


def test_the_file_commands_understand_a_save(saved: dict[str, Any], here: Path) -> None:
    code, out, _ = run("validate", "g.json")
    assert code == 0
    moves = len(saved["moves"])
    assert out == (
        "g.json: a valid chickenfoot/play document (seat 0 against random, greedy; seed 9; the "
        "match: 3 players, double-9, seed 9, 0 rounds scored, round 1: centre 9-9, seat 0 to "
        f"play; {moves} moves of the round kept)\n"
    )
    code, out, _ = run("show", "g.json")
    assert code == 0
    assert out.startswith(
        "A saved game of chickenfoot play: seat 0 against random, greedy; seed 9.\nMatch: seed 9"
    )
    assert "Round 1 in play:" in out
    code, out, _ = run("moves", "g.json")
    game = Match.from_dict(saved["game"])
    assert code == 0 and out.split() == [str(m) for m in game.legal_moves]
    first = str(game.legal_moves[0])
    code, out, _ = run("apply", "g.json", first)
    assert code == 0
    after = read_save(out)  # a save again, one move further, readable
    assert after.game == game.apply(first) and len(json.loads(out)["moves"]) == moves + 1
    assert (after.seat, after.bots, after.seed) == (0, ("random", "greedy"), 9)
    code, out, _ = run("apply", "g.json", first, "--text")
    assert code == 0 and out.startswith("Match: seed 9")
    code, out, _ = run("perft", "g.json", "--depth", "1")
    assert code == 0 and out == f"{len(game.legal_moves)}\n"
    code, out, _ = run("replay", "g.json", "--final")
    assert code == 0 and out.startswith(f"Record: {moves} moves; the final position:")
    code, out, _ = run("replay", "g.json")
    assert code == 0 and out.startswith("Start (a position of 3 players, double-9):")
    assert out.count("Move ") == moves
    code, out, _ = run("show", "g.json", "--svg", "-")
    assert code == 0 and out.startswith("<svg")


def test_replay_of_a_save_without_the_rounds_moves_says_why(
    saved: dict[str, Any], here: Path
) -> None:
    (here / "nomoves.json").write_text(json.dumps(_set(saved, "moves", _DELETE)))
    err = one_error(run("replay", "nomoves.json"))
    assert "nomoves.json: the save keeps the round's position but not its moves" in err


# -- item 9: where a resumed round stands, and undo ----------------------------------------------


def _bot_to_play() -> Match:
    """A 3-player match whose round is at seat 2's turn after some moves."""
    m = Match.start(cf.Rules(players=3, match=cf.Rounds(10)), seed=5)
    while True:
        assert m.round is not None
        m = m.apply(m.round.legal_moves[0])
        assert m.round is not None
        if m.round.turn == 2 and len(m.round.history) > 4:
            return m


def test_resuming_mid_round_says_where_it_stands(answers: list[str], here: Path) -> None:
    m = _bot_to_play()
    assert m.round is not None
    n = len(m.round.history)
    save = _save_class()(m, seat=0, bots=("greedy", "greedy"), seed=5)
    (here / "g.json").write_text(save.to_json())
    code, out, _ = play(["quit"], answers, "g.json")
    assert code == 0
    assert f"== Round 1 of 10 (centre 9-9), resumed after {n} moves: seat 2 to play ==" in out
    assert "first ==" not in out


def test_resuming_a_match_document_mid_round_does_not_say_who_plays_first(
    answers: list[str], here: Path
) -> None:
    m = _bot_to_play()  # a plain match document has the position, not the moves
    (here / "m.json").write_text(m.to_json())
    code, out, _ = play(["quit"], answers, "m.json")
    assert code == 0
    assert (
        "== Round 1 of 10 (centre 9-9), resumed (the file keeps the position, not its moves): seat 2 to play =="
        in out
    )
    assert "plays first" not in out


def test_a_save_between_rounds_resumes_at_the_start_of_the_next(
    answers: list[str], here: Path
) -> None:
    rules = cf.Rules(players=2, match=cf.Rounds(2))
    between: list[str] = ["save between.json", "quit"]  # at the first Enter: prompt

    def ask(prompt: str) -> str:
        return between.pop(0) if prompt.startswith("Enter: deal round") else "1"

    session = Session(
        Game(match=Match.start(rules, seed=6)),
        seat=0,
        bots={1: ("greedy", cf.GreedyAgent())},
        out=io.StringIO(),
        ask=ask,
        header="",
    )
    assert session.run() == 0
    save = read_save((here / "between.json").read_text())
    assert isinstance(save.game, Match) and save.game.rounds_played == 1
    assert json.loads((here / "between.json").read_text())["moves"] == []
    _, out, _ = play(["quit"], answers, "between.json")
    assert "== Round 2 of 2 (centre 8-8), resumed at its start: " in out


def test_undo_after_resuming_goes_back_through_the_round(answers: list[str], here: Path) -> None:
    argv = [*THREE]
    assert play(["1", "save one.json", "2", "save two.json", "quit"], answers, *argv)[0] == 0
    code, out, _ = play(["undo", "save back.json", "undo", "undo", "quit"], answers, "two.json")
    assert code == 0
    assert "Undone: your move " in out and "Back to that decision." in out
    back = read_save((here / "back.json").read_text())
    one = read_save((here / "one.json").read_text())
    assert back == one  # back at the decision where one.json was saved
    assert (
        json.loads((here / "back.json").read_text())["moves"]
        == json.loads((here / "one.json").read_text())["moves"]
    )
    assert out.count("Undone: your move ") >= 2  # and further back, to the first decision
    assert "Nothing to undo: you have not chosen a move yet." in out


def test_save_quit_resume_play_on_is_the_game_played_on_without_saving(
    answers: list[str], here: Path
) -> None:
    argv = ["--players", "3", "--set", TWO_ROUNDS, "--seed", "11", "--bots", "random,search:2"]
    on = ["1"] * 6
    assert play(["1", "1", "1", *on, "save straight.json", "quit"], answers, *argv)[0] == 0
    assert play(["1", "1", "1", "save half.json", "quit"], answers, *argv)[0] == 0
    assert play([*on, "save resumed.json", "quit"], answers, "half.json")[0] == 0
    straight = json.loads((here / "straight.json").read_text())
    resumed = json.loads((here / "resumed.json").read_text())
    assert straight == resumed
    assert len(straight["moves"]) > len(json.loads((here / "half.json").read_text())["moves"])


# -- every save reads back, whatever was answered before it -------------------------------------

ANSWERS = st.lists(
    st.sampled_from(["1", "2", "3", "undo", "draw", "", "save s.json", "moves", "x"]), max_size=25
)


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(lines=ANSWERS, round_only=st.booleans())
def test_every_save_reads_back_and_resumes(
    lines: list[str], round_only: bool, tmp_path_factory: pytest.TempPathFactory
) -> None:
    import builtins
    import os

    tmp = tmp_path_factory.mktemp("saves")
    here = os.getcwd()
    os.chdir(tmp)
    queue = [*lines, "save s.json", "quit"]

    def answer(prompt: str = "") -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)

    old = builtins.input
    builtins.input = answer
    argv = ["play", "--players", "2", "--seed", "3", "--bots", "random"]
    argv += ["--round"] if round_only else ["--set", TWO_ROUNDS]
    try:
        with redirect_stdout(io.StringIO()) as out:
            assert main(argv) == 0
        if "Saved the " in out.getvalue():
            save = read_save((tmp / "s.json").read_text())
            assert save.bots == ("random",) and save.seed == 3
            queue[:] = ["undo", "quit"]
            with redirect_stdout(io.StringIO()) as again:
                assert main(["play", "s.json"]) == 0
            assert "Resumed the " in again.getvalue() and "Traceback" not in again.getvalue()
    finally:
        builtins.input = old
        os.chdir(here)


# -- in a real terminal ------------------------------------------------------------------------------


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")
def test_resume_and_undo_in_a_pty(tmp_path: Path) -> None:
    from test_cli_play import PROMPT, finish, spawn

    child = spawn(*THREE, cwd=tmp_path)
    for _ in range(2):
        child.expect(PROMPT)
        child.sendline("1")
    child.expect(PROMPT)
    child.sendline("save g.json")
    child.expect("Saved the match, your seat and the bots to g.json.")
    child.expect(PROMPT)
    child.sendline("quit")
    assert finish(child) == 0

    again = spawn("g.json", cwd=tmp_path)
    again.expect("You are seat 0; seat 1: random, seat 2: greedy.")
    again.expect(r"== Round 1 of 2 \(centre 9-9\), resumed after \d+ moves: your turn ==")
    again.expect(PROMPT)
    again.sendline("undo")
    again.expect(r"Undone: your move \S+ and the \d+ moves? after it\. Back to that decision\.")
    again.expect(PROMPT)
    again.sendline("quit")
    again.expect("You left the game. The game was not saved")
    assert finish(again) == 0


def test_the_resume_notes_speak_the_players_language(answers: list[str], here: Path) -> None:
    """Issue 49: what resuming a file says (a file without players, the bots' seed, the
    options that override a save) is in the language asked for, whole sentences."""
    rec = Record(cf.deal(cf.Rules(players=3), 4, 0))
    (here / "r.json").write_text(rec.to_json())
    code, out, _ = play(["quit"], answers, "r.json", "--seat", "2", "--lang", "el")
    assert code == 0
    assert (
        "Το r.json είναι έγγραφο καταγραφής, που δεν έχει παίκτες: είσαι η θέση 2 και τα μποτ "  # noqa: RUF001
        "παίζουν τις άλλες θέσεις. Το --bots διαλέγει άλλα."  # noqa: RUF001
    ) in out
    assert "Ο σπόρος των μποτ είναι " in out  # noqa: RUF001
    assert "which holds no players" not in out
    assert play(["1", "save g.json", "quit"], answers, *THREE)[0] == 0
    code, out, _ = play(["quit"], answers, "g.json", "--seat", "2", "--watch", "--lang", "lv")
    assert "--seat 2: tu spēlē vietā 2 (failā ir vieta 0)." in out
    assert "--watch: galds tiek zīmēts pēc katra gājiena (failā ir --no-watch)." in out
