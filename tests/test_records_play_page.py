"""Issue 47, item 5: the Play page offers the round for download: the worker's table (the
library in Pyodide) writes seat 0's copy at any time and the full copy of a finished
round, as ``chickenfoot serve`` answers them, without Starlette."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from chickenfoot.notation import read_game

PLAY = Path(__file__).resolve().parent.parent / "docs" / "play"


def _game() -> Any:
    sys.path.insert(0, str(PLAY))
    from tableplay import Game

    return Game(players=2, bot="greedy", rounds=2, seed=9, round_pause=60)


def test_seat_0_downloads_its_copy_and_the_full_copy_once_the_round_is_over() -> None:
    game = _game()
    game.hello()
    mine = json.loads(game.record("{}"))
    assert mine["name"] == "chickenfoot-0-seat0.cfn"
    read = read_game(io.StringIO(mine["text"]), strict=True)
    assert read is not None and read.header("Audience") == "seat 0" and read.view is not None
    refused = json.loads(game.record('{"audience": "full", "round": "0"}'))
    assert refused == {
        "error": "the full copy of round 0 is given once the round is over; it is in play"
    }
    while not game.table.paused:
        if game.bot_due():
            game.bot_move()
        else:
            go = game.table.go_message(0)
            game.receive(json.dumps({"type": "move", "move": go["legal"][0], "id": go["id"]}))
    full = json.loads(game.record('{"audience": "full", "round": "0"}'))
    back = read_game(io.StringIO(full["text"]), strict=True)
    assert back is not None and back.record is not None and back.record.final().is_over()
    assert back.header("Seed") is None  # the match's seed deals the next round too


def test_bad_requests_are_answered_with_an_error() -> None:
    game = _game()
    assert json.loads(game.record("[1]")) == {"error": "the request is not a JSON object"}
    assert "is not a round number" in json.loads(game.record('{"round": "x"}'))["error"]
    assert "is not seat" in json.loads(game.record('{"audience": "boss"}'))["error"]


def test_it_needs_no_starlette() -> None:
    script = f"""
import sys, json
for name in ("starlette", "uvicorn", "sqlite3"):
    sys.modules[name] = None
sys.path.insert(0, {str(PLAY)!r})
from tableplay import Game
print(json.loads(Game(players=2, seed=1).record("{{}}"))["name"])
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=120, check=False)  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "chickenfoot-0-seat0.cfn"
