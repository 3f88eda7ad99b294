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
"""

from __future__ import annotations

import json
import os
from typing import IO, Any, Final

from chickenfoot.errors import ChickenFootError, brief
from chickenfoot.ladder._play import Game, Task, rotates

__all__ = ["FORMAT", "LadderError", "ResultsFile", "header"]

FORMAT: Final = "chickenfoot/ladder"
_VERSION: Final = 2
_MAX_LINE: Final = 1 << 20


class LadderError(ChickenFootError):
    """A ladder that cannot run or went wrong: a results file of another ladder, an agent
    that failed in a game (its seat and deal named; the games played are kept)."""


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


def _differences(want: dict[str, Any], got: dict[str, Any]) -> list[str]:
    said = []
    for key in ("rules", "agents", "seed", "game", "seatings"):
        if got.get(key) != want[key]:
            said.append(f"{key} {brief(got.get(key), 120)} (this run: {brief(want[key], 120)})")
    return said


def _task(line: dict[str, Any], where: str, agents: int) -> Task:
    deal, seating, seats = line.get("deal"), line.get("seating"), line.get("seats")
    if not (
        type(deal) is int
        and type(seating) is int
        and deal >= 0
        and seating >= 0
        and isinstance(seats, list)
        and all(type(s) is int and 0 <= s < agents for s in seats)
    ):
        raise LadderError(f"{where}: not a game of this ladder (deal, seating, seats)")
    return Task(deal, seating, tuple(seats))


def _game(line: object, where: str, agents: int, players: int) -> Game:
    if not isinstance(line, dict):
        raise LadderError(f"{where}: expected a JSON object, got {brief(line, 60)}")
    task = _task(line, where, agents)
    if len(task.seats) != players:
        raise LadderError(f"{where}: {len(task.seats)} seats, the ladder has {players}")
    if "error" in line:
        seat = line.get("seat")
        return Game(task, error=str(line["error"])[:400], seat=seat if type(seat) is int else None)
    pens, winners = line.get("penalties"), line.get("winners")
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
    """An open results file: :meth:`open` reads what it holds (checking its header
    against this run's) and :meth:`add` appends a game, flushed at once."""

    def __init__(self, path: str | os.PathLike[str], head: dict[str, Any], players: int) -> None:
        self.path = os.fspath(path)
        self.head = head
        self.players = players
        self.games: list[Game] = []
        self._out: IO[str] | None = None

    def open(self) -> list[Game]:
        """The games already in the file (none for a new or empty file), then ready to add."""
        existing = os.path.exists(self.path) and os.path.getsize(self.path) > 0
        if existing:
            self._read()
        self._out = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 - closed by close()
        if not existing:
            self._write(self.head)
        return list(self.games)

    def _read(self) -> None:
        with open(self.path, "rb+") as f:
            data = f.read()
            end = data.rfind(b"\n") + 1
            if end < len(data):  # a line cut short by a crash: dropped, then continued
                f.truncate(end)
                data = data[:end]
        lines = data.decode("utf-8", errors="replace").splitlines()
        name = brief(self.path, 80)
        try:
            first = json.loads(lines[0]) if lines and len(lines[0]) < _MAX_LINE else None
        except ValueError:
            first = None
        if not isinstance(first, dict) or first.get("format") != FORMAT:
            raise LadderError(f"{name} is not a ladder's results file (no {FORMAT} header)")
        version = first.get("version")
        if version not in (1, _VERSION):
            raise LadderError(f"{name} is a ladder's results file of an unknown version")
        if version == 1 and rotates(str(self.head["seatings"]), self.players):
            raise LadderError(
                f"{name} was written by an earlier ladder (results version 1), whose "
                "rotations kept every table's agents in one order; this one draws an order "
                "for each deal: start a new file"
            )
        wrong = _differences(self.head, first)
        if wrong:
            raise LadderError(
                f"{name} holds another ladder's games: {'; '.join(wrong)} "
                "(give another file, or the same options)"
            )
        agents = len(self.head["agents"])
        for number, text in enumerate(lines[1:], start=2):
            where = f"{name} line {number}"
            if len(text) > _MAX_LINE:
                raise LadderError(f"{where}: longer than {_MAX_LINE:,} characters")
            try:
                line = json.loads(text)
            except ValueError:
                raise LadderError(f"{where}: not JSON") from None
            self.games.append(_game(line, where, agents, self.players))

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
