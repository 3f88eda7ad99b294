"""Issue 19: what a newcomer tripped on before 0.1.0 freezes the names (the API part).

One name, one meaning (``toes_needed`` is what a hub still needs, ``toes_required`` what it
takes); ``table.pending_hub`` is the pending :class:`Hub`; a play says the number it joins and
the number it leaves open; ``print(state)`` draws; a view's SVG shows the viewer's hand and
names the seat; an agent that cannot be pickled is told what could not be.
"""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest
from hypothesis import given, settings

import chickenfoot as cf
from strategies import examples, positions

S = cf.deal(cf.Rules(), seed=1)


# -- toes_needed: one meaning ------------------------------------------------------------------


def test_toes_needed_is_what_is_still_needed_everywhere() -> None:
    s = S.apply("9-3@9-9")
    hub = s.table.pending_hub
    assert hub is not None and hub.tile == cf.Tile(9, 9)
    # 9-3 is the first of six toes: five still needed, on the state, the table and the hub
    assert s.toes_needed == s.table.toes_needed == hub.toes_needed == 5
    assert hub.toes_required == 6 and len(hub.lines) == 1
    assert s.view(2).toes_needed == 5


def test_a_complete_hub_needs_nothing() -> None:
    s = S
    for m in ["9-0@9-9", "9-3@9-9", "9-8@9-9"]:
        s = s.apply(m) if m in s.legal_moves else s
    rng = random.Random(0)
    while s.pending_hub is not None and not s.is_over():
        s = s.apply(rng.choice(s.legal_moves))
    centre = s.table.hubs[0]
    assert centre.is_complete and centre.toes_needed == 0 and centre.toes_required == 6
    assert s.table.pending_hub is None and s.table.toes_needed == 0


# -- table.pending_hub is a Hub ---------------------------------------------------------------------


def test_table_pending_is_the_pending_hub() -> None:
    t = S.table
    assert isinstance(t.pending_hub, cf.Hub)
    assert t.pending_hub is t.hubs[0] and t.pending_hub.tile is S.pending_hub
    assert t.pending_hub.tile == cf.Tile(9, 9)  # the newcomer's s.table.pending_hub.tile


@settings(max_examples=examples(120), deadline=None)
@given(positions())
def test_the_pending_hub_agrees_with_the_state(s: cf.State) -> None:
    t = s.table
    if s.pending_hub is None or not s.centre_laid:
        assert t.pending_hub is None and t.toes_needed == 0
    else:
        assert t.pending_hub is not None and t.pending_hub.tile is s.pending_hub
        assert t.pending_hub.toes_needed == t.toes_needed == s.toes_needed
        assert t.pending_hub in t.hubs


# -- what a play joins and leaves open ------------------------------------------------------------


@settings(max_examples=examples(150), deadline=None)
@given(positions())
def test_every_legal_play_says_what_it_joins_and_opens(s: cf.State) -> None:
    # The newcomer wrote: m.anchor.low if m.anchor.is_double else dict(view.open_ends)[m.anchor]
    ends = dict(s.open_ends)
    for m in s.legal_moves:
        if not isinstance(m, cf.Play):
            continue
        if m.anchor is None:  # the centre laid in holder mode
            assert m.joins is None and m.opens == m.tile.high
            continue
        expected = m.anchor.low if m.anchor.is_double else ends[m.anchor]
        assert m.joins == expected and m.tile.has(m.joins)
        after = s.apply(m)
        if m.tile.is_double:
            # a double closes its line and needs toes of its own number
            assert m.opens == m.tile.high == after.pending_hub.high  # type: ignore[union-attr]
        else:
            assert m.opens == m.tile.other(m.joins)
            assert (m.tile, m.opens) in after.open_ends


def test_joins_and_opens_of_notation() -> None:
    assert [(cf.parse_move(t).joins, cf.parse_move(t).opens) for t in ("9-3@9-9", "3-1@9-3", "3-3@9-3", "9-9")] == [(9, 3), (3, 1), (3, 3), (None, 9)]  # fmt: skip
    # a tile that shares no number with its anchor (no position allows it) joins nothing
    odd = cf.Play(cf.Tile(5, 4), cf.Tile(9, 3))
    assert (odd.joins, odd.opens) == (None, None)


# -- print(state) draws ---------------------------------------------------------------------------


def test_str_of_a_state_and_a_view_is_the_compact_picture() -> None:
    s = S.apply("9-3@9-9").apply("draw")
    assert str(s) == cf.render_compact(s)
    assert str(s.view(2)) == cf.render_compact(s.view(2))
    assert str(s).splitlines()[0] == "centre 9-9  (1/6 toes, needs 5 more toes)"
    assert "seat 1 to play · has drawn" in str(s)
    assert repr(s).startswith("<State ")  # the repr stays short
    assert cf.render is not None and "render" in cf.__all__ and "render_compact" in cf.__all__


# -- the SVG of a view -----------------------------------------------------------------------------


def test_a_views_picture_shows_the_viewers_hand_and_names_the_seat() -> None:
    v = S.view(2)
    picture = cf.svg(v)
    face_up = picture.count('data-tile="') - picture.count('data-tile=""')
    assert face_up == len(v.board) + len(v.hand)  # the board and the viewer's own tiles
    assert "seat 2's view" in picture and "seat 2 (you)" in picture
    assert cf.svg(v, hands="none").count('data-tile="') == len(v.board)
    # a state's picture still shows no hand unless asked, and seat= gives that seat's view
    assert cf.svg(S).count('data-tile="') == len(S.board)
    assert cf.svg(S, seat=2) == picture


# -- pickling --------------------------------------------------------------------------------------


class HoldsALambda:
    """An agent at module level that holds a lambda: its class pickles, it does not."""

    def __init__(self) -> None:
        self.score = lambda m: 0

    def choose(self, view: Any, legal: Any, rng: Any) -> Any:
        return legal[0]


def test_the_pickling_message_says_what_could_not_be_pickled() -> None:
    # It said "(define its class at module level)", which this class already is.
    agents = [cf.RandomAgent(), HoldsALambda()]
    with ProcessPoolExecutor(max_workers=1) as pool, pytest.raises(cf.AgentError) as info:
        cf.simulate(cf.Rules(players=2), agents, games=1, seed=1, executor=pool)
    message = str(info.value)
    assert message.startswith(
        "agents[1] (a HoldsALambda) cannot be pickled, which a process pool needs: "
    )
    assert "<lambda>" in message and "no lambdas" in message and len(message) < 500
