"""The Play page's review and hints, without a browser: the worker's table
(``docs/play/tableplay.py``) reviews seat 0's decisions of the round just finished (what
that seat knew, biggest loss first, the better move drawn on the picture of that moment)
and, when the game was started with hints, gives the search player's move from seat 0's
own view. The page itself is ``tests/test_play_review_browser.py``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import chickenfoot
from chickenfoot.analysis import analyse

PLAY = Path(__file__).resolve().parent.parent / "docs" / "play"
sys.path.insert(0, str(PLAY))
from tableplay import Game  # noqa: E402


def _play_round(game: Game, *, pick: int = -1) -> None:
    """Seat 0 plays its ``pick``-th legal move each turn until the round is over."""
    game.hello()
    while game.table.round is not None and game.table.match.rounds_played == 0:
        if game.bot_due():
            game.bot_move()
        else:
            go = game.table.go_message(0)
            assert go is not None
            game.receive(json.dumps({"type": "move", "move": go["legal"][pick], "id": go["id"]}))


def _answer(text: str) -> dict[str, Any]:
    answer = json.loads(text)
    assert isinstance(answer, dict)
    return answer


def test_the_review_is_seat_0s_decisions_biggest_loss_first_with_the_better_move_drawn() -> None:
    game = Game(players=4, bot="heuristic", rounds=1, seed=11, round_pause=0, review_iterations=20)
    _play_round(game)
    review = _answer(game.review("{}"))
    assert review["round"] == 0 and review["iterations"] == 20 and review["ms"] >= 0
    record = game.rounds()[0]
    expected = analyse(record, seats=0, iterations=20, nodes=None).review()
    assert review["decisions_count"] == len(expected) > 0
    shown = review["decisions"]
    lost = [d for d in expected if d.loss > 0][:5]
    assert [(d["move"], d["best"], d["ply"]) for d in shown] == [
        (str(d.move), str(d.best), d.ply) for d in lost
    ]
    losses = [d["loss"] for d in shown]
    assert losses == sorted(losses, reverse=True) and all(x > 0 for x in losses)
    for d, e in zip(shown, lost, strict=True):
        assert d["glyph"] == e.glyph and d["number"] == e.ply + 1
        moment = record.states()[e.ply].view(0)  # what seat 0 saw: its hand, no other
        picture = chickenfoot.picture.svg(moment, hands=0, targets=[e.best])
        assert d["svg"] == picture
        if str(e.best) not in ("draw", "pass"):
            assert f'data-move="{e.best}"' in d["svg"]
    # the pictures' words in the page's language; a language not spoken: English
    greek = _answer(game.review(json.dumps({"lang": "el"})))["decisions"]
    assert [d["svg"] for d in greek] == [
        chickenfoot.picture.svg(
            record.states()[e.ply].view(0), hands=0, targets=[e.best], lang="el"
        )
        for e in lost
    ]
    assert _answer(game.review(json.dumps({"lang": ["el"]})))["decisions"] == shown


def test_a_review_before_any_round_is_over_or_of_a_bad_request_says_why() -> None:
    game = Game(players=2, bot="greedy", rounds=1, seed=2, round_pause=0, review_iterations=5)
    game.hello()
    assert "no round" in _answer(game.review("{}"))["error"]
    assert "JSON object" in _answer(game.review("[1]"))["error"]
    assert "JSON object" in _answer(game.review("not json"))["error"]
    _play_round(game)
    assert "round" in _answer(game.review('{"round": 7}'))["error"]
    assert "round" in _answer(game.review('{"round": "x"}'))["error"]
    assert _answer(game.review('{"round": 0}'))["round"] == 0


def test_hints_are_off_unless_the_game_was_started_with_them() -> None:
    game = Game(players=3, bot="greedy", rounds=1, seed=4, round_pause=0)
    game.hello()
    assert "Hints are off" in _answer(game.hint())["error"]


def test_a_hint_is_the_search_players_move_from_seat_0s_own_view() -> None:
    game = Game(players=3, bot="greedy", rounds=1, seed=4, round_pause=0, hints=True,
                hint_iterations=10)  # fmt: skip
    game.hello()
    hinted = 0
    while game.table.round is not None and hinted < 3:
        if game.bot_due():
            assert "not your turn" in _answer(game.hint())["error"]
            game.bot_move()
            continue
        state = game.table.round
        hint = _answer(game.hint())
        values = chickenfoot.analysis.evaluate(state.view(0), iterations=10, seed=hint["seed"])
        best = chickenfoot.analysis.best_of(values)
        assert hint["move"] == str(best.move) and hint["deals"] == 10
        assert hint["penalty"] == best.penalty and hint["win"] == round(100 * best.win)
        go = game.table.go_message(0)
        assert go is not None and hint["move"] in go["legal"]
        game.receive(json.dumps({"type": "move", "move": hint["move"], "id": go["id"]}))
        hinted += 1
    assert hinted > 0


def test_the_hints_setting_is_told_to_the_page() -> None:
    assert _answer(Game(players=2, hints=True).settings())["hints"] is True
    assert _answer(Game(players=2).settings())["hints"] is False


@pytest.mark.parametrize("budget", [0, -1, 10**9, "100"])
def test_a_budget_out_of_range_is_refused(budget: Any) -> None:
    with pytest.raises((ValueError, TypeError), match="iterations"):
        Game(players=2, review_iterations=budget)
    with pytest.raises((ValueError, TypeError), match="iterations"):
        Game(players=2, hint_iterations=budget)


def test_the_table_page_loads_the_review_after_its_client() -> None:
    sys.path.insert(0, str(PLAY.parent.parent / "tools"))
    import play_site

    page = play_site.table_page()
    assert page.index('<script src="table.js">') < page.index('<script src="review.js">')
    assert '<link rel="stylesheet" href="review.css">' in page
    for name in ("review.js", "review.css"):
        assert (PLAY / name).is_file()
