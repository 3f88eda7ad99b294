"""The Play page's table: you against the library's bots, in the browser's Web Worker.

The worker (``worker.mjs``) runs this in Pyodide and hands it the messages the page's table
client sends (``hello``, ``move``, ``next``, ``rematch``, ``table``, ``ping``); it answers
with the messages ``chickenfoot serve`` sends (``hello``, ``table``, ``moved``, ``go``,
``error``), made and queued by the server's own code (its ``Table`` and its announcements:
``send_table``, ``announce_move``, ``announce_table`` into a ``Connection``), so the page
cannot tell the worker from a server. It is one table with one person (seat 0, "You") and bots, played
the way the server's hub plays one: a person's move is checked, played and announced, then
the bots move one by one (the worker paces them), and when a round ends the next waits
``round_pause`` seconds, or until you ask for it.

Run by CPython too (``tests/test_play_page.py`` plays whole matches through it).
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import attrs
from tableplay_messages import (
    PROTOCOL,
    Connection,
    RefusedError,
    SeatRow,
    Table,
    announce_move,
    announce_table,
    encode,
    page_copy,
    send_table,
    table_rounds,
)

from chickenfoot import ArgumentError, Record, Rounds, Rules
from chickenfoot.agents import Agent, SearchAgent, ask
from chickenfoot.analysis import MAX_ITERATIONS, analyse, best_of, evaluate
from chickenfoot.commitment import fresh_seed
from chickenfoot.picture import svg
from chickenfoot.specs import Trust, parse_spec

BOTS = ("random", "greedy", "heuristic", "level:1", "level:2", "level:3", "level:4", "level:5")
"""The bots the page offers: the library's built-in agents that need no numba, and the
levels (chickenfoot.levels)."""
THINK = 1.0
"""The most seconds a searching bot thinks a move here: in the browser it runs in pure
Python, so the expert level is held to this (it plays weaker than its calibration
says)."""
NAMES = ("Ada", "Bo", "Cy")
"""The bots' names, seat 1 onwards."""
TOKEN = "you"
REVIEW_ITERATIONS = 50
"""Deals sampled per decision by the page's review (its budget; ``chickenfoot play``'s is
100): in Pyodide the analysis runs 2.5 to 4 times slower than CPython's pure path, and one
seat of a 4-seat round took 5.7 to 12.4 s of processor time at 100 deals, 2.9 to 5.1 s at
50 (docs/play/index.md, "The review and hints", says how it was measured)."""
HINT_ITERATIONS = 100
"""Deals sampled for one hint (about a second of processor time in the page)."""
SHOWN = 5
"""The most decisions a review shows (the biggest losses), as ``chickenfoot play``'s."""
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
        hints: bool = False,
        review_iterations: int = REVIEW_ITERATIONS,
        hint_iterations: int = HINT_ITERATIONS,
    ) -> None:
        if bot not in BOTS or not 2 <= players <= 4:
            raise ValueError(f"players must be 2 to 4 and the bot one of {BOTS}")
        for name, value in (("review_iterations", review_iterations),
                            ("hint_iterations", hint_iterations)):  # fmt: skip
            if type(value) is not int or not 1 <= value <= MAX_ITERATIONS:
                raise ValueError(f"{name} must be an integer from 1 to {MAX_ITERATIONS}")
        self.hints = bool(hints)
        """Whether seat 0 may ask for hints (the page says so while they are on)."""
        self.review_iterations = review_iterations
        self.hint_iterations = hint_iterations
        rules = (
            Rules(players=players)
            if rounds is None
            else Rules(players=players, match=Rounds(rounds))
        )
        seats = [SeatRow(0, "person", "", TOKEN, "You")]
        seats += [SeatRow(s, "bot", bot, None, NAMES[s - 1]) for s in range(1, players)]
        self.table = Table("play", rules, fresh_seed() if seed is None else seed, seats)
        self.round_pause = round_pause
        agent = parse_spec(bot).build(trust=Trust.data())
        if isinstance(agent, SearchAgent):  # in pure Python: its moves held to THINK seconds
            agent = attrs.evolve(agent, time_limit=THINK)
        self._agents: dict[int, Agent] = dict.fromkeys(range(1, players), agent)
        self._rng = random.Random(seed)
        self._hint_rng = random.Random(seed)
        self.connection = Connection(0, picture=True)
        """The page, as the server's announcements see a connection: seat 0, with the picture."""
        self.bot_ms: list[float] = []
        """How long each bot move took to choose, play and announce, in milliseconds."""

    # -- what the page is sent ---------------------------------------------------------------

    def _connected(self) -> list[bool]:
        return [True] * self.table.rules.players

    def _sent(self) -> str:
        """What the server's announcements queued for the page (a JSON list of texts)."""
        texts = []
        queue = self.connection.queue
        while not queue.empty():
            text = queue.get_nowait()
            if text is not None:
                texts.append(text if isinstance(text, str) else encode(text))
        return json.dumps(texts)

    def hello(self) -> str:
        """The server's answer to the client's ``hello``: hello, the table, a ``go``."""
        self.connection.put(
            encode(
                {
                    "type": "hello",
                    "protocol": PROTOCOL,
                    "table": "play",
                    "seat": 0,
                    "role": "player",
                }
            )
        )
        send_table(self.table, self.connection, self._connected())
        return self._sent()

    def record(self, query: str) -> str:
        """The page's download of a round in the notation (docs/notation.md), as the
        server's ``GET /api/tables/{table}/record`` answers seat 0: ``query`` is the JSON
        of its options (``audience``, ``round``); the answer the JSON of ``{"text",
        "name"}`` or ``{"error"}``."""
        try:
            asked = json.loads(query)
        except ValueError:
            asked = None
        if not isinstance(asked, dict):
            return json.dumps({"error": "the request is not a JSON object"})
        t = self.table
        options = {k: v if isinstance(v, str) else None for k, v in asked.items()}
        answer = page_copy(
            t.rules, t.seed, t.seats, t.moves,
            audience=options.get("audience"), round=options.get("round"), seat=0,
        )  # fmt: skip
        return json.dumps(answer)

    def receive(self, text: str) -> str:
        """The answer to one message of the page's client (a JSON list of texts)."""
        try:
            message = json.loads(text)
        except ValueError:
            return _error("not JSON")
        if not isinstance(message, dict):
            return _error("a message is a JSON object")
        kind = message.get("type")
        try:
            if kind == "move":
                move = self.table.check_move(0, message)
                self._commit(move, forced=len(self.table.legal) == 1)
            elif kind == "next":
                if not self.table.paused:
                    raise RefusedError("no round is waiting to start")
                self.table.resume()
                announce_table(self.table, [self.connection], self._connected())
            elif kind == "rematch":
                if self.table.round is not None:
                    raise RefusedError("a rematch is for when the match is over")
                self.table.restart(fresh_seed())
                announce_table(self.table, [self.connection], self._connected())
            elif kind == "table":
                send_table(self.table, self.connection, self._connected())
            elif kind == "ping":
                self.connection.put(encode({"type": "pong", "id": None}))
            else:
                return _error(f"unknown message type {str(kind)[:40]!r}")
        except RefusedError as err:
            return _error(str(err))
        return self._sent()

    def _commit(self, move: Any, *, forced: bool) -> None:
        """Play and announce a move, as the server's hub does (a new round waits)."""
        table = self.table
        rounds = table.match.rounds_played
        table.play(move, forced=forced)
        if table.match.rounds_played != rounds and table.round is not None and self.round_pause:
            table.pause(self.round_pause)
        announce_move(table, [self.connection], self._connected())

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
        out = self._sent()
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
            announce_table(self.table, [self.connection], self._connected())
        return self._sent()

    # -- the review and the hints (docs/analysis.md) -------------------------------------------

    def settings(self) -> str:
        """What the page shows of the game's settings: whether hints are on, the budgets."""
        return json.dumps(
            {"hints": self.hints, "review": self.review_iterations, "hint": self.hint_iterations}
        )

    def rounds(self) -> list[Record]:
        """The records of the rounds dealt so far (full: every hand), the last maybe unfinished."""
        t = self.table
        return table_rounds(t.rules, t.seed, t.moves)[0]

    def review(self, query: str) -> str:
        """The review of seat 0's decisions in a finished round (``query``: the JSON of
        ``{"round": K, "lang": L}``, by default the last finished, in English), as ``chickenfoot play``'s: valued
        from what seat 0 knew then (no hindsight), biggest loss first, at most
        :data:`SHOWN` with a loss, each with the picture of that moment (seat 0's view) and
        the better move's place glowing on it. The JSON of ``{"round", "decisions",
        "decisions_count", "iterations", "ms"}``, or of ``{"error"}``."""
        try:
            asked = json.loads(query)
        except ValueError:
            asked = None
        if not isinstance(asked, dict):
            return json.dumps({"error": "the request is not a JSON object"})
        done = self.table.match.rounds_played
        if done == 0:
            return json.dumps({"error": "no round is over yet: there is nothing to review"})
        number = asked.get("round", done - 1)
        if type(number) is not int or not 0 <= number < done:
            return json.dumps({"error": f"round must be a finished round, 0 to {done - 1}"})
        record = self.rounds()[number]
        lang = asked.get("lang", "en")  # the pictures' words: the page's language
        try:
            svg(record.start, lang=lang)
        except ArgumentError:  # not a language the library speaks
            lang = "en"
        began = time.perf_counter()
        if not any(s.turn == 0 for s in record.states()[:-1]):
            decisions: tuple[Any, ...] = ()
        else:
            result = analyse(record, seats=0, iterations=self.review_iterations, nodes=None)
            decisions = result.review()
        states = record.states()
        shown = []
        for d in [d for d in decisions if d.loss > 0][:SHOWN]:
            view = states[d.ply].view(0)
            shown.append({
                "ply": d.ply, "number": d.ply + 1, "move": str(d.move), "best": str(d.best),
                "loss": round(d.loss, 1), "glyph": d.glyph,
                "svg": svg(view, hands=0, targets=[d.best], lang=lang),
            })  # fmt: skip
        ms = round((time.perf_counter() - began) * 1000)
        return json.dumps({
            "round": number, "decisions": shown, "decisions_count": len(decisions),
            "iterations": self.review_iterations, "ms": ms,
        })  # fmt: skip

    def hint(self) -> str:
        """The hint at seat 0's turn when hints are on: the search player's best move from
        seat 0's own view (what it may know, nothing more), within the hint's budget. The
        JSON of ``{"move", "penalty", "win", "deals", "seed"}``, or of ``{"error"}``."""
        state = self.table.round
        if not self.hints:
            return json.dumps({"error": "Hints are off: start a new game with hints."})
        if state is None or self.table.paused or state.turn != 0:
            return json.dumps({"error": "it is not your turn: a hint is for your move"})
        seed = self._hint_rng.randrange(2**32)  # its own: asking changes no bot's move
        values = evaluate(state.view(0), iterations=self.hint_iterations, seed=seed)
        best = best_of(values)
        return json.dumps({
            "move": str(best.move), "penalty": best.penalty, "win": round(100 * best.win),
            "deals": self.hint_iterations, "seed": seed,
        })  # fmt: skip


def _error(text: str) -> str:
    """An ``error`` message (not fatal: the page goes on), as the server sends one."""
    return json.dumps([encode({"type": "error", "message": text})])
