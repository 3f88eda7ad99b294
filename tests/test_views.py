"""Player views and determinization: ``State.history``, ``State.view`` / ``View`` and
``View.sample`` / ``View.sample_record``.

The expected values come from the full state the view was taken of (a view is that state
with the other hands, the boneyard and the others' drawn tiles hidden), from the reference
model in ``strategies`` (which shares no code with the library), and, for sampling, from a
brute-force oracle that enumerates every deal a seat cannot tell apart from the real one.
"""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chickenfoot import (
    DRAW,
    PASS,
    PRESETS,
    Draw,
    FormatError,
    Move,
    Outcome,
    Pass,
    Play,
    Rules,
    State,
    Termination,
    Tile,
    apply,
    deal,
    legal_moves,
    playout,
)
from chickenfoot.errors import ChickenFootError, SeatError
from chickenfoot.moves import Event
from chickenfoot.record import Record
from chickenfoot.view import View, view
from strategies import examples, positions, reference_legal_moves, rules, seeds, set_tiles

# Seed 1, round 0 of the house rules (4 players, 11 tiles each, 10 in the boneyard): seat 0
# opens with the toe 9-3, seat 1 holds no 9 and draws 6-3 (the boneyard's front tile).
HOUSE_1 = deal(Rules(), seed=1)
DREW = HOUSE_1.apply("9-3@9-9").apply("draw")


def hidden_history(s: State, seat: int) -> tuple[Event, ...]:
    """``s.history`` as ``seat`` sees it: the other seats' draws without their tiles."""
    return tuple(
        Event(e.seat, DRAW) if e.seat != seat and isinstance(e.move, Draw) else e for e in s.history
    )


def plays_in(moves: Any) -> list[Move]:
    return [m for m in moves if isinstance(m, Play)]


# -- State.history ---------------------------------------------------------------------------------


def test_history_of_a_short_round() -> None:
    assert HOUSE_1.history == ()
    # ``draw`` takes the front tile; the history names it.
    front = HOUSE_1.boneyard[0]
    assert front == Tile(6, 3)
    assert DREW.history == (Event(0, Play(Tile(9, 3), Tile(9, 9))), Event(1, Draw(front)))
    assert [str(e) for e in DREW.history] == ["0:9-3@9-9", "1:draw:6-3"]
    # Each state keeps its own history: applying does not change the earlier state.
    assert HOUSE_1.apply("9-3@9-9").history == DREW.history[:1]


@given(rules(), seeds(), st.randoms(use_true_random=False))
def test_history_is_every_move_applied_with_draws_named(
    r: Rules, seed: int, rng: random.Random
) -> None:
    s = deal(r, seed)
    assert s.history == ()
    applied: list[Event] = []
    for _ in range(40):
        if s.is_over():
            break
        m = rng.choice(legal_moves(s))
        if m is DRAW and s.boneyard_size > 1 and rng.random() < 0.3:
            m = Draw(rng.choice(s.boneyard))
        # docs/formats.md, "Move notation": ``draw`` is the front tile of the boneyard.
        named = Draw(s.boneyard[0]) if m is DRAW else m
        applied.append(Event(s.turn, named))
        s = apply(s, m) if rng.random() < 0.5 else s.apply(str(m))
        assert s.history == tuple(applied)


@settings(max_examples=examples(50))
@given(positions(), st.integers(0, 2**32))
def test_playout_history_is_that_of_the_api_loop(s: State, k: int) -> None:
    fast = playout(s, random.Random(k))
    rng, slow = random.Random(k), s
    while not slow.is_over():
        slow = apply(slow, rng.choice(legal_moves(slow)))
    assert fast == slow and fast.outcome() == slow.outcome()
    assert fast.history == slow.history
    assert fast.history[: len(s.history)] == s.history
    # With a policy (the last legal move each time) too.
    last = playout(s, policy=lambda _, moves: moves[-1])
    slow = s
    while not slow.is_over():
        slow = apply(slow, legal_moves(slow)[-1])
    assert last == slow and last.history == slow.history


@given(positions())
def test_a_position_read_from_json_starts_a_fresh_history(s: State) -> None:
    t = State.from_json(s.to_json())
    # The history is not part of equality (nor of the hash).
    assert t == s and hash(t) == hash(s)
    if s.drawn is None:
        assert t.history == ()
    else:
        # The seat to act has drawn: the fresh history starts with that draw.
        assert t.history == (Event(s.turn, Draw(s.drawn)),)
    if not s.is_over():
        # Moves made after reading extend the fresh history.
        m = legal_moves(t)[0]
        named = Draw(t.boneyard[0]) if m is DRAW else m
        assert apply(t, m).history == (*t.history, Event(t.turn, named))


def test_history_is_not_part_of_equality() -> None:
    fresh = State.from_json(DREW.to_json())
    assert fresh == DREW and hash(fresh) == hash(DREW)
    assert len(DREW.history) == 2 and fresh.history == (Event(1, Draw(Tile(6, 3))),)
    played = HOUSE_1.apply("9-3@9-9")
    assert played == State.from_json(played.to_json()) and played.history != ()


