"""The records of a table in the notation (docs: Serve, "Records"; docs/notation.md).

``GET /api/tables/{table}/record`` answers one round (``?round=K``, default: the round in
play, or the last once the match is over) or every round dealt so far (``?round=all``)
as a notation file, for one audience (``?audience=``):

- ``seat``: the caller's own copy, what that seat saw (``seat K`` in the notation). The
  seat is the one of the token in ``Authorization: Bearer TOKEN``, the token of the seat's
  link, the same that opens its WebSocket; the token never goes in the address (logs).
  The default with a token.
- ``spectator``: the public copy, for anyone (the default without a token).
- ``full``: every hand, for anyone, of rounds that are over; a round in play is refused
  with ``409`` and a message saying when it will be given.

Each round's copy carries its deal's ``Commitment`` (docs/notation.md, "Checking a deal"),
and its ``DealSeed`` once that round is over; the table's secret is never written (it
deals every round, the next ones too). A bad token
is ``401``, an unknown table or a round not dealt ``404``, a bad option ``400``; too many
downloads from one address ``429``. The round is rebuilt from the table's moves off the
event loop, and checked against the table's match before anything is written.

>>> audience_of(None, None), audience_of("full", 2), audience_of("seat", None)
('spectator', 'full', None)
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from chickenfoot.errors import ChickenFootError, brief
from chickenfoot.match import Match
from chickenfoot.notation import write_game
from chickenfoot.record import Record
from chickenfoot.rules import Rules
from chickenfoot.server._deals import deal_headers, deal_round
from chickenfoot.server._rows import SeatRow
from chickenfoot.state import State

if TYPE_CHECKING:  # the route's parts: the Play page (Pyodide) uses round_texts alone
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Route

    from chickenfoot.server._lookups import Lookups

__all__ = [
    "DOWNLOADS_BURST",
    "DOWNLOADS_PER_MINUTE",
    "audience_of",
    "page_copy",
    "record_route",
    "round_texts",
    "table_rounds",
]

DOWNLOADS_PER_MINUTE: Final = 60.0
"""Record downloads one client address may make a minute (beyond a burst)."""
DOWNLOADS_BURST: Final = 20
"""Record downloads one client address may make at once."""
_AUDIENCES: Final = ("seat", "spectator", "full")
_NO_STORE: Final = {"Cache-Control": "no-store"}


class _RefusedError(Exception):
    """A download refused: its status and its one-line message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def audience_of(asked: str | None, seat: int | None) -> str | None:
    """The notation audience a request asks for (``asked``: ``seat``, ``spectator``,
    ``full`` or none) from the seat its token names (``None``: no token), or ``None`` when
    it asks for a seat's copy without a seat."""
    if asked is None:
        return "spectator" if seat is None else f"seat {seat}"
    if asked == "seat":
        return None if seat is None else f"seat {seat}"
    return asked


def table_rounds(
    rules: Rules, seed: int, moves: Sequence[tuple[int, str, bool]]
) -> tuple[list[Record], Match]:
    """Every round dealt by a table's match so far, from its moves, and the match: each
    round dealt from its own seed, as the table deals it (``seed`` is the table's secret)."""
    match = deal_round(Match.start(rules, seed=seed), seed)
    starts: list[State] = []
    played: list[list[str]] = []
    for _seat, move, _forced in moves:
        if match.round is None:
            raise ValueError("a move after the end of the match")
        if len(starts) == match.rounds_played:
            starts.append(match.round)
            played.append([])
        played[-1].append(move)
        after = match.apply(move)
        match = deal_round(after, seed) if after.rounds_played != match.rounds_played else after
    if match.round is not None and len(starts) == match.rounds_played:
        starts.append(match.round)
        played.append([])
    rounds = [Record(start, moves) for start, moves in zip(starts, played, strict=True)]
    return rounds, match


def round_texts(
    records: Sequence[Record],
    seats: Sequence[SeatRow],
    *,
    round: int | None,
    audience: str,
    secret: int,
) -> str:
    """The notation of round ``round`` (``None``: every round dealt) of a table's match
    (its rounds' ``records``, its ``seats``, its ``secret``) for ``audience``, each round
    with its deal's headers. Raises :class:`_RefusedError` for a round not dealt, or a full
    copy of a round in play."""
    chosen = range(len(records)) if round is None else [round]
    if round is not None and not 0 <= round < len(records):
        raise _RefusedError(404, f"round {round} has not been dealt at this table")
    headers = {"Event": "chickenfoot serve"}
    for s in seats:
        headers[f"Name{s.seat}"] = s.name
        headers[f"Agent{s.seat}"] = s.spec if s.kind == "bot" else "human"
    parts = []
    for k in chosen:
        if audience == "full" and not records[k].final().is_over():
            raise _RefusedError(
                409, f"the full copy of round {k} is given once the round is over; it is in play"
            )
        dealt = deal_headers(records[k].start.rules, secret, k, over=records[k].final().is_over())
        parts.append(write_game(records[k], audience=audience, headers={**headers, **dealt}))
    return "".join(parts)


