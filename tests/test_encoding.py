"""The action and observation encoding (``chickenfoot.encoding``), shared by the adapters.

The expected action ids follow from the documented scheme: tile id * (2N + 3) + slot.
"""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings

import chickenfoot as cf
from chickenfoot.encoding import Encoding
from chickenfoot.errors import ArgumentError
from strategies import positions, rules

T = cf.Tile


def test_action_ids_by_hand() -> None:
    enc = Encoding(cf.Rules())  # double-nine: 55 tiles, 21 slots per tile
    assert (enc.slots, enc.num_actions) == (21, 55 * 21 + 2)
    # 9-3 (id 48) on the centre 9-9: matches 9, the anchor is 9-9 -> slot 1 + 9
    assert enc.action("9-3@9-9") == 48 * 21 + 10
    # 4-1 (id 11) on 9-4: matches 4 (the higher number), anchor 4-9 -> slot 1 + 9
    assert enc.action("4-1@9-4") == 11 * 21 + 10
    # 4-1 on 3-1: matches 1 (the lower number) -> slot N + 2 + 3 = 14
    assert enc.action("4-1@3-1") == 11 * 21 + 14
    # 5-5 on 5-0: a double uses the first range -> slot 1 + 0
    assert enc.action("5-5@5-0") == 20 * 21 + 1
    # the centre laid in holder mode: slot 0
    assert enc.action("9-9") == 54 * 21
    assert enc.action(cf.DRAW) == enc.action("draw:3-2") == enc.draw_action == 1155
    assert enc.action("pass") == enc.pass_action == 1156
    assert Encoding(cf.Rules(players=8)).num_actions == 91 * 27 + 2 == 2459


def test_every_action_names_at_most_one_move_and_back() -> None:
    enc = Encoding(cf.Rules(players=2, max_pip=4, hand_size=3, opening_toes=2, foot_toes=1))
    moves = {}
    for a in range(enc.num_actions):
        try:
            m = enc.move(a)
        except ArgumentError as err:
            assert "names no move" in str(err)
            continue
        assert enc.action(m) == a
        moves[a] = m
    plays = [m for m in moves.values() if isinstance(m, cf.Play)]
    # every (tile, anchor) pair sharing one number, plus each tile with no anchor
    tiles = cf.tiles_of_set(4)
    pairs = sum(1 for t in tiles for u in tiles if t != u and {t.high, t.low} & {u.high, u.low})
    assert len(plays) == pairs + len(tiles)
    assert len(set(moves.values())) == len(moves)


@settings(max_examples=80, deadline=None)
@given(positions(rules(max_pip=12)))
def test_property_legal_moves_round_trip(s: cf.State) -> None:
    enc = Encoding(s.rules)
    legal = list(s.legal_moves)
    actions = [enc.action(m) for m in legal]
    assert len(set(actions)) == len(actions)
    assert [enc.move(a) for a in actions] == legal
    assert enc.legal_actions(s) == sorted(actions)
    mask = enc.legal_mask(s)
    assert mask.dtype == np.bool_ and mask.shape == (enc.num_actions,)
    assert sorted(np.flatnonzero(mask).tolist()) == sorted(actions)
    if not s.is_over():
        assert enc.legal_actions(s.view(s.turn)) == sorted(actions)


@settings(max_examples=80, deadline=None)
@given(positions(rules(max_pip=12)))
def test_property_observation_fields(s: cf.State) -> None:
    enc = Encoding(s.rules, history=3)
    p = s.players
    for seat in range(p):
        v = s.view(seat)
        x = enc.observe(v)
        assert x.shape == (enc.observation_size,) and x.dtype == np.float32
        f = enc.planes(v)
        assert sum(a.size for a in f.values()) == enc.observation_size
        assert np.flatnonzero(f["hand"]).tolist() == [t.id for t in s.hand(seat)]
        assert sorted(np.flatnonzero(f["table"]).tolist()) == sorted(m.tile.id for m in s.board)
        assert sorted(np.flatnonzero(f["anchors"]).tolist()) == sorted(a.id for a, _ in s.open_ends)
        assert f["open_numbers"].sum() == len(s.open_ends)
        assert f["hand_sizes"].tolist() == [s.hand_sizes[(seat + i) % p] for i in range(p)]
        assert f["boneyard"].tolist() == [s.boneyard_size]
        assert f["centre"].tolist() == [
            float(k == s.centre.high) for k in range(s.rules.max_pip + 1)
        ]
        if s.pending_hub is None:
            assert not f["pending"].any() and f["toes_needed"][0] == 0
        else:
            assert np.flatnonzero(f["pending"]).tolist() == [s.pending_hub.id]
            assert f["toes_needed"][0] == s.toes_needed
        if s.is_over():
            assert not f["turn"].any()
        else:
            assert np.flatnonzero(f["turn"]).tolist() == [(s.turn - seat) % p]
        drawn = np.flatnonzero(f["drawn"]).tolist()
        assert drawn == ([s.drawn.id] if s.drawn is not None and seat == s.turn else [])
        events = list(reversed(v.history))[:3]
        h = f["history"].reshape(3, p + 3)
        for i in range(3):
            if i < len(events):
                assert np.flatnonzero(h[i, :p]).tolist() == [(events[i].seat - seat) % p]
                assert h[i, p:].sum() == 1
            else:
                assert not h[i].any()


