"""The ladder (chickenfoot.ladder, ``chickenfoot ladder``): seatings, ratings, the SPRT,
the results file and its continuation, bad input, a failing agent, the command line."""

from __future__ import annotations

import json
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from chickenfoot import Rules
from chickenfoot.agents import GreedyAgent
from chickenfoot.cli import main
from chickenfoot.errors import AgentError, ArgumentError, ChickenFootError
from chickenfoot.ladder import (
    Game,
    LadderError,
    Sprt,
    Task,
    play_game,
    play_ladder,
    seatings,
    tables,
)
from chickenfoot.specs import SpecError, Trust, UntrustedSpecError

FAKE = str(Path(__file__).with_name("fake_engine.py"))
TWO = Rules(players=2)


# -- seatings -------------------------------------------------------------------------------


def test_rotations_put_every_agent_in_every_seat_once() -> None:
    for p in range(2, 9):
        rows = seatings(tuple(range(10, 10 + p)), "rotations")
        assert len(rows) == p
        for seat in range(p):
            assert sorted(r[seat] for r in rows) == list(range(10, 10 + p))


def test_auto_is_every_permutation_up_to_three_seats() -> None:
    assert sorted(seatings((0, 1, 2), "auto")) == sorted(
        [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    )
    assert len(seatings((0, 1, 2, 3), "auto")) == 4  # 24 permutations: rotations instead
    assert len(seatings((0, 1, 2, 3), "permutations")) == 24


def test_rotations_turn_an_order_drawn_for_each_deal() -> None:
    # Rotations alone keep a table's order: the agent before another would be the same
    # at every deal. Drawn for each deal (seeded), every agent plays right before each
    # other in about a third of the deals of a four-agent table (three others).
    table = (0, 1, 2, 3)
    after = {(a, b): 0 for a in table for b in table if a != b}
    for d in range(600):
        rows = seatings(table, "rotations", seed=5, deal_index=d)
        assert rows == seatings(table, "rotations", seed=5, deal_index=d)  # seeded
        assert [r[1:] + r[:1] for r in rows] == rows[1:] + rows[:1]  # rotations of one order
        assert sorted(rows[0]) == list(table)
        first = rows[0]
        for i in range(4):
            after[(first[i], first[(i + 1) % 4])] += 1
    assert all(150 <= n <= 250 for n in after.values()), after  # 200 each, in expectation
    assert any(  # another seed, other orders
        seatings(table, "rotations", seed=6, deal_index=d)
        != seatings(table, "rotations", seed=5, deal_index=d)
        for d in range(10)
    )
    # every permutation does not depend on the deal
    assert seatings((0, 1, 2), "auto", seed=5, deal_index=3) == seatings((0, 1, 2), "auto")


def test_tables_are_the_combinations_and_deals_take_them_in_turn() -> None:
    assert tables(4, 4) == [(0, 1, 2, 3)]
    assert len(tables(7, 4)) == 35
    # Five agents at four seats: deal d is table d mod 5, each agent sits out one table.
    agents = ["random", "greedy", "heuristic", "search:1", "ismcts:5"]
    result = play_ladder(Rules(), agents, deals=5, seed=3)
    assert result.deals == 5 and result.games == 20
    met = {(p.a, p.b): p.deals for p in result.pairs}
    assert len(met) == 10 and set(met.values()) == {3}  # each pair at 3 of the 5 tables


def test_a_deal_is_the_same_cards_under_every_seating() -> None:
    # Two greedy players (deterministic): seating 1 swaps them, and the same cards make the
    # same game.
    greedy = (GreedyAgent(), GreedyAgent())
    x = play_game(TWO, greedy, "round", 5, Task(3, 0, (0, 1)))
    y = play_game(TWO, greedy, "round", 5, Task(3, 1, (1, 0)))
    z = play_game(TWO, greedy, "round", 5, Task(4, 0, (0, 1)))
    assert x.error is None and x.penalties == y.penalties
    assert z.penalties != x.penalties  # (another deal: here, another game)


# -- ratings and pairs ----------------------------------------------------------------------


def test_greedy_rates_above_random() -> None:
    result = play_ladder(TWO, ["random", "greedy"], deals=30, seed=11)
    assert [r.agent for r in result.ratings] == ["greedy", "random"]
    (pair,) = result.pairs
    assert (pair.a, pair.b, pair.deals) == ("random", "greedy", 30)
    assert pair.share_ci[1] < 0.5 and pair.difference_ci[0] > 0  # random loses, clearly
    assert result.ratings[0].mu > result.ratings[1].mu + result.ratings[1].sigma
    v = result.variance
    assert v is not None and abs(v.deal + v.skill + v.rest - 1) < 1e-9


def test_no_game_is_discounted_for_its_age_so_sigma_keeps_shrinking() -> None:
    # Programs do not change skill during a ladder: the ratings run with openskill's tau at
    # 0, so sigma falls with the games (about as 1/sqrt(games)) instead of settling on a
    # floor. (openskill's update still leans a little towards the latest games.)
    from chickenfoot.ladder._stats import ratings

    def deals(n: int) -> dict[int, list[Game]]:  # "a" beats "b" in three deals of five
        return {
            d: [Game(Task(d, 0, (0, 1)), penalties=(0, 10) if d % 5 < 3 else (10, 0))]
            for d in range(n)
        }

    few, many = ratings(["a", "b"], deals(250)), ratings(["a", "b"], deals(4000))
    assert [r.agent for r in few] == [r.agent for r in many] == ["a", "b"]
    assert many[0].sigma < 0.5 * few[0].sigma  # 16 times the games: a quarter, ideally
    assert many[0].mu - many[1].mu > 4 * many[0].sigma  # the gap is now clear of the noise


def test_the_json_shape() -> None:
    d = play_ladder(Rules(players=3), ["random", "greedy", "heuristic"], deals=2, seed=1).to_dict()
    assert d["players"] == 3 and d["deals"] == 2 and d["games"] == 12  # 3! seatings a deal
    assert [set(r) for r in d["ratings"]] == [{"agent", "mu", "sigma"}] * 3
    mus = [r["mu"] for r in d["ratings"]]
    assert mus == sorted(mus, reverse=True)
    assert sorted(r["agent"] for r in d["ratings"]) == ["greedy", "heuristic", "random"]
    json.dumps(d)


def test_a_process_pool_gives_the_same_numbers() -> None:
    here = play_ladder(TWO, ["random", "greedy", "heuristic"], deals=4, seed=2)
    with ProcessPoolExecutor(2) as pool:
        there = play_ladder(TWO, ["random", "greedy", "heuristic"], deals=4, seed=2, executor=pool)
    assert here == there


# -- the SPRT -------------------------------------------------------------------------------


def _stream(p: float, seed: int) -> list[float]:
    rng = random.Random(seed)
    return [1.0 if rng.random() < p else 0.0 for _ in range(5000)]


def test_the_sprt_accepts_h1_for_a_clearly_stronger_stream() -> None:
    # p = 0.75 is about +191 elo, far above elo1 = 20: H1, and long before 5,000 units
    t = Sprt(elo0=0, elo1=20)
    for x in _stream(0.75, 1):
        if t.add(x) is not None:
            break
    assert t.decision == "H1" and t.units < 500
    assert t.llr >= t.bounds[1]


def test_the_sprt_accepts_h0_for_an_even_stream() -> None:
    # p = 0.5 is 0 elo = elo0: H0
    t = Sprt(elo0=0, elo1=20)
    for x in _stream(0.5, 2):
        if t.add(x) is not None:
            break
    assert t.decision == "H0" and t.llr <= t.bounds[0]


def test_the_sprt_bounds_and_bad_settings() -> None:
    import math

    t = Sprt(elo0=0, elo1=5, alpha=0.05, beta=0.05)
    assert t.bounds == (math.log(0.05 / 0.95), math.log(0.95 / 0.05))
    with pytest.raises(ChickenFootError, match="elo0 < elo1"):
        Sprt(elo0=5, elo1=5)
    with pytest.raises(ChickenFootError, match="alpha"):
        Sprt(alpha=0.0)


def test_the_ladder_stops_when_the_sprt_decides() -> None:
    t = Sprt(a="greedy", b="random", elo0=0, elo1=50)
    result = play_ladder(TWO, ["random", "greedy"], deals=500, seed=4, sprt=t)
    assert t.decision == "H1"
    assert result.deals == t.units < 500  # stopped at the deal that decided
    assert result.sprt is t


# -- the results file -----------------------------------------------------------------------


def test_a_results_file_is_continued(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    first = play_ladder(TWO, ["random", "greedy"], deals=3, seed=9, results=path)
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 6 and json.loads(lines[0])["agents"] == ["random", "greedy"]
    assert first.deals == 3
    played: list[int] = []
    second = play_ladder(
        TWO, ["random", "greedy"], deals=5, seed=9, results=path,
        progress=lambda done, total: played.append(total),
    )  # fmt: skip
    assert played[-1] == 4  # only the 2 new deals' 4 games were played
    assert len(path.read_text().splitlines()) == 1 + 10
    assert second == play_ladder(TWO, ["random", "greedy"], deals=5, seed=9)


def test_a_line_cut_short_is_dropped_and_played_again(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    play_ladder(TWO, ["random", "greedy"], deals=2, seed=9, results=path)
    text = path.read_text()
    path.write_text(text[: text.rstrip("\n").rfind("\n") + 1] + '{"deal": 1, "sea')
    again = play_ladder(TWO, ["random", "greedy"], deals=2, seed=9, results=path)
    assert again == play_ladder(TWO, ["random", "greedy"], deals=2, seed=9)
    assert all(json.loads(line) for line in path.read_text().splitlines())


@pytest.mark.parametrize(
    ("rules", "agents", "seed", "said"),
    [
        (TWO, ["random", "heuristic"], 9, "agents"),
        (Rules(players=2, double_blank=25), ["random", "greedy"], 9, "rules"),
        (TWO, ["random", "greedy"], 8, "seed"),
    ],
)
def test_a_file_of_another_ladder_is_refused(
    tmp_path: Path, rules: Rules, agents: list[str], seed: int, said: str
) -> None:
    path = tmp_path / "l.jsonl"
    play_ladder(TWO, ["random", "greedy"], deals=1, seed=9, results=path)
    before = path.read_text()
    with pytest.raises(LadderError, match=f"another ladder's games: {said}"):
        play_ladder(rules, agents, deals=1, seed=seed, results=path)
    assert path.read_text() == before  # nothing lost


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"format": "chickenfoot/position"}\n', "not a ladder's results file"),
        ("not json\n", "not a ladder's results file"),
    ],
)
def test_a_file_that_is_not_a_ladder_is_refused(tmp_path: Path, text: str, said: str) -> None:
    path = tmp_path / "l.jsonl"
    path.write_text(text)
    with pytest.raises(LadderError, match=said):
        play_ladder(TWO, ["random", "greedy"], deals=1, seed=9, results=path)


