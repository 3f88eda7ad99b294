"""Whole matches (R3, R5, R11, R12 and the ``match``/``tie_break`` variants of docs/rules.md).

A :class:`Match` is immutable: the rules, the seed, the scores of the finished rounds and
the :class:`~chickenfoot.State` of the round in play (``None`` once the match is over).
``apply`` plays a move in the current round; when that move ends the round, its penalties
(R11) are written into ``scores`` and the next round is dealt with
``deal(rules, seed, round=k)`` (seeded deals: docs/formats.md), or the match ends.

>>> from chickenfoot import Rules, Rounds
>>> m = Match.start(Rules(match=Rounds(2)), seed=7)
>>> m.rounds_played, str(m.round.centre), m.round.turn
(0, '9-9', 0)
>>> while not m.is_over():
...     m = m.apply(m.legal_moves[0])
>>> m.rounds_played, m.round is None, len(m.scores), m.totals == tuple(map(sum, zip(*m.scores)))
(2, True, 2, True)

The ``chickenfoot/match`` document (docs/formats.md) saves a match at any point:

>>> Match.from_json(m.to_json()) == m
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

import attrs

from chickenfoot._checks import flag, instance, listing
from chickenfoot._checks import indent as check_indent
from chickenfoot._checks import seed as check_seed
from chickenfoot._scoring import MatchResult, Scores, Standing, end_reason, end_reason_of
from chickenfoot.deal import deal
from chickenfoot.errors import FormatError, IllegalMoveError, RulesError, brief, within_digits
from chickenfoot.formats import VERSION, check_header, loads, position_from_dict, rules_from_dict
from chickenfoot.moves import Move
from chickenfoot.rules import Rounds, Rules
from chickenfoot.state import LegalMoves, State, apply, legal_moves

__all__ = [
    "MATCH_FORMAT",
    "Match",
    "MatchResult",
    "Standing",
    "match_apply",
    "match_legal_moves",
]

MATCH_FORMAT: Final = "chickenfoot/match"
_MATCH_KEYS: Final = ("format", "version", "rules", "seed", "scores", "round")
_MATCH_OPTIONAL: Final = ("last_round",)
_NO_MOVES: Final = LegalMoves()

# -- checking -----------------------------------------------------------------------------------


def _read_scores(raw: Any, rules: Rules, path: str) -> Scores:
    """Check ``raw`` as a list of rounds, each of one score per seat: an integer from 0 to
    ``rules.max_penalty`` (no seat can end a round with more)."""
    players, most = rules.players, rules.max_penalty
    if not isinstance(raw, (list, tuple)):
        raise FormatError(path, f"expected an array of rounds, got {type(raw).__name__[:40]}")
    rows = []
    for i, row in enumerate(raw):
        rp = f"{path}[{i}]"
        if not isinstance(row, (list, tuple)):
            raise FormatError(rp, f"expected an array of {players} scores, got {brief(row)}")
        if len(row) != players:
            raise FormatError(rp, f"expected {players} scores (one per seat), got {len(row)}")
        for seat, value in enumerate(row):
            if type(value) is not int or value < 0:
                raise FormatError(f"{rp}[{seat}]", f"{brief(value)} is not a non-negative integer")
            if value > most:
                raise FormatError(
                    f"{rp}[{seat}]",
                    f"{brief(value)} is more than a seat can score in a round of these rules "
                    f"(at most {most:,}: rules.max_penalty)",
                )
        rows.append(tuple(row))
    return tuple(rows)


def _check_seed(seed: Any, path: str) -> int:
    """A match's seed: an integer the deals can use (see :func:`~chickenfoot.deal`)."""
    if type(seed) is not int or not within_digits(seed):
        raise FormatError(path, f"{brief(seed)} is not an integer of at most 4,000 digits")
    return seed


