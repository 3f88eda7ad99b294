"""Chicken Foot as an OpenSpiel game, ``python_chickenfoot`` (docs: ``docs/openspiel.md``).

Importing this module with OpenSpiel installed (the ``openspiel`` extra: ``pip install
'chickenfoot[openspiel]'``) registers the game with ``pyspiel``. The game wraps the
library's rules engine: every rules field is a game parameter, the deal and every draw
are explicit chance nodes whose outcomes are tile ids, players' actions are the action
ids of :class:`chickenfoot.encoding.Encoding`, and the observation tensors are that
encoding's vectors of each player's :class:`~chickenfoot.View`.

The module imports without OpenSpiel (so the package's own test run can collect it):
:func:`parameters` works, and building a game raises :class:`ImportError` naming the extra.

>>> from chickenfoot import Rules
>>> p = parameters(Rules(players=2, max_pip=6, hand_size=7))
>>> ",".join(f"{k}={v}" for k, v in p.items() if k in ("players", "max_pip", "hand_size"))
'players=2,max_pip=6,hand_size=7'
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from chickenfoot import _openspiel_serial
from chickenfoot._checks import choice, instance
from chickenfoot.encoding import Encoding
from chickenfoot.errors import ArgumentError, RulesError, brief
from chickenfoot.match import Match
from chickenfoot.moves import DRAW, Draw
from chickenfoot.render import render_compact
from chickenfoot.rules import Rounds, Rules, Threshold
from chickenfoot.state import State, apply, is_legal
from chickenfoot.tiles import DOUBLE_ID, Tile, set_size

if TYPE_CHECKING:
    from numpy.typing import NDArray

    class _GameBase:
        def __init__(self, *args: Any) -> None: ...
        def __getattr__(self, name: str) -> Any: ...

    class _StateBase:
        def __init__(self, game: Any) -> None: ...
        def __getattr__(self, name: str) -> Any: ...


_MISSING = (
    "the OpenSpiel game needs OpenSpiel: pip install 'chickenfoot[openspiel]' (or open_spiel)"
)

# OpenSpiel is optional and has no type information: the package type-checks the same with
# or without it.
pyspiel: Any
try:
    pyspiel = importlib.import_module("pyspiel")
except ImportError:  # pragma: no cover - depends on the environment
    pyspiel = None

if not TYPE_CHECKING:
    if pyspiel is not None:
        _GameBase = pyspiel.Game
        _StateBase = pyspiel.State
    else:  # pragma: no cover - depends on the environment

        class _GameBase:
            def __init__(self, *args: Any) -> None:
                raise ImportError(_MISSING)

        _StateBase = _GameBase

__all__ = [
    "GAME_NAME",
    "ChickenFootGame",
    "ChickenFootObserver",
    "ChickenFootState",
    "INFO_HISTORY",
    "load_game",
    "parameters",
]

GAME_NAME = "python_chickenfoot"
"""The short name the game is registered under."""

INFO_HISTORY = 64
"""How many recent public events the information-state tensor carries (the most the
encoding holds); the information-state *string* carries the whole history."""

SCOPES = ("round", "match")
UTILITIES = ("auto", "penalty", "zero_sum", "win")

_DEFAULTS: dict[str, Any] = {
    "players": 4,
    "max_pip": -1,
    "hand_size": -1,
    "opening_toes": 6,
    "foot_toes": 3,
    "double_blank": 50,
    "centre": "set_aside",
    "draw": "one",
    "drawn_tile": "must_play",
    "may_draw_instead": False,
    "tie_break": "shared",
    "first_leader": 0,
    "match_rounds": -1,
    "match_threshold": -1,
    "match_inclusive": False,
    "scope": "round",
    "utility": "auto",
}
"""The parameter specification: every field of :class:`~chickenfoot.Rules` (``-1``: the
rules' own default), the match length flattened, the scope and the utility model."""

_MAX_PLAYERS = set_size(18)  # the largest set: one tile each
_INT_MAX = 2**31 - 1
"""OpenSpiel keeps a game's lengths in C++ ints."""


def _game_type(zero_sum: bool) -> Any:
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Chicken Foot (chickenfoot)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=_MAX_PLAYERS,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULTS,
    )


