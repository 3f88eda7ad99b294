"""A ladder's results file: JSON lines, a header then one line per game, appended as games
finish, so a run that stops (Ctrl-C, a crash, a failing engine) keeps what it played and
the next run with the same file continues it.

The header ``{"format": "chickenfoot/ladder", "version": 2, "rules": {...}, "agents":
[specs], "seed": S, "game": "round"|"match", "seatings": "auto"|...}`` says what the games
are; a run with other rules, agents, seed, game or seatings refuses the file. Version 1
files seated by rotations are refused too: their rotations kept each table's agents in one
order, where version 2 draws an order for each deal (their games cannot be continued);
version 1 files seated by every permutation are the same in both and continue. Each game
line is :meth:`Game.to_dict <chickenfoot.ladder._play.Game.to_dict>`. The file is data:
nothing in it is evaluated, and its agents are compared as text, never built.

It is read like every other document: line by line (at most :data:`MAX_LINE` bytes each,
UTF-8), each line strict JSON (:func:`chickenfoot.formats.loads`: no key twice, no
``NaN``), the header checked as a document's (:func:`chickenfoot.formats.check_header`:
its keys, its version) and every game line's keys and values. Check first, write after:
:meth:`ResultsFile.read` writes nothing, so a file refused is left as it was, and only
:meth:`ResultsFile.start` changes it (a line cut short by a crash is dropped then). A name
that is not a regular file (a named pipe, a device) is refused without being opened to
wait on (:mod:`chickenfoot._files`).
"""

from __future__ import annotations

import json
import math
import os
from typing import IO, Any, Final

from chickenfoot._files import open_regular, why_not
from chickenfoot._reading import kind
from chickenfoot.errors import FormatError, LadderError, brief
from chickenfoot.formats import check_header, loads
from chickenfoot.ladder._play import MAX_DEALS, Game, Task, rotates

__all__ = ["FORMAT", "MAX_LINE", "ResultsFile", "header"]

FORMAT: Final = "chickenfoot/ladder"
_VERSION: Final = 2
_VERSIONS: Final = (1, 2)
MAX_LINE: Final = 1 << 20
"""The longest line of a results file read, in bytes (a game's line takes about 100)."""
_HEAD: Final = ("format", "version", "rules", "agents", "seed", "game", "seatings")
_TASK: Final = ("deal", "seating", "seats")
_PLAYED: Final = ("penalties", "winners")
_FAILED: Final = ("error", "seat")


def header(
    rules: dict[str, Any], agents: list[str], seed: int, game: str, how: str
) -> dict[str, Any]:
    """The first line of a results file."""
    return {
        "format": FORMAT,
        "version": _VERSION,
        "rules": rules,
        "agents": agents,
        "seed": seed,
        "game": game,
        "seatings": how,
    }


def _differences(want: dict[str, Any], got: dict[str, Any]) -> str:
    """What differs between this run's header and the file's, in at most 300 characters."""
    said = []
    for key in ("rules", "agents", "seed", "game", "seatings"):
        if got.get(key) != want[key]:
            said.append(f"{key} {brief(got.get(key), 50)} (this run: {brief(want[key], 50)})")
    text = "; ".join(said)
    return text if len(text) <= 300 else text[:297] + "..."


def _task(line: dict[str, Any], where: str, agents: int, players: int) -> Task:
    deal, seating, seats = line.get("deal"), line.get("seating"), line.get("seats")
    if not (
        type(deal) is int
        and type(seating) is int
        and 0 <= deal < MAX_DEALS
        and 0 <= seating < math.factorial(players)
        and isinstance(seats, list)
        and all(type(s) is int and 0 <= s < agents for s in seats)
    ):
        raise LadderError(f"{where}: not a game of this ladder (deal, seating, seats)")
    return Task(deal, seating, tuple(seats))


def _game(line: object, where: str, agents: int, players: int) -> Game:
    if not isinstance(line, dict):
        raise LadderError(f"{where}: expected a JSON object, got {kind(line)}")
    task = _task(line, where, agents, players)
    if len(task.seats) != players:
        raise LadderError(f"{where}: {len(task.seats)} seats, the ladder has {players}")
    keys = (*_TASK, *(_FAILED if "error" in line else _PLAYED))
    for key in line:
        if key not in keys:
            raise LadderError(
                f"{where}: {brief(key, 40)}: unknown key (a game has deal, seating, seats, "
                "and penalties and winners, or error and seat)"
            )
    for key in keys:
        if key not in line:
            raise LadderError(f"{where}: {key}: missing")
    if "error" in line:
        error, seat = line["error"], line["seat"]
        if not isinstance(error, str):
            raise LadderError(f"{where}: error: expected a string, got {kind(error)}")
        if seat is not None and not (type(seat) is int and 0 <= seat < players):
            raise LadderError(f"{where}: seat: {brief(seat)} is not a seat (0 to {players - 1})")
        return Game(task, error=error[:400], seat=seat)
    pens, winners = line["penalties"], line["winners"]
    if not (
        isinstance(pens, list)
        and len(pens) == players
        and all(type(p) is int and 0 <= p < 1 << 31 for p in pens)
        and isinstance(winners, list)
        and all(type(w) is int and 0 <= w < players for w in winners)
    ):
        raise LadderError(f"{where}: penalties and winners are not those of {players} seats")
    return Game(task, tuple(pens), tuple(winners))