def test_observation_hides_what_the_seat_cannot_know() -> None:
    s = cf.deal(cf.Rules(), seed=1).apply("9-3@9-9").apply("draw")
    enc = Encoding(s.rules)
    # seat 1 drew; seat 0 knows it drew, not what
    assert (enc.observe(s.view(0)) == enc.observe(cf.view(s, 0))).all()
    assert enc.planes(s.view(0))["drawn"].sum() == 0
    assert enc.planes(s.view(1))["drawn"].sum() == 1


def test_values_pickle_and_compare() -> None:
    enc = Encoding(cf.Rules(), history=2)
    assert pickle.loads(pickle.dumps(enc)) == enc == Encoding(cf.Rules(), history=2)
    assert hash(enc) == hash(Encoding(cf.Rules(), history=2)) and enc != Encoding(cf.Rules())
    assert repr(enc) == (
        "Encoding(players=4, max_pip=9, history=2, num_actions=1157, observation_size=319)"
    )
    with pytest.raises(AttributeError):
        enc.history = 3  # type: ignore[misc]


def test_bad_input() -> None:
    enc = Encoding(cf.Rules())
    cases = [
        (lambda: enc.move(-1), "action=-1 is invalid: must be from 0 to 1156"),
        (lambda: enc.move(1157), "action=1157 is invalid: must be from 0 to 1156"),
        (lambda: enc.move(1.0), "action=1.0 is invalid: must be an int"),  # type: ignore[arg-type]
        (lambda: enc.move(True), "action=True is invalid: must be an int"),
    ]
    for call, message in cases:
        with pytest.raises(ArgumentError) as err:
            call()
        assert str(err.value) == message
    assert enc.move(np.int64(955)) == cf.Play(T(9, 0), T(9, 9))
    with pytest.raises(ArgumentError, match="names no move"):
        enc.move(21 * 0 + 20)  # 0-0 has only the first range
    with pytest.raises(ArgumentError, match="no number in common"):
        enc.action(cf.Play(T(9, 3), T(5, 4)))
    with pytest.raises(cf.InvalidMoveError):
        enc.action("12-0@12-12")
    with pytest.raises(ArgumentError, match="not a move of the double-9 set"):
        enc.action(cf.Play(T(12, 0), T(12, 12)))
    with pytest.raises(ArgumentError, match="no observation field 'hands'"):
        enc.size("hands")
    with pytest.raises(ArgumentError, match="observe needs a View"):
        enc.observe(cf.deal(cf.Rules(), seed=1))  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="not the rules of this encoding"):
        enc.observe(cf.deal(cf.Rules(players=3), seed=1).view(0))
    v = cf.deal(cf.Rules(), seed=1).view(0)
    with pytest.raises(ArgumentError, match="must be a writeable numpy float32 array of shape"):
        enc.observe(v, out=np.zeros(3, dtype=np.float32))
    # issue 18: a list escaped as AttributeError, a read-only array as numpy's ValueError
    with pytest.raises(ArgumentError, match=r"^out=\[0.0, 0.0\] is invalid: must be a writeable"):
        enc.observe(v, out=[0.0, 0.0])  # type: ignore[arg-type]
    frozen = np.zeros(enc.observation_size, dtype=np.float32)
    frozen.flags.writeable = False
    with pytest.raises(ArgumentError, match="must be a writeable numpy float32 array"):
        enc.observe(v, out=frozen)
    assert not frozen.any()  # not changed
    with pytest.raises(ArgumentError, match="history=65 is invalid"):
        Encoding(cf.Rules(), history=65)
    with pytest.raises(ArgumentError, match="must be a Rules object"):
        Encoding("house")  # type: ignore[arg-type]