# -- parameters ---------------------------------------------------------------------------------


def rules_from_parameters(params: dict[str, Any]) -> tuple[Rules, str, str]:
    """The rules, scope and utility model named by game parameters (the library's checks).

    Raises :class:`~chickenfoot.RulesError` for a bad rules value and
    :class:`~chickenfoot.ArgumentError` for a bad scope or utility.
    """
    p = {**_DEFAULTS, **instance(params, dict, "the game's parameters")}
    unknown = [name for name in p if name not in _DEFAULTS]
    if unknown:
        raise ArgumentError(
            f"unknown parameter {brief(unknown[0])} (parameters: {', '.join(_DEFAULTS)})"
        )
    scope, utility = choice(p["scope"], "scope", SCOPES), choice(p["utility"], "utility", UTILITIES)
    fields: dict[str, Any] = {
        name: p[name]
        for name in (
            "players",
            "opening_toes",
            "foot_toes",
            "double_blank",
            "centre",
            "draw",
            "drawn_tile",
            "may_draw_instead",
            "tie_break",
            "first_leader",
        )
    }
    for name in ("max_pip", "hand_size"):
        if p[name] != -1:
            fields[name] = p[name]
    rounds, threshold, inclusive = p["match_rounds"], p["match_threshold"], p["match_inclusive"]
    if rounds != -1 and threshold != -1:
        raise RulesError(
            f"match_rounds={brief(rounds)} and match_threshold={brief(threshold)}: "
            "give one match length, not both",
            field="match",
        )
    if threshold != -1:
        if type(inclusive) is not bool:
            raise RulesError(f"match_inclusive={brief(inclusive)} is invalid: must be a bool")
        fields["match"] = _length("match_threshold", threshold, Threshold, inclusive=inclusive)
    else:
        if inclusive is not False:
            raise RulesError(
                f"match_inclusive={brief(inclusive)} is invalid: it applies only with "
                "match_threshold",
                field="match",
            )
        if rounds != -1:
            fields["match"] = _length("match_rounds", rounds, Rounds)
    rules = Rules(**fields)
    if utility == "auto":
        utility = "penalty" if scope == "round" else "win"
    return rules, scope, utility


def _length(name: str, value: Any, kind: Any, **options: Any) -> Any:
    """``kind(value, **options)`` (a match length), its error naming the game parameter."""
    try:
        return kind(value, **options)
    except RulesError as err:
        raise RulesError(f"{name}={brief(value)}: {err}", field="match") from None


def parameters(
    rules: Rules | None = None, *, scope: str = "round", utility: str = "auto"
) -> dict[str, Any]:
    """The game parameters of ``rules`` (default: the house rules), for ``pyspiel.load_game``.

    >>> from chickenfoot import Rules
    >>> p = parameters(Rules(players=2, draw="until_playable"), scope="match")
    >>> p["players"], p["max_pip"], p["hand_size"], p["draw"], p["match_rounds"], p["scope"]
    (2, 9, 20, 'until_playable', 10, 'match')
    """
    if rules is None:
        rules = Rules()
    if not isinstance(rules, Rules):
        raise RulesError(f"rules={brief(rules)} is invalid: must be a Rules object", field="rules")
    d = rules.to_dict()
    match = d.pop("match")
    out: dict[str, Any] = {**d, "scope": scope, "utility": utility}
    out["match_rounds"] = match.get("rounds", -1)
    out["match_threshold"] = match.get("threshold", -1)
    out["match_inclusive"] = match.get("inclusive", False)
    rules_from_parameters(out)  # checks scope and utility
    return out


