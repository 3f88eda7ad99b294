"""The game of ``chickenfoot play`` and its saved file: a whole match, or a record of one
round, written and read back as the library's own documents."""

from __future__ import annotations

import argparse

import attrs

from chickenfoot.cli._common import (
    MATCH_FORMAT,
    POSITION,
    RECORD_FORMAT,
    UsageError,
    read_document,
)
from chickenfoot.match import Match
from chickenfoot.moves import Move
from chickenfoot.record import Record
from chickenfoot.rules import Rules
from chickenfoot.state import State

__all__ = ["Game", "game_from_file"]


@attrs.frozen
class Game:
    """The game in play: a whole match, or a record of one round. Immutable."""

    match: Match | None = None
    record: Record | None = None

    @property
    def state(self) -> State | None:
        """The round in play (a finished round's final state in round mode; ``None`` once
        the match is over)."""
        if self.match is not None:
            return self.match.round
        assert self.record is not None
        return self.record.final()

    @property
    def rules(self) -> Rules:
        if self.match is not None:
            return self.match.rules
        assert self.record is not None
        return self.record.start.rules

    def is_over(self) -> bool:
        state = self.state
        return state is None or state.is_over()

    def apply(self, move: Move) -> tuple[Game, State | None]:
        """The game after ``move``, and the finished round's final state if it ended one."""
        if self.match is not None:
            before = self.match
            m = before.apply(move)
            if m.rounds_played == before.rounds_played:
                return Game(match=m), None
            return Game(match=m), m.last_round
        assert self.record is not None
        rec = self.record.apply(move)
        final = rec.final()
        return Game(record=rec), final if final.is_over() else None

    def to_json(self) -> str:
        """The saved file: a match document, or the record of the round."""
        if self.match is not None:
            return self.match.to_json()
        assert self.record is not None
        return self.record.to_json()


def game_from_file(args: argparse.Namespace) -> tuple[Game, str]:
    """The saved game named by ``play FILE`` (or ``--resume FILE``), and the line that says
    so; a position starts a new record."""
    if args.preset is not None or args.players is not None or args.changes:
        raise UsageError(
            "--preset, --players and --set cannot be used with a saved game: its rules are in "
            "the file"
        )
    if args.round is not None or args.match:
        raise UsageError("--round and --match cannot be used with a saved game")
    doc = read_document(args.file or args.resume, kinds=(MATCH_FORMAT, RECORD_FORMAT, POSITION))
    v = doc.value
    if isinstance(v, Match):
        if v.round is None:
            raise UsageError(f"{doc.name}: the match is over ({v.result()}): nothing to play")
        return Game(match=v), f"Resumed the match in {doc.name}"
    record = v if isinstance(v, Record) else Record(v) if isinstance(v, State) else None
    assert record is not None
    result = record.final().outcome()
    if result is not None:
        raise UsageError(f"{doc.name}: the round is over ({result}): nothing to play")
    return Game(record=record), f"Resumed the round in {doc.name}"