def test_a_game_line_that_is_not_one_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    play_ladder(TWO, ["random", "greedy"], deals=1, seed=9, results=path)
    with path.open("a") as f:
        f.write('{"deal": 1, "seating": 0, "seats": [0, 7], "penalties": [1, 2]}\n')
    with pytest.raises(LadderError, match="line 4: not a game of this ladder"):
        play_ladder(TWO, ["random", "greedy"], deals=2, seed=9, results=path)


def test_a_game_in_another_seating_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "l.jsonl"
    play_ladder(TWO, ["random", "greedy"], deals=1, seed=9, results=path)
    with path.open("a") as f:  # deal 1, seating 0 is (0, 1): random at seat 0
        f.write('{"deal": 1, "seating": 0, "seats": [1, 0], "penalties": [1, 2], "winners": [0]}\n')
    with pytest.raises(LadderError, match=r"deal 1, seating 0 seats agents \[1, 0\]"):
        play_ladder(TWO, ["random", "greedy"], deals=2, seed=9, results=path)


def test_a_file_of_rotations_from_before_the_drawn_orders_is_refused(tmp_path: Path) -> None:
    # Version 1 turned every table in the agents' order; its games are not this ladder's.
    agents = ["random", "greedy", "heuristic", "search:1"]
    path = tmp_path / "l.jsonl"
    play_ladder(Rules(), agents, deals=1, seed=9, results=path)
    head, *games = path.read_text().splitlines()
    old = json.dumps({**json.loads(head), "version": 1})
    path.write_text("\n".join([old, *games]) + "\n")
    before = path.read_text()
    with pytest.raises(LadderError, match=r"earlier ladder \(results version 1\).*start a new"):
        play_ladder(Rules(), agents, deals=2, seed=9, results=path)
    assert path.read_text() == before  # nothing lost
    # every permutation (three seats or fewer) is seated as before: such a file continues
    two = tmp_path / "two.jsonl"
    play_ladder(TWO, ["random", "greedy"], deals=1, seed=9, results=two)
    head, *games = two.read_text().splitlines()
    two.write_text("\n".join([json.dumps({**json.loads(head), "version": 1}), *games]) + "\n")
    assert play_ladder(TWO, ["random", "greedy"], deals=2, seed=9, results=two).deals == 2
    path.write_text(json.dumps({**json.loads(head), "version": 3}) + "\n")
    with pytest.raises(LadderError, match="version 3 is newer than this library reads"):
        play_ladder(TWO, ["random", "greedy"], deals=1, seed=9, results=path)


