"""Chicken Foot as a PettingZoo AEC environment (``pip install 'chickenfoot[pettingzoo]'``).

``env(**kwargs)`` is the environment wrapped the way PettingZoo's classic games are (an
illegal action ends the game with a penalty, an action outside the space is an assertion
error, the call order is enforced); ``raw_env(**kwargs)`` is the bare environment, which
raises the library's errors instead. The agents are ``player_0`` to ``player_{P-1}``, the
seats of the rules; the rules come from keyword arguments (``rules=``, or ``preset=`` and
any :class:`~chickenfoot.Rules` field). Actions and observations are those of
:class:`chickenfoot.encoding.Encoding`: each agent observes only its own
:class:`~chickenfoot.View`.

The reward model, the decisions (no parallel API, no ``max_cycles``) and a training loop
are on the documentation page ``docs/pettingzoo.md``.

This module imports without PettingZoo and gymnasium installed (so the package's own test
run can collect it); building an environment then raises :class:`ImportError` naming the
extra to install.
"""

from __future__ import annotations

import importlib
from typing import Any, ClassVar

from chickenfoot import _checks
from chickenfoot.errors import ArgumentError, RulesError, SeatError, brief
from chickenfoot.match import Match
from chickenfoot.rules import Rounds, Rules
from chickenfoot.state import State
from chickenfoot.tiles import tiles_of_set

__all__ = ["env", "raw_env"]

SCOPES = ("round", "match")
"""What one episode is: one round, or a whole match."""
REWARDS = ("penalty", "zero_sum")
"""How a round's penalties become rewards."""


class _NoAECEnv:
    """Stands in for ``pettingzoo.AECEnv`` when PettingZoo is not installed."""


class _NoEzPickle:
    """Stands in for ``gymnasium.utils.EzPickle`` when gymnasium is not installed."""


# PettingZoo and gymnasium are optional and untyped here: the package type-checks the same
# with or without them.
_AECEnv: Any = _NoAECEnv
_EzPickle: Any = _NoEzPickle
_spaces: Any = None
_seeding: Any = None
_logger: Any = None
_wrappers: Any = None
_np: Any = None
_Encoding: Any = None
_MISSING: ImportError | None = None
try:
    _np = importlib.import_module("numpy")
    _Encoding = importlib.import_module("chickenfoot.encoding").Encoding
    _gymnasium = importlib.import_module("gymnasium")
    _spaces = importlib.import_module("gymnasium.spaces")
    _seeding = importlib.import_module("gymnasium.utils.seeding")
    _logger = _gymnasium.logger
    _EzPickle = importlib.import_module("gymnasium.utils").EzPickle
    _AECEnv = importlib.import_module("pettingzoo").AECEnv
    _wrappers = importlib.import_module("pettingzoo.utils.wrappers")
except ImportError as exc:  # pragma: no cover - exercised without the extra
    _MISSING = exc


def _require() -> None:
    if _MISSING is not None:  # pragma: no cover - exercised without the extra
        raise ImportError(
            f"chickenfoot.pettingzoo needs PettingZoo, gymnasium and numpy ({_MISSING}): "
            "pip install 'chickenfoot[pettingzoo]'"
        ) from _MISSING


def env(*, illegal_reward: float | None = None, **kwargs: Any) -> Any:
    """The Chicken Foot environment, wrapped like PettingZoo's classic games.

    ``kwargs`` go to :class:`raw_env`. The wrappers, outermost first: ``OrderEnforcingWrapper``
    (``reset`` before anything else), ``AssertOutOfBoundsWrapper`` (an action outside the
    action space is an :class:`AssertionError`) and ``TerminateIllegalWrapper`` (an action
    outside the mask ends the episode for every agent, the offender getting
    ``illegal_reward``: by default :attr:`raw_env.illegal_reward`, below any return a legal
    game can give).
    """
    _require()
    raw = raw_env(**kwargs)
    if illegal_reward is None:
        illegal_reward = raw.illegal_reward
    reward = _checks.real(illegal_reward, "illegal_reward")
    wrapped = _wrappers.TerminateIllegalWrapper(raw, illegal_reward=reward)
    wrapped = _wrappers.AssertOutOfBoundsWrapper(wrapped)
    return _wrappers.OrderEnforcingWrapper(wrapped)


