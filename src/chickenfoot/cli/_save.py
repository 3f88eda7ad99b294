"""The saved game of ``chickenfoot play``: a ``chickenfoot/play`` document.

The library's own documents hold a game (a match, or a record of one round) but not the
command line's side of it: the person's seat, the bots, the seed of their choices and the
options. A play save wraps the game with those::

    {"format": "chickenfoot/play", "version": 1,
     "game": {a chickenfoot/match document, or a chickenfoot/record document},
     "seat": 0, "bots": ["random", "greedy"], "seed": 9, "watch": false,
     "moves": ["9-8@9-9", "9-6@9-9", "draw:8-0", "pass"]}

``moves`` (a match only; optional) are the moves of the round in play from its deal,
``deal(rules, seed, rounds_played)``: a match document keeps the round as a position
without history, and ``undo`` after resuming needs them. They are replayed and must reach
the game's round. It is read as strictly as the library's documents: every key checked,
unknown keys refused, errors naming the path (``game.round.hands[1][2]: ...``,
``bots[1]: ...``).

>>> from chickenfoot import Match, Rules
>>> m = Match.start(Rules(players=3), seed=9)
>>> m = m.apply(m.legal_moves[0])
>>> save = PlaySave(m, seat=0, bots=("random", "greedy"), seed=9)
>>> d = save.to_dict()
>>> d["format"], d["bots"], d["moves"]
('chickenfoot/play', ['random', 'greedy'], ['9-3@9-9'])
>>> back = PlaySave.from_dict(d)
>>> back == save, [str(e) for e in back.game.round.history]
(True, ['0:9-3@9-9'])
>>> PlaySave.from_dict({**d, "bots": ["random", "smart"]})
Traceback (most recent call last):
...
chickenfoot.errors.FormatError: bots[1]: unknown agent 'smart': expected one of random, greedy, heuristic, search, ismcts, level:N or level:NAME (a level, 1 to 5 or beginner, novice, intermediate, advanced, expert), search:N or ismcts:N (N iterations), search:Nms or ismcts:Nms (N milliseconds a decision), engine:COMMAND (a program speaking the engine protocol), policy:PATH (a trained policy file), or module:Class (an agent class of yours, importable from the working directory)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Final, TypeVar

import attrs

from chickenfoot.cli._common import PLAY_FORMAT
from chickenfoot.deal import deal
from chickenfoot.errors import ChickenFootError, FormatError, brief, within_digits
from chickenfoot.formats import VERSION, check_header, loads
from chickenfoot.match import MATCH_FORMAT, Match
from chickenfoot.moves import Move, parse_move
from chickenfoot.record import RECORD_FORMAT, Record
from chickenfoot.rules import Rules
from chickenfoot.specs import SpecError, parse_spec
from chickenfoot.state import State

__all__ = ["PLAY_FORMAT", "PlaySave", "round_moves"]

_KEYS: Final = ("format", "version", "game", "seat", "bots", "seed", "watch")
_OPTIONAL: Final = ("moves",)

_T = TypeVar("_T")


def round_moves(match: Match) -> tuple[Move, ...] | None:
    """The moves of the match's round in play from its deal (from its history), or
    ``None`` when they are not known: the round was read from a document (a position has
    no history), or the match is over.

    >>> from chickenfoot import Match, Rules
    >>> m = Match.start(Rules(players=2), seed=1).apply("9-0@9-9")
    >>> m = m.apply(m.legal_moves[-1])
    >>> [str(x) for x in round_moves(m)]
    ['9-0@9-9', '9-5@9-9']
    >>> round_moves(Match.from_json(m.to_json()))
    """
    state = match.round
    if state is None:
        return None
    moves = tuple(e.move for e in state.history)
    replayed = _replay(deal(match.rules, match.seed, match.rounds_played), moves)
    return moves if replayed == state else None


def _replay(start: State, moves: tuple[Move, ...]) -> State | None:
    state = start
    try:
        for move in moves:
            state = state.apply(move)
    except ChickenFootError:
        return None
    return state


@attrs.frozen(kw_only=True)
class PlaySave:
    """A game of ``chickenfoot play`` with its players and options (see the module)."""

    game: Match | Record = attrs.field(kw_only=False)
    seat: int
    bots: tuple[str, ...]
    """The bots in seat order after the person's, by their command-line names."""
    seed: int
    """The seed of the bots' choices (and of the deals: a match's own seed)."""
    watch: bool = False

    @property
    def rules(self) -> Rules:
        return self.game.rules if isinstance(self.game, Match) else self.game.start.rules

    def to_dict(self) -> dict[str, Any]:
        """The ``chickenfoot/play`` document; ``moves`` when the round's moves are known."""
        doc: dict[str, Any] = {
            "format": PLAY_FORMAT,
            "version": VERSION,
            "game": self.game.to_dict(),
            "seat": self.seat,
            "bots": list(self.bots),
            "seed": self.seed,
            "watch": self.watch,
        }
        if isinstance(self.game, Match):
            moves = round_moves(self.game)
            if moves is not None:
                doc["moves"] = [str(m) for m in moves]
        return doc

    def to_json(self) -> str:
        """The document as JSON text, one key a line (a person may read a save)."""
        return json.dumps(self.to_dict(), indent=1)

    def apply(self, move: Move | str) -> PlaySave:
        """The save after ``move`` in its game (``chickenfoot apply`` on a save).

        >>> from chickenfoot import Match, Rules
        >>> s = PlaySave(Match.start(Rules(players=2), seed=1), seat=1, bots=("greedy",), seed=1)
        >>> s.apply("9-0@9-9").to_dict()["moves"]
        ['9-0@9-9']
        """
        return attrs.evolve(self, game=self.game.apply(move))

    def round_record(self) -> Record | None:
        """The round in play as a record: a record game itself, or a match's round from its
        deal (``None`` when its moves are not known).

        >>> from chickenfoot import Match, Rules
        >>> s = PlaySave(Match.start(Rules(players=2), seed=1), seat=0, bots=("greedy",), seed=1)
        >>> [str(m) for m in s.apply("9-0@9-9").round_record().moves]
        ['9-0@9-9']
        """
        if isinstance(self.game, Record):
            return self.game
        moves = round_moves(self.game)
        if moves is None:
            return None
        return Record(deal(self.game.rules, self.game.seed, self.game.rounds_played), moves)

    @classmethod
    def from_dict(cls, obj: Any) -> PlaySave:
        """Read and check a ``chickenfoot/play`` document (errors: FormatError with the
        path of the bad part)."""
        doc = check_header(obj, PLAY_FORMAT, _KEYS, optional=_OPTIONAL)
        game = _game(doc["game"])
        rules = game.rules if isinstance(game, Match) else game.start.rules
        seat = doc["seat"]
        if type(seat) is not int or not 0 <= seat < rules.players:
            raise FormatError("seat", f"{brief(seat)} is not a seat (0 to {rules.players - 1})")
        bots = _bots(doc["bots"], rules.players - 1)
        seed = doc["seed"]
        if type(seed) is not int or not within_digits(seed):
            raise FormatError("seed", f"{brief(seed)} is not an integer of at most 4,000 digits")
        if isinstance(game, Match) and seed != game.seed:
            raise FormatError("seed", f"{brief(seed)} differs from the match's seed {game.seed}")
        watch = doc["watch"]
        if type(watch) is not bool:
            raise FormatError("watch", f"expected true or false, got {brief(watch)}")
        if "moves" in doc:
            game = _with_moves(game, doc["moves"])
        return cls(game, seat=seat, bots=bots, seed=seed, watch=watch)

    @classmethod
    def from_json(cls, text: str | bytes) -> PlaySave:
        """Read a play save from JSON text."""
        return cls.from_dict(loads(text))