# -- views: what each seat sees ---------------------------------------------------------------------


def check_view(s: State, seat: int) -> View:
    """Assert that ``s.view(seat)`` shows what ``seat`` may know of ``s``, and return it."""
    v = s.view(seat)
    assert v == view(s, seat)
    assert v.rules == s.rules and v.seat == seat and v.players == s.players
    assert v.hand == s.hand(seat)
    assert v.hand_sizes == s.hand_sizes and v.boneyard_size == s.boneyard_size
    assert v.turn == s.turn and v.board == s.board and v.centre == s.centre
    assert v.drawn == (s.drawn if seat == s.turn else None)
    assert v.has_drawn == (s.drawn is not None)
    assert v.history == hidden_history(s, seat)
    assert v.outcome() == s.outcome() and v.is_over() == s.is_over()
    assert v.phase == s.phase and v.centre_laid == s.centre_laid
    assert v.pending_hub == s.pending_hub and v.toes_needed == s.toes_needed
    assert v.open_ends == s.open_ends
    assert v.penalty == s.penalties()[seat]
    hidden = [t for r in range(s.players) if r != seat for t in s.hand(r)] + list(s.boneyard)
    assert v.unseen == tuple(sorted(hidden, key=lambda t: t.id))
    # Legal moves: the state's for the seat to act, none for anyone else.
    assert tuple(v.legal_moves) == (tuple(legal_moves(s)) if seat == s.turn else ())
    return v


def test_the_view_of_a_short_round() -> None:
    v0, v1 = DREW.view(0), DREW.view(1)
    # 44 tiles dealt, 10 left; seat 0 played one, seat 1 drew one.
    assert v0.hand_sizes == v1.hand_sizes == (10, 12, 11, 11)
    assert v0.boneyard_size == 9 and v0.turn == 1
    assert [str(e) for e in v0.history] == ["0:9-3@9-9", "1:draw"]
    assert [str(e) for e in v1.history] == ["0:9-3@9-9", "1:draw:6-3"]
    assert v0.drawn is None and v1.drawn == Tile(6, 3) and v0.has_drawn and v1.has_drawn
    assert v1.hand == DREW.hand(1) and Tile(6, 3) in v1.hand
    assert list(v0.legal_moves) == [] and v1.legal_moves == legal_moves(DREW)
    # 6-3 does not fit the centre 9-9 under the opening: seat 1 passes.
    assert list(v1.legal_moves) == [PASS]
    # set_tiles lists the set in id order; seat 0 sees its hand and the board (9-9, 9-3).
    seen = {*v0.hand, Tile(9, 9), Tile(9, 3)}
    assert v0.unseen == tuple(t for t in set_tiles(9) if t not in seen)
    assert len(v0.unseen) == 55 - 10 - 2


@given(positions())
def test_views_show_exactly_what_each_seat_may_know(s: State) -> None:
    for seat in range(s.players):
        check_view(s, seat)


PLAYER_COUNTS = {"house": [2, 4, 6, 8], "four-toe": [3, 5, 7], "classic": [2, 4, 6, 7, 8]}


@pytest.mark.parametrize("name", sorted(PRESETS))
@settings(max_examples=examples(15))
@given(data=st.data())
def test_views_and_samples_under_every_preset(name: str, data: st.DataObject) -> None:
    players = data.draw(st.sampled_from(PLAYER_COUNTS[name]), label="players")
    s = data.draw(positions(st.just(Rules.preset(name, players=players))), label="state")
    seat = data.draw(st.integers(0, players - 1), label="seat")
    for r in range(players):
        check_view(s, r)
    v = s.view(seat)
    assert View.from_json(v.to_json()) == v
    check_sample(v, data.draw(st.integers(0, 2**32), label="k"))


def test_every_preset_name_is_covered() -> None:
    assert set(PLAYER_COUNTS) == set(PRESETS)


# -- views: what a seat cannot see does not change them ------------------------------------------


def rearranged(s: State, seat: int, rng: random.Random) -> tuple[State, State]:
    """``s`` rebuilt by ``State.setup``, and a copy whose hidden tiles are shuffled.

    The other hands and the boneyard trade tiles, keeping their sizes; if the seat to act
    is another seat and has drawn, its drawn tile is one of its new tiles.
    """
    others = [r for r in range(s.players) if r != seat]
    hidden = [t for r in others for t in s.hand(r)] + list(s.boneyard)
    rng.shuffle(hidden)
    hands: list[Any] = list(s.hands)
    for r in others:
        hands[r], hidden = hidden[: len(s.hand(r))], hidden[len(s.hand(r)) :]
    drawn = s.drawn
    if drawn is not None and s.turn != seat:
        drawn = hands[s.turn][0]
    same = dict(rules=s.rules, centre=s.centre, board=s.board, turn=s.turn)
    base = State.setup(hands=s.hands, boneyard=s.boneyard, drawn=s.drawn, **same)  # type: ignore[arg-type]
    other = State.setup(hands=hands, boneyard=hidden, drawn=drawn, **same)  # type: ignore[arg-type]
    return base, other


