"""Move-by-move analysis (docs/analysis.md): losses, hindsight, determinism, bad input.

Small rule sets keep the rounds short enough for the exact solver to finish every
decision, so that the hindsight is always solved where the tests need it.
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable

import pytest

import chickenfoot as cf
from chickenfoot.analysis import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    Analysis,
    analyse,
    annotate,
    annotated_text,
    evaluate,
    glyph,
)
from chickenfoot.notation import Audience, read_game, write_game

SMALL = [
    cf.Rules(players=2, max_pip=4, hand_size=4, opening_toes=2, foot_toes=1),
    cf.Rules(players=3, max_pip=5, hand_size=4, opening_toes=3, foot_toes=2),
    cf.Rules(players=4, max_pip=6, hand_size=4, opening_toes=4, foot_toes=3),
    cf.Rules(
        players=3,
        max_pip=5,
        hand_size=4,
        opening_toes=3,
        foot_toes=2,
        draw="until_playable",
        drawn_tile="may_play",
    ),
]
SOLVABLE = [  # small enough for the solver from the deal on
    SMALL[0],
    SMALL[1],
    cf.Rules(players=4, max_pip=5, hand_size=3, opening_toes=3, foot_toes=2),
    SMALL[3],
]


def play(
    rules: cf.Rules, seed: int, chooser: Callable[[cf.State], cf.Move] | None = None
) -> cf.Record:
    """A whole round: seat 0 by ``chooser(state)`` when given, every other move random."""
    rng = random.Random(seed)
    start = cf.deal(rules, seed=seed)
    state, moves = start, []
    while not state.is_over():
        use = chooser is not None and state.turn == 0
        move = chooser(state) if chooser is not None and use else rng.choice(state.legal_moves)
        moves.append(move)
        state = state.apply(move)
    return cf.Record(start, moves)


def solver_best(state: cf.State) -> cf.Move:
    return cf.solve(state, nodes=5_000_000).best


@pytest.mark.parametrize("rules", SMALL, ids=str)
def test_loss_is_never_negative_and_zero_for_the_best_move(rules: cf.Rules) -> None:
    for seed in range(3):
        rec = play(rules, seed)
        a = analyse(rec, iterations=12, nodes=200_000, seed=seed)
        assert a.decisions, "a random round has decisions"
        for d in a.decisions:
            assert d.loss >= 0
            assert [v.move for v in d.values] == list(rec.states()[d.ply].legal_moves)
            assert d.best_value.penalty == min(v.penalty for v in d.values)
            assert (d.move == d.best) == (d.loss == 0)
            if d.move == d.best:
                assert d.glyph is None
            h = d.hindsight
            assert h is not None
            if h.solved:
                assert h.loss is not None and h.loss >= 0
                assert (h.loss == 0) == (
                    h.values is not None and h.values[d.move][d.seat] == h.values[h.best][d.seat]
                )


@pytest.mark.parametrize("rules", SOLVABLE, ids=str)
def test_a_player_of_the_solver_best_loses_nothing_in_hindsight(rules: cf.Rules) -> None:
    for seed in range(3):
        rec = play(rules, seed, chooser=solver_best)
        a = analyse(rec, seats=0, iterations=4, nodes=5_000_000, seed=1)
        assert a.decisions
        for d in a.decisions:
            assert d.seat == 0
            assert d.hindsight is not None and d.hindsight.solved
            assert d.hindsight.loss == 0 and d.hindsight.best == d.move


def test_the_same_seed_gives_the_same_values_whichever_seats() -> None:
    rec = play(SMALL[1], 4)
    every = analyse(rec, iterations=16, nodes=None, seed=9)
    one = analyse(rec, seats=[1], iterations=16, nodes=None, seed=9)
    assert one.decisions == tuple(d for d in every.decisions if d.seat == 1)
    again = analyse(rec, seats=1, iterations=16, nodes=None, seed=9)
    assert [d.values for d in again.decisions] == [d.values for d in one.decisions]
    other = analyse(rec, seats=1, iterations=16, nodes=None, seed=10)
    assert [d.values for d in other.decisions] != [d.values for d in one.decisions]


def test_forced_moves_are_not_decisions() -> None:
    rec = play(SMALL[0], 1)
    a = analyse(rec, iterations=2, nodes=None)
    states = rec.states()
    assert {d.ply for d in a.decisions} == {
        i for i in range(len(rec.moves)) if len(states[i].legal_moves) > 1
    }


def test_a_budget_that_runs_out_says_so_instead_of_a_value() -> None:
    rec = play(SMALL[2], 0)
    a = analyse(rec, seats=0, iterations=2, nodes=1)
    d = a.decisions[0]
    assert d.hindsight is not None and not d.hindsight.solved
    assert d.hindsight.values is None and d.hindsight.loss is None and d.hindsight.best is None
    assert d.to_dict()["hindsight"] == {"solved": False, "nodes": 1}
    assert "not solved within 1 nodes" in annotated_text(rec, a)


def test_glyphs_follow_the_documented_thresholds() -> None:
    assert glyph(0) is None and glyph(INACCURACY - 0.01) is None
    assert glyph(INACCURACY) == "?!" and glyph(MISTAKE) == "?" and glyph(BLUNDER) == "??"
    assert 0 < INACCURACY < MISTAKE < BLUNDER


def test_the_review_is_biggest_loss_first() -> None:
    rec = play(SMALL[3], 5)
    a = analyse(rec, iterations=8, nodes=None)
    losses = [d.loss for d in a.review()]
    assert losses == sorted(losses, reverse=True) and len(losses) == len(a.decisions)


def test_the_annotated_notation_reads_back_with_its_evaluations() -> None:
    rec = play(SMALL[1], 3)
    a = analyse(rec, iterations=8, nodes=100_000)
    game = read_game(io.StringIO(annotated_text(rec, a)), strict=True)
    assert game is not None and game.record == rec and not game.errors
    assert game.header("Annotator") == "chickenfoot analyse"
    by_ply = {d.ply: d for d in a.decisions}
    for i, node in enumerate(game.moves):
        d = by_ply.get(i)
        if d is None:
            assert not node.comments and not node.variations
            continue
        assert "[%eval " in node.comments[0]
        assert node.glyphs == (() if d.glyph is None else (d.glyph,))
        if d.move != d.best:
            (line,) = node.variations
            assert line[0].move == str(d.best) and line[0].seat == d.seat
    # a seat's copy never carries the analysis (it may speak of hidden tiles)
    seat_copy = write_game(annotate(rec, a), audience=Audience.seat_of(1))
    assert "%eval" not in seat_copy and "hindsight" not in seat_copy


def test_decision_json_holds_the_promised_fields() -> None:
    rec = play(SMALL[0], 2)
    (first, *_) = analyse(rec, seats=0, iterations=4).to_dicts()
    assert {"seat", "move", "best", "loss", "glyph", "iterations", "ms", "hindsight"} <= set(first)
    assert first["seat"] == 0 and cf.parse_move(first["move"]) and first["loss"] >= 0


def test_evaluate_values_every_legal_move_of_a_view() -> None:
    v = cf.deal(SMALL[2], seed=3).view(0)
    values = evaluate(v, iterations=6, seed=2)
    assert [x.move for x in values] == list(v.legal_moves)
    for x in values:
        assert 0 <= x.win <= 1 and x.penalty >= 0 and abs(sum(x.wins) - 1) < 1e-9
    assert values == evaluate(v, iterations=6, seed=2)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"iterations": 0}, "iterations=0 is invalid"),
        ({"iterations": 10**9}, "iterations=1000000000 is invalid"),
        ({"iterations": 2.5}, "iterations=2.5 is invalid"),
        ({"nodes": 0}, "nodes=0 is invalid"),
        ({"nodes": 10**12}, "nodes=1000000000000 is invalid"),
        ({"seats": 7}, "seats[0]=7 is invalid"),
        ({"seats": []}, "seats=[] is invalid"),
        ({"seats": "0"}, "seats='0' is invalid"),
        ({"seed": "x"}, "seed='x' is invalid"),
        ({"backend": "gpu"}, "backend='gpu' is invalid"),
    ],
)
def test_bad_arguments_are_named(kwargs: dict[str, object], message: str) -> None:
    rec = play(SMALL[0], 0)
    with pytest.raises(cf.ChickenFootError) as caught:
        analyse(rec, **kwargs)  # type: ignore[arg-type]
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_a_seat_that_never_moved_and_records_without_moves() -> None:
    rules = SMALL[1]
    start = cf.deal(rules, seed=1)
    rec = cf.Record(start, [start.legal_moves[0]])
    with pytest.raises(cf.ArgumentError, match="seat 2 never moved in this record"):
        analyse(rec, seats=2)
    with pytest.raises(cf.ArgumentError, match="the record has no move"):
        analyse(cf.Record(start))
    with pytest.raises(cf.ArgumentError, match="needs a Record or a notation Game"):
        analyse(start)  # type: ignore[arg-type]


def test_a_copy_that_hides_hands_is_refused() -> None:
    rec = play(SMALL[0], 0)
    text = write_game(rec, audience="seat 0")
    game = read_game(io.StringIO(text))
    with pytest.raises(cf.FormatError, match="only a full copy can be analysed"):
        analyse(game)  # type: ignore[arg-type]


def test_an_analysis_of_a_full_notation_game_is_that_of_its_record() -> None:
    rec = play(SMALL[0], 6)
    game = read_game(io.StringIO(write_game(rec)))
    assert game is not None
    assert analyse(game, iterations=3) == analyse(rec, iterations=3)
    assert isinstance(analyse(rec, iterations=3), Analysis)