def _check_match(rules: Rules, scores: Scores, round: Any) -> None:
    """Check that ``scores`` and ``round`` fit together under ``rules`` (FormatError paths)."""
    m = rules.match
    if isinstance(m, Rounds) and len(scores) > m.count:
        raise FormatError("scores", f"{len(scores)} rounds scored, but the match has {m.count}")
    totals = [0] * rules.players
    for i, row in enumerate(scores[:-1]):
        totals = [t + x for t, x in zip(totals, row, strict=True)]
        reason = end_reason_of(rules, i + 1, totals)
        if reason is not None:
            raise FormatError(
                f"scores[{i}]",
                f"the match was over after this round ({reason}); no round may follow it",
            )
    reason = end_reason(rules, scores)
    if reason is not None:
        if round is not None:
            raise FormatError("round", f"the match is over ({reason}), so round must be null")
        return
    if round is None:
        raise FormatError(
            "round",
            f"the match is not over after {len(scores)} rounds, so round must be a position",
        )
    _check_round_of(rules, round, len(scores), "round")
    if round.is_over():
        raise FormatError(
            "round", f"the round is over ({round.outcome()}); its scores belong in scores"
        )


def _check_round_of(rules: Rules, round: Any, k: int, path: str) -> None:
    """Check that ``round`` is a State of round ``k`` under ``rules`` (errors at ``path``)."""
    if not isinstance(round, State):
        raise FormatError(path, f"expected a State or None, got {brief(round)}")
    if round.rules != rules:
        mine, theirs = rules.to_dict(), round.rules.to_dict()
        field = next(f for f in mine if mine[f] != theirs[f])
        raise FormatError(
            f"{path}.rules.{field}",
            f"{brief(theirs[field])} differs from the match rules ({brief(mine[field])})",
        )
    d = rules.centre_of_round(k)
    if round.centre.high != d:
        raise FormatError(
            f"{path}.centre", f"{round.centre} is not the centre of round {k}, which is {d}-{d}"
        )


def _check_last_round(rules: Rules, scores: Scores, last: Any) -> None:
    """Check that ``last`` is the final position of the last scored round (FormatError paths)."""
    if last is None:
        return
    if not scores:
        raise FormatError("last_round", "no round has been scored, so last_round must be null")
    _check_round_of(rules, last, len(scores) - 1, "last_round")
    if not last.is_over():
        raise FormatError("last_round", "the round is not over: a finished round is expected")
    if last.penalties() != scores[-1]:
        raise FormatError(
            "last_round",
            f"its penalties {listing(last.penalties())} differ from the last scores "
            f"{listing(scores[-1])}",
        )


def _checked_scores(rules: Rules, seed: int, scores: Sequence[Sequence[int]]) -> Scores:
    """The checks ``Match()`` and ``Match.from_scores`` share: the rules, the seed, the scores."""
    if not isinstance(rules, Rules):
        raise RulesError(f"rules={brief(rules)} is invalid: must be a Rules object", field="rules")
    check_seed(seed)
    try:
        return _read_scores(scores, rules, "scores")
    except FormatError as err:
        raise _as_rules_error(err) from None


def _as_rules_error(err: FormatError) -> RulesError:
    field = err.path.split(".")[0].split("[")[0]
    return RulesError(str(err), field=field)


# -- the match ----------------------------------------------------------------------------------