@given(positions(), st.randoms(use_true_random=False), st.data())
def test_views_ignore_what_the_seat_cannot_see(
    s: State, rng: random.Random, data: st.DataObject
) -> None:
    seat = data.draw(st.integers(0, s.players - 1), label="seat")
    base, other = rearranged(s, seat, rng)
    a, b = base.view(seat), other.view(seat)
    if base.outcome() == other.outcome():
        assert a == b and hash(a) == hash(b) and a.to_dict() == b.to_dict()
        assert a.legal_moves == b.legal_moves
    else:
        # Shuffling the hidden tiles can block a round with an empty boneyard (or unblock
        # it): whether the round is over is public, so the views must tell.
        assert s.boneyard_size == 0 and a != b


def test_views_of_seats_that_see_the_difference_differ() -> None:
    # Seat 1 and seat 2 trade their lowest tiles: seats 0 and 3 cannot tell, 1 and 2 can.
    hands = [list(h) for h in HOUSE_1.hands]
    hands[1][0], hands[2][0] = hands[2][0], hands[1][0]
    assert hands[1][0] != hands[2][0]
    traded = State.setup(HOUSE_1.rules, hands=hands, boneyard=HOUSE_1.boneyard)
    assert traded != HOUSE_1
    for seat in (0, 3):
        assert traded.view(seat) == HOUSE_1.view(seat)
    for seat in (1, 2):
        assert traded.view(seat) != HOUSE_1.view(seat)
        assert traded.view(seat).hand != HOUSE_1.view(seat).hand
    # Another seat's draw: seat 1 draws another tile (the boneyard's first two tiles
    # swapped). Seat 1 sees the difference; the others see "1:draw" either way.
    bone = list(HOUSE_1.boneyard)
    bone[0], bone[1] = bone[1], bone[0]
    other = State.setup(HOUSE_1.rules, hands=HOUSE_1.hands, boneyard=bone)
    other = other.apply("9-3@9-9").apply("draw")
    assert other.drawn == bone[0] != DREW.drawn
    for seat in (0, 2, 3):
        assert other.view(seat) == DREW.view(seat)
        assert other.view(seat).history == (Event(0, Play(Tile(9, 3), Tile(9, 9))), Event(1, DRAW))
    assert other.view(1) != DREW.view(1) and other.view(1).drawn == bone[0]


# -- views as documents ----------------------------------------------------------------------------


def test_the_view_document() -> None:
    d = DREW.view(0).to_dict()
    assert d == {
        "format": "chickenfoot/view",
        "version": 1,
        "rules": Rules().to_dict(),
        "seat": 0,
        "centre": "9-9",
        "board": ["9-9", "9-3@9-9"],
        "hand": [str(t) for t in DREW.hand(0)],
        "hand_sizes": [10, 12, 11, 11],
        "boneyard_size": 9,
        "turn": 1,
        "drawn": None,
        "history": [[0, "9-3@9-9"], [1, "draw"]],
        "outcome": None,
    }
    d1 = DREW.view(1).to_dict()
    assert d1["drawn"] == "6-3" and d1["history"] == [[0, "9-3@9-9"], [1, "draw:6-3"]]


@settings(max_examples=examples(40))
@given(positions())
def test_view_documents_round_trip(s: State) -> None:
    for seat in range(s.players):
        v = s.view(seat)
        back = View.from_json(v.to_json())
        assert back == v and hash(back) == hash(v)
        assert View.from_dict(v.to_dict()) == v
        assert back.to_dict() == v.to_dict()
        # What a view derives from the table is the same after reading it back.
        assert back.legal_moves == v.legal_moves and back.phase == v.phase
        assert back.open_ends == v.open_ends and back.pending_hub == v.pending_hub
        assert back.toes_needed == v.toes_needed and back.penalty == v.penalty
        assert back.has_drawn == v.has_drawn and back.unseen == v.unseen


# -- sampling --------------------------------------------------------------------------------------


def check_sample(v: View, k: int) -> State:
    """Assert what ``v.sample`` and ``v.sample_record`` promise for seed ``k``; return the sample."""
    s = v.sample(random.Random(k))
    assert s.view(v.seat) == v
    assert v.sample(random.Random(k)) == s  # the same generator state, the same sample
    # Building the record replays it with the rules' checks: the proof that it is legal.
    rec = v.sample_record(random.Random(k))
    assert isinstance(rec, Record) and rec.final() == s
    assert rec.final().history == s.history
    # The record starts where the history starts and replays it, naming the hidden draws.
    assert len(rec.moves) == len(v.history) == len(s.history)
    for st_, move, seen, full in zip(rec.states(), rec.moves, v.history, s.history, strict=False):
        assert st_.turn == seen.seat == full.seat and full.move is move
        if isinstance(seen.move, Draw) and seen.move.tile is None:
            assert isinstance(move, Draw) and move.tile is not None
        else:
            assert move is seen.move
    # The viewer's own start hand is what it holds, plus what it played, less what it drew.
    own = [e.move for e in v.history if e.seat == v.seat]
    start = set(v.hand) | {m.tile for m in own if isinstance(m, Play)}
    start -= {m.tile for m in own if isinstance(m, Draw)}
    assert set(rec.start.hand(v.seat)) == start
    return s