# -- bad input ------------------------------------------------------------------------------


def test_bad_input_raises_the_librarys_errors() -> None:
    with pytest.raises(SpecError, match="unknown agent 'smart'"):
        play_ladder(TWO, ["random", "smart"], deals=1, seed=0)
    with pytest.raises(LadderError, match="at 4 seats needs at least 4 agents, got 3"):
        play_ladder(Rules(), ["random", "greedy", "heuristic"], deals=1, seed=0)
    with pytest.raises(LadderError, match="at least 2 agents"):
        play_ladder(TWO, ["random"], deals=1, seed=0)
    with pytest.raises(LadderError, match="names random more than once"):
        play_ladder(TWO, ["random", "Random"], deals=1, seed=0)
    for deals in (0, -3, 1.5):
        with pytest.raises(ArgumentError, match="deals"):
            play_ladder(TWO, ["random", "greedy"], deals=deals, seed=0)  # type: ignore[arg-type]
    with pytest.raises(UntrustedSpecError):
        play_ladder(TWO, ["random", "mybot:Bot"], deals=1, seed=0, trust=Trust.data())
    with pytest.raises(LadderError, match="SPRT's agent 'heuristic'"):
        play_ladder(
            TWO, ["random", "greedy"], deals=1, seed=0, sprt=Sprt(a="heuristic", b="random")
        )