def _build_rules(rules: Any, preset: Any, fields: dict[str, Any]) -> Rules:
    if rules is not None:
        if not isinstance(rules, Rules):
            raise RulesError(
                f"rules={brief(rules)} is invalid: must be a Rules object", field="rules"
            )
        if preset is not None or fields:
            extra = "preset" if preset is not None else next(iter(fields))
            shown = extra if len(extra) <= 40 else brief(extra, 40)
            raise RulesError(
                f"{shown} is invalid with rules=: give the whole configuration as a Rules "
                "object, or its fields as keywords",
                field=extra,
            )
        return rules
    if preset is not None:
        return Rules.preset(preset, **fields)
    return Rules(**fields)


def _seat_bound(rules: Rules) -> int:
    """The largest penalty one seat can score in a round: every tile of the set in hand."""
    return sum(t.pips for t in tiles_of_set(rules.max_pip)) + rules.double_blank


class raw_env(_AECEnv, _EzPickle):  # type: ignore[misc]  # noqa: N801 - PettingZoo's name
    """Chicken Foot as a PettingZoo ``AECEnv`` (turn-based: one agent acts at a time).

    Keyword arguments:

    - ``rules``: a :class:`~chickenfoot.Rules`; or ``preset`` (``"house"``, ``"four-toe"``,
      ``"classic"``) and any rules field (``players=2``, ``draw="until_playable"``, ...);
      a bad value raises :class:`~chickenfoot.RulesError` (a ``ValueError``);
    - ``scope``: ``"round"`` (one round per episode, the default) or ``"match"`` (a whole
      match, its length the rules' ``match`` field);
    - ``reward``: ``"penalty"`` (each agent gets minus its round penalty when a round ends,
      the default) or ``"zero_sum"`` (minus its penalty plus the mean penalty of the table);
    - ``history``: how many recent public events the observation carries (the encoding's
      ``history``, default 0);
    - ``render_mode``: ``None``, ``"ansi"`` (``render()`` returns the text picture) or
      ``"human"`` (it prints it, also after every step).

    Illegal actions and actions outside the space raise the library's
    :class:`~chickenfoot.IllegalMoveError` and :class:`~chickenfoot.ArgumentError` here,
    leaving the environment unchanged; :func:`env` wraps them as PettingZoo's classic
    games do.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "chickenfoot_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        *,
        rules: Rules | None = None,
        preset: str | None = None,
        scope: str = "round",
        reward: str = "penalty",
        history: int = 0,
        render_mode: str | None = None,
        **fields: Any,
    ) -> None:
        _require()
        _EzPickle.__init__(
            self,
            rules=rules,
            preset=preset,
            scope=scope,
            reward=reward,
            history=history,
            render_mode=render_mode,
            **fields,
        )
        _AECEnv.__init__(self)
        the_rules = _build_rules(rules, preset, fields)
        if scope not in SCOPES:
            raise ArgumentError(f"scope={brief(scope)} is invalid: must be 'round' or 'match'")
        if reward not in REWARDS:
            raise ArgumentError(
                f"reward={brief(reward)} is invalid: must be 'penalty' or 'zero_sum'"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ArgumentError(
                f"render_mode={brief(render_mode)} is invalid: must be None, 'human' or 'ansi'"
            )
        self.rules: Rules = the_rules
        self.scope: str = scope
        self.reward: str = reward
        self.render_mode: str | None = render_mode
        self.encoding: Any = _Encoding(the_rules, history=history)
        enc = self.encoding
        self.possible_agents: list[str] = [f"player_{i}" for i in range(the_rules.players)]
        self.agents: list[str] = []
        self._seats: dict[str, int] = {a: i for i, a in enumerate(self.possible_agents)}
        high = self._observation_high()
        self.observation_spaces: dict[str, Any] = {
            a: _spaces.Dict(
                {
                    "observation": _spaces.Box(
                        low=0.0, high=high, shape=(enc.observation_size,), dtype=_np.float32
                    ),
                    "action_mask": _spaces.Box(
                        low=0, high=1, shape=(enc.num_actions,), dtype=_np.int8
                    ),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces: dict[str, Any] = {
            a: _spaces.Discrete(enc.num_actions) for a in self.possible_agents
        }
        self.np_random: Any = None
        self.deal_seed: int | None = None
        self._match: Match | None = None
        self._state: State | None = None
        self._mask_for: State | None = None
        self._mask: Any = None

    # -- spaces -------------------------------------------------------------------------------

    def _observation_high(self) -> Any:
        """The observation's upper bounds, field by field (the lower bound is 0)."""
        r = self.rules
        enc = self.encoding
        dealt = r.set_size - (1 if r.centre == "set_aside" else 0)
        boneyard = dealt - r.players * r.hand_size
        bounds = {
            # a hand holds its deal and at most every tile of the boneyard
            "hand_sizes": r.hand_size + boneyard,
            "boneyard": max(boneyard, 1),
            # each open end showing k is a distinct tile carrying k: N + 1 of them
            "open_numbers": r.max_pip + 1,
            "toes_needed": max(r.opening_toes, r.foot_toes),
        }
        parts = [
            _np.full(size, bounds.get(name, 1), dtype=_np.float32) for name, size in enc.fields
        ]
        return _np.concatenate(parts)

    def observation_space(self, agent: str) -> Any:
        """The ``Dict`` space of ``observation`` (float32) and ``action_mask`` (int8 0/1)."""
        return self.observation_spaces[self._agent(agent)[0]]

    def action_space(self, agent: str) -> Any:
        """``Discrete(encoding.num_actions)``: the encoding's action ids."""
        return self.action_spaces[self._agent(agent)[0]]

    def _agent(self, agent: Any) -> tuple[str, int]:
        seat = self._seats.get(agent) if isinstance(agent, str) else None
        if seat is None:
            raise SeatError(
                f"agent={brief(agent)} is invalid: the agents are player_0 to "
                f"player_{self.rules.players - 1}"
            )
        return agent, seat

    # -- the game -----------------------------------------------------------------------------

    @property
    def position(self) -> State:
        """The round in play, or the round that just ended (the match's last one at its end)."""
        if self._state is None:
            raise AttributeError("reset() must be called before position is available")
        return self._state

    @property
    def match(self) -> Match | None:
        """The :class:`~chickenfoot.Match` in ``scope="match"`` (``None`` in round scope)."""
        return self._match

    @property
    def illegal_reward(self) -> float:
        """The reward :func:`env` gives an illegal action: below any legal episode's return.

        Minus one more than the largest total penalty a seat can reach in the episode (each
        round is bounded by the penalty of every tile of the set), twice that under
        ``reward="zero_sum"``, whose returns can be positive.
        """
        per_round = _seat_bound(self.rules)
        if self.scope == "round":
            bound = per_round
        elif isinstance(self.rules.match, Rounds):
            bound = per_round * self.rules.match.count
        else:  # Threshold: every total is at most T before the last round
            bound = self.rules.match.points + per_round
        return -float((2 if self.reward == "zero_sum" else 1) * bound + 1)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new episode: ``chickenfoot.deal(rules, seed, round)`` with ``seed`` if given.

        Without a seed, the deal's seed is drawn from the environment's generator (seeded by
        the last ``reset(seed=...)``, else from the operating system). ``options`` may hold
        ``"round"`` (round scope: which round of a match to deal, default 0, giving its
        centre and first player); other keys are ignored. Every argument is checked before
        anything changes: a bad one raises :class:`~chickenfoot.ArgumentError` and leaves the
        environment as it was.
        """
        if seed is not None:
            seed = _checks.seed(seed, "seed", low=0, index=True)
        if options is not None and not isinstance(options, dict):
            raise _checks.invalid("options", options, "must be None or a dict such as {'round': 2}")
        round_ = 0
        if options and "round" in options:
            if self.scope != "round":
                raise ArgumentError("options['round'] is only for scope='round'")
            round_ = _checks.seed(options["round"], "options['round']", low=0, index=True)
        from chickenfoot.deal import deal

        if seed is not None:
            rng, _ = _seeding.np_random(seed)
            deal_seed = seed
        else:
            rng = self.np_random if self.np_random is not None else _seeding.np_random(None)[0]
            deal_seed = int(rng.integers(0, 2**63 - 1))
        match = Match.start(self.rules, seed=deal_seed) if self.scope == "match" else None
        state = deal(self.rules, deal_seed, round_) if match is None else match.round
        assert state is not None
        self.np_random, self.deal_seed, self._match, self._state = rng, deal_seed, match, state
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[state.turn]

    def _legal_mask(self) -> Any:
        state = self.position
        if self._mask_for is not state:
            mask = _np.zeros(self.encoding.num_actions, dtype=_np.int8)
            for a in self.encoding.legal_actions(state):
                mask[a] = 1
            self._mask_for, self._mask = state, mask
        return self._mask

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation: its view encoded, and the mask of its legal actions.

        The mask is all zeros except for the agent to act, before the episode ends.
        """
        state = self.position
        _, seat = self._agent(agent)
        observation = self.encoding.observe(state.view(seat))
        acting = (
            not state.is_over()
            and seat == state.turn
            and agent in self.terminations
            and not self.terminations[agent]
        )
        if acting:
            mask = self._legal_mask().copy()
        else:
            mask = _np.zeros(self.encoding.num_actions, dtype=_np.int8)
        return {"observation": observation, "action_mask": mask}

    def step(self, action: Any) -> None:
        """Play ``action`` (an action id) for :attr:`agent_selection`.

        A terminated agent must step ``None`` (PettingZoo's dead step). Raises
        :class:`~chickenfoot.ArgumentError` for an action that is no action id (outside
        ``range(num_actions)``, or not an int), for anything but ``None`` from a terminated
        agent and for any step once every agent has left, and
        :class:`~chickenfoot.IllegalMoveError` for an action that is not legal now; each
        leaves the environment unchanged.
        """
        state = self.position  # AttributeError before reset()
        agent = self.agent_selection
        if not self.agents:
            raise ArgumentError("the episode is over and every agent has left: call reset()")
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise _checks.invalid("action", action, f"must be None: {agent} is done")
            self._was_dead_step(action)
            return
        move = self.encoding.move(action)
        if not self._legal_mask()[self.encoding.action(move)]:
            state.apply(move)  # raises IllegalMoveError, with the rules' reason
            raise AssertionError(f"{move}: the action mask disagrees with the legal moves")
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self._match is not None:
            played = self._match.rounds_played
            self._match = self._match.apply(move)
            if self._match.rounds_played > played:  # the round ended (and the next is dealt)
                self._score(self._match.scores[-1])
            if self._match.round is None:
                self._state = self._match.last_round
                self.terminations = dict.fromkeys(self.agents, True)
            else:
                self._state = self._match.round
        else:
            self._state = state.apply(move)
            if self._state.is_over():
                self._score(self._state.penalties())
                self.terminations = dict.fromkeys(self.agents, True)
        assert self._state is not None
        self.agent_selection = self.possible_agents[self._state.turn]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _score(self, penalties: tuple[int, ...]) -> None:
        mean = sum(penalties) / len(penalties) if self.reward == "zero_sum" else 0.0
        for agent, seat in self._seats.items():
            if agent in self.rewards:
                self.rewards[agent] = float(mean - penalties[seat])

    # -- pictures -----------------------------------------------------------------------------

    def render(self) -> str | None:
        """The text picture of the table (every hand shown): returned under ``"ansi"``,
        printed under ``"human"``."""
        if self.render_mode is None:
            _logger.warn("render() needs a render_mode: raw_env(render_mode='ansi' or 'human')")
            return None
        from chickenfoot.render import render_compact

        text = render_compact(self.position)
        if self._match is not None:
            totals = " ".join(map(str, self._match.totals))
            number = self._match.rounds_played + (0 if self._match.is_over() else 1)
            text = f"round {number} · totals {totals}\n{text}"
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release: the environment holds no window or file."""

    def __str__(self) -> str:
        return str(self.metadata["name"])