def _inside(path: str, read: Callable[[Any], _T], value: Any) -> _T:
    """``read(value)``, its FormatError paths put under ``path``."""
    try:
        return read(value)
    except FormatError as err:
        text = str(err)
        rest = text[len(err.path) + 2 :] if err.path else text
        raise FormatError(f"{path}.{err.path}" if err.path else path, rest) from None


def _game(raw: Any) -> Match | Record:
    fmt = raw.get("format") if isinstance(raw, Mapping) else None
    if fmt == MATCH_FORMAT:
        return _inside("game", Match.from_dict, raw)
    if fmt == RECORD_FORMAT:
        return _inside("game", Record.from_dict, raw)
    got = f"format {brief(fmt)}" if isinstance(raw, Mapping) else brief(raw)
    raise FormatError("game", f"expected a {MATCH_FORMAT} or {RECORD_FORMAT} document, got {got}")


def _bots(raw: Any, count: int) -> tuple[str, ...]:
    if not isinstance(raw, list):
        raise FormatError("bots", f"expected an array of agent names, got {brief(raw)}")
    if len(raw) != count:
        raise FormatError("bots", f"{len(raw)} bots, but the game has {count} seats for bots")
    names = []
    for i, name in enumerate(raw):
        if not isinstance(name, str):
            raise FormatError(
                f"bots[{i}]", f"expected an agent name such as 'heuristic', got {brief(name)}"
            )
        try:
            names.append(parse_spec(name).name)
        except SpecError as err:
            raise FormatError(f"bots[{i}]", str(err)) from None
    return tuple(names)


def _with_moves(game: Match | Record, raw: Any) -> Match:
    """The match with its round replayed from the deal by ``raw`` (so it has its history)."""
    if not isinstance(game, Match):
        raise FormatError("moves", "a record holds its own moves: moves is for a match's round")
    if game.round is None:
        raise FormatError("moves", "the match is over: there is no round in play")
    if not isinstance(raw, list):
        raise FormatError("moves", f"expected an array of moves, got {brief(raw)}")
    k = game.rounds_played
    state = deal(game.rules, game.seed, k)
    for i, text in enumerate(raw):
        if not isinstance(text, str):
            raise FormatError(
                f"moves[{i}]", f"expected a move such as '9-4@9-9', got {brief(text)}"
            )
        try:
            state = state.apply(parse_move(text, max_pip=game.rules.max_pip))
        except ChickenFootError as err:
            raise FormatError(f"moves[{i}]", f"{brief(text)} cannot be played: {err}") from None
    if state != game.round:
        n = len(raw)
        raise FormatError(
            "moves",
            f"the {n} move{'s' * (n != 1)} from the deal of round {k + 1} do not reach the round "
            "of the game",
        )
    return Match(game.rules, game.seed, game.scores, state, last_round=game.last_round)