@attrs.frozen(init=False, repr=False)
class Match:
    """A whole match: immutable, hashable, comparable.

    Build one with :meth:`start`, :meth:`from_scores` or :meth:`from_dict`; the constructor
    ``Match(rules, seed, scores, round)`` checks that its parts fit together (the scores'
    shape, that the match is over exactly when ``round`` is ``None``, the round's rules and
    centre) and raises :class:`~chickenfoot.RulesError` naming the part otherwise.

    :attr:`last_round` keeps the final position of the round that ended last, so a program
    can still show that round's table after :meth:`apply` has dealt the next one. Like a
    state's history it is context, not part of the match's value: it is left out of ``==``
    and ``hash``.

    >>> from chickenfoot import Rules, Threshold
    >>> m = Match.from_scores(Rules(players=2, match=Threshold(100)), seed=1,
    ...                       scores=[(0, 60), (45, 0)])
    >>> m.totals, m.rounds_played, str(m.round.centre), m.round.turn
    ((45, 60), 2, '7-7', 0)
    >>> Match(Rules(players=2), 1, [(0, 5, 3)], None)
    Traceback (most recent call last):
    ...
    chickenfoot.errors.RulesError: scores[0]: expected 2 scores (one per seat), got 3
    """

    rules: Rules
    seed: int
    scores: Scores
    """The per-seat scores (R11 penalties) of each finished round, in order."""
    round: State | None
    """The round in play (round number :attr:`rounds_played`), or ``None`` once over."""
    last_round: State | None = attrs.field(default=None, eq=False, kw_only=True)
    """The final position of the last finished round (``None`` before the first one ends).

    Its penalties are the last row of :attr:`scores`. A match read from a document without
    a ``last_round`` (or built with :meth:`from_scores`) has ``None`` here.
    """

    def __init__(
        self,
        rules: Rules,
        seed: int,
        scores: Sequence[Sequence[int]],
        round: State | None,
        *,
        last_round: State | None = None,
    ) -> None:
        checked = _checked_scores(rules, seed, scores)
        try:
            _check_match(rules, checked, round)
            _check_last_round(rules, checked, last_round)
        except FormatError as err:
            raise _as_rules_error(err) from None
        self.__attrs_init__(rules, seed, checked, round, last_round=last_round)

    @classmethod
    def _trusted(
        cls,
        rules: Rules,
        seed: int,
        scores: Scores,
        round: State | None,
        last_round: State | None,
    ) -> Match:
        m = object.__new__(cls)
        object.__setattr__(m, "rules", rules)
        object.__setattr__(m, "seed", seed)
        object.__setattr__(m, "scores", scores)
        object.__setattr__(m, "round", round)
        object.__setattr__(m, "last_round", last_round)
        return m

    @classmethod
    def start(cls, rules: Rules, *, seed: int) -> Match:
        """A new match: no round scored yet, round 0 dealt with ``seed``.

        >>> from chickenfoot import Rules
        >>> m = Match.start(Rules.preset("classic"), seed=1)
        >>> m.scores, m.round.centre_laid, m.is_over()
        ((), False, False)
        """
        return cls.from_scores(rules, seed=seed, scores=())

    @classmethod
    def from_scores(cls, rules: Rules, *, seed: int, scores: Sequence[Sequence[int]]) -> Match:
        """The match after rounds that scored ``scores``, with its next round freshly dealt.

        For resuming from a score sheet; the round is ``deal(rules, seed, len(scores))``,
        or ``None`` when those scores end the match.

        >>> from chickenfoot import Rules, Rounds
        >>> Match.from_scores(Rules(players=2, match=Rounds(1)), seed=3, scores=[(0, 9)]).round
        """
        checked = _checked_scores(rules, seed, scores)
        over = end_reason(rules, checked) is not None
        return cls(rules, seed, checked, None if over else deal(rules, seed, len(checked)))

    # -- views ----------------------------------------------------------------------------------

    @property
    def rounds_played(self) -> int:
        """How many rounds are finished; the current round has this number (0-based)."""
        return len(self.scores)

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total over the finished rounds.

        >>> from chickenfoot import Rules
        >>> Match.from_scores(Rules(players=2), seed=0, scores=[(0, 7), (3, 0)]).totals
        (3, 7)
        """
        return tuple(sum(row[seat] for row in self.scores) for seat in range(self.rules.players))

    def is_over(self) -> bool:
        """Whether the match has ended (then :attr:`round` is ``None``)."""
        return self.round is None

    def result(self) -> MatchResult:
        """Totals, standings, and (once over) winners and losers: see :class:`MatchResult`.

        >>> from chickenfoot import Rules, Rounds
        >>> m = Match.from_scores(Rules(players=3, match=Rounds(2)), seed=0,
        ...                       scores=[(0, 10, 4), (6, 0, 2)])
        >>> r = m.result()
        >>> r.winners, r.losers, r.totals, str(r)
        ((0, 2), (1,), (6, 10, 6), 'seats 0, 2 share the win with 6')
        """
        return MatchResult._of(self.rules, self.scores)

    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves of the current round (empty once the match is over)."""
        state = self.round
        return _NO_MOVES if state is None else legal_moves(state)

    # -- play -----------------------------------------------------------------------------------

    def apply(self, move: Move | str) -> Match:
        """The match after ``move`` in the current round; see :func:`match_apply`."""
        state = self.round
        if state is None:
            short = isinstance(move, str) and len(move) <= 60
            text = str(move) if isinstance(move, Move) or short else brief(move)
            raise IllegalMoveError(f"{text}: the match is over after {len(self.scores)} rounds")
        after = apply(state, move)
        if after._outcome is None:
            return Match._trusted(self.rules, self.seed, self.scores, after, self.last_round)
        scores = (*self.scores, after.penalties())
        nxt = None
        if end_reason(self.rules, scores) is None:
            nxt = deal(self.rules, self.seed, len(scores))
        return Match._trusted(self.rules, self.seed, scores, nxt, after)

    # -- JSON -----------------------------------------------------------------------------------

    def to_dict(self, *, last_round: bool = True) -> dict[str, Any]:
        """The ``chickenfoot/match`` document (docs/formats.md).

        >>> from chickenfoot import Rules
        >>> d = Match.start(Rules(), seed=4).to_dict()
        >>> d["format"], d["seed"], d["scores"], d["round"]["board"]
        ('chickenfoot/match', 4, [], ['9-9'])

        Once a round has ended the document also holds its final position as
        ``last_round``, so a reader can show that round's table; this key is the library's
        addition to the format, optional on input. ``last_round=False`` leaves it out, for
        readers that know only the keys above.
        """
        flag(last_round, "last_round")
        doc: dict[str, Any] = {
            "format": MATCH_FORMAT,
            "version": VERSION,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "scores": [list(row) for row in self.scores],
            "round": None if self.round is None else self.round.to_dict(),
        }
        if last_round and self.last_round is not None:
            doc["last_round"] = self.last_round.to_dict()
        return doc

    def to_json(self, *, indent: int | None = None, last_round: bool = True) -> str:
        """The match document as JSON text (``last_round`` as in :meth:`to_dict`)."""
        return json.dumps(self.to_dict(last_round=last_round), indent=check_indent(indent))

    @classmethod
    def from_dict(cls, obj: Any) -> Match:
        """Read and check a ``chickenfoot/match`` document.

        Errors are :class:`~chickenfoot.FormatError` naming the path of the bad part.

        >>> from chickenfoot import Rules
        >>> d = Match.start(Rules(players=2), seed=4).to_dict()
        >>> Match.from_dict({**d, "scores": [[3, -1]]})
        Traceback (most recent call last):
        ...
        chickenfoot.errors.FormatError: scores[0][1]: -1 is not a non-negative integer
        """
        doc = check_header(obj, MATCH_FORMAT, _MATCH_KEYS, optional=_MATCH_OPTIONAL)
        rules = rules_from_dict(doc["rules"], "rules")
        seed = _check_seed(doc["seed"], "seed")
        scores = _read_scores(doc["scores"], rules, "scores")
        raw_round = doc["round"]
        round = None if raw_round is None else position_from_dict(raw_round, "round")
        _check_match(rules, scores, round)
        raw_last = doc.get("last_round")
        last = None if raw_last is None else position_from_dict(raw_last, "last_round")
        _check_last_round(rules, scores, last)
        return cls._trusted(rules, seed, scores, round, last)

    @classmethod
    def from_json(cls, text: str | bytes) -> Match:
        """Read a match document from JSON text."""
        return cls.from_dict(loads(text))

    def __repr__(self) -> str:
        where = "over" if self.round is None else f"turn={self.round.turn}"
        return (
            f"<Match seed={self.seed} rounds_played={len(self.scores)} "
            f"totals={list(self.totals)} {where}>"
        )


def match_legal_moves(match: Match) -> LegalMoves:
    """The legal moves of the match's current round, in the documented order (docs/formats.md).

    Empty once the match is over.

    >>> from chickenfoot import Rules
    >>> [str(m) for m in match_legal_moves(Match.start(Rules(), seed=1))]
    ['9-0@9-9', '9-3@9-9', '9-8@9-9']
    """
    return instance(match, Match, "match_legal_moves").legal_moves


def match_apply(match: Match, move: Move | str) -> Match:
    """The match after ``move`` (a :class:`~chickenfoot.Move` or its notation).

    The move is played in the current round as :func:`~chickenfoot.apply` plays it (same
    errors; ``match`` is never changed). When it ends the round, the round's penalties
    (R11) are appended to ``scores`` and the next round is dealt, unless the match is over.
    A move on a finished match raises :class:`~chickenfoot.IllegalMoveError`.

    >>> from chickenfoot import Rules
    >>> m = match_apply(Match.start(Rules(), seed=1), "9-3@9-9")
    >>> str(m.round.board[-1]), m.round.turn
    ('9-3@9-9', 1)
    """
    return instance(match, Match, "match_apply").apply(move)
