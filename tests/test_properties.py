"""Property tests of one round (docs/rules.md and docs/formats.md) over every rules variant.

Positions come from ``strategies.positions`` (seeded deals plus random legal moves), rules
from ``strategies.rules``; ``strategies`` also holds the reference model these tests check
the library against.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chickenfoot import (
    DRAW,
    PASS,
    Draw,
    IllegalMoveError,
    InvalidMoveError,
    LegalMoves,
    Move,
    Phase,
    Play,
    Rules,
    State,
    Tile,
    apply,
    deal,
    is_legal,
    legal_moves,
    perft,
)
from strategies import (
    check_against_reference,
    examples,
    hub_toes,
    open_ends,
    pending_hubs,
    positions,
    reference_outcome,
    reference_successor,
    round_move_bound,
    rules,
    seeds,
    set_tiles,
    tile_census,
)


def snapshot(s: State) -> tuple[Any, ...]:
    """Everything observable about ``s``, to show that it did not change."""
    return (
        s.to_dict(),
        hash(s),
        [str(m) for m in legal_moves(s)],
        s.phase,
        s.pending_hub,
        s.toes_needed,
        s.open_ends,
        s.outcome(),
        s.penalties(),
    )


def listed(moves: LegalMoves, item: object) -> bool:
    """``item in moves``, for items of any type (``in`` also takes notation strings)."""
    return item in moves


def lowest_out(s: State) -> int | None:
    return next((seat for seat, h in enumerate(s.hands) if not h), None)


# -- tiles -------------------------------------------------------------------------------------


@given(positions())
def test_every_tile_exactly_once(s: State) -> None:
    census = tile_census(s)
    assert sorted(census, key=lambda t: t.id) == set_tiles(s.rules.max_pip)
    if s.centre_laid:
        assert s.board[0] == Play(s.centre, None)
        assert all(m.anchor is not None for m in s.board[1:])
    else:
        assert s.rules.centre == "holder"
        assert s.board == ()
        assert s.centre in [t for h in s.hands for t in h] + list(s.boneyard)
    if s.drawn is not None:
        assert s.drawn in s.hand(s.turn)
    assert s.centre.is_double
    assert 0 <= s.turn < s.rules.players


# -- legal moves vs apply ----------------------------------------------------------------------


def check_every_move(s: State) -> None:
    """Every tile x anchor pair (anchor: every tile of the set, or none), ``draw``,
    ``draw:X-Y`` for every tile and ``pass``: ``apply`` accepts exactly the legal moves."""
    before = snapshot(s)
    lm = legal_moves(s)
    legal = set(lm)
    tiles = set_tiles(s.rules.max_pip)
    candidates: list[Move] = [Play(t, a) for t in tiles for a in [*tiles, None]]
    candidates += [DRAW, PASS, *(Draw(t) for t in tiles)]
    accepted: list[Move] = []
    for m in candidates:
        if isinstance(m, Draw) and m.tile is not None:
            # never listed (docs/formats.md); legal whenever draw is and the tile is there
            expected = DRAW in legal and m.tile in s.boneyard
        else:
            expected = m in legal
            assert (m in lm) is expected, m
        assert is_legal(s, m) is expected, m
        try:
            after = apply(s, m)
        except IllegalMoveError:
            assert not expected, f"{m} is listed but apply rejected it"
            continue
        assert expected, f"{m} is not listed but apply accepted it"
        accepted.append(m)
        assert after.to_dict() == reference_successor(s, m), m
    assert {str(m) for m in accepted if not isinstance(m, Draw) or m.tile is None} == {
        str(m) for m in lm
    }
    assert snapshot(s) == before


def check_outside_the_set(s: State) -> None:
    """Tiles outside the set give ``InvalidMoveError`` (as moves and as text), not illegal."""
    n = s.rules.max_pip
    if n == 18:
        return  # no tile of the library lies outside double-18
    before = snapshot(s)
    outside = Tile(n + 1, 0)
    inside = s.board[-1].tile if s.board else s.centre
    for m in (Play(outside, inside), Play(inside, outside), Play(outside), Draw(outside)):
        with pytest.raises(InvalidMoveError):
            apply(s, m)
        with pytest.raises(InvalidMoveError):
            apply(s, str(m))
        assert m not in legal_moves(s)
        assert not listed(legal_moves(s), str(m))
        assert not is_legal(s, m) and not is_legal(s, str(m))
    assert snapshot(s) == before


@settings(max_examples=examples(60))
@given(positions(rules(max_pip=6)))
def test_legal_iff_apply_accepts_small_sets(s: State) -> None:
    check_every_move(s)
    check_outside_the_set(s)


@settings(max_examples=examples(8))
@given(positions(rules(min_pip=7)))
def test_legal_iff_apply_accepts_big_sets(s: State) -> None:
    check_every_move(s)
    check_outside_the_set(s)


@given(positions())
def test_notation_is_accepted_like_moves(s: State) -> None:
    for m in legal_moves(s):
        assert listed(legal_moves(s), str(m))
        assert is_legal(s, str(m)) and s.is_legal(m)
        assert apply(s, str(m)) == apply(s, m)
    if s.boneyard and DRAW in legal_moves(s):
        last = s.boneyard[-1]
        assert is_legal(s, f"draw:{last}")
        assert apply(s, f"draw:{last}").drawn == last
    for text in ("pass", "draw"):
        if not listed(legal_moves(s), text):
            with pytest.raises(IllegalMoveError):
                apply(s, text)


@given(positions())
def test_apply_never_changes_its_input(s: State) -> None:
    before = snapshot(s)
    moves = list(legal_moves(s))
    for m in moves:
        apply(s, m)
        assert snapshot(s) == before, m
    if DRAW in moves:
        for t in s.boneyard:
            apply(s, Draw(t))
        assert snapshot(s) == before


# -- order and shape of the legal move list ----------------------------------------------------


@given(positions())
def test_legal_moves_match_the_reference_model(s: State) -> None:
    check_against_reference(s)


def section6_key(m: Move) -> tuple[int, int, int]:
    if isinstance(m, Play):
        if m.anchor is None:
            return (0, m.tile.id, -1)
        return (1, m.tile.id, m.anchor.id)
    return (2, 0, 0) if isinstance(m, Draw) else (3, 0, 0)


@given(positions())
def test_legal_moves_are_in_section6_order_without_duplicates(s: State) -> None:
    moves = list(legal_moves(s))
    assert moves == sorted(moves, key=section6_key)
    assert len(set(moves)) == len(moves)
    assert len({str(m) for m in moves}) == len(moves)
    assert not (DRAW in moves and PASS in moves)
    assert all(not isinstance(m, Draw) or m.tile is None for m in moves)
    assert len(legal_moves(s)) == legal_moves(s).count() == len(moves)
    if PASS in moves and len(moves) > 1:
        # pass beside plays only after a draw under drawn_tile = "may_play"
        assert s.drawn is not None and s.rules.drawn_tile == "may_play"
    if s.drawn is not None:
        assert all(m.tile == s.drawn for m in moves if isinstance(m, Play))
    if DRAW in moves:
        assert s.boneyard
        if len(moves) > 1:
            assert s.rules.may_draw_instead and s.drawn is None


@given(positions())
def test_at_most_one_pending_hub_and_it_takes_every_play(s: State) -> None:
    toes = hub_toes(s)
    assert all(laid <= need for laid, need in toes.values()), toes
    pending = pending_hubs(s)
    assert len(pending) <= 1
    assert s.pending_hub == (pending[0] if pending else None)
    hub = s.pending_hub
    if hub is None:
        assert s.toes_needed == 0
        return
    laid, need = toes[hub]
    assert s.toes_needed == need - laid
    assert s.phase in (Phase.OPENING, Phase.FOOT_PENDING, Phase.OVER)
    assert (s.phase is Phase.OPENING) == (hub == s.centre and not s.is_over())
    for m in legal_moves(s):
        if isinstance(m, Play):
            assert m.anchor == hub and m.tile.has(hub.high) and not m.tile.is_double


@given(positions())
def test_open_ends_view_matches_the_board(s: State) -> None:
    expected = sorted(open_ends(s).items(), key=lambda e: e[0].id)
    assert list(s.open_ends) == expected


@given(positions())
def test_phase_matches_the_legal_moves(s: State) -> None:
    moves = list(legal_moves(s))
    plays = [m for m in moves if isinstance(m, Play)]
    phase = s.phase
    if phase is Phase.OVER:
        assert moves == []
    elif phase is Phase.SEEKING_CENTRE:
        assert not s.centre_laid
        assert all(m == Play(s.centre, None) for m in plays)
    elif phase is Phase.OPENING:
        assert s.pending_hub == s.centre
        assert all(m.anchor == s.centre for m in plays)
    elif phase is Phase.FOOT_PENDING:
        hub = s.pending_hub
        assert hub is not None and hub != s.centre
        assert all(m.anchor == hub for m in plays)
    else:
        assert phase is Phase.OPEN and s.pending_hub is None
        ends = dict(s.open_ends)
        assert all(m.anchor in ends and m.tile.has(ends[m.anchor]) for m in plays)


# -- ending ------------------------------------------------------------------------------------


@given(positions())
def test_terminal_iff_no_legal_moves(s: State) -> None:
    over = s.is_over()
    assert over == (len(legal_moves(s)) == 0) == (not legal_moves(s))
    assert over == (s.phase is Phase.OVER) == (s.outcome() is not None)
    assert (None if s.outcome() is None else s.outcome().to_dict()) == reference_outcome(s)  # type: ignore[union-attr]
    if over and lowest_out(s) is None:
        assert s.drawn is None and not s.boneyard  # blocked
    if over:
        assert perft(s, 1) == perft(s, 2) == 0
        for m in (DRAW, PASS):
            with pytest.raises(IllegalMoveError):
                apply(s, m)


@settings(max_examples=examples(60))
@given(rules(), seeds(), st.integers(0, 40), st.randoms(use_true_random=False))
def test_every_round_ends_within_the_derived_bound(
    r: Rules, seed: int, rnd: int, rng: random.Random
) -> None:
    s = deal(r, seed, rnd)
    bound = round_move_bound(s)  # the derivation is in strategies.round_move_bound
    undrawn_passes = 0
    made = 0
    while not s.is_over():
        assert made < bound, "the round outlived its bound"
        moves = list(legal_moves(s))
        m = rng.choice(moves)
        if m is PASS and s.drawn is None:
            undrawn_passes += 1
            # a pass with nothing drawn needs an empty boneyard, and P of them in a row on
            # a frozen table would mean the round was blocked before the first one
            assert not s.boneyard
            assert undrawn_passes < r.players
        elif isinstance(m, Play):
            undrawn_passes = 0
        s = apply(s, m)
        made += 1
    assert reference_outcome(s) is not None


# -- formats -----------------------------------------------------------------------------------


@given(positions())
def test_position_document_round_trips(s: State) -> None:
    doc = s.to_dict()
    back = State.from_dict(doc)
    assert back == s and hash(back) == hash(s)
    assert snapshot(back) == snapshot(s)
    text = s.to_json()
    assert json.loads(text) == doc
    again = State.from_json(text)
    assert again == s and again.to_json() == text
    assert snapshot(again) == snapshot(s)
    assert State.from_dict(json.loads(s.to_json(indent=2))) == s


@given(positions())
def test_hands_are_written_in_id_order(s: State) -> None:
    for hand, written in zip(s.hands, s.to_dict()["hands"], strict=True):
        assert [t.id for t in hand] == sorted(t.id for t in hand)
        assert written == [str(t) for t in hand]


# -- penalties ---------------------------------------------------------------------------------


@given(positions())
def test_penalties_recount_the_hands(s: State) -> None:
    blank = s.rules.double_blank
    expected = []
    for hand in s.hands:
        total = 0
        for t in hand:
            total += blank if (t.high, t.low) == (0, 0) else t.high + t.low
        expected.append(total)
    assert s.penalties() == tuple(expected)
    if s.is_over() and (seat := lowest_out(s)) is not None:
        assert s.penalties()[seat] == 0


# -- deals -------------------------------------------------------------------------------------


def expected_deal(r: Rules, seed: int, k: int) -> dict[str, Any]:
    """Seeded deals (docs/formats.md), R3-R5 and the holder rule, re-implemented."""
    n = r.max_pip
    tiles = [(a, b) for a in range(n + 1) for b in range(a + 1)]  # id order
    centre = (n - k % (n + 1),) * 2
    if r.centre == "set_aside":
        tiles.remove(centre)
    random.Random(f"{seed}:{k}").shuffle(tiles)
    hs = r.hand_size
    hands = [sorted(tiles[i * hs : (i + 1) * hs]) for i in range(r.players)]
    turn = (r.first_leader + k) % r.players
    if r.centre == "holder":
        turn = next((i for i, h in enumerate(hands) if centre in h), turn)
    text = "{}-{}".format
    return {
        "format": "chickenfoot/position",
        "version": 1,
        "rules": r.to_dict(),
        "centre": text(*centre),
        "board": [text(*centre)] if r.centre == "set_aside" else [],
        "hands": [[text(*t) for t in h] for h in hands],
        "boneyard": [text(*t) for t in tiles[r.players * hs :]],
        "turn": turn,
        "drawn": None,
    }


@given(rules(), seeds(), st.integers(0, 60))
def test_deal_follows_the_spec_algorithm(r: Rules, seed: int, k: int) -> None:
    s = deal(r, seed, k)
    assert s.to_dict() == expected_deal(r, seed, k)
    assert deal(r, seed, k) == s
    assert s.hand_sizes == (r.hand_size,) * r.players
    assert s.drawn is None and not s.is_over()
    if k == 0:
        assert deal(r, seed) == s


def test_expected_deal_is_the_documented_house_example() -> None:
    # R4/R5 (docs/rules.md) on seed 1000 round 0, checked against tests/data/deals.jsonl's first line
    doc = expected_deal(Rules(), 1000, 0)
    assert doc["hands"][0] == [
        "3-1",
        "6-1",
        "6-2",
        "6-5",
        "7-0",
        "7-1",
        "8-1",
        "9-3",
        "9-4",
        "9-5",
        "9-6",
    ]
    assert doc["boneyard"] == ["6-4", "7-2", "8-4", "8-7", "8-3", "8-8", "9-7", "2-0", "2-2", "4-4"]


# -- perft -------------------------------------------------------------------------------------


@settings(max_examples=examples(60))
@given(positions(rules(max_pip=12)))
def test_perft_counts_the_move_tree(s: State) -> None:
    moves = list(legal_moves(s))
    assert perft(s, 0) == 1
    assert perft(s, 1) == len(moves)
    children = [apply(s, m) for m in moves]
    assert perft(s, 2) == sum(len(legal_moves(c)) for c in children)
    if len(moves) <= 12:
        assert perft(s, 3) == sum(perft(c, 2) for c in children)
