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

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from chickenfoot.errors import ArgumentError, brief
from chickenfoot.match import Match
from chickenfoot.moves import DRAW, Draw
from chickenfoot.openspiel import _serial
from chickenfoot.openspiel._config import (
    DEFAULTS,
    GAME_NAME,
    INFO_HISTORY,
    MAX_PLAYERS,
    Config,
    config,
    parameters,
    pyspiel,
    rules_from_parameters,
)
from chickenfoot.openspiel._observer import ChickenFootObserver
from chickenfoot.render import render_compact
from chickenfoot.rules import Rules
from chickenfoot.state import State, apply, is_legal
from chickenfoot.tiles import Tile

if TYPE_CHECKING:

    class _GameBase:
        def __init__(self, *args: Any) -> None: ...
        def __getattr__(self, name: str) -> Any: ...

    class _StateBase:
        def __init__(self, game: Any) -> None: ...
        def __getattr__(self, name: str) -> Any: ...


_MISSING = (
    "the OpenSpiel game needs OpenSpiel: pip install 'chickenfoot[openspiel]' (or open_spiel)"
)


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
        max_num_players=MAX_PLAYERS,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULTS,
    )


def load_game(rules: Rules | None = None, *, scope: str = "round", utility: str = "auto") -> Any:
    """``pyspiel.load_game`` of ``python_chickenfoot`` with the parameters of ``rules``."""
    if pyspiel is None:  # pragma: no cover - depends on the environment
        raise ImportError(_MISSING)
    return pyspiel.load_game(GAME_NAME, parameters(rules, scope=scope, utility=utility))


# -- the game -------------------------------------------------------------------------------------


class ChickenFootGame(_GameBase):
    """The OpenSpiel game: ``pyspiel.load_game("python_chickenfoot(...)")`` builds one."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        if pyspiel is None:  # pragma: no cover - depends on the environment
            raise ImportError(_MISSING)
        params = {} if params is None else params
        rules, scope, utility = rules_from_parameters(params)
        cfg = config(rules, scope, utility)
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
        state._start = _serial.Start(position)
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
        return _serial.deserialize(self, text)  # type: ignore[no-any-return]


class ChickenFootState(_StateBase):
    """A node of the game tree: dealing, a draw's chance node, a player's turn, or the end.

    ``round_state`` is the library's :class:`~chickenfoot.State` of the round in play (``None``
    while its tiles are dealt); the round states are immutable, so cloning is cheap.
    """

    def __init__(self, game: ChickenFootGame) -> None:
        super().__init__(game)
        self._cfg: Config = game.config
        self._core: State | None = None
        self._dealt: tuple[int, ...] = ()
        self._drawing = False
        self._finished: tuple[State, ...] = ()
        self._scores: tuple[tuple[int, ...], ...] = ()
        self._winners: tuple[int, ...] = ()
        self._over = False
        self._start: _serial.Start | None = None  # the position of new_state_from

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
    def finished(self) -> tuple[State, ...]:
        """The final position of each round played to its end, in order."""
        return self._finished

    @property
    def dealing(self) -> tuple[int, ...]:
        """The tile ids dealt so far in the round being dealt, seat by seat (hand by hand)."""
        return self._dealt

    @property
    def drawing(self) -> bool:
        """Whether the next chance node draws a tile for the seat to act."""
        return self._drawing

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
        return _serial.serialize(self, self._start)


if pyspiel is not None:
    pyspiel.register_game(_game_type(zero_sum=False), ChickenFootGame)
    # OpenSpiel's C++ reader of a Python state unpickles the string's __dict__= line, and C++
    # cannot be told otherwise: its one Python entry point for whole documents is wrapped so
    # that this game's documents are replayed from their history (docs/openspiel.md).
    pyspiel.deserialize_game_and_state = _serial.guard(
        pyspiel.deserialize_game_and_state, GAME_NAME, ChickenFootGame, pyspiel.deserialize_game
    )