class ResultsFile:
    """A results file: :meth:`read` reads what it holds (checking its header against this
    run's) and writes nothing; :meth:`start` makes it ready (the first write); :meth:`add`
    appends a game, flushed at once; :meth:`close` closes it."""

    def __init__(self, path: str | os.PathLike[str], head: dict[str, Any], players: int) -> None:
        self.path = os.fspath(path)
        self.head = head
        self.players = players
        self.games: list[Game] = []
        self._fd: int | None = None  # open from read() to close()
        self._keep = 0  # the bytes of the whole lines read (a cut last line is after them)
        self._size = 0
        self._out: IO[str] | None = None

    @property
    def name(self) -> str:
        """The file's name, bounded, for messages."""
        return brief(self.path, 80)

    def read(self) -> list[Game]:
        """The games already in the file (none for a new or empty file), nothing written.

        :class:`~chickenfoot.LadderError` for a file that is not a regular file, cannot be
        opened to read and append, or is not this ladder's."""
        try:
            self._fd = open_regular(self.path, os.O_RDWR | os.O_APPEND)
        except FileNotFoundError:
            return []  # a new file: start() creates it
        except (OSError, ValueError) as err:  # not a regular file, no permission, a NUL
            raise LadderError(f"{self.name}: {why_not(err)}") from None
        try:
            self._size = os.fstat(self._fd).st_size
            with open(self._fd, "rb", closefd=False) as f:
                self._read(f)
        except BaseException:
            self.close()
            raise
        return list(self.games)

    def _read(self, f: IO[bytes]) -> None:
        number = 0
        while True:
            raw = f.readline(MAX_LINE + 1)
            if not raw:
                break
            number += 1
            where = f"{self.name} line {number}"
            if len(raw) > MAX_LINE:
                raise LadderError(f"{where}: longer than {MAX_LINE:,} bytes")
            if not raw.endswith(b"\n"):  # cut short by a crash: dropped by start()
                number -= 1
                break
            self._keep += len(raw)
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                text = None
            if number == 1:
                self._check_header(text)
                continue
            if text is None:
                raise LadderError(f"{where}: not UTF-8")
            try:
                line = loads(text)
            except FormatError as err:
                raise LadderError(f"{where}: {err}") from None
            self.games.append(_game(line, where, len(self.head["agents"]), self.players))
        if number == 0 and self._size:
            raise LadderError(f"{self.name} is not a ladder's results file (no {FORMAT} header)")

    def _check_header(self, text: str | None) -> None:
        name = self.name
        not_one = f"{name} is not a ladder's results file"
        if text is None:
            raise LadderError(f"{not_one} (line 1: not UTF-8)")
        try:
            first = loads(text)
        except FormatError as err:
            raise LadderError(f"{not_one} (line 1: {err})") from None
        if not isinstance(first, dict) or first.get("format") != FORMAT:
            raise LadderError(f"{not_one} (no {FORMAT} header)")
        try:
            check_header(first, FORMAT, _HEAD, versions=_VERSIONS)
        except FormatError as err:
            raise LadderError(f"{name} line 1: {err}") from None
        if first["version"] == 1 and rotates(str(self.head["seatings"]), self.players):
            raise LadderError(
                f"{name} was written by an earlier ladder (results version 1), whose "
                "rotations kept every table's agents in one order; this one draws an order "
                "for each deal: start a new file"
            )
        wrong = _differences(self.head, first)
        if wrong:
            raise LadderError(
                f"{name} holds another ladder's games: {wrong} "
                "(give another file, or the same options)"
            )

    def start(self) -> None:
        """Ready to add games, the file's first change: a new file is created with its
        header, a line cut short is dropped."""
        if self._fd is None:
            try:
                self._fd = open_regular(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
            except (OSError, ValueError) as err:  # no such folder, no permission
                raise LadderError(f"{self.name}: {why_not(err)}") from None
        if self._keep < self._size:
            os.ftruncate(self._fd, self._keep)
        self._out = open(self._fd, "a", encoding="utf-8", closefd=False)  # noqa: SIM115
        if self._keep == 0:
            self._write(self.head)

    def _write(self, line: dict[str, Any]) -> None:
        assert self._out is not None
        self._out.write(json.dumps(line, separators=(",", ":")) + "\n")
        self._out.flush()

    def add(self, game: Game) -> None:
        """Append one game."""
        self._write(game.to_dict())

    def close(self) -> None:
        """Close the file (what was added is already written)."""
        if self._out is not None:
            self._out.close()
            self._out = None
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