def _round_option(text: str | None, played: int, over: bool) -> int | None:
    """The round a request names (``None``: all), by default the round in play (or the
    last one once the match is over)."""
    if text is None:
        return played - 1 if over else played
    if text == "all":
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= 4):
        raise _RefusedError(400, f"round={brief(text, 20)} is not a round number or 'all'")
    return int(text)


def _token(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise _RefusedError(401, "the Authorization header must be 'Bearer' and the seat's token")
    return token.strip()


def record_route(lookups: Lookups) -> Route:
    """The route ``GET /api/tables/{table}/record`` of the tables ``lookups`` opens."""
    from starlette.responses import JSONResponse
    from starlette.routing import Route

    from chickenfoot.server._limits import Buckets
    from chickenfoot.server._lookups import TooManyReadsError

    buckets = Buckets(DOWNLOADS_PER_MINUTE, DOWNLOADS_BURST)

    async def download(request: Request) -> Response:
        address = request.client.host if request.client else ""
        try:
            wait = buckets.take(address)
            if wait > 0:
                seconds = max(1, int(wait + 0.999))
                message = f"too many downloads from your address: try again in {seconds} s"
                return JSONResponse(
                    {"error": message}, 429, headers={"Retry-After": str(seconds), **_NO_STORE}
                )
            return await _answer(request, lookups, address)
        except _RefusedError as err:
            return JSONResponse({"error": str(err)}, err.status, headers=_NO_STORE)
        except TooManyReadsError as err:
            headers = {"Retry-After": str(err.seconds), **_NO_STORE}
            return JSONResponse({"error": str(err)}, 429, headers=headers)

    return Route("/api/tables/{table}/record", download)


async def _answer(request: Request, lookups: Lookups, address: str) -> Response:
    from starlette.responses import Response

    table_id = request.path_params["table"]
    asked = request.query_params.get("audience")
    if asked is not None and asked not in _AUDIENCES:
        raise _RefusedError(400, f"audience={brief(asked, 20)} is not seat, spectator or full")
    token = _token(request)
    table = await lookups.open(table_id, address)
    if table is None:
        raise _RefusedError(404, f"there is no table {brief(table_id, 40)}")
    seat = None if token is None else table.seat_of(token)
    if token is not None and seat is None:
        raise _RefusedError(401, "this token is not a seat of this table")
    audience = audience_of(asked, seat)
    if audience is None:
        raise _RefusedError(401, "a seat's copy needs the seat's token (Authorization: Bearer)")
    match = table.match
    round_ = _round_option(
        request.query_params.get("round"), match.rounds_played, match.round is None
    )
    # A snapshot taken here, on the event loop: the table moves on while the copy is written.
    snapshot: tuple[Any, ...] = (table.rules, table.seed, table.seats, list(table.moves))
    try:
        text = await asyncio.to_thread(_write, match, snapshot, round_, audience)
    except (ChickenFootError, ValueError):
        raise _RefusedError(503, "the record of this table cannot be written now") from None
    name = f"chickenfoot-{table_id}-{'all' if round_ is None else round_}-{audience}.cfn"
    return Response(
        text,
        media_type="text/plain; charset=utf-8",
        headers={
            "Content-Disposition": f'attachment; filename="{name.replace(" ", "")}"',
            **_NO_STORE,
        },
    )


def page_copy(
    rules: Rules,
    seed: int,
    seats: Sequence[SeatRow],
    moves: Sequence[tuple[int, str, bool]],
    *,
    audience: str | None,
    round: str | None,
    seat: int,
) -> dict[str, str]:
    """What the Play page's download gets (no server there): ``{"text", "name"}``, or
    ``{"error"}`` with the sentence the server would answer."""
    try:
        records, match = table_rounds(rules, seed, moves)
        chosen = audience_of(audience, seat)
        if chosen is None or (audience is not None and audience not in _AUDIENCES):
            raise _RefusedError(
                400, f"audience={brief(audience, 20)} is not seat, spectator or full"
            )
        number = _round_option(round, match.rounds_played, match.round is None)
        text = round_texts(records, seats, round=number, audience=chosen, secret=seed)
    except _RefusedError as err:
        return {"error": str(err)}
    label = "all" if number is None else number
    return {"text": text, "name": f"chickenfoot-{label}-{chosen.replace(' ', '')}.cfn"}


def _write(match: Match, snapshot: tuple[Any, ...], round_: int | None, audience: str) -> str:
    rules, seed, seats, moves = snapshot
    records, check = table_rounds(rules, seed, moves)
    if check.scores != match.scores or check.round != match.round:
        raise ValueError("the table's moves do not give its match")
    return round_texts(records, seats, round=round_, audience=audience, secret=seed)
