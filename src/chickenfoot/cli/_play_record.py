"""``chickenfoot play --record FILE``: the game kept in the notation (docs/notation.md).

The contract: :class:`RecordKeeper` remembers where each round of the session began (the
deal, or the position a saved game was resumed at) and each finished round; :meth:`write`
replaces the file whole (:func:`chickenfoot._files.write_file`) with every round known so
far, in the ``full`` audience: the person's own game, whose seed ``play`` prints at its
start anyway. A match played from its first round is written as a match (its begin block,
its rounds, its scores and standings); the rounds of a match resumed later, or one round,
as games with their ``Round``. ``Event`` is ``chickenfoot play``; ``NameK``/``AgentK`` say
who sat where (``You``/``human`` for the person); ``Date`` and ``Time`` (UTC) when the
session began.

>>> from chickenfoot import Match, Rules
>>> from chickenfoot.cli._game import Game
>>> game = Game(match=Match.start(Rules(players=2), seed=3))
>>> keeper = RecordKeeper("game.cfn", seat=0, names={1: "greedy"}, when=("2026.12.06", "22:00:00"))
>>> keeper.begin(game)
>>> text = keeper.text(game)
>>> text.splitlines()[:4]
['[Notation "1"]', '[Match "begin"]', '[Event "chickenfoot play"]', '[Date "2026.12.06"]']
"""

from __future__ import annotations

import argparse
import datetime

from chickenfoot._files import writable, write_file
from chickenfoot._i18n import gettext as _
from chickenfoot.cli._common import UsageError
from chickenfoot.cli._game import Game
from chickenfoot.cli._setup import Start
from chickenfoot.errors import brief
from chickenfoot.notation import write_game, write_match_rounds
from chickenfoot.record import Record
from chickenfoot.state import State

__all__ = ["RecordKeeper", "keeper_for"]


def keeper_for(args: argparse.Namespace, start: Start) -> RecordKeeper | None:
    """The keeper of ``play --record FILE`` (``None`` without it); the file is checked
    before the game starts (a directory, a missing folder: one line, never a traceback)."""
    path = getattr(args, "record", None)
    if path is None:
        return None
    why = writable(path)
    if why is not None:
        raise UsageError(f"--record {brief(path, 80)}: {why}")
    names = {s: name for s, (name, _) in start.bots.items()}
    number = args.round if start.resume is None else None
    return RecordKeeper(path, seat=start.seat, names=names, round=number)


class RecordKeeper:
    """The rounds of one ``play`` session, written to ``path`` on request.

    ``seat`` is the person's, ``names`` the bots' by seat; ``round`` the round number of
    a one-round game (``--round K``), ``None`` when not known; ``when`` the session's UTC
    date and time (``YYYY.MM.DD``, ``HH:MM:SS``), by default now.
    """

    def __init__(
        self,
        path: str,
        *,
        seat: int,
        names: dict[int, str],
        round: int | None = None,
        when: tuple[str, str] | None = None,
    ) -> None:
        self.path = path
        self.round = round
        if when is None:
            now = datetime.datetime.now(datetime.timezone.utc)
            when = (now.strftime("%Y.%m.%d"), now.strftime("%H:%M:%S"))
        self.headers = {"Event": "chickenfoot play", "Date": when[0], "Time": when[1]}
        for s in sorted({seat, *names}):
            self.headers[f"Name{s}"] = "You" if s == seat else names[s]
            self.headers[f"Agent{s}"] = "human" if s == seat else names[s]
        self.begins: dict[int, State] = {}
        self.finished: dict[int, Record] = {}

    def begin(self, game: Game) -> None:
        """Remember the round in play as it stands now (its start, for what follows)."""
        state = game.state
        if game.match is not None and state is not None:
            self.begins.setdefault(game.match.rounds_played, state)

    def round_over(self, number: int, final: State) -> None:
        """Keep round ``number`` of a match, over at ``final``."""
        start = self.begins.get(number)
        if start is not None:
            self.finished[number] = _record(start, final)

    def text(self, game: Game) -> str:
        """The notation of every round known, for ``game`` as it stands."""
        if game.match is None:
            assert game.record is not None
            extra = {} if self.round is None else {"Round": str(self.round)}
            return write_game(game.record, headers={**self.headers, **extra})
        m = game.match
        rounds = dict(self.finished)
        k = m.rounds_played
        if m.round is not None and k in self.begins:
            rounds[k] = _record(self.begins[k], m.round)
        order = sorted(rounds)
        if order == list(range(len(order))):  # the match from its first round
            return write_match_rounds(
                m.rules, seed=m.seed, rounds=[rounds[i] for i in order], headers=self.headers
            )
        seeded = {**self.headers, "Seed": str(m.seed)}
        return "".join(write_game(rounds[i], headers={**seeded, "Round": str(i)}) for i in order)

    def write(self, game: Game) -> str | None:
        """Replace the file with :meth:`text`: ``None`` once written, else why not."""
        return write_file(self.path, self.text(game))

    def keep(self, game: Game, final: State | None = None) -> str | None:
        """Write ``game`` (after its round ``final`` ended, if given): ``None`` once
        written, else the sentence to say (the game goes on)."""
        if final is not None and game.match is not None:
            self.round_over(game.match.rounds_played - 1, final)
        failed = self.write(game)
        if failed is None:
            return None
        return _(
            "Could not write the record to {file}: {reason}.",
            file=brief(self.path, 60),
            reason=failed,
        )


def _record(start: State, end: State) -> Record:
    """The round from ``start`` to ``end`` (``end``'s history goes on from ``start``'s)."""
    return Record(start, [e.move for e in end.history[len(start.history) :]])