def test_a_ladders_mistakes_are_its_own_error_not_an_agents_failure() -> None:
    # Issue 46, item 9: AgentError means an agent failed; asking a ladder for what it
    # cannot do is a LadderError (a ValueError, exported beside the others).
    import chickenfoot

    assert chickenfoot.LadderError is LadderError and issubclass(LadderError, ChickenFootError)
    mistakes = [
        lambda: play_ladder(Rules(), ["random", "greedy", "heuristic"], deals=1, seed=0),
        lambda: play_ladder(TWO, ["random", "Random"], deals=1, seed=0),
        lambda: play_ladder(TWO, AGENTS2, deals=1, seed=0, sprt=Sprt(a="heuristic", b="random")),
        lambda: play_ladder(TWO, AGENTS2, deals=1, seed=0, sprt=Sprt(a="random", b="random")),
    ]
    for mistake in mistakes:
        with pytest.raises(LadderError) as caught:
            mistake()
        assert not isinstance(caught.value, AgentError)
    with pytest.raises(ArgumentError, match="agents='random,greedy' is invalid"):
        play_ladder(TWO, "random,greedy", deals=1, seed=0)  # type: ignore[arg-type]


AGENTS2 = ["random", "greedy"]

FLAKY = """
class Flaky:
    calls = 0

    def choose(self, view, legal, rng):
        Flaky.calls += 1
        if Flaky.calls > 60:
            raise RuntimeError("out of luck")
        return legal[0]
"""


def test_an_agent_failing_mid_ladder_is_reported_and_the_games_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "flaky_ladder_agent.py").write_text(FLAKY)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    path = tmp_path / "l.jsonl"
    with pytest.raises(AgentError) as caught:
        play_ladder(TWO, ["random", "flaky_ladder_agent:Flaky"], deals=50, seed=1, results=path)
    said = str(caught.value)
    games = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    failed = games[-1]
    assert failed["error"] == "RuntimeError: out of luck"
    seat = failed["seats"].index(1)
    assert failed["seat"] == seat
    assert f"deal {failed['deal']} (seating {failed['seating']}), seat {seat}: the agent " in said
    assert "'flaky_ladder_agent:Flaky' failed: RuntimeError: out of luck" in said
    assert "RuntimeError: out of luck" in said and "kept in" in said
    assert len(games) > 2 and all("penalties" in g for g in games[:-1])  # the games before