def check_no_contradiction(v: View, k: int) -> None:
    """Walk a sampled hidden history: every draw at the start of a turn and every pass was
    forced, by the reference model's legal moves."""
    r = v.rules
    rec = v.sample_record(random.Random(k))
    for s, m in zip(rec.states(), rec.moves, strict=False):
        plays = plays_in(reference_legal_moves(s))
        if isinstance(m, Draw) and s.drawn is None:
            # R9: a player who can play must (unless may_draw_instead, once the centre is down).
            if not (r.may_draw_instead and s.board):
                assert not plays, (s.to_dict(), m)
        elif isinstance(m, Pass) and (s.drawn is None or r.drawn_tile == "must_play"):
            assert not plays, (s.to_dict(), m)


@settings(max_examples=examples(60))
@given(positions(), st.integers(0, 2**32), st.data())
def test_samples_agree_with_the_view(s: State, k: int, data: st.DataObject) -> None:
    seat = data.draw(st.integers(0, s.players - 1), label="seat")
    v = s.view(seat)
    sample = check_sample(v, k)
    check_no_contradiction(v, k)
    # The sample deals exactly the unseen tiles to the other hands and the boneyard.
    hidden = [t for r in range(s.players) if r != seat for t in sample.hand(r)]
    assert sorted(hidden + list(sample.boneyard), key=lambda t: t.id) == list(v.unseen)
    # From a deal (positions() are dealt): the record starts with full hands.
    rec = v.sample_record(random.Random(k))
    assert rec.start.hand_sizes == (s.rules.hand_size,) * s.players
    if s.rules.centre == "holder" and not rec.start.board:
        # R4/R5 holder mode: a seat dealt the centre opens the round.
        holders = [r for r in range(s.players) if s.centre in rec.start.hand(r)]
        assert holders in ([], [rec.start.turn])


@settings(max_examples=examples(30))
@given(positions(), st.randoms(use_true_random=False), st.integers(0, 2**32))
def test_views_and_samples_of_a_round_read_midway(s: State, rng: random.Random, k: int) -> None:
    # A position read from JSON starts a fresh history (with its drawn tile, if any); the
    # views and samples of the round played on from there agree with it just the same.
    t = State.from_json(s.to_json())
    for _ in range(rng.randrange(15)):
        if t.is_over():
            break
        t = t.apply(rng.choice(legal_moves(t)))
    for seat in range(t.players):
        v = check_view(t, seat)
        assert View.from_json(v.to_json()) == v
        check_sample(v, k)
        check_no_contradiction(v, k)


def test_sample_without_a_generator_and_views_from_documents() -> None:
    v = DREW.view(0)
    assert v.sample().view(0) == v
    assert v.sample_record().final().view(0) == v
    read = View.from_json(v.to_json())
    assert read.sample(random.Random(3)).view(0) == v
    check_sample(read, 3)


def test_a_seat_that_drew_and_passed_holds_none_of_the_open_number() -> None:
    s = DREW.apply("pass")
    v = s.view(0)
    for k in range(50):
        sample = v.sample(random.Random(k))
        # Seat 1 drew at the start of its turn, so it held no toe of 9-9 (no 9), and the
        # tile it drew was no 9 either (it passed under must_play).
        assert not any(t.has(9) for t in sample.hand(1))


# -- sampling against a brute-force oracle -----------------------------------------------------------


