"""Matches in the notation: a ``[Match "begin"]`` block, the rounds in order, then a
``[Match "end"]`` block with the scores and standings (docs/notation.md, "Matches").

>>> import io
>>> from chickenfoot import Match, Rules, Rounds
>>> m = Match.start(Rules(players=2, match=Rounds(2)), seed=3)
>>> while not m.is_over():
...     m = m.apply(m.legal_moves[0])
>>> text = write_match(m)
>>> read_match(io.StringIO(text)).to_match() == m
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import IO, Any

import attrs

from chickenfoot.errors import ChickenFootError, FormatError, brief
from chickenfoot.match import Match
from chickenfoot.notation._headers import rules_from_text, rules_text
from chickenfoot.notation._model import NOTATION_VERSION, Audience, Game
from chickenfoot.notation._reader import read_game
from chickenfoot.notation._writer import headers_text, write_game
from chickenfoot.record import Record
from chickenfoot.rules import Rules

__all__ = ["MatchGames", "read_match", "write_match", "write_match_rounds"]

_BEGIN_GIVEN = ("Event", "Site", "Date", "Time", "Annotator")


def _block(pairs: Iterable[tuple[str, str]]) -> str:
    return f"{headers_text(pairs)}\n*\n\n"


def _begin(
    rules: Rules, seed: int, audience: Audience, over: bool, given: Mapping[str, str]
) -> str:
    pairs = [("Notation", str(NOTATION_VERSION)), ("Match", "begin")]
    pairs += [(k, given[k]) for k in _BEGIN_GIVEN if k in given]
    pairs.append(("Rules", rules_text(rules)))
    if over or audience.kind == "full":  # the seed deals every round: secret until the end
        pairs.append(("Seed", str(seed)))
    pairs.append(("Audience", str(audience)))
    for seat in range(rules.players):
        pairs += [
            (f"{k}{seat}", given[f"{k}{seat}"]) for k in ("Name", "Agent") if f"{k}{seat}" in given
        ]
    return _block(pairs)


def _end(match: Match) -> str:
    result = match.result()
    winners = " ".join(map(str, result.winners)) if match.is_over() else "*"
    return _block(
        [
            ("Notation", str(NOTATION_VERSION)),
            ("Match", "end"),
            ("Scores", "; ".join(" ".join(map(str, row)) for row in match.scores)),
            ("Totals", " ".join(map(str, match.totals))),
            ("Winners", winners),
        ]
    )


def write_match(
    match: Match, *, audience: Audience | str = "full", headers: Mapping[str, str] | None = None
) -> str:
    """A match document in the notation: its begin block, the last finished round's final
    position and the round in play (each a game without moves), and its end block with
    the scores. The ``full`` copy converts back to an equal :class:`~chickenfoot.Match`
    (:meth:`MatchGames.to_match`)."""
    if not isinstance(match, Match):
        raise FormatError("match", f"expected a Match, got {brief(match)}")
    aud = audience if isinstance(audience, Audience) else Audience.parse(audience)
    given = dict(headers or {})
    parts = [_begin(match.rules, match.seed, aud, match.is_over(), given)]
    k = match.rounds_played
    if match.last_round is not None:
        parts.append(
            write_game(Record(match.last_round), audience=aud, headers={"Round": str(k - 1)})
        )
    if match.round is not None:
        parts.append(write_game(Record(match.round), audience=aud, headers={"Round": str(k)}))
    parts.append(_end(match))
    return "".join(parts)


def write_match_rounds(
    rules: Rules,
    *,
    seed: int,
    rounds: Sequence[Record],
    audience: Audience | str = "full",
    headers: Mapping[str, str] | None = None,
) -> str:
    """A whole match played round by round: the begin block, every round's record (with
    ``Seed`` and ``Round``), then the scores and standings of the finished rounds.

    >>> from chickenfoot import Rules, Rounds, deal
    >>> rules = Rules(players=2, match=Rounds(2))
    >>> text = write_match_rounds(rules, seed=1, rounds=[Record(deal(rules, 1, 0))])
    >>> [line for line in text.splitlines() if line.startswith(("[Match", "[Round", "[Scores"))]
    ['[Match "begin"]', '[Round "0"]', '[Match "end"]', '[Scores ""]']
    """
    aud = audience if isinstance(audience, Audience) else Audience.parse(audience)
    scores = [r.final().penalties() for r in rounds if r.final().is_over()]
    match = Match.from_scores(rules, seed=seed, scores=scores)
    given = dict(headers or {})
    parts = [_begin(rules, seed, aud, match.is_over(), given)]
    seats = {k: v for k, v in given.items() if k not in _BEGIN_GIVEN}
    # The match's seed deals every round: a round that is over may not reveal it to a
    # seat or a spectator while later rounds are still to be played.
    seeded = {"Seed": str(seed)} if match.is_over() or aud.kind == "full" else {}
    for i, record in enumerate(rounds):
        extra = {**seats, **seeded, "Round": str(i)}
        parts.append(write_game(record, audience=aud, headers=extra))
    parts.append(_end(match))
    return "".join(parts)


@attrs.frozen
class MatchGames:
    """A match read from the notation: its begin block, its rounds, its end block."""

    begin: Game
    rounds: tuple[Game, ...]
    end: Game | None

    def to_match(self) -> Match:
        """The :class:`~chickenfoot.Match` of a ``full`` copy (rules, seed, scores, the
        round in play and the last finished round's final position)."""
        try:
            rules = rules_from_text(self.begin.header("Rules") or "")
            seed = int(self.begin.header("Seed") or "")
            text = "" if self.end is None else self.end.header("Scores") or ""
            scores = [tuple(int(x) for x in row.split()) for row in text.split(";") if row.strip()]
        except (ChickenFootError, ValueError) as err:
            raise FormatError("match", f"the match's headers do not read: {err}"[:200]) from None
        round_ = last = None
        for game in self.rounds:
            if game.record is None:
                raise FormatError("match", "a round without its full record (not a full copy)")
            final = game.record.final()
            if final.is_over():
                last = final if game.header("Round") == str(len(scores) - 1) else last
            else:
                round_ = final
        try:
            match = Match(rules, seed, scores, round_, last_round=last)
        except ChickenFootError as err:
            raise FormatError("match", str(err)[:200]) from None
        return match

    def write(self, *, audience: Audience | str = "full") -> str:
        """This match written again for an audience, every round whole (a ``full`` copy's
        rounds only): the begin block, each round's copy (:func:`write_game`), the end
        block. A seat or a spectator is told the match's ``Seed`` only once the match is
        over, as :func:`write_match_rounds` does: it deals the rounds still to come.

        >>> import io
        >>> from chickenfoot import Rules, Rounds, deal
        >>> rules = Rules(players=2, match=Rounds(2))
        >>> text = write_match_rounds(rules, seed=1, rounds=[Record(deal(rules, 1, 0))])
        >>> copy = read_match(io.StringIO(text)).write(audience="spectator")
        >>> [line[:14] for line in copy.splitlines() if line.startswith(("[Seed", "[Hand0"))]
        ['[Hand0 "?? ?? ']
        """
        aud = audience if isinstance(audience, Audience) else Audience.parse(audience)
        match = self.to_match()
        told = match.is_over() or aud.kind == "full"
        given = dict(self.begin.headers)
        parts = [_begin(match.rules, match.seed, aud, told, given)]
        for game in self.rounds:
            kept = game if told else attrs.evolve(game, headers=_without_seed(game.headers))
            parts.append(write_game(kept, audience=aud))
        parts.append(_end(match))
        return "".join(parts)


def _without_seed(headers: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    return tuple((k, v) for k, v in headers if k != "Seed")


def read_match(handle: IO[Any], *, strict: bool = False) -> MatchGames | None:
    """The next match of ``handle`` (``None`` at the end of the file): a begin block, the
    rounds up to the end block (``end`` is ``None`` when the file stops before it).

    >>> import io
    >>> from chickenfoot import Match, Rules
    >>> games = read_match(io.StringIO(write_match(Match.start(Rules(players=2), seed=4))))
    >>> games.begin.header("Seed"), len(games.rounds), games.end.header("Winners")
    ('4', 1, '*')
    """
    begin = read_game(handle, strict=strict)
    if begin is None:
        return None
    if begin.header("Match") != "begin":
        raise FormatError("match", 'expected a match\'s [Match "begin"] block')
    rounds: list[Game] = []
    while (game := read_game(handle, strict=strict)) is not None:
        if game.header("Match") == "end":
            return MatchGames(begin, tuple(rounds), game)
        rounds.append(game)
    return MatchGames(begin, tuple(rounds), None)