def test_an_engine_that_crashes_is_reported_with_its_seat_and_deal(tmp_path: Path) -> None:
    spec = f"engine:{sys.executable} {FAKE} crash {tmp_path / 'pid'}"
    with pytest.raises(AgentError, match=r"deal 0 \(seating 0\), seat \d: the agent .* AgentError"):
        play_ladder(TWO, ["greedy", spec], deals=3, seed=1)


# -- the command line -----------------------------------------------------------------------


def test_the_command_prints_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    svg = tmp_path / "r.svg"
    argv = ["ladder", "--agents", "random,greedy", "--players", "2", "--deals", "3", "--json"]
    assert main([*argv, "--plot", str(svg)]) == 0
    d = json.loads(capsys.readouterr().out)
    assert (d["players"], d["deals"]) == (2, 3)
    assert [r["agent"] for r in d["ratings"]] == ["greedy", "random"]
    assert svg.read_text().startswith("<svg") and svg.read_text().count('class="rating"') == 2


def test_the_command_prints_tables_and_the_sprt(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["ladder", "--agents", "random,greedy", "--players", "2", "--deals", "400"]
    assert main([*argv, "--sprt", "greedy,random", "--elo1", "50"]) == 0
    out = capsys.readouterr().out
    assert "greedy" in out and "random vs greedy:" in out
    assert "SPRT: greedy is stronger than random (H1" in out


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--agents", "random,smart", "--players", "2"], "unknown agent 'smart'"),
        (["--agents", "random,greedy"], "at 4 seats needs at least 4 agents, got 2"),
        (["--agents", "random,greedy", "--players", "2", "--deals", "0"], "--deals 0 is invalid"),
        (["--agents", "random,greedy", "--players", "2", "--sprt", "greedy"], "two agents"),
        (["--agents", "random,greedy", "--players", "2", "--elo1", "-1", "--sprt", "greedy,random"], "elo0 < elo1"),
    ],
)  # fmt: skip
def test_bad_command_lines_print_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    assert main(["ladder", *argv]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_files_that_cannot_be_written_are_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base = ["ladder", "--agents", "random,greedy", "--players", "2", "--deals", "1"]
    missing = tmp_path / "no" / "such"
    assert main([*base, "--results", str(missing / "l.jsonl")]) == 2
    assert "--results" in capsys.readouterr().err
    assert main([*base, "--plot", str(missing / "r.svg")]) == 2
    err = capsys.readouterr().err
    assert "--plot" in err and "No such file or directory" in err


def test_the_command_refuses_another_ladders_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = str(tmp_path / "l.jsonl")
    base = ["ladder", "--players", "2", "--deals", "1", "--results", path]
    assert main([*base, "--agents", "random,greedy"]) == 0
    capsys.readouterr()
    assert main([*base, "--agents", "random,heuristic"]) == 2
    err = capsys.readouterr().err
    assert "holds another ladder's games: agents" in err and "Traceback" not in err


def test_a_game_may_be_a_whole_match() -> None:
    from chickenfoot import Rounds

    rules = Rules(players=2, match=Rounds(2))
    result = play_ladder(rules, ["random", "greedy"], deals=2, seed=1, game="match")
    assert (result.deals, result.games, result.game) == (2, 4, "match")
    g = play_game(rules, (GreedyAgent(), GreedyAgent()), "match", 1, Task(0, 0, (0, 1)))
    assert g.error is None and len(g.penalties) == 2
    # a match's totals: at least the first round's penalties, which one round alone gives
    one = play_game(
        Rules(players=2), (GreedyAgent(), GreedyAgent()), "round", 1, Task(0, 0, (0, 1))
    )
    assert all(t >= p for t, p in zip(g.penalties, one.penalties, strict=True))


def test_every_permutation_on_request() -> None:
    result = play_ladder(
        Rules(), ["random", "greedy", "heuristic", "search:1"], deals=1, seed=1,
        seatings="permutations",
    )  # fmt: skip
    assert result.games == 24
    with pytest.raises(ArgumentError, match="seatings"):
        play_ladder(TWO, ["random", "greedy"], deals=1, seed=1, seatings="shuffled")


def test_the_command_reports_a_failing_engine_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    engine = f"engine:{sys.executable} {FAKE} crash {tmp_path / 'pid'}"
    argv = ["ladder", "--agents", f"greedy,{engine}", "--players", "2", "--deals", "2"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "error: deal 0 (seating 0), seat 1: the agent 'engine:" in err
    assert "Traceback (most recent call last)" not in err and len(err.strip().splitlines()) == 1