def consistent_deals(v: View) -> tuple[set[tuple[Any, ...]], int]:
    """Every final arrangement ``(hands, boneyard as a set)`` of a deal that ``v.seat``
    cannot tell from the real one, and how many candidate deals were tried.

    Brute force with only ``State.setup``, ``is_legal``, ``apply`` and ``view``: the
    seat's start hand is known (its hand, plus what it played, less what it drew); every
    other start hand is tried, and for each draw in the history every tile of the
    boneyard (a named draw of tile ``t`` is a boneyard with ``t`` in front: docs/formats.md), then
    the history's moves are replayed and the final view must equal ``v``.

    The start's turn follows R5 and R4: the seat dealt the centre (holder mode), else the
    R5 seat of the round; a view does not say which round it is (``deal`` takes any round
    index and threshold matches wrap), so any round with this centre.
    """
    r, me, n = v.rules, v.seat, v.rules.max_pip
    own = [e.move for e in v.history if e.seat == me]
    start = set(v.hand) | {m.tile for m in own if isinstance(m, Play)}
    start -= {m.tile for m in own if isinstance(m, Draw)}
    assert len(start) == r.hand_size
    pool = [t for t in set_tiles(n) if t not in start and (r.centre == "holder" or t != v.centre)]
    first = v.history[0].seat if v.history else v.turn
    leaders = {
        (r.first_leader + k) % r.players
        for k in range(r.players * (n + 1))
        if n - k % (n + 1) == v.centre.high
    }
    found: set[tuple[Any, ...]] = set()
    tried = 0

    def hands_for(tiles: list[Tile], seats: list[int]) -> Iterator[tuple[dict[int, Any], list]]:
        if not seats:
            yield {}, tiles
            return
        for hand in itertools.combinations(tiles, r.hand_size):
            rest = [t for t in tiles if t not in hand]
            for more, left in hands_for(rest, seats[1:]):
                yield {seats[0]: list(hand), **more}, left

    def replay(s: State, i: int) -> None:
        nonlocal tried
        if i == len(v.history):
            tried += 1
            if s.view(me) == v:
                found.add((s.hands, frozenset(s.boneyard)))
            return
        seat, move = v.history[i]
        if s.turn != seat:
            return
        if isinstance(move, Draw) and seat != me:
            options: list[Move] = [Draw(t) for t in s.boneyard]
        else:
            options = [move]
        for m in options:
            if s.is_legal(m):
                replay(s.apply(m), i + 1)

    others = [seat for seat in range(r.players) if seat != me]
    for dealt, boneyard in hands_for(pool, others):
        hands = [
            sorted(start, key=lambda t: t.id) if x == me else dealt[x] for x in range(r.players)
        ]
        holders = [x for x in range(r.players) if v.centre in hands[x]]
        if (holders != [first]) if holders else (first not in leaders):
            continue  # not a deal: the holder of the centre opens, else the R5 seat
        replay(State.setup(r, hands=hands, boneyard=boneyard, centre=v.centre, turn=first), 0)
    return found, tried


def places(arrangements: Any) -> set[tuple[Tile, Any]]:
    """Every ``(tile, seat)`` and ``(tile, "boneyard")`` pair of the arrangements."""
    out: set[tuple[Tile, Any]] = set()
    for hands, boneyard in arrangements:
        for seat, hand in enumerate(hands):
            out.update((t, seat) for t in hand)
        out.update((t, "boneyard") for t in boneyard)
    return out


TINY = Rules(players=2, max_pip=3, hand_size=2, opening_toes=2, foot_toes=1)
ORACLE_RULES = {
    "tiny": TINY,
    "until-playable-may-play": TINY.replace(draw="until_playable", drawn_tile="may_play"),
    "may-draw-instead": TINY.replace(may_draw_instead=True, foot_toes=2, opening_toes=1),
    "three-players": TINY.replace(players=3),
    "full-hands": TINY.replace(players=3, hand_size=3),
    "holder": TINY.replace(centre="holder", hand_size=3),
    "holder-until-playable": TINY.replace(
        centre="holder", hand_size=3, opening_toes=1, draw="until_playable", drawn_tile="may_play"
    ),
    "holder-three-players": TINY.replace(centre="holder", players=3),
}
ORACLE_SEEDS = (0, 1)
SAMPLES = 300


def seeded_round(r: Rules, seed: int) -> list[State]:
    """Every position of round 0 dealt with ``seed`` and played with random legal moves."""
    s = deal(r, seed)
    rng = random.Random(seed)
    path = [s]
    while not s.is_over():
        s = s.apply(rng.choice(legal_moves(s)))
        path.append(s)
    return path


def test_the_oracle_rounds_end_both_ways() -> None:
    # Blocked rounds (and the passes before them) are covered as well as rounds won.
    endings = {
        seeded_round(r, seed)[-1].outcome().termination  # type: ignore[union-attr]
        for r in ORACLE_RULES.values()
        for seed in ORACLE_SEEDS
    }
    assert endings == {Termination.OUT, Termination.BLOCKED}


