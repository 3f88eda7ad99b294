"""One table of the server: a match, its seats, and what each seat may be shown.

A :class:`Table` holds the :class:`~chickenfoot.Match` and the moves played on it; it is
the only place that knows the hidden tiles, and it hands out only documents cut for one
audience: :meth:`Table.state_message` for a seat (its own view) or for a spectator (the
public view: no hand, no drawn tile), and :meth:`Table.go_message` (the engine protocol's
``go``, with the ``chickenfoot/view`` document and the legal moves) for the seat to act.
:meth:`Table.check_move` turns a client's ``move`` message into a legal move of the seat
to act, or raises :class:`RefusedError` with a message saying why, changing nothing.

The match's seed is never sent; each round is dealt from its own (``_deals``).

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
from chickenfoot.server._deals import deal_headers, deal_round
from chickenfoot.server._patch import picture_patch
from chickenfoot.server._store import SeatRow
from chickenfoot.state import LegalMoves, State
from chickenfoot.view import View

__all__ = ["NO_CLOCK_MS", "RefusedError", "Table", "picture_patch", "public_document"]

NO_CLOCK_MS: Final = 86_400_000
"""The ``time_ms`` of a ``go`` at a person's seat: people play without a clock (a day)."""
_LOG = 12  # the events of the round shown in the page's log
_DREW = re.compile(r"drew \d+-\d+")
_TARGET = '<g class="target"'  # a place a move lays its tile: one line of the picture


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
    library's error); ``moves`` lists them as ``(seat, notation, forced)``. ``hints``:
    whether a seat may ask for a hint at its turn (told to everyone in :meth:`state_message`).
    """

    def __init__(
        self,
        table_id: str,
        rules: Rules,
        seed: int,
        seats: Sequence[SeatRow],
        *,
        hints: bool = False,
    ) -> None:
        if len(seats) != rules.players or [s.seat for s in seats] != list(range(rules.players)):
            raise ValueError(f"table {table_id}: expected seats 0 to {rules.players - 1}")
        self.id = table_id
        self.rules = rules
        self._seed = seed
        self.seats = tuple(seats)
        self.hints = hints
        self.match = deal_round(Match.start(rules, seed=seed), seed)
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
        self.version = 0
        """How many times the table changed (a move, a pause and its end, a rematch, a
        stop): the picture a page holds is the picture of one version."""
        # the pictures drawn, this version's and the one before: (version, svg, its lines)
        self._picture: tuple[int, str, list[str]] | None = None
        self._before: tuple[int, str, list[str]] | None = None
        self._patch: tuple[int, int, list[list[int] | str]] | None = None
        self._views: dict[int, View] = {}  # this version's views, by seat
        self._views_of = -1
        self._targets: list[str] = []  # the seat to act's places, from this version's picture

    @property
    def seed(self) -> int:
        """The match's seed (secret: it deals every hand; never sent)."""
        return self._seed

    def deal_headers(self, k: int | None = None) -> dict[str, str]:
        """Round ``k``'s (default: the round in play's) deal headers (``_deals``)."""
        k = self.match.rounds_played if k is None else k
        return deal_headers(self.rules, self._seed, k, over=k < self.match.rounds_played)

    @property
    def paused(self) -> bool:
        """Whether the next round waits for the people (or the end of the countdown)."""
        return self.pause_until is not None

    def pause(self, seconds: float) -> None:
        """Hold the round just dealt for ``seconds`` (or until the people are ready)."""
        self.pause_until = time.monotonic() + seconds
        self.ready = set()
        self.version += 1

    def resume(self) -> None:
        """End the pause: the round dealt is played."""
        self.pause_until = None
        self.ready = set()
        self.version += 1

    def restart(self, seed: int) -> None:
        """A rematch: a new match from ``seed``, with the same seats."""
        self._seed = seed
        self.match = deal_round(Match.start(self.rules, seed=seed), seed)
        self.moves = []
        self._round_start = 0
        self.last_round = None
        self.resume()

    def stop(self, reason: str) -> None:
        """Stop the table (a bot failed): ``reason`` is shown to everyone."""
        self.error = reason
        self.version += 1

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

    def play(self, move: Move, *, forced: bool, after: Match | None = None) -> None:
        """Play ``move`` for the seat to act (the match checks it; ``after``: the match
        after it, when worked out already)."""
        state = self.match.round
        if state is None:
            raise RefusedError("the match is over")
        seat = state.turn
        before = self.match.rounds_played
        self.match = self.match.apply(move) if after is None else after
        self.moves.append((seat, move.notation(), forced))
        self.version += 1
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
                "commitment": self.deal_headers(before)["Commitment"],
                "seed": self.deal_headers(before)["DealSeed"],
            }
            self._round_start = len(self.moves)
            self.match = deal_round(self.match, self._seed)

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

    def view(self, seat: int | None) -> View:
        """This version's view of ``seat`` (``None``: the view the public one is made from),
        made once per version: a view reads the round's whole history."""
        state = self.match.round
        assert state is not None
        if self._views_of != self.version:
            self._views, self._views_of = {}, self.version
        who = self._viewer() if seat is None else seat
        if who not in self._views:
            self._views[who] = state.view(who)
        return self._views[who]

    def picture(self) -> str | None:
        """The table's picture as everyone may see it (no hand, no drawn tile, no legal
        place), drawn once per version; ``None`` once the match is over."""
        state = self.match.round
        if state is None:
            return None
        if self._picture is None or self._picture[0] != self.version:
            # Drawn with the places of the seat to act (when a person: their page shows
            # them), which are then taken out: one drawing for everyone and for them.
            v = self.view(None)
            person = self.seats[state.turn].kind == "person" and not self.paused
            legal = state.legal_moves if person and self.error is None else None
            drawn = svg(v, hands="none", targets=legal, room_for_places=True)
            drawn = _DREW.sub("drew", drawn.replace(f"seat {v.seat}'s view · ", ""))
            lines = drawn.split("\n")
            self._targets = [line for line in lines if line.startswith(_TARGET)]
            if self._targets:
                lines = [line for line in lines if not line.startswith(_TARGET)]
                drawn = "\n".join(lines)
            self._before = self._picture
            self._picture = (self.version, drawn, lines)
        return self._picture[1]

    def _event(self, v: View, i: int, seat: int | None) -> dict[str, Any]:
        """Event ``i`` of ``v``'s round history as ``seat`` may see it (a log entry)."""
        event = v.history[i]
        shown = str(event.move)
        if seat is None and shown.startswith("draw"):
            shown = "draw"
        # Whether a move was forced tells what its player held: said to that seat only.
        forced = None
        if seat == event.seat:
            j = self._round_start + i
            forced = self.moves[j][2] if j < len(self.moves) else False
        before = v.history[i - 1] if i > 0 else None
        after_draw = (
            before is not None and before.seat == event.seat and isinstance(before.move, Draw)
        )
        return {
            "seat": event.seat,
            "move": shown,
            "forced": forced,
            "text": _explain(event.seat, event.move, shown, forced, after_draw),
        }

    def _log(self, v: View, seat: int | None) -> list[dict[str, Any]]:
        first = max(0, len(v.history) - _LOG)
        return [self._event(v, i, seat) for i in range(first, len(v.history))]

    def _last_round(self) -> dict[str, Any] | None:
        """How the last round ended; its hands and final board only until the next round's
        first move (or the match's end): no message carries them all round long."""
        end = self.last_round
        if end is None or self.round is None or self.paused or self.n == self._round_start:
            return end
        return {k: v for k, v in end.items() if k not in ("hands", "svg")}

    def state_message(
        self, seat: int | None, connected: Sequence[bool] = (), *, picture: bool = True
    ) -> dict[str, Any]:
        """The ``table`` message for ``seat`` (``None``: a spectator): the view (the seat's,
        or the public one), the table's picture (everyone's: :meth:`picture`; ``None``
        without ``picture``), the seats' tile counts, the scores of the finished rounds
        (the match sheet), the log of the round, the result once over."""
        state = self.match.round
        result = self.match.result()
        message: dict[str, Any] = {
            "type": "table",
            "protocol": PROTOCOL,
            "table": self.id,
            "you": seat,
            "n": self.n,
            "version": self.version,
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
            "commitment": None if state is None else self.deal_headers()["Commitment"],
            "error": self.error,
            "hints": self.hints,
            "reviews": True,  # a seat may ask for the review of its decisions in a round
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
        v = self.view(seat)
        message["view"] = v.to_dict() if seat is not None else public_document(v)
        message["svg"] = self.picture() if picture else None
        message["log"] = self._log(v, seat)
        message["last"] = message["log"][-1] if message["log"] else None
        message["boneyard"] = v.boneyard_size
        return message

    def moved_message(self, seat: int | None, *, base: int | None = None) -> dict[str, Any] | None:
        """The ``moved`` message for ``seat`` (``None``: a spectator) after a move within a
        round: the move as that seat may see it (``event``, a log entry), the new ``turn``,
        ``tiles`` (each seat's count), ``boneyard``, ``last_round``; for the seat that
        moved its ``hand`` and ``drawn`` now; with ``base`` (the version of the picture
        the connection holds) the change of the picture (:func:`picture_patch`).

        ``None`` when the last change is not a move within a round (a round's end, a
        pause, a rematch, a stop): the whole ``table`` is sent then."""
        state = self.match.round
        if state is None or self.paused or self.error is not None or self.n <= self._round_start:
            return None
        mover = self.moves[-1][0]
        v = self.view(seat)
        event = self._event(v, len(v.history) - 1, seat)
        message: dict[str, Any] = {
            "type": "moved",
            "n": self.n,
            "version": self.version,
            "turn": state.turn,
            "event": event,
            "tiles": list(state.hand_sizes),
            "boneyard": v.boneyard_size,
            "last_round": self._last_round(),
        }
        if seat == mover:
            message["hand"] = [str(t) for t in v.hand]
            message["drawn"] = None if v.drawn is None else str(v.drawn)
        if base is not None:
            message["picture"] = self.picture_change(base)
        return message

    def picture_change(self, base: int) -> dict[str, Any] | None:
        """The change from the picture of version ``base`` to this version's: ``{"base",
        "parts"}`` (:func:`picture_patch`), worked out once for every page; ``None`` when
        version ``base`` is not the last one drawn (the page then asks for the table)."""
        if self._picture is None or self._picture[0] != self.version:
            self._before = self._picture
        before = self._before
        if before is None or before[0] != base:
            return None
        if self._patch is None or self._patch[:2] != (base, self.version):
            self.picture()
            assert self._picture is not None
            self._patch = (base, self.version, picture_patch(before[2], self._picture[2]))
        return {"base": base, "parts": self._patch[2]}

    def go_message(self, seat: int, *, picture: bool = False) -> dict[str, Any] | None:
        """The engine protocol's ``go`` for ``seat`` when it is to act (even with one legal
        move: a person plays their own forced moves), with ``id``, the number of the move it
        asks for; with ``picture``, ``targets``: the places its legal moves lay a tile, to lay
        over the table's picture (drawn with it); else ``None``."""
        state = self.match.round
        if state is None or state.turn != seat or self.error is not None or self.paused:
            return None
        v = self.view(seat)
        message = go(v, v.legal_moves, NO_CLOCK_MS, None)
        message["id"] = self.n
        if picture:
            self.picture()  # its places are drawn with it
            message["targets"] = self._targets
        return message