def load_game(rules: Rules | None = None, *, scope: str = "round", utility: str = "auto") -> Any:
    """``pyspiel.load_game`` of ``python_chickenfoot`` with the parameters of ``rules``."""
    if pyspiel is None:  # pragma: no cover - depends on the environment
        raise ImportError(_MISSING)
    return pyspiel.load_game(GAME_NAME, parameters(rules, scope=scope, utility=utility))


# -- the configuration shared by a game's states --------------------------------------------------


class _Config:
    """Everything fixed by the parameters; shared by every state (never copied)."""

    def __init__(self, rules: Rules, scope: str, utility: str) -> None:
        self.rules = rules
        self.scope = scope
        self.utility = utility
        self.players = p = rules.players
        self.hand_size = hs = rules.hand_size
        self.enc = Encoding(rules)
        self.enc_info = Encoding(rules, history=INFO_HISTORY)
        n = rules.set_size
        dealt = n - 1 if rules.centre == "set_aside" else n
        self.dealt = p * hs
        bone = dealt - p * hs
        # The worst hand: the hand_size + boneyard most costly tiles of the set.
        values = sorted(
            (rules.double_blank if t == 0 else _pips(t) for t in range(n)), reverse=True
        )
        worst = sum(values[: hs + bone])
        h = p * hs
        # A round's decisions (docs/openspiel.md, "Game length"): plays, draws, passes after
        # a draw, and passes with nothing drawn in runs of at most p - 1 between the others.
        moves = (h + bone) + bone + (bone + 1) + (p - 1) * (h + bone + 2)
        m = rules.match
        if scope == "round":
            rounds, total = 1, worst
        elif isinstance(m, Rounds):
            rounds, total = m.count, m.count * worst
        else:
            if p == 2 and rules.double_blank == 0:
                raise ArgumentError(
                    "a threshold match of 2 players with double_blank=0 can last forever "
                    "(each round may score 0 for both), so it has no maximum game length: "
                    "use match_rounds, or a double_blank above 0"
                )
            # every round adds at least 1 to the sum of the totals (see the docs page)
            rounds, total = p * m.points + 1, m.points + worst
            # OpenSpiel adds as many chance nodes for max_history_length, a C++ int too (the
            # longest game of any other scope, double-18 with 189 players, is 689,491).
            if 2 * rounds * moves > _INT_MAX:
                most = ((_INT_MAX // 2) // moves - 1) // p
                raise ArgumentError(
                    f"a match of {p} players to {m.points:,} points may last "
                    f"{rounds * moves:,} decisions, and OpenSpiel counts a game's history "
                    f"(decisions and chance nodes, twice that) in a C++ int of at most "
                    f"{_INT_MAX:,}: use match_threshold={most:,} or less with {p} players, "
                    "or match_rounds"
                )
        # OpenSpiel's game length counts decisions; its history bound adds as many chance
        # nodes (it takes max_game_length for their bound), and a round's deal and draws,
        # h + bone, are fewer than its decisions.
        self.max_game_length = rounds * moves
        self.max_chance_nodes = rounds * (h + bone)
        if utility == "penalty":
            self.min_utility, self.max_utility = -float(total), 0.0
        elif utility == "zero_sum":
            self.min_utility, self.max_utility = -float((p - 1) * total), float((p - 1) * total)
        else:
            self.min_utility, self.max_utility = -float(p - 1), float(p - 1)
        self.match_size = 1 + p if scope == "match" else 0

    def __deepcopy__(self, memo: Any) -> _Config:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_config, (self.rules, self.scope, self.utility))

    def pool(self, round: int) -> tuple[int, ...]:
        """The tile ids dealt in round ``round``, in id order."""
        ids = range(self.rules.set_size)
        if self.rules.centre == "set_aside":
            centre = DOUBLE_ID[self.rules.centre_of_round(round)]
            return tuple(t for t in ids if t != centre)
        return tuple(ids)


def _pips(t: int) -> int:
    return Tile.from_id(t).pips


@lru_cache(maxsize=64)
def _config(rules: Rules, scope: str, utility: str) -> _Config:
    return _Config(rules, scope, utility)


# -- the game -------------------------------------------------------------------------------------


class ChickenFootGame(_GameBase):
    """The OpenSpiel game: ``pyspiel.load_game("python_chickenfoot(...)")`` builds one."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        if pyspiel is None:  # pragma: no cover - depends on the environment
            raise ImportError(_MISSING)
        params = {} if params is None else params
        rules, scope, utility = rules_from_parameters(params)
        cfg = _config(rules, scope, utility)
        zero_sum = utility != "penalty"
        info = pyspiel.GameInfo(
            num_distinct_actions=cfg.enc.num_actions,
            max_chance_outcomes=rules.set_size,
            num_players=rules.players,
            min_utility=cfg.min_utility,
            max_utility=cfg.max_utility,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=cfg.max_game_length,
        )
        super().__init__(_game_type(zero_sum), info, dict(params))
        self.config = cfg

    @property
    def rules(self) -> Rules:
        """The rules of the game."""
        return self.config.rules

    def new_initial_state(self) -> ChickenFootState:
        """The start of the game: a chance node dealing the first tile."""
        return ChickenFootState(self)

    def new_state_from(self, position: State) -> ChickenFootState:
        """A state of this game at ``position``, a round of the library in play (round scope).

        For search from a position (a deal of one's own, or a sample of a player's view:
        ``view.sample(rng)``, docs/hidden.md); the new state's OpenSpiel history starts there.
        """
        if not isinstance(position, State):
            raise ArgumentError(f"new_state_from needs a State, got {brief(position)}")
        if self.config.scope != "round":
            raise ArgumentError("new_state_from needs a game of scope 'round'")
        if position.rules != self.config.rules:
            raise ArgumentError("the position's rules are not the rules of this game")
        state = ChickenFootState(self)
        state._core = position
        state._start = _openspiel_serial.Start(position)
        state._settle()
        return state

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> ChickenFootObserver:
        """The observer of ``iig_obs_type`` (default: the observation, no perfect recall)."""
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return ChickenFootObserver(self.config, iig_obs_type, params)

    def deserialize_state(self, text: str) -> ChickenFootState:
        """The state saved as ``text`` (by ``state.serialize()``, or the ``[State]`` section
        of ``pyspiel.serialize_game_and_state``), rebuilt by replaying its history.

        Every entry is checked (its player is the one to act, its action legal or a chance
        outcome on offer; ``move_number`` agrees); OpenSpiel's ``__dict__=`` line is never
        decoded (it is a pickle: docs/openspiel.md, "Saving and loading states"). Raises
        :class:`~chickenfoot.FormatError` naming the bad part, e.g. ``history[12]``::

            state = game.deserialize_state(saved.serialize())
            assert state.history() == saved.history()
        """
        return _openspiel_serial.deserialize(self, text)  # type: ignore[no-any-return]


class ChickenFootState(_StateBase):
    """A node of the game tree: dealing, a draw's chance node, a player's turn, or the end.

    ``round_state`` is the library's :class:`~chickenfoot.State` of the round in play (``None``
    while its tiles are dealt); the round states are immutable, so cloning is cheap.
    """

    def __init__(self, game: ChickenFootGame) -> None:
        super().__init__(game)
        self._cfg: _Config = game.config
        self._core: State | None = None
        self._dealt: tuple[int, ...] = ()
        self._drawing = False
        self._finished: tuple[State, ...] = ()
        self._scores: tuple[tuple[int, ...], ...] = ()
        self._winners: tuple[int, ...] = ()
        self._over = False
        self._start: _openspiel_serial.Start | None = None  # the position of new_state_from

    # -- what the library sees ------------------------------------------------------------------

    @property
    def round_state(self) -> State | None:
        """The library's state of the round in play (``None`` while dealing, or after a match)."""
        return self._core

    @property
    def scores(self) -> tuple[tuple[int, ...], ...]:
        """The penalties of each finished round (match scope; the round itself in round scope)."""
        return self._scores

    @property
    def rounds_played(self) -> int:
        """How many rounds have finished."""
        return len(self._scores)

    # -- the OpenSpiel API ----------------------------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` while dealing or drawing, ``TERMINAL`` at the end."""
        if self._over:
            return int(pyspiel.PlayerId.TERMINAL)
        core = self._core
        if core is None or self._drawing:
            return int(pyspiel.PlayerId.CHANCE)
        return core.turn

    def is_terminal(self) -> bool:
        """Whether the game (the round, or the match) is over."""
        return self._over

    def _legal_actions(self, player: int) -> list[int]:
        core = self._core
        if core is None or self._over or self._drawing or player != core.turn:
            return []
        return self._cfg.enc.legal_actions(core)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The tiles chance may deal or draw, each as likely (tile ids)."""
        tiles = self._chance_tiles()
        if not tiles:
            return []
        p = 1.0 / len(tiles)
        return [(t, p) for t in tiles]

    def _chance_tiles(self) -> Sequence[int]:
        if self._over:
            return ()
        core = self._core
        if core is None:
            dealt = set(self._dealt)
            return [t for t in self._cfg.pool(len(self._scores)) if t not in dealt]
        if self._drawing:
            return sorted(t.id for t in core.boneyard)
        return ()

    def _apply_action(self, action: int) -> None:
        if self._over:
            raise ArgumentError(f"action {brief(action)}: the game is over")
        core = self._core
        if core is None or self._drawing:
            if isinstance(action, bool) or not isinstance(action, int | np.integer):
                raise ArgumentError(f"chance outcome {brief(action)} is invalid: must be an int")
            tile = int(action)
            if tile not in self._chance_tiles():
                what = "undealt" if core is None else "in the boneyard"
                raise ArgumentError(f"chance outcome {tile} is not a tile id {what}")
            if core is None:
                self._dealt += (tile,)
                if len(self._dealt) == self._cfg.dealt:
                    self._start_round()
            else:
                self._drawing = False
                self._core = apply(core, Draw(Tile.from_id(tile)))
                self._settle()
            return
        move = self._cfg.enc.move(action)
        if move is DRAW:
            if not is_legal(core, DRAW):
                apply(core, DRAW)  # raises the library's IllegalMoveError, with the reason
            self._drawing = True
            return
        self._core = apply(core, move)
        self._settle()

    def _start_round(self) -> None:
        cfg = self._cfg
        rules = cfg.rules
        k = len(self._scores)
        hs = cfg.hand_size
        dealt = self._dealt
        hands = [
            [Tile.from_id(t) for t in dealt[seat * hs : (seat + 1) * hs]]
            for seat in range(cfg.players)
        ]
        taken = set(dealt)
        boneyard = [Tile.from_id(t) for t in cfg.pool(k) if t not in taken]
        c = rules.centre_of_round(k)
        centre = Tile(c, c)
        turn = rules.leader_of_round(k)
        if rules.centre == "holder":
            for seat, hand in enumerate(hands):
                if centre in hand:
                    turn = seat
        self._core = State.setup(rules, hands=hands, boneyard=boneyard, centre=centre, turn=turn)
        self._dealt = ()
        self._settle()

    def _settle(self) -> None:
        """Score a finished round; end the game, or start dealing the next round."""
        core = self._core
        if core is None or not core.is_over():
            return
        cfg = self._cfg
        self._scores += (core.penalties(),)
        self._finished += (core,)
        if cfg.scope == "round":
            pen = self._scores[0]
            low = min(pen)
            self._winners = tuple(s for s, x in enumerate(pen) if x == low)
            self._over = True
            return
        result = Match.from_scores(cfg.rules, seed=0, scores=self._scores).result()
        if result.is_over():
            self._winners = result.winners
            self._over = True
            return
        self._core = None

    def returns(self) -> list[float]:
        """Each player's return: zero until the end, then by the game's utility model."""
        p = self._cfg.players
        if not self._over:
            return [0.0] * p
        totals = [sum(row[s] for row in self._scores) for s in range(p)]
        utility = self._cfg.utility
        if utility == "penalty":
            return [-float(x) for x in totals]
        if utility == "zero_sum":
            whole = sum(totals)
            return [float(whole - p * x) for x in totals]
        w = len(self._winners)
        return [float(p - w) if s in self._winners else -float(w) for s in range(p)]

    def _action_to_string(self, player: int, action: int) -> str:
        if player < 0:
            what = "draw" if self._core is not None and self._drawing else "deal"
            try:
                return f"{what} {Tile.from_id(int(action))}"
            except (ValueError, TypeError):
                return f"{what} {action!r} (no tile)"
        try:
            return str(self._cfg.enc.move(action))
        except ArgumentError:
            return f"action {action!r} (no move)"

    def __str__(self) -> str:
        cfg = self._cfg
        lines: list[str] = []
        if cfg.scope == "match":
            totals = [sum(row[s] for row in self._scores) for s in range(cfg.players)]
            lines.append(f"match: {len(self._scores)} rounds played, totals {totals}")
        core = self._core
        if core is None and self._finished and self._over:
            core = self._finished[-1]
        if core is None:
            hs = cfg.hand_size
            k = len(self._scores)
            lines.append(f"dealing round {k}: {len(self._dealt)} of {cfg.dealt} tiles dealt")
            for seat in range(cfg.players):
                got = self._dealt[seat * hs : (seat + 1) * hs]
                lines.append(f"  seat {seat}: {' '.join(str(Tile.from_id(t)) for t in got)}")
        else:
            lines.append(render_compact(core))
            if self._drawing:
                lines.append(f"seat {core.turn} draws")
        return "\n".join(lines)

    def __deepcopy__(self, memo: Any) -> ChickenFootState:
        # Never used by pyspiel (clone() copies the attributes); kept cheap for copy.deepcopy.
        return self.clone()  # type: ignore[no-any-return]

    def serialize(self) -> str:
        """The state as text: its OpenSpiel history (``history=P:A,...``) and
        ``move_number=N`` (and the position a state of ``new_state_from`` started at, as a
        ``start=`` line of its JSON), which :meth:`ChickenFootGame.deserialize_state`
        replays. No pickle, unlike OpenSpiel's C++ serialization of Python states."""
        return _openspiel_serial.serialize(self, self._start)


