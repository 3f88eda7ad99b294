"""One table of the server: a match, its seats, and what each seat may be shown.

A :class:`Table` holds the :class:`~chickenfoot.Match` and the moves played on it; it is
the only place that knows the hidden tiles, and it hands out only documents cut for one
audience: :meth:`Table.state_message` for a seat (its own view) or for a spectator (the
public view: no hand, no drawn tile), and :meth:`Table.go_message` (the engine protocol's
``go``, with the ``chickenfoot/view`` document and the legal moves) for the seat to act.
:meth:`Table.check_move` turns a client's ``move`` message into a legal move of the seat
to act, or raises :class:`RefusedError` with a message saying why, changing nothing.

The match's seed is never sent: it deals every hand.

>>> from chickenfoot import Rules, Rounds
>>> from chickenfoot.server._store import SeatRow
>>> seats = (SeatRow(0, "person", "", "secret-0", "Ann"), SeatRow(1, "bot", "greedy", None, "greedy"))
>>> t = Table("t1", Rules(players=2, match=Rounds(1)), 5, seats)
>>> t.seat_of("secret-0"), t.seat_of("guess")
(0, None)
>>> go = t.go_message(t.turn) if t.turn == 0 else None
>>> t.check_move(1, {"type": "move", "move": "pass", "id": t.n})
Traceback (most recent call last):
...
chickenfoot.server._table.RefusedError: seat 1 is not a person's seat: its moves are the server's
"""

from __future__ import annotations

import hmac
import re
import time
from collections.abc import Mapping, Sequence
from typing import Any, Final

from chickenfoot._protocol import PROTOCOL, ProtocolError, go, read_move
from chickenfoot.match import Match
from chickenfoot.moves import Draw, Move, Pass, Play
from chickenfoot.picture import svg
from chickenfoot.rules import Rules
from chickenfoot.server._store import SeatRow
from chickenfoot.state import LegalMoves, State
from chickenfoot.view import View

__all__ = ["NO_CLOCK_MS", "RefusedError", "Table", "public_document"]

NO_CLOCK_MS: Final = 86_400_000
"""The ``time_ms`` of a ``go`` at a person's seat: people play without a clock (a day)."""
_LOG = 12  # the events of the round shown in the page's log
_DREW = re.compile(r"drew \d+-\d+")


class RefusedError(Exception):
    """A client's message that is refused; the text says why (nothing was changed)."""


def public_document(v: View) -> dict[str, Any]:
    """The public view: a ``chickenfoot/view`` document of no seat (``seat``, ``drawn``
    null, ``hand`` empty, every draw without its tile), what a spectator sees.

    ``v`` must be the view of a seat that is not to act (it has no drawn tile).

    >>> from chickenfoot import Rules, deal
    >>> s = deal(Rules(players=2), seed=1)
    >>> for move in ["9-8@9-9", "9-5@9-9", "9-3@9-9", "9-4@9-9", "9-0@9-9", "draw"]:
    ...     s = s.apply(move)
    >>> str(s.view(1).history[-1]), s.turn              # seat 1 drew 8-8, and is to act
    ('1:draw:8-8', 1)
    >>> d = public_document(s.view(0))
    >>> d["seat"], d["hand"], d["drawn"], d["history"][-1]
    (None, [], None, [1, 'draw'])
    """
    doc = v.to_dict()
    doc["seat"] = None
    doc["hand"] = []
    doc["drawn"] = None
    doc["history"] = [
        [seat, "draw" if move.startswith("draw") else move] for seat, move in doc["history"]
    ]
    return doc


def _explain(seat: int, move: Move, shown: str, forced: bool | None, after_draw: bool) -> str:
    """The log line of one event. A forced move (``forced``: the seat's only legal move, a
    fact about its hand, told to that seat alone; ``None`` for the others) says why it was
    the only one (``after_draw``: the seat's previous event was a draw, in the same turn)."""
    who = f"seat {seat}"
    if not forced:
        return f"{who} played {shown}" if isinstance(move, Play) else f"{who}: {shown}"
    if isinstance(move, Draw):
        tile = shown.partition(":")[2]
        return f"{who} had no tile to play, so drew{' ' + tile if tile else ''} (forced)"
    if isinstance(move, Pass):
        why = "could not play the drawn tile" if after_draw else "had no play and nothing to draw"
        return f"{who} {why}, so passed (forced)"
    return f"{who} played {shown}, the only legal move (forced)"


