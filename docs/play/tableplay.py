"""The Play page's table: you against the library's bots, in the browser's Web Worker.

The worker (``worker.mjs``) runs this in Pyodide and hands it the messages the page's table
client sends (``hello``, ``move``, ``next``, ``rematch``, ``ping``); it answers with the
messages ``chickenfoot serve`` sends (``hello``, ``table``, ``go``, ``error``), made by the
server's own code (``Table.state_message`` and ``Table.go_message``), so the page cannot tell
the worker from a server. It is one table with one person (seat 0, "You") and bots, played
the way the server's hub plays one: a person's move is checked, played and announced, then
the bots move one by one (the worker paces them), and when a round ends the next waits
``round_pause`` seconds, or until you ask for it.

Run by CPython too (``tests/test_play_page.py`` plays whole matches through it).
"""

from __future__ import annotations

import json
import random
import secrets
import time
from typing import Any

from chickenfoot import Rounds, Rules
from chickenfoot.agents import Agent, ask
from chickenfoot.specs import Trust, parse_spec

from tableplay_messages import PROTOCOL, RefusedError, SeatRow, Table

BOTS = ("random", "greedy", "heuristic")
"""The bots the page offers: the library's built-in agents that need no numba."""
NAMES = ("Ada", "Bo", "Cy")
"""The bots' names, seat 1 onwards."""
TOKEN = "you"
"""Seat 0's token: the page's client sends ``hello`` with none, and is seat 0 all the same."""


class Game:
    """One table: seat 0 is you, the others ``bot`` (one of :data:`BOTS`)."""

    def __init__(
        self,
        *,
        players: int = 3,
        bot: str = "heuristic",
        rounds: int | None = 1,
        seed: int | None = None,
        round_pause: float = 30.0,
    ) -> None:
        if bot not in BOTS or not 2 <= players <= 4:
            raise ValueError(f"players must be 2 to 4 and the bot one of {BOTS}")
        rules = Rules(players=players) if rounds is None else Rules(players=players, match=Rounds(rounds))
        seats = [SeatRow(0, "person", "", TOKEN, "You")]
        seats += [SeatRow(s, "bot", bot, None, NAMES[s - 1]) for s in range(1, players)]
        self.table = Table("play", rules, secrets.randbits(63) if seed is None else seed, seats)
        self.round_pause = round_pause
        self._agents: dict[int, Agent] = {
            s: parse_spec(bot).build(trust=Trust.data()) for s in range(1, players)
        }
        self._rng = random.Random(seed)
        self.bot_ms: list[float] = []
        """How long each bot move took to choose, play and announce, in milliseconds."""

    # -- what the page is sent ---------------------------------------------------------------

    def _announce(self) -> list[dict[str, Any]]:
        table = self.table
        messages = [table.state_message(0, [True] * table.rules.players)]
        go = table.go_message(0)
        if go is not None:
            messages.append(go)
        return messages

    def hello(self) -> str:
        """The server's answer to the client's ``hello``: hello, the table, a ``go``."""
        welcome = {"type": "hello", "protocol": PROTOCOL, "table": "play", "seat": 0, "role": "player"}
        return _texts([welcome, *self._announce()])

    def receive(self, text: str) -> str:
        """The answer to one message of the page's client (a JSON list of messages)."""
        try:
            message = json.loads(text)
        except ValueError:
            return _texts([{"type": "error", "message": "not JSON"}])
        if not isinstance(message, dict):
            return _texts([{"type": "error", "message": "a message is a JSON object"}])
        kind = message.get("type")
        try:
            if kind == "move":
                table = self.table
                move = table.check_move(0, message)
                self._commit(move, forced=len(table.legal) == 1)
                return _texts(self._announce())
            if kind == "next":
                if not self.table.paused:
                    raise RefusedError("no round is waiting to start")
                self.table.resume()
                return _texts(self._announce())
            if kind == "rematch":
                if self.table.round is not None:
                    raise RefusedError("a rematch is for when the match is over")
                self.table.restart(secrets.randbits(63))
                return _texts(self._announce())
            if kind == "table":
                return _texts(self._announce())
            if kind == "ping":
                return _texts([{"type": "pong", "id": None}])
        except RefusedError as err:
            return _texts([{"type": "error", "message": str(err)}])
        return _texts([{"type": "error", "message": f"unknown message type {str(kind)[:40]!r}"}])

    def _commit(self, move: Any, *, forced: bool) -> None:
        table = self.table
        rounds = table.match.rounds_played
        table.play(move, forced=forced)
        if table.match.rounds_played != rounds and table.round is not None and self.round_pause:
            table.pause(self.round_pause)

    # -- the bots ------------------------------------------------------------------------------

    def bot_due(self) -> bool:
        """Whether a bot is to move now (not while the next round waits)."""
        state = self.table.round
        return (
            state is not None
            and not self.table.paused
            and self.table.error is None
            and self.table.seats[state.turn].kind == "bot"
        )

    def bot_move(self) -> str:
        """The bot to act moves (forced or not, the same way); the table is announced."""
        began = time.perf_counter()
        state = self.table.round
        assert state is not None and self.bot_due()
        move = ask(self._agents[state.turn], state, random.Random(self._rng.random()))
        self._commit(move, forced=len(state.legal_moves) == 1)
        out = _texts(self._announce())
        self.bot_ms.append((time.perf_counter() - began) * 1000)
        return out

    def pause_left(self) -> float:
        """Seconds until the waiting round starts by itself (-1: no round waits)."""
        until = self.table.pause_until
        return -1.0 if until is None else max(0.0, until - time.monotonic())

    def end_pause(self) -> str:
        """The countdown is over: the round waiting starts (nothing if it started already)."""
        if self.table.paused and self.pause_left() <= 0:
            self.table.resume()
            return _texts(self._announce())
        return "[]"


def _texts(messages: list[dict[str, Any]]) -> str:
    """Messages as the server writes them, one JSON text each, in a JSON list."""
    return json.dumps([json.dumps(m, separators=(",", ":")) for m in messages])