@pytest.mark.parametrize("name", list(ORACLE_RULES))
def test_samples_cover_exactly_the_deals_a_seat_cannot_rule_out(name: str) -> None:
    r = ORACLE_RULES[name]
    situations = {"hidden draw": 0, "pass": 0, "several deals": 0, "several places": 0}
    for seed in ORACLE_SEEDS:
        path = seeded_round(r, seed)
        for state in path[:: max(1, len(path) // 5)] + path[-1:]:
            for seat in range(r.players):
                v = state.view(seat)
                deals, tried = consistent_deals(v)
                assert tried <= 5000  # small enough to enumerate
                # The real deal is one of them.
                assert (state.hands, frozenset(state.boneyard)) in deals
                seen = set()
                for k in range(SAMPLES):
                    sample = v.sample(random.Random(k))
                    seen.add((sample.hands, frozenset(sample.boneyard)))
                # Sound: every sample is a deal the oracle found ...
                assert seen <= deals, (v.to_dict(), seen - deals)
                # ... and complete: every place a tile can be, some sample puts it there.
                assert places(seen) == places(deals), (v.to_dict(), places(deals) - places(seen))
                situations["hidden draw"] += any(e.move is DRAW for e in v.history)
                situations["pass"] += any(e.move is PASS for e in v.history)
                situations["several deals"] += len(deals) > 1
                pairs = places(deals)
                situations["several places"] += len(pairs) > len({t for t, _ in pairs})
    # The checks above were not vacuous: the rounds had hidden draws (when there is a
    # boneyard to draw from), passes and views that several deals (and places) fit.
    if not deal(r, 0).boneyard_size:
        del situations["hidden draw"]
    assert all(situations.values()), situations


def test_holder_mode_sample_knows_who_was_dealt_the_centre() -> None:
    # Holder mode, round 0, seed 0: nobody is dealt 3-3, so seat 0 (the R5 seat) opens,
    # draws 3-0 and passes. Seat 1 was not dealt 3-3 either (it would have opened) and has
    # drawn nothing: 3-3 is still in the boneyard, in every sample.
    r = ORACLE_RULES["holder"]
    s = deal(r, 0)
    assert s.turn == 0 and Tile(3, 3) in s.boneyard
    s = s.apply("draw").apply("pass")
    assert s.history == (Event(0, Draw(Tile(3, 0))), Event(0, PASS))
    v = s.view(0)
    for k in range(100):
        assert Tile(3, 3) in v.sample(random.Random(k)).boneyard
    # Seat 1 to act at the deal: with two seats and double-three every round of this
    # centre has R5 seat 0, so seat 1 holds 3-3.
    t = next(d for d in (deal(r, seed) for seed in range(50)) if d.turn == 1)
    assert Tile(3, 3) in t.hand(1)
    for k in range(100):
        assert Tile(3, 3) in t.view(0).sample(random.Random(k)).hand(1)


# -- bad input -------------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", [4, -1, 10**30, "0", True, False, 1.0, None])
def test_a_view_of_a_seat_that_is_not_there(seat: Any) -> None:
    with pytest.raises(SeatError) as info:
        HOUSE_1.view(seat)
    assert "is not a seat of this round (0 to 3)" in str(info.value)
    assert isinstance(info.value, ChickenFootError) and isinstance(info.value, ValueError)
    with pytest.raises(SeatError):
        view(HOUSE_1, seat)


BASE0 = DREW.view(0).to_dict()  # seat 1 drew; seat 0's view
BASE1 = DREW.view(1).to_dict()  # the drawer's own view
# Seat 0 opened with 9-3 and it is seat 1's turn, nothing drawn yet.
PLAYED0 = HOUSE_1.apply("9-3@9-9").view(0).to_dict()
PLAYED1 = HOUSE_1.apply("9-3@9-9").view(1).to_dict()
# Seat 0 (holding the toes 9-0, 9-3 and 9-8) claims to have drawn 6-3 instead of playing.
# Seat 1 drew 6-3 and passed with only 9s playable; here its hand claims 9-8 instead of
# 1-1 (an unseen tile swapped in), so it drew while holding a toe of the centre. (A history
# that STARTS with a draw is not checked so: it may start at a position read as it stands.)
_PASSED = HOUSE_1.apply("9-3@9-9").apply("draw").apply("pass").view(1).to_dict()
OWN_DRAW = {**_PASSED, "hand": [t for t in _PASSED["hand"] if t != "1-1"] + ["9-8"]}

# Draw until playable: seat 1 draws 6-3 (the same shuffle as HOUSE_1) and may draw again.
UNTIL = deal(Rules(draw="until_playable"), seed=1).apply("9-3@9-9").apply("draw").view(1).to_dict()
# Double-two, centre 0-0: the line ends in 0 at 1-0 and the two tiles left, 1-1 and 2-2,
# show no 0: nobody can play and the boneyard is empty, so the round is blocked.
BLOCKED = State.setup(
    Rules(players=2, max_pip=2, hand_size=1, opening_toes=1, foot_toes=1),
    centre="0-0",
    board=["0-0", "2-0@0-0", "2-1@2-0", "1-0@2-1"],
    hands=[["1-1"], ["2-2"]],
    boneyard=[],
).view(0)
# Seat 1 went out with its only tile, 3-2 (double-three, one tile each).
OUT = (
    State.setup(
        Rules(players=2, max_pip=3, hand_size=1, opening_toes=1, foot_toes=1),
        centre="2-2",
        hands=[["1-1"], ["3-2"]],
        boneyard=["1-0", "0-0", "2-1", "3-1", "3-0", "3-3", "2-0"],
        turn=1,
    )
    .apply("3-2@2-2")
    .view(0)
    .to_dict()
)
# Read mid-round (a fresh history): the open end is 3 (3-2 on 4-2); seat 0, with no 3 in
# hand, draws the boneyard's front tile 3-0.
MIDWAY = (
    State.setup(
        Rules(
            players=2, max_pip=4, hand_size=4, opening_toes=1, foot_toes=1, draw="until_playable"
        ),
        board=["4-4", "4-2@4-4", "3-2@4-2"],
        hands=[["1-0", "2-0", "2-1", "2-2"], ["0-0", "1-1", "3-3", "4-0", "4-1", "4-3"]],
        boneyard=["3-0", "3-1"],
    )
    .apply("draw")
    .view(0)
    .to_dict()
)

BAD_VIEWS: list[tuple[str, dict[str, Any], dict[str, Any], str, str]] = [
    # (name, base document, changes, path, fragment of the message)
    ("sizes too many", BASE0, {"boneyard_size": 10}, "", "hold 56 tiles, but the set has 55"),
    ("sizes too few", BASE0, {"hand_sizes": [10, 12, 11, 10]}, "", "hold 54 tiles"),
    ("own size", BASE0, {"hand_sizes": [11, 12, 11, 10]}, "hand_sizes[0]", "holds 10 tiles"),
    ("sizes count", BASE0, {"hand_sizes": [10, 12, 11]}, "hand_sizes", "expected 4 sizes"),
    ("size negative", BASE0, {"hand_sizes": [10, -1, 11, 11]}, "hand_sizes[1]", "a count"),
    (
        "tile in hand and on the board",
        BASE0,
        {"hand": [*BASE0["hand"][:-1], "9-3"]},
        "hand[9]",
        "9-3 appears twice (also at board[1])",
    ),
    (
        "history play not on the board",
        BASE0,
        {"history": [[0, "9-0@9-9"], [1, "draw"]]},
        "history[0]",
        "9-0@9-9 is not the placement board[1] (9-3@9-9)",
    ),
    (
        "more plays than the board",
        BASE0,
        {"history": [[3, "9-0@9-9"], [0, "9-3@9-9"], [1, "draw"]]},
        "history",
        "2 plays, but the board has only 2 tiles",
    ),
    (
        "another seat's draw names its tile",
        BASE0,
        {"history": [[0, "9-3@9-9"], [1, "draw:6-3"]]},
        "history[1]",
        "names a tile seat 0 cannot see",
    ),
    (
        "own draw without its tile",
        BASE1,
        {"history": [[0, "9-3@9-9"], [1, "draw"]]},
        "history[1]",
        "own draw must name its tile",
    ),
    (
        "seats out of turn",
        BASE0,
        {"history": [[0, "9-3@9-9"], [2, "draw"]], "turn": 2, "hand_sizes": [10, 11, 12, 11]},
        "history[1]",
        "seat 2 moves, but it is seat 1's turn",
    ),
    (
        "turn after a play",
        PLAYED0,
        {"turn": 2},
        "turn",
        "after the history it is seat 1's turn, not 2's",
    ),
    (
        "turn after a draw",
        BASE0,
        {"turn": 2},
        "history[1]",
        "seat 1 drew, so the turn is still seat 1's",
    ),
    (
        "drawn when it is not the viewer's turn",
        BASE0,
        {"drawn": BASE0["hand"][0]},
        "drawn",
        "only the seat to act (1) has a drawn tile",
    ),
    (
        "drawn without a draw",
        PLAYED1,
        {"drawn": PLAYED1["hand"][0]},
        "drawn",
        "own draw that ends the history",
    ),
    ("drawn not in hand", BASE1, {"drawn": "9-0"}, "drawn", "9-0 is not in 'hand'"),
    (
        "out without an empty hand",
        BASE0,
        {"outcome": {"kind": "out", "seat": 0}},
        "outcome.seat",
        "does not agree with the hand sizes",
    ),
    (
        "blocked with a boneyard",
        BASE0,
        {"outcome": {"kind": "blocked", "seat": None}},
        "outcome",
        "9 tiles left to draw is not blocked",
    ),
    (
        "an empty hand but no outcome",
        BASE0,
        {"hand_sizes": [10, 0, 23, 11]},
        "outcome",
        "seat 1 has no tiles, so the round is over",
    ),
    ("unknown outcome", BASE0, {"outcome": {"kind": "won", "seat": 0}}, "outcome.kind", "won"),
    ("outcome not an object", BASE0, {"outcome": "out"}, "outcome", "expected null or"),
    (
        "pass with a boneyard",
        PLAYED0,
        {"history": [[0, "9-3@9-9"], [1, "pass"]], "turn": 2},
        "history[1]",
        "passes while the boneyard has tiles",
    ),
    (
        "own draw while holding a toe",
        OWN_DRAW,
        {},
        "history[1]",
        "seat 1 held a playable tile",
    ),
    # Found by fuzzing View.from_dict; each was accepted and its samples then failed.
    (
        "own draw of a tile it held",
        UNTIL,
        {"history": [[0, "9-3@9-9"], [1, "draw:6-3"], [1, "draw:6-3"]]},
        "history[2]",
        "seat 1 drew 6-3, which it held",
    ),
    (
        "own draw of a tile on the table",
        MIDWAY,
        {"history": [[0, "draw:4-2"], [0, "draw:3-0"]]},
        "history",
        "seat 0's draws and plays do not lead to its hand",
    ),
    (
        "not over though nobody can play",
        BLOCKED.to_dict(),
        {"outcome": None},
        "outcome",
        "no deal of the unseen tiles leaves the round unblocked",
    ),
    (
        # R10: blocked is checked at every turn's start, and a pass changes no hand.
        "blocked by a pass",
        BLOCKED.to_dict(),
        {"history": [[1, "pass"]]},
        "outcome",
        "a pass with nothing drawn cannot block the round",
    ),
    (
        "moves after a hand emptied",
        OUT,
        {"history": [[0, "3-2@2-2"]]},
        "history",
        "seat 1 holds no tiles where it starts",
    ),
    ("history entry not a pair", BASE0, {"history": [[0]]}, "history[0]", "[seat, move]"),
    ("history seat", BASE0, {"history": [[4, "9-3@9-9"]]}, "history[0][0]", "not a seat"),
    ("history move", BASE0, {"history": [[0, "9-3@"]]}, "history[0][1]", "9-3@"),
    ("history move type", BASE0, {"history": [[0, 5]]}, "history[0][1]", "expected a move"),
    ("history not an array", BASE0, {"history": {}}, "history", "expected an array"),
    ("seat", BASE0, {"seat": 4}, "seat", "4 is not a seat (0 to 3)"),
    ("seat type", BASE0, {"seat": "0"}, "seat", "not a seat"),
    ("hand tile", BASE0, {"hand": ["10-0"]}, "hand[0]", "10-0"),
    ("centre", BASE0, {"centre": "9-8"}, "centre", "9-8 is not a double"),
    ("board", BASE0, {"board": ["9-9", "9-3@9-8"]}, "board[1]", "was not played earlier"),
    ("boneyard size", BASE0, {"boneyard_size": -1}, "boneyard_size", "a count"),
    ("unknown key", BASE0, {"extra": 1}, "extra", "unknown key"),
    ("format", BASE0, {"format": "chickenfoot/position"}, "format", "chickenfoot/view"),
    ("version newer", BASE0, {"version": 2}, "version", "newer than this library reads"),
    ("version text", BASE0, {"version": "1"}, "version", "the integer 1"),
    ("rules", BASE0, {"rules": {"players": 1}}, "rules.players", "players"),
]


@pytest.mark.parametrize(
    ("base", "changes", "path", "fragment"),
    [b[1:] for b in BAD_VIEWS],
    ids=[b[0] for b in BAD_VIEWS],
)
def test_contradictory_view_documents_are_rejected(
    base: dict[str, Any], changes: dict[str, Any], path: str, fragment: str
) -> None:
    doc = {**copy.deepcopy(base), **changes}
    with pytest.raises(FormatError) as info:
        View.from_dict(doc)
    assert info.value.path == path, str(info.value)
    assert fragment in info.value.reason, info.value.reason


def test_bases_of_the_bad_documents_are_good() -> None:
    # Each rejection above is due to its change, not to its base.
    for base in (BASE0, BASE1, PLAYED0, PLAYED1, UNTIL, OUT, MIDWAY, BLOCKED.to_dict()):
        View.from_dict(copy.deepcopy(base))
    assert BLOCKED.is_over() and BLOCKED.outcome() == Outcome(Termination.BLOCKED)
    assert set(OWN_DRAW) == set(BASE0)


@pytest.mark.parametrize("key", list(BASE0))
def test_every_key_of_a_view_is_required(key: str) -> None:
    doc = copy.deepcopy(BASE0)
    del doc[key]
    with pytest.raises(FormatError) as info:
        View.from_dict(doc)
    assert info.value.path == key and info.value.reason == "missing"


@pytest.mark.parametrize("text", ["", "[]", "{", '{"format": "chickenfoot/view"} x', "null"])
def test_view_json_that_is_not_a_view(text: str) -> None:
    with pytest.raises(FormatError) as info:
        View.from_json(text)
    assert info.value.path == ""


def test_a_position_whose_drawn_tile_could_not_have_been_drawn_still_views_and_samples() -> None:
    # The position reader does not check how the turn arose: here seat 0 "drew" 1-0 while
    # holding 3-2, a toe of the centre 3-3. Its history starts with that draw all the same
    # (whether it could have been made depends on seat 0's hidden hand, which the others'
    # views must not reveal), and every seat's view still reads back and samples; the
    # sampled record starts after the draw, the one place it can start.
    r = Rules(players=2, max_pip=3, hand_size=3, opening_toes=2, foot_toes=1)
    s = State.setup(
        r,
        hands=[["3-2", "1-0", "0-0"], ["1-1", "2-2", "2-0"]],
        boneyard=["3-1", "2-1", "3-0"],
        drawn="1-0",
    )
    assert [str(e) for e in s.history] == ["0:draw:1-0"]
    for seat in (0, 1):
        v = s.view(seat)
        assert View.from_json(v.to_json()) == v
        for k in range(5):
            sample = v.sample(random.Random(k))
            assert sample.view(seat) == v
            record = v.sample_record(random.Random(k))
            assert record.final() == sample and record.final().history == sample.history
    rec = s.view(0).sample_record(random.Random(0))
    assert rec.start.drawn == Tile(1, 0) and rec.moves == ()