class Table:
    """A match between ``seats`` (persons with tokens, bots with specs), from ``seed``.

    Moves are played with :meth:`play` (checked by the match: an illegal one raises the
    library's error); ``moves`` lists them as ``(seat, notation, forced)``.
    """

    def __init__(self, table_id: str, rules: Rules, seed: int, seats: Sequence[SeatRow]) -> None:
        if len(seats) != rules.players or [s.seat for s in seats] != list(range(rules.players)):
            raise ValueError(f"table {table_id}: expected seats 0 to {rules.players - 1}")
        self.id = table_id
        self.rules = rules
        self._seed = seed
        self.seats = tuple(seats)
        self.match = Match.start(rules, seed=seed)
        self.moves: list[tuple[int, str, bool]] = []
        self._round_start = 0
        self.error: str | None = None
        """Why the table cannot go on (a bot that failed), or ``None``."""
        self.last_round: dict[str, Any] | None = None
        """How the last finished round ended, every hand revealed (public by then)."""
        self.pause_until: float | None = None
        """While set (a ``time.monotonic()``), the next round waits: no move, no ``go``."""
        self.ready: set[int] = set()
        """The seats that asked for the next round (during a pause) or for a rematch."""

    @property
    def paused(self) -> bool:
        """Whether the next round waits for the people (or the end of the countdown)."""
        return self.pause_until is not None

    def pause(self, seconds: float) -> None:
        """Hold the round just dealt for ``seconds`` (or until the people are ready)."""
        self.pause_until = time.monotonic() + seconds
        self.ready = set()

    def resume(self) -> None:
        """End the pause: the round dealt is played."""
        self.pause_until = None
        self.ready = set()

    def restart(self, seed: int) -> None:
        """A rematch: a new match from ``seed``, with the same seats."""
        self._seed = seed
        self.match = Match.start(self.rules, seed=seed)
        self.moves = []
        self._round_start = 0
        self.last_round = None
        self.resume()

    # -- the position -----------------------------------------------------------------------

    @property
    def n(self) -> int:
        """The number of moves played: the ``id`` of the next ``go``."""
        return len(self.moves)

    @property
    def round(self) -> State | None:
        """The round in play (``None`` once the match is over)."""
        return self.match.round

    @property
    def turn(self) -> int | None:
        """The seat to act, or ``None`` once the match is over."""
        state = self.match.round
        return None if state is None else state.turn

    @property
    def legal(self) -> LegalMoves:
        """The legal moves of the seat to act."""
        return self.match.legal_moves

    def seat_of(self, token: object) -> int | None:
        """The person's seat whose token ``token`` is, compared in constant time (every
        seat's token is compared, whatever matches), or ``None``."""
        if not isinstance(token, str) or not token or len(token) > 200:
            return None
        given = token.encode("utf-8", "replace")
        found = None
        for s in self.seats:
            if s.token is not None and hmac.compare_digest(given, s.token.encode()):
                found = s.seat
        return found

    def play(self, move: Move, *, forced: bool) -> None:
        """Play ``move`` for the seat to act (the match checks it)."""
        state = self.match.round
        if state is None:
            raise RefusedError("the match is over")
        seat = state.turn
        before = self.match.rounds_played
        self.match = self.match.apply(move)
        self.moves.append((seat, move.uci(), forced))
        if self.match.rounds_played != before:
            end = self.match.last_round
            assert end is not None
            outcome = end.outcome()
            assert outcome is not None
            self.last_round = {
                "round": before,
                "outcome": str(outcome),
                "out": outcome.seat,
                "penalties": list(self.match.scores[-1]),
                # public once the round is over: the penalties are counted from them
                "hands": [[str(t) for t in end.hand(s)] for s in range(self.rules.players)],
                "svg": svg(end, hands="none"),
            }
            self._round_start = len(self.moves)

    # -- checking a client's move -----------------------------------------------------------

    def check_move(self, seat: int | None, message: Mapping[str, Any]) -> Move:
        """The legal move a ``move`` message from ``seat``'s connection names.

        Raises :class:`RefusedError` for a spectator, a bot's seat, the wrong turn, a move that
        does not answer the current ``go`` (its ``id``: a replayed or stale message), or a
        move that is not legal; nothing is changed.
        """
        if seat is None:
            raise RefusedError("a spectator cannot move: open the table with a seat's invite link")
        if self.seats[seat].kind != "person":
            raise RefusedError(f"seat {seat} is not a person's seat: its moves are the server's")
        claimed = message.get("seat", seat)
        if claimed != seat:
            raise RefusedError(f"this connection plays seat {seat} only, not seat {claimed!r:.40}")
        if self.error is not None:
            raise RefusedError(f"the table is stopped: {self.error}")
        state = self.match.round
        if state is None:
            raise RefusedError("the match is over: no more moves")
        given = message.get("id")
        if type(given) is not int:
            raise RefusedError(f"a move must carry the id of the go it answers (now {self.n})")
        if given != self.n:
            raise RefusedError(
                f"move id {given} does not answer the current go (id {self.n}): "
                "a replayed or stale move"
            )
        if self.paused:
            raise RefusedError("the next round has not started: press ready (or wait)")
        if state.turn != seat:
            raise RefusedError(f"it is seat {state.turn}'s turn, not yours (seat {seat})")
        try:
            return read_move(message, self.legal, self.rules.max_pip)
        except ProtocolError as err:
            raise RefusedError(str(err)) from None

    # -- what each audience is sent ---------------------------------------------------------

    def _viewer(self) -> int:
        """A seat whose view makes the public one: not the seat to act (no drawn tile)."""
        turn = self.turn or 0
        return (turn + 1) % self.rules.players

    def _picture(self, v: View, seat: int | None) -> str:
        if seat is not None:  # the seat to act: where its legal moves go (its page glows them)
            mine = v.turn == seat and not self.paused and self.seats[seat].kind == "person"
            return svg(v, hands="none", targets=v.legal_moves if mine else None)
        picture = svg(v, hands="none").replace(f"seat {v.seat}'s view · ", "")
        return _DREW.sub("drew", picture)

    def _log(self, v: View, seat: int | None) -> list[dict[str, Any]]:
        moves = self.moves[self._round_start :]
        events = v.history[-_LOG:]
        first = len(v.history) - len(events)
        out = []
        for i, event in enumerate(events):
            shown = str(event.move)
            if seat is None and shown.startswith("draw"):
                shown = "draw"
            # Whether a move was forced tells what its player held: said to that seat only.
            forced = None
            if seat == event.seat:
                forced = moves[first + i][2] if first + i < len(moves) else False
            before = v.history[first + i - 1] if first + i > 0 else None
            after_draw = (
                before is not None and before.seat == event.seat and isinstance(before.move, Draw)
            )
            out.append(
                {
                    "seat": event.seat,
                    "move": shown,
                    "forced": forced,
                    "text": _explain(event.seat, event.move, shown, forced, after_draw),
                }
            )
        return out

    def _last_round(self) -> dict[str, Any] | None:
        """How the last round ended; its hands and final board only until the next round's
        first move (or the match's end): no message carries them all round long."""
        end = self.last_round
        if end is None or self.round is None or self.paused or self.n == self._round_start:
            return end
        return {k: v for k, v in end.items() if k not in ("hands", "svg")}

    def state_message(self, seat: int | None, connected: Sequence[bool] = ()) -> dict[str, Any]:
        """The ``table`` message for ``seat`` (``None``: a spectator): the view (the seat's,
        or the public one), its SVG picture, the seats' tile counts, the scores of the
        finished rounds (the match sheet), the log of the round, the result once over."""
        state = self.match.round
        result = self.match.result()
        message: dict[str, Any] = {
            "type": "table",
            "protocol": PROTOCOL,
            "table": self.id,
            "you": seat,
            "n": self.n,
            "round": self.match.rounds_played,
            "turn": self.turn,
            "scores": [list(row) for row in self.match.scores],
            "totals": list(self.match.totals),
            "over": state is None,
            "result": str(result) if state is None else None,
            "last_round": self._last_round(),
            "pause": None
            if self.pause_until is None
            else {
                "seconds": round(max(0.0, self.pause_until - time.monotonic()), 1),
                "ready": sorted(self.ready),
            },
            "rematch": sorted(self.ready) if state is None else None,
            "error": self.error,
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "kind": s.kind,
                    "tiles": None if state is None else state.hand_sizes[s.seat],
                    "connected": s.kind == "bot" or (i < len(connected) and connected[i]),
                }
                for i, s in enumerate(self.seats)
            ],
        }
        if state is None:
            message.update(view=None, svg=None, log=[], last=None)
            return message
        v = state.view(self._viewer() if seat is None else seat)
        message["view"] = v.to_dict() if seat is not None else public_document(v)
        message["svg"] = self._picture(v, seat)
        message["log"] = self._log(v, seat)
        message["last"] = message["log"][-1] if message["log"] else None
        message["boneyard"] = v.boneyard_size
        return message

    def go_message(self, seat: int) -> dict[str, Any] | None:
        """The engine protocol's ``go`` for ``seat`` when it is to act (even with one legal
        move: a person plays their own forced moves), with ``id``, the number of the move it
        asks for; else ``None``."""
        state = self.match.round
        if state is None or state.turn != seat or self.error is not None or self.paused:
            return None
        v = state.view(seat)
        message = go(v, v.legal_moves, NO_CLOCK_MS, None)
        message["id"] = self.n
        return message
