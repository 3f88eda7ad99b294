"""Issue 33, item 6: names a newcomer still tripped on, fixed before 0.1.0 freezes them.

``Move.notation()`` is the move notation (``uci`` was chess's protocol's name, kept as a
deprecated alias); the waiting double is the pending hub everywhere (``table.pending_hub``,
``table.pending`` kept as a deprecated alias); ``places`` lists every place a tile may be
laid, hubs included, where ``open_ends`` is empty right after the deal.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings

import chickenfoot as cf
from chickenfoot.deprecation import ChickenFootDeprecationWarning
from strategies import positions

S = cf.deal(cf.Rules(), seed=1)


@pytest.mark.parametrize("text", ["9-4@9-9", "9-9", "draw", "draw:5-3", "pass"])
def test_notation_is_the_move_notation(text: str) -> None:
    move = cf.parse_move(text)
    assert move.notation() == str(move) == text


def test_uci_still_works_and_says_what_to_use() -> None:
    with pytest.warns(ChickenFootDeprecationWarning) as caught:
        assert cf.parse_move("9-4@9-9").uci() == "9-4@9-9"
    (w,) = caught
    assert "use Move.notation() or str(move) instead" in str(w.message)
    assert w.filename == __file__


def test_table_pending_still_works_and_says_what_to_use() -> None:
    with pytest.warns(ChickenFootDeprecationWarning, match="use Table.pending_hub instead"):
        hub = S.table.pending
    assert hub == S.table.pending_hub and hub is not None and hub.tile == S.pending_hub


def test_places_right_after_the_deal_are_the_centre() -> None:
    assert S.open_ends == ()
    assert S.places == ((cf.Tile(9, 9), 9),)
    assert S.view(0).places == S.places


def test_places_before_the_centre_is_laid_are_none() -> None:
    s = cf.deal(cf.Rules.preset("classic"), seed=8)
    assert not s.centre_laid and s.places == ()


@settings(max_examples=60, deadline=None)
@given(positions())
def test_every_legal_play_goes_to_one_of_the_places(s: cf.State) -> None:
    places = set(s.places)
    for move in s.legal_moves:
        if isinstance(move, cf.Play) and move.anchor is not None:
            assert (move.anchor, move.joins) in places, (str(move), s.places)
    if s.pending_hub is not None and s.centre_laid:
        assert s.places == ((s.pending_hub, s.pending_hub.high),)
    elif s.centre_laid:
        assert s.places == s.open_ends
    assert s.view(s.turn).places == s.places