# -- observations ---------------------------------------------------------------------------------


class ChickenFootObserver:
    """Observations and information states, as strings and as the encoding's tensors.

    The tensor is :meth:`chickenfoot.encoding.Encoding.observe` of the player's view (with
    the last ``INFO_HISTORY`` public events under perfect recall, none otherwise), the
    private fields (``hand``, ``drawn``) zeroed when private information is not asked for
    and the public ones zeroed when public information is not; in match scope a ``match``
    field follows (rounds played, then each seat's total, the viewer first).
    """

    def __init__(self, cfg: _Config, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params is not None and not (type(params) is dict and not params):
            raise ArgumentError(f"observation parameters are not supported; got {brief(params)}")
        instance(iig_obs_type, pyspiel.IIGObservationType, "the observer")
        self._cfg = cfg
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.public = bool(iig_obs_type.public_info)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self._enc = cfg.enc_info if self.perfect_recall else cfg.enc
        n = self._enc.observation_size
        self.tensor: NDArray[np.float32] = np.zeros(n + cfg.match_size, np.float32)
        self.dict: dict[str, NDArray[np.float32]] = {}
        at = 0
        for name, size in self._enc.fields:
            self.dict[name] = self.tensor[at : at + size]
            at += size
        if cfg.match_size:
            self.dict["match"] = self.tensor[at:]
        self._round = self.tensor[:n]

    def set_from(self, state: ChickenFootState, player: int) -> None:
        """Write ``player``'s observation of ``state`` into ``tensor``."""
        cfg = self._cfg
        core = state.round_state
        self.tensor.fill(0.0)
        if core is not None:
            self._enc.observe(core.view(player), out=self._round)
        else:
            hand = self.dict["hand"]
            for t in _dealt_to(state, player):
                hand[t] = 1.0
        if not self.private:
            self.dict["hand"].fill(0.0)
            self.dict["drawn"].fill(0.0)
        if not self.public:
            keep_hand = self.dict["hand"].copy()
            keep_drawn = self.dict["drawn"].copy()
            self.tensor.fill(0.0)
            self.dict["hand"][:] = keep_hand
            self.dict["drawn"][:] = keep_drawn
        elif cfg.match_size:
            m = self.dict["match"]
            p = cfg.players
            m[0] = state.rounds_played
            for seat in range(p):
                m[1 + (seat - player) % p] = sum(row[seat] for row in state.scores)

    def string_from(self, state: ChickenFootState, player: int) -> str:
        """``player``'s observation (or information state, under perfect recall) as text."""
        cfg = self._cfg
        core = state.round_state
        parts = [f"seat {player}"]
        if self.public and cfg.scope == "match":
            parts.append(f"round {state.rounds_played}")
            if self.perfect_recall:
                for k, (done, row) in enumerate(zip(state._finished, state.scores, strict=True)):
                    events = " ".join(str(e) for e in done.view(player).history)
                    parts.append(f"round {k}: {events} scores {list(row)}")
            else:
                totals = [sum(row[s] for row in state.scores) for s in range(cfg.players)]
                parts.append(f"totals {totals}")
        if core is None:
            if self.private:
                dealt = " ".join(str(Tile.from_id(t)) for t in sorted(_dealt_to(state, player)))
                parts.append(f"dealing: hand {dealt}")
            elif self.public:
                parts.append("dealing")
            return "\n".join(parts)
        v = core.view(player)
        if not self.perfect_recall and self.public and self.private:
            parts.append(render_compact(v))
            return "\n".join(parts)
        if self.private:
            parts.append(f"hand {' '.join(str(t) for t in v.hand)}")
            if v.drawn is not None:
                parts.append(f"drawn {v.drawn}")
        if self.public:
            parts.append(
                f"turn {v.turn} hands {list(v.hand_sizes)} boneyard {v.boneyard_size}"
                + (" drawing" if state._drawing else "")
            )
            if self.perfect_recall:
                parts.append("history " + " ".join(_public(e, self.private) for e in v.history))
            else:
                parts.append("board " + " ".join(str(m) for m in v.board))
        return "\n".join(parts)


def _public(event: Any, private: bool) -> str:
    """An event as text; a draw's tile only when private information is shown."""
    if private or not isinstance(event.move, Draw):
        return str(event)
    return f"{event.seat}:draw"


def _dealt_to(state: ChickenFootState, player: int) -> tuple[int, ...]:
    hs = state._cfg.hand_size
    return state._dealt[player * hs : (player + 1) * hs]


if pyspiel is not None:
    pyspiel.register_game(_game_type(zero_sum=False), ChickenFootGame)
    # OpenSpiel's C++ reader of a Python state unpickles the string's __dict__= line, and C++
    # cannot be told otherwise: its one Python entry point for whole documents is wrapped so
    # that this game's documents are replayed from their history (docs/openspiel.md).
    pyspiel.deserialize_game_and_state = _openspiel_serial.guard(
        pyspiel.deserialize_game_and_state, GAME_NAME, ChickenFootGame, pyspiel.deserialize_game
    )
