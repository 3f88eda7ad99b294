"""Whole matches: rounds, rotation, scoring, threshold play, tie-breaks and the match format.

Expected values are derived from R3, R5, R11, R12 and the ``match``, ``tie_break`` and
``centre = "holder"`` variants (docs/rules.md), the match document and the seeded deals
(docs/formats.md), not read off the library.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from chickenfoot import (
    DRAW,
    FormatError,
    IllegalMoveError,
    InvalidMoveError,
    Play,
    Rounds,
    Rules,
    RulesError,
    State,
    Threshold,
    Tile,
    deal,
    half_match,
)
from chickenfoot.errors import ArgumentError
from chickenfoot.match import (
    MATCH_FORMAT,
    Match,
    MatchResult,
    Standing,
    match_apply,
    match_legal_moves,
)
from helpers import example_position
from strategies import preset_or_tiny_rules

DATA = Path(__file__).parent / "data"

# -- helpers ------------------------------------------------------------------------------------


def play_match(
    m: Match, rng: random.Random | None = None, limit: int = 100_000
) -> tuple[Match, list[State], list[State]]:
    """Play ``m`` to its end (first legal move, or random ones with ``rng``).

    Checks every round transition against the rules page (docs/rules.md) on the way and returns the final match,
    the first position of every round and the last (terminal) position of every round.
    """
    starts: list[State] = [] if m.round is None else [m.round]
    finals: list[State] = []
    for _ in range(limit):
        if m.is_over():
            return m, starts, finals
        state = m.round
        assert state is not None
        moves = m.legal_moves
        assert list(moves) == list(state.legal_moves)
        move = moves[0] if rng is None else rng.choice(moves)
        after = state.apply(move)
        nxt = m.apply(move)
        if after.is_over():
            # R11: the round's penalties are its scores; the next round is dealt at once.
            finals.append(after)
            assert nxt.scores == (*m.scores, after.penalties())
            if nxt.round is not None:
                assert nxt.round == deal(m.rules, m.seed, len(nxt.scores))
                starts.append(nxt.round)
        else:
            assert nxt.scores == m.scores
            assert nxt.round == after
        m = nxt
    raise AssertionError("the match did not end")


def busts(rules: Rules, total: int) -> bool:
    t = rules.match
    assert isinstance(t, Threshold)
    return total >= t.points if t.inclusive else total > t.points


def should_be_over(rules: Rules, scores: tuple[tuple[int, ...], ...]) -> bool:
    """The ``match`` variant (docs/rules.md, "Match length"), re-derived: over after k rounds, or after a busting round."""
    if isinstance(rules.match, Rounds):
        return len(scores) >= rules.match.count
    totals = [sum(col) for col in zip(*scores, strict=True)] if scores else []
    return any(busts(rules, t) for t in totals)


TINY = {"players": 2, "max_pip": 3, "hand_size": 3, "opening_toes": 2, "foot_toes": 1}


# -- starting and playing -----------------------------------------------------------------------


def test_start_deals_round_zero() -> None:
    rules = Rules()
    m = Match.start(rules, seed=5)
    assert m.rules is rules and m.seed == 5
    assert m.scores == () and m.rounds_played == 0 and m.totals == (0, 0, 0, 0)
    assert m.round == deal(rules, 5, 0)
    assert not m.is_over()
    r = m.result()
    assert not r.is_over() and r.winners == () and r.losers == () and r.rounds == 0
    assert str(r) == "in progress after 0 rounds"
    assert match_legal_moves(m) == m.round.legal_moves


def test_start_rejects_bad_arguments() -> None:
    # A seed is not a rules field: a bad one is an ArgumentError (also a TypeError).
    with pytest.raises(ArgumentError, match=r"^seed=.1. is invalid: must be an integer"):
        Match.start(Rules(), seed="1")
    with pytest.raises(RulesError) as err:
        Match.start({"players": 4}, seed=1)
    assert err.value.field == "rules"
    with pytest.raises(ArgumentError, match=r"^seed=True is invalid"):
        Match.start(Rules(), seed=True)  # bool is not an integer seed


def test_apply_is_the_rounds_apply_and_leaves_the_match_alone() -> None:
    m = Match.start(Rules(), seed=1)
    before = m.to_dict()
    move = m.legal_moves[0]
    m2 = match_apply(m, str(move))
    assert m2.round == m.round.apply(move) and m2.scores == ()
    assert m.apply(move) == m2
    with pytest.raises(IllegalMoveError, match="pass by seat 0"):
        m.apply("pass")
    with pytest.raises(InvalidMoveError):
        m.apply("9-10@9-9")
    assert m.to_dict() == before


def test_a_finished_match_takes_no_moves() -> None:
    m, _, _ = play_match(Match.start(Rules(players=2, match=Rounds(1)), seed=3))
    assert m.is_over() and m.round is None and m.rounds_played == 1
    assert len(m.legal_moves) == 0 and list(match_legal_moves(m)) == []
    with pytest.raises(IllegalMoveError, match="the match is over after 1 rounds"):
        m.apply("draw")
    with pytest.raises(IllegalMoveError):
        match_apply(m, DRAW)


# -- R3 and R5: rounds, centres and the rotating first player -----------------------------------


@pytest.mark.parametrize("players", range(2, 9))
def test_leader_rotates_over_a_full_match(players: int) -> None:
    first = players // 2
    rules = Rules(players=players, first_leader=first)
    n = 9 if players <= 6 else 12
    m, starts, finals = play_match(Match.start(rules, seed=100 + players))
    # R3: one round per double from N-N down to 0-0, which is more rounds than players.
    assert m.rounds_played == n + 1 > players
    assert len(starts) == len(finals) == n + 1
    for k, s in enumerate(starts):
        assert s.centre is Tile(n - k, n - k)
        assert s.board == (Play(Tile(n - k, n - k)),)  # R4: set aside, on the table
        assert s.turn == (first + k) % players  # R5
        assert s.hand_sizes == (rules.hand_size,) * players
    assert all(f.is_over() for f in finals)
    assert m.scores == tuple(f.penalties() for f in finals)


@pytest.mark.parametrize(
    ("players", "n", "length", "rounds"),
    [
        (4, 9, half_match(9), 5),
        (7, 12, half_match(12), 7),
        (2, 9, Rounds(1), 1),
        (8, 12, Rounds(1), 1),
    ],
)
def test_half_and_single_matches(players: int, n: int, length: Rounds, rounds: int) -> None:
    rules = Rules(players=players, match=length)
    assert rules.max_pip == n
    m, starts, _ = play_match(Match.start(rules, seed=7))
    assert m.rounds_played == rounds and m.is_over() and m.result().is_over()
    assert [s.centre.high for s in starts] == list(range(n, n - rounds, -1))


def test_holder_mode_across_rounds() -> None:
    rules = Rules.preset("classic")  # holder mode, 4 players, 7 tiles each
    _, starts, _ = play_match(Match.start(rules, seed=1))
    assert len(starts) == 10
    held = 0
    for k, s in enumerate(starts):
        centre = Tile(9 - k, 9 - k)
        assert s.centre is centre and not s.centre_laid and s.board == ()
        holders = [seat for seat, hand in enumerate(s.hands) if centre in hand]
        if holders:
            # The holder opens, and may only lay the centre.
            held += 1
            assert s.turn == holders[0]
            assert list(s.legal_moves) == [Play(centre)]
        else:
            # Nobody holds it: the R5 seat opens by drawing.
            assert s.turn == k % 4
            assert list(s.legal_moves) == [DRAW]
        assert sum(s.hand_sizes) + s.boneyard_size == 55  # the whole set is dealt
    assert 0 < held < 10  # both openings occur in this match


# -- threshold matches ---------------------------------------------------------------------------


@pytest.mark.parametrize(("inclusive", "over"), [(False, False), (True, True)])
def test_threshold_strict_and_inclusive_after_the_wrap(inclusive: bool, over: bool) -> None:
    # Four rounds played on double-three: round 4 wraps back to centre 3-3.
    rules = Rules(**TINY, match=Threshold(8, inclusive=inclusive))
    before = [(0, 2), (1, 0), (0, 2), (3, 0)]  # totals (4, 4)
    m = Match(rules, 9, before, example_position(rules))
    assert m.rounds_played == 4 and m.round is not None and m.round.centre is Tile(3, 3)
    m2 = m.apply("2-0@1-0")  # seat 0 goes out, seat 1 keeps 2-2: round scores (0, 4)
    assert m2.scores == (*before, (0, 4)) and m2.totals == (4, 8)
    # Seat 1's total 8 equals T = 8: it reaches T but does not exceed it.
    assert m2.is_over() is over
    r = m2.result()
    if over:
        assert m2.round is None
        assert r.winners == (0,) and r.losers == (1,) and str(r) == "seat 0 wins with 4"
    else:
        assert m2.round == deal(rules, 9, 5)
        assert m2.round.centre is Tile(2, 2)  # round 5: 3 - (5 mod 4)
        assert r.winners == () and r.losers == ()


def test_strict_threshold_ends_once_exceeded() -> None:
    rules = Rules(**TINY, match=Threshold(7))
    m = Match(rules, 9, [(0, 2), (1, 0), (0, 2), (3, 0)], example_position(rules))
    m2 = m.apply("2-0@1-0")
    assert m2.is_over() and m2.result().losers == (1,)


def test_threshold_match_wraps_past_double_blank() -> None:
    rules = Rules(**TINY, double_blank=0, match=Threshold(30))
    m, starts, _ = play_match(Match.start(rules, seed=0))
    assert m.rounds_played > 4  # more rounds than doubles: the centre wraps
    assert [s.centre.high for s in starts] == [3 - k % 4 for k in range(m.rounds_played)]
    totals = m.totals
    assert max(totals) > 30
    for k in range(1, m.rounds_played):
        assert max(map(sum, zip(*m.scores[:k], strict=True))) <= 30


def test_threshold_losers_are_the_non_winners_over_the_threshold() -> None:
    rules = Rules(players=3, match=Threshold(100))
    # Everyone but the lowest is over: the lowest still wins.
    r = Match.from_scores(rules, seed=1, scores=[(40, 60, 30), (70, 50, 0)]).result()
    assert r.totals == (110, 110, 30)
    assert r.is_over() and r.winners == (2,) and r.losers == (0, 1)
    # A seat under the threshold that does not win neither wins nor loses.
    r = Match.from_scores(rules, seed=1, scores=[(40, 20, 30), (70, 50, 0)]).result()
    assert r.winners == (2,) and r.losers == (0,)
    assert [(s.seat, s.rank) for s in r.standings] == [(2, 1), (1, 2), (0, 3)]
    # Even the winners may be over the threshold when everyone is.
    r = Match.from_scores(rules, seed=1, scores=[(101, 105, 120)]).result()
    assert r.winners == (0,) and r.losers == (1, 2)


def test_inclusive_threshold_exactly_reached() -> None:
    strict = Rules(players=3, match=Threshold(100))
    inclusive = Rules(players=3, match=Threshold(100, inclusive=True))
    scores = [(40, 20, 30), (60, 50, 0)]  # totals (100, 70, 30)
    m = Match.from_scores(strict, seed=1, scores=scores)
    assert not m.is_over() and m.round == deal(strict, 1, 2)
    m = Match.from_scores(inclusive, seed=1, scores=scores)
    assert m.is_over() and m.result().winners == (2,) and m.result().losers == (0,)


def test_threshold_zero() -> None:
    # Inclusive 0 is reached by every total after the first round; strict 0 needs a point.
    assert Match.from_scores(
        Rules(players=2, match=Threshold(0, inclusive=True)), seed=1, scores=[(0, 0)]
    ).is_over()
    assert not Match.from_scores(
        Rules(players=2, match=Threshold(0)), seed=1, scores=[(0, 0)]
    ).is_over()
    assert not Match.start(Rules(players=2, match=Threshold(0, inclusive=True)), seed=1).is_over()


# -- R12: winners, standings and tie-breaks ------------------------------------------------------


def result(rules: Rules, scores: list[tuple[int, ...]]) -> MatchResult:
    m = Match.from_scores(rules.replace(match=Rounds(len(scores))), seed=0, scores=scores)
    assert m.is_over()
    return m.result()


def test_lowest_total_wins_and_standings_use_competition_ranking() -> None:
    r = result(Rules(), [(5, 0, 10, 12), (0, 10, 0, 18)])
    assert r.totals == (5, 10, 10, 30)
    assert r.winners == (0,) and r.losers == (1, 2, 3)
    assert r.standings == (
        Standing(rank=1, seat=0, total=5),
        Standing(rank=2, seat=1, total=10),
        Standing(rank=2, seat=2, total=10),
        Standing(rank=4, seat=3, total=30),
    )
    assert r.ranks == (1, 2, 2, 4)
    assert r.to_dict() == {
        "over": True,
        "rounds": 2,
        "totals": [5, 10, 10, 30],
        "ranks": [1, 2, 2, 4],
        "winners": [0],
        "losers": [1, 2, 3],
    }


def test_equal_lowest_totals_share_the_win() -> None:
    r = result(Rules(), [(0, 10, 5, 20), (15, 5, 10, 0)])
    assert r.totals == (15, 15, 15, 20)
    assert r.winners == (0, 1, 2) and r.losers == (3,) and r.ranks == (1, 1, 1, 4)
    assert str(r) == "seats 0, 1, 2 share the win with 15"


ZERO = Rules(players=3, tie_break="zero_rounds")


def test_zero_rounds_most_zero_rounds_wins() -> None:
    scores = [(0, 5, 9), (10, 0, 9), (0, 5, 0)]  # totals (10, 10, 18); zeros 2, 1, 1
    r = result(ZERO, scores)
    assert r.totals == (10, 10, 18)
    assert r.winners == (0,) and r.losers == (1, 2) and r.ranks == (1, 2, 3)
    shared = result(ZERO.replace(tie_break="shared"), scores)
    assert shared.winners == (0, 1) and shared.ranks == (1, 1, 3)


def test_zero_rounds_then_lowest_non_zero_round() -> None:
    # Seats 0 and 1: total 12, one zero round each; lowest non-zero rounds 3 and 5.
    r = result(ZERO, [(0, 5, 7), (3, 0, 9), (9, 7, 0)])
    assert r.totals == (12, 12, 16)
    assert r.winners == (0,) and r.ranks == (1, 2, 3)


def test_zero_rounds_final_case_is_shared() -> None:
    # Seats 0 and 1: total 12, one zero round, lowest non-zero round 3: still equal.
    r = result(ZERO, [(0, 3, 9), (3, 9, 0), (9, 0, 9)])
    assert r.totals == (12, 12, 18)
    assert r.winners == (0, 1) and r.losers == (2,) and r.ranks == (1, 1, 3)


def test_zero_rounds_with_no_non_zero_round() -> None:
    # Two seats scored 0 in every round (seat 1 kept only 0-0 at double_blank 0): shared.
    r = result(ZERO.replace(double_blank=0), [(0, 0, 5), (0, 0, 7)])
    assert r.winners == (0, 1) and r.ranks == (1, 1, 3)


def test_zero_rounds_never_overrides_a_lower_total() -> None:
    r = result(Rules(players=2, tie_break="zero_rounds"), [(0, 3), (0, 3), (9, 0)])
    assert r.totals == (9, 6) and r.winners == (1,) and r.ranks == (2, 1)


def test_zero_rounds_orders_every_place_of_the_standings() -> None:
    rules = Rules(tie_break="zero_rounds")
    scores = [(5, 0, 10, 30), (0, 20, 10, 0)]  # totals (5, 20, 20, 30); seat 1 has a zero round
    r = result(rules, scores)
    assert r.ranks == (1, 2, 3, 4)
    assert [s.seat for s in r.standings] == [0, 1, 2, 3]
    assert result(rules.replace(tie_break="shared"), scores).ranks == (1, 2, 2, 4)


# -- the constructor's checks --------------------------------------------------------------------


def test_constructor_checks_its_parts() -> None:
    rules = Rules(players=2, match=Rounds(2))
    round0 = deal(rules, 1, 0)
    assert Match(rules, 1, [], round0) == Match.start(rules, seed=1)
    cases: list[tuple[Any, str, str]] = [
        (("x", 1, [], round0), "rules", "must be a Rules object"),
        ((rules, 1, "12", round0), "scores", "expected an array"),
        ((rules, 1, [(1, 2, 3)], None), "scores", r"scores\[0\]: expected 2 scores"),
        ((rules, 1, [(1, -2)], None), "scores", r"scores\[0\]\[1\]: -2 is not"),
        ((rules, 1, [(1, True)], None), "scores", r"scores\[0\]\[1\]: True is not"),
        ((rules, 1, [(1, 2)] * 3, None), "scores", "3 rounds scored, but the match has 2"),
        ((rules, 1, [], None), "round", "the match is not over after 0 rounds"),
        ((rules, 1, [(0, 1), (2, 0)], round0), "round", "all 2 rounds are played"),
        ((rules, 1, [(0, 1)], round0), "round", "round.centre: 9-9 is not the centre of round 1"),
        ((rules, 1, [], "9-9"), "round", "expected a State or None"),
        (
            (rules, 1, [], deal(rules.replace(double_blank=25), 1, 0)),
            "round",
            r"round.rules.double_blank: 25 differs from the match rules \(50\)",
        ),
    ]
    for args, field, message in cases:
        with pytest.raises(RulesError, match=message) as err:
            Match(*args)
        assert err.value.field == field, args
    with pytest.raises(ArgumentError, match=r"^seed=1\.0 is invalid: must be an integer"):
        Match(rules, 1.0, [], round0)


def test_constructor_rejects_a_finished_round() -> None:
    rules = Rules(**TINY)
    final = example_position(rules).apply("2-0@1-0")
    assert final.is_over()
    with pytest.raises(RulesError, match="the round is over") as err:
        Match(rules, 0, [], final)
    assert err.value.field == "round"


def test_constructor_rejects_rounds_after_the_end() -> None:
    rules = Rules(players=2, match=Threshold(10))
    with pytest.raises(RulesError, match=r"scores\[0\]: the match was over after this round"):
        Match.from_scores(rules, seed=1, scores=[(11, 0), (0, 3)])


def test_from_scores_resumes_a_score_sheet() -> None:
    rules = Rules(players=3)
    m = Match.from_scores(rules, seed=8, scores=[[10, 0, 4], [0, 7, 9]])
    assert m.scores == ((10, 0, 4), (0, 7, 9)) and m.totals == (10, 7, 13)
    assert m.round == deal(rules, 8, 2) and m.round.turn == 2
    with pytest.raises(RulesError):
        Match.from_scores("house", seed=8, scores=[])
    with pytest.raises(RulesError, match=r"scores\[1\]"):
        Match.from_scores(rules, seed=8, scores=[[1, 2, 3], [1, 2]])


def test_repr_and_hash() -> None:
    m = Match.start(Rules(players=2), seed=4)
    assert repr(m) == "<Match seed=4 rounds_played=0 totals=[0, 0] turn=0>"
    assert hash(m) == hash(Match.start(Rules(players=2), seed=4))
    over = Match.from_scores(Rules(players=2, match=Rounds(1)), seed=4, scores=[(3, 0)])
    assert repr(over) == "<Match seed=4 rounds_played=1 totals=[3, 0] over>"


# -- the chickenfoot/match format ----------------------------------------------------------------


def test_match_document_round_trip() -> None:
    rules = Rules(players=3, match=Rounds(2))
    m = Match.start(rules, seed=12)
    d = m.to_dict()
    assert list(d) == ["format", "version", "rules", "seed", "scores", "round"]
    assert d["format"] == MATCH_FORMAT == "chickenfoot/match" and d["version"] == 1
    assert d["rules"] == rules.to_dict() and d["seed"] == 12 and d["scores"] == []
    assert d["round"] == deal(rules, 12, 0).to_dict()
    rng = random.Random(0)
    while not m.is_over():
        assert Match.from_json(m.to_json()) == m
        assert Match.from_dict(json.loads(m.to_json(indent=2))) == m
        m = m.apply(rng.choice(m.legal_moves))
    d = m.to_dict()
    assert d["round"] is None and len(d["scores"]) == 2
    assert Match.from_json(m.to_json()) == m


def _doc() -> dict[str, Any]:
    rules = Rules(players=2, match=Threshold(50))
    return Match.from_scores(rules, seed=3, scores=[(0, 12), (7, 0)]).to_dict()


def _over_doc() -> dict[str, Any]:
    return Match.from_scores(Rules(players=2, match=Rounds(1)), seed=3, scores=[(0, 12)]).to_dict()


def _with(doc: dict[str, Any], **changes: Any) -> dict[str, Any]:
    return {**doc, **changes}


BAD_DOCUMENTS: list[tuple[str, Any, str]] = [
    ("not an object", [], ""),
    ("wrong format", _with(_doc(), format="chickenfoot/position"), "format"),
    ("newer version", _with(_doc(), version=2), "version"),
    ("string version", _with(_doc(), version="1"), "version"),
    ("missing key", {k: v for k, v in _doc().items() if k != "seed"}, "seed"),
    ("unknown key", _with(_doc(), seeds=3), "seeds"),
    ("bad rules", _with(_doc(), rules={"players": 1}), "rules.players"),
    ("string seed", _with(_doc(), seed="3"), "seed"),
    ("float seed", _with(_doc(), seed=3.0), "seed"),
    ("boolean seed", _with(_doc(), seed=False), "seed"),
    ("scores not an array", _with(_doc(), scores={"0": [1, 2]}), "scores"),
    ("row not an array", _with(_doc(), scores=[(0, 12), 7]), "scores[1]"),
    ("short row", _with(_doc(), scores=[[0, 12], [7]]), "scores[1]"),
    ("negative score", _with(_doc(), scores=[[0, 12], [7, -1]]), "scores[1][1]"),
    ("float score", _with(_doc(), scores=[[0, 12.0], [7, 0]]), "scores[0][1]"),
    ("boolean score", _with(_doc(), scores=[[0, 12], [True, 0]]), "scores[1][0]"),
    ("round after the end", _with(_doc(), scores=[[0, 51], [7, 0]]), "scores[0]"),
    ("too many rounds", _with(_over_doc(), scores=[[0, 1], [1, 0]]), "scores"),
    ("null round while going on", _with(_doc(), round=None), "round"),
    ("round after the last", _with(_over_doc(), round=_doc()["round"]), "round"),
    ("round of another centre", _with(_doc(), scores=[[0, 12]]), "round.centre"),
    (
        "round under other rules",
        _with(_doc(), rules=Rules(players=2).to_dict()),
        "round.rules.match",
    ),
    ("bad round", _with(_doc(), round={**_doc()["round"], "turn": 2}), "round.turn"),
    ("round not a position", _with(_doc(), round=[]), "round"),
    (
        "bad tile in round",
        _with(_doc(), round={**_doc()["round"], "centre": "9-10"}),
        "round.centre",
    ),
]


@pytest.mark.parametrize(
    ("doc", "path"), [(d, p) for _, d, p in BAD_DOCUMENTS], ids=[n for n, _, _ in BAD_DOCUMENTS]
)
def test_bad_match_documents_name_the_bad_part(doc: Any, path: str) -> None:
    with pytest.raises(FormatError) as err:
        Match.from_dict(doc)
    assert err.value.path == path, str(err.value)


def test_finished_round_in_a_document() -> None:
    rules = Rules(**TINY)
    doc = {
        "format": "chickenfoot/match",
        "version": 1,
        "rules": rules.to_dict(),
        "seed": 0,
        "scores": [],
        "round": example_position(rules).apply("2-0@1-0").to_dict(),
    }
    with pytest.raises(FormatError, match="the round is over") as err:
        Match.from_dict(doc)
    assert err.value.path == "round"
    doc["round"] = example_position(rules).to_dict()
    assert Match.from_dict(doc).round == example_position(rules)


def test_bad_json_text() -> None:
    with pytest.raises(FormatError, match="not valid JSON") as err:
        Match.from_json("{")
    assert err.value.path == ""


# -- conformance: seeded deals of later rounds ---------------------------------------------------


def _deal_vectors() -> list[dict[str, Any]]:
    with (DATA / "deals.jsonl").open() as f:
        return [json.loads(line) for line in f]


@pytest.mark.parametrize("vector", _deal_vectors(), ids=lambda v: f"s{v['seed']}-r{v['round']}")
def test_matches_deal_the_conformance_rounds(vector: dict[str, Any]) -> None:
    rules = Rules.from_dict(vector["rules"])
    k = vector["round"]
    zeros = [(0,) * rules.players] * k
    m = Match.from_scores(rules, seed=vector["seed"], scores=zeros)
    assert not m.is_over()
    assert m.round is not None and m.round.to_dict() == vector["position"]


# -- presets, played to the end -------------------------------------------------------------------


@pytest.mark.parametrize("preset", ["house", "four-toe", "classic"])
def test_a_seeded_full_match_under_each_preset(preset: str) -> None:
    rules = Rules.preset(preset)
    m, _, finals = play_match(Match.start(rules, seed=2026), random.Random(preset))
    assert m.is_over() and m.rounds_played == 10 and len(finals) == 10
    assert m.totals == tuple(sum(f.penalties()[seat] for f in finals) for seat in range(4))
    r = m.result()
    low = min(m.totals)
    leaders = tuple(seat for seat, t in enumerate(m.totals) if t == low)
    if rules.tie_break == "shared":
        assert r.winners == leaders
    else:
        assert set(r.winners) <= set(leaders)
    assert r.losers == tuple(seat for seat in range(4) if seat not in r.winners)
    # The same seed and choices give the same match.
    again, _, _ = play_match(Match.start(rules, seed=2026), random.Random(preset))
    assert again == m


# -- properties -----------------------------------------------------------------------------------


@st.composite
def match_rules(draw: st.DrawFn) -> Rules:
    """Rules for whole matches: the presets for 2-8 players and tiny sets, every variant."""
    rules = draw(preset_or_tiny_rules())
    n, players = rules.max_pip, rules.players
    length = draw(
        st.one_of(
            st.builds(Rounds, st.integers(1, n + 1)),
            st.builds(Threshold, st.integers(0, 80), inclusive=st.booleans()),
        )
    )
    return rules.replace(
        match=length,
        double_blank=draw(st.sampled_from([50, 25, 0])),
        draw=draw(st.sampled_from(["one", "until_playable"])),
        drawn_tile=draw(st.sampled_from(["must_play", "may_play"])),
        may_draw_instead=draw(st.booleans()),
        tie_break=draw(st.sampled_from(["shared", "zero_rounds"])),
        first_leader=draw(st.integers(0, players - 1)),
    )


SEEDS = st.integers(-(2**40), 2**40)


@given(rules=match_rules(), seed=SEEDS, choices=st.randoms(use_true_random=False))
def test_property_scores_totals_and_the_end(
    rules: Rules, seed: int, choices: random.Random
) -> None:
    m, starts, finals = play_match(Match.start(rules, seed=seed), choices)
    # Every round's scores are its final penalties; totals are their sums.
    assert m.scores == tuple(f.penalties() for f in finals)
    assert m.totals == tuple(sum(row[s] for row in m.scores) for s in range(rules.players))
    # The match ends exactly after the round the rules say, not before.
    assert should_be_over(rules, m.scores)
    assert not any(should_be_over(rules, m.scores[:k]) for k in range(len(m.scores)))
    if isinstance(rules.match, Rounds):
        assert m.rounds_played == rules.match.count
    # Each round k was dealt with centre N - (k mod (N+1)).
    n = rules.max_pip
    assert [s.centre.high for s in starts] == [n - k % (n + 1) for k in range(m.rounds_played)]
    r = m.result()
    assert r.is_over() and r.totals == m.totals and r.rounds == m.rounds_played
    assert set(r.winners) <= {s for s, t in enumerate(m.totals) if t == min(m.totals)}
    assert r.winners == tuple(s.seat for s in r.standings if s.rank == 1)


@given(
    rules=match_rules(),
    seed=SEEDS,
    choices=st.randoms(use_true_random=False),
    stop=st.integers(0, 400),
)
def test_property_save_and_load_change_nothing(
    rules: Rules, seed: int, choices: random.Random, stop: int
) -> None:
    m = Match.start(rules, seed=seed)
    for _ in range(stop):
        if m.is_over():
            break
        m = m.apply(choices.choice(m.legal_moves))
    loaded = Match.from_json(m.to_json())
    assert loaded == m and loaded.to_dict() == m.to_dict()
    # Continuing either one with the same choices gives the same end.
    state = choices.getstate()
    end, _, _ = play_match(m, choices)
    choices.setstate(state)
    end_loaded, _, _ = play_match(loaded, choices)
    assert end_loaded == end and end_loaded.result() == end.result()


# -- the finished round stays reachable ----------------------------------------------------------


def _play_until_rounds(m: Match, rounds: int, seed: int = 0) -> Match:
    rng = random.Random(seed)
    while m.rounds_played < rounds:
        m = m.apply(rng.choice(m.legal_moves))
    return m


def test_last_round_is_the_final_table_of_the_round_that_ended() -> None:
    rules = Rules(players=3, match=Rounds(2))
    m = Match.start(rules, seed=5)
    assert m.last_round is None
    rng = random.Random(1)
    while m.rounds_played == 0:
        before = m.round
        assert before is not None and m.last_round is None
        m = m.apply(rng.choice(m.legal_moves))
    last = m.last_round
    assert last is not None and last.is_over()
    # the position the winning move produced: one move after `before`, same round
    assert last.centre == Tile(9, 9) and last.history[:-1] == before.history
    assert last.penalties() == m.scores[0]
    assert m.round is not None and m.round.centre == Tile(8, 8)
    # it stays while the next round is played, and moves on when that one ends
    m2 = m.apply(m.legal_moves[0])
    assert m2.last_round is last
    m3 = _play_until_rounds(m2, 2)
    assert m3.is_over() and m3.last_round is not None and m3.last_round.centre == Tile(8, 8)
    assert m3.last_round.penalties() == m3.scores[1]


def test_last_round_is_not_part_of_the_value() -> None:
    m = _play_until_rounds(Match.start(Rules(players=2, match=Rounds(3)), seed=2), 1)
    bare = Match.from_scores(m.rules, seed=m.seed, scores=m.scores)
    assert bare.last_round is None and m.last_round is not None
    assert bare == m and hash(bare) == hash(m)


def test_last_round_in_the_match_document() -> None:
    m = _play_until_rounds(Match.start(Rules(players=2, match=Rounds(3)), seed=2), 1)
    assert m.last_round is not None
    d = m.to_dict()
    assert list(d) == ["format", "version", "rules", "seed", "scores", "round", "last_round"]
    assert d["last_round"] == m.last_round.to_dict()
    back = Match.from_json(m.to_json())
    assert back == m and back.last_round == m.last_round
    # for readers that know only the six keys
    plain = m.to_dict(last_round=False)
    assert "last_round" not in plain and json.loads(m.to_json(last_round=False)) == plain
    assert Match.from_dict(plain).last_round is None
    assert Match.from_dict({**plain, "last_round": None}).last_round is None
    # a match with no finished round writes no last_round
    assert "last_round" not in Match.start(Rules(players=2), seed=2).to_dict()


def test_bad_last_round_names_the_problem() -> None:
    rules = Rules(players=2, match=Rounds(3))
    m = _play_until_rounds(Match.start(rules, seed=2), 2)
    d = m.to_dict()
    first = _play_until_rounds(Match.start(rules, seed=2), 1).to_dict()
    assert m.last_round is not None and m.round is not None
    cases: list[tuple[Any, str, str]] = [
        (
            first["last_round"],
            "last_round.centre",
            "9-9 is not the centre of round 1, which is 8-8",
        ),
        (first["round"], "last_round", "the round is not over: a finished round is expected"),
        (
            [],
            "last_round",
            "expected a chickenfoot/position document (a JSON object), got an array",
        ),
    ]
    for value, path, message in cases:
        with pytest.raises(FormatError) as err:
            Match.from_dict({**d, "last_round": value})
        assert err.value.path == path
        assert str(err.value) == f"{path}: {message}"
    with pytest.raises(FormatError) as err:
        Match.from_dict(
            {**d, "scores": [d["scores"][0], [d["scores"][1][0] + 1, d["scores"][1][1]]]}
        )
    assert err.value.path == "last_round"
    assert "differ from the last scores" in str(err.value)
    start = Match.start(rules, seed=2).to_dict()
    with pytest.raises(FormatError) as err:
        Match.from_dict({**start, "last_round": d["last_round"]})
    assert str(err.value) == "last_round: no round has been scored, so last_round must be null"
    # the constructor checks it the same way, as a RulesError
    with pytest.raises(RulesError) as rerr:
        Match(rules, 2, m.scores, m.round, last_round=State.from_dict(first["round"]))
    assert str(rerr.value) == "last_round: the round is not over: a finished round is expected"
    assert Match(rules, 2, m.scores, m.round, last_round=m.last_round).last_round is m.last_round
