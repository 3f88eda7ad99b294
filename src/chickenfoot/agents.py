"""Players: the :class:`Agent` protocol, built-in agents, and drivers that hand them views.

An agent sees what its seat may know (a :class:`~chickenfoot.View`), never the state: the
drivers :func:`play_round` and :func:`play_match` build each view and check each answer.
Every built-in agent is an immutable value, deterministic for the random generator it is
given, and picklable, so simulations can ship it to other processes or machines.

>>> import random
>>> from chickenfoot import Rules, deal
>>> agents = [GreedyAgent(), RandomAgent(), RandomAgent(), RandomAgent()]
>>> end = play_round(deal(Rules(), seed=4), agents, random.Random(0))
>>> end.is_over(), len(end.history) > 20
(True, True)

Writing an agent takes one method (docs: Agents):

>>> class FirstMove:
...     def choose(self, view, legal, rng):
...         return legal[0]
>>> play_round(deal(Rules(), seed=4), [FirstMove()] * 4, random.Random(0)).is_over()
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final, Protocol

import attrs

from chickenfoot import _checks as checks
from chickenfoot._rollouts import (
    BACKENDS,
    OBJECTIVES,
    ROLLOUTS,
    Rollouts,
    heuristic_policy,
    resolve,
    score,
)
from chickenfoot.errors import AgentError, InvalidMoveError, RulesError, brief
from chickenfoot.moves import Move, Play, parse_move
from chickenfoot.playout import playout
from chickenfoot.rules import Rules
from chickenfoot.state import LegalMoves, State, apply
from chickenfoot.tiles import Tile
from chickenfoot.view import View

if TYPE_CHECKING:
    from chickenfoot.match import Match

__all__ = [
    "Agent",
    "GreedyAgent",
    "HeuristicAgent",
    "RandomAgent",
    "SearchAgent",
    "ask",
    "check_agents",
    "play_match",
    "play_round",
]


_MAX_ITERATIONS: Final = 1_000_000  # deals a SearchAgent may try per decision


class Agent(Protocol):
    """Anything with a ``choose`` method: given a view, its legal moves and a random
    generator, return one of the legal moves.

    ``legal`` is never empty and is ``view.legal_moves``; the agent's seat is
    ``view.seat`` (it is always that seat's turn). Use ``rng`` for every random choice,
    so that a seed reproduces a game.
    """

    def choose(self, view: View, legal: LegalMoves, rng: random.Random) -> Move:
        """The move to make."""
        ...


def _check_choice(who: str, view: object, legal: object, rng: object, *, rng_needed: bool) -> None:
    """The arguments of a built-in agent's ``choose`` (the drivers always pass good ones;
    a program that calls an agent itself gets the library's errors for bad ones)."""
    checks.instance(view, View, f"{who}.choose")
    if isinstance(legal, (str, bytes)) or not isinstance(legal, Sequence) or not legal:
        raise checks.invalid("legal", legal, "must be the view's legal moves (not empty)")
    if rng_needed or rng is not None:
        checks.random_generator(rng)


def _value(tile: Tile, rules: Rules) -> int:
    """A tile's penalty points: its pips, ``0-0`` at ``double_blank``."""
    return rules.double_blank if tile.id == 0 else tile.pips


@attrs.frozen
class RandomAgent:
    """Any legal move, uniformly at random.

    >>> import random
    >>> from chickenfoot import Rules, deal
    >>> v = deal(Rules(), seed=2).view(0)
    >>> str(RandomAgent().choose(v, v.legal_moves, random.Random(1)))
    '9-2@9-9'
    """

    def choose(self, view: View, legal: LegalMoves, rng: random.Random) -> Move:
        """A uniformly random legal move."""
        _check_choice("RandomAgent", view, legal, rng, rng_needed=True)
        return rng.choice(legal)


@attrs.frozen
class GreedyAgent:
    """Sheds the most points first: the play of the tile worth the most penalty points
    (``0-0`` at the rules' ``double_blank``), the first listed among equals; draws or
    passes only when it has no play.

    >>> from chickenfoot import Rules, deal
    >>> v = deal(Rules(), seed=2).view(0)
    >>> [str(m) for m in v.legal_moves], str(GreedyAgent().choose(v, v.legal_moves, None))
    (['9-2@9-9', '9-7@9-9'], '9-7@9-9')
    """

    def choose(self, view: View, legal: LegalMoves, rng: random.Random | None) -> Move:
        """The play shedding the most points."""
        _check_choice("GreedyAgent", view, legal, rng, rng_needed=False)
        rules = view.rules
        best: Move = legal[0]
        best_value = -1
        for m in legal:
            if isinstance(m, Play):
                value = _value(m.tile, rules)
                if value > best_value:
                    best, best_value = m, value
        return best


def _weight(instance: object, attribute: attrs.Attribute[float], value: object) -> None:
    """A weight of :class:`HeuristicAgent`: any finite real number (negative ones too)."""
    checks.real(value, attribute.name, error=AgentError)


@attrs.frozen(kw_only=True)
class HeuristicAgent:
    """Greedy, with judgement: scores each play by the points it sheds plus what it does
    to the table, and plays the best.

    - ``follow``: for each tile it keeps that matches the number it leaves open (it can
      play on next), and three times that when it keeps the double of that number;
    - ``hurt``: for each other seat that provably lacked the number it leaves open (it
      drew or passed while that number was open, and has not drawn since);
    - ``foot``: for laying a double it can help fill (it keeps a tile that matches it),
      and minus ``foot`` for one it cannot;
    - ``keep``: minus this for giving up a tile that matches a double it still holds.

    >>> import random
    >>> from chickenfoot import Rules, deal
    >>> v = deal(Rules(), seed=2).view(0)
    >>> str(HeuristicAgent().choose(v, v.legal_moves, random.Random(0)))
    '9-7@9-9'
    """

    follow: float = attrs.field(default=2.0, validator=_weight)
    hurt: float = attrs.field(default=3.0, validator=_weight)
    foot: float = attrs.field(default=6.0, validator=_weight)
    keep: float = attrs.field(default=3.0, validator=_weight)

    def choose(self, view: View, legal: LegalMoves, rng: random.Random | None) -> Move:
        """The play with the best score (the first listed among equals)."""
        _check_choice("HeuristicAgent", view, legal, rng, rng_needed=False)
        plays = [m for m in legal if isinstance(m, Play)]
        if not plays:
            return legal[0]
        if len(plays) == 1:
            return plays[0]
        rules = view.rules
        hand = view.hand
        lacking = _lacking(view)
        best, best_score = plays[0], float("-inf")
        for m in plays:
            tile = m.tile
            rest = [t for t in hand if t is not tile]
            score = float(_value(tile, rules))
            # The number this play leaves open (None: a double, which closes its line).
            if m.anchor is None:
                number: int | None = None
            elif tile.is_double:
                number = None
                helpers = sum(1 for t in rest if t.has(tile.high))
                score += self.foot if helpers else -self.foot
            elif view.pending_hub is not None:  # a toe
                number = tile.other(view.pending_hub.high)
            else:
                number = _open_number(view, m)
            if number is not None:
                followers = sum(1 for t in rest if t.has(number))
                own_double = any(t.is_double and t.high == number for t in rest)
                score += self.follow * followers * (3 if own_double else 1)
                score += self.hurt * sum(1 for seat_lacks in lacking if seat_lacks >> number & 1)
            doubles = [t.high for t in rest if t.is_double]
            if any(tile.has(d) for d in doubles) and not tile.is_double:
                score -= self.keep
            if score > best_score:
                best, best_score = m, score
        return best


def _open_number(view: View, m: Play) -> int | None:
    """The number a play on an open end leaves open."""
    for anchor, number in view.open_ends:
        if anchor is m.anchor:
            return m.tile.other(number)
    return None  # pragma: no cover - every listed play is on an open end or a hub


def _lacking(view: View) -> list[int]:
    """Per other seat: a bitmask of the numbers it provably lacked at its last draw or pass
    and has not drawn a tile since (empty for the viewer)."""
    cached = view._cache.get("lacking")
    if cached is None:
        from chickenfoot.sampling import public_facts

        cached = view._cache["lacking"] = public_facts(view)
    return cached


@attrs.frozen(kw_only=True)
class SearchAgent:
    """Determinized Monte Carlo search: deal the unseen tiles at random consistently with
    the history (:meth:`View.sample <chickenfoot.View.sample>`), try every legal move on
    each deal, finish the round with a fast random :func:`~chickenfoot.playout`, and play
    the move whose rounds ended best on average.

    ``objective`` is a round's result for the agent (lower is better): ``"margin"`` (the
    default) its penalty minus the mean penalty of the others, ``"win"`` minus its share
    of the round's win (``1/k`` when it is one of ``k`` seats with the lowest penalty).
    ``iterations`` deals (1 to 1,000,000) are tried per decision; with
    ``time_limit`` (seconds, above 0) it stops early when the time is up (then a seed no
    longer fixes the game).
    ``rollout`` finishes each round: ``"greedy"`` (the default: every seat sheds its
    heaviest tile; deterministic, so every move is judged on the same future),
    ``"heuristic"`` (every seat plays as a :class:`HeuristicAgent` at its default weights
    would, without the ``hurt`` term, also deterministic; the strongest at a time limit,
    docs: Agents, Compiled search) or ``"random"`` (uniform random moves, faster, the same
    random choices after every move of a deal).
    ``backend`` runs the search: ``"numba"`` compiled, samples and rollouts (the
    ``chickenfoot[fast]`` extra; the first decision in a process loads the kernel, about a
    second, and the first ever on a machine compiles it, about ten, cached on disk),
    ``"python"`` in pure Python, or ``"auto"`` (the default): compiled when numba can be
    imported. Both make exactly the same choices for the same ``rng`` and leave it in the
    same state: the compiled one is only faster (docs: Agents, Compiled search).

    >>> import random
    >>> from chickenfoot import Rules, deal
    >>> v = deal(Rules(), seed=2).view(0)
    >>> m = SearchAgent(iterations=8).choose(v, v.legal_moves, random.Random(0))
    >>> m in v.legal_moves
    True
    >>> heuristic = SearchAgent(iterations=8, rollout="heuristic", backend="python")
    >>> str(heuristic.choose(v, v.legal_moves, random.Random(0)))  # the same on "numba"
    '9-2@9-9'
    """

    iterations: int = attrs.field(default=32)
    time_limit: float | None = attrs.field(default=None)
    rollout: str = attrs.field(default="greedy")
    backend: str = attrs.field(default="auto")
    objective: str = attrs.field(default="margin")

    @iterations.validator
    def _check_iterations(self, attribute: attrs.Attribute[int], value: int) -> None:
        checks.integer(value, "iterations", low=1, high=_MAX_ITERATIONS, error=AgentError)

    @time_limit.validator
    def _check_time_limit(self, attribute: attrs.Attribute[float | None], value: object) -> None:
        if value is not None:
            checks.real(value, "time_limit", above=0, high=1e9, error=AgentError)

    @rollout.validator
    def _check_rollout(self, attribute: attrs.Attribute[str], value: object) -> None:
        checks.choice(value, "rollout", ROLLOUTS, error=AgentError)

    @objective.validator
    def _check_objective(self, attribute: attrs.Attribute[str], value: object) -> None:
        checks.choice(value, "objective", OBJECTIVES, error=AgentError)

    @backend.validator
    def _check_backend(self, attribute: attrs.Attribute[str], value: object) -> None:
        # backend="numba" without numba: the error names the extra to install
        resolve(checks.choice(value, "backend", BACKENDS, error=AgentError))

    def choose(self, view: View, legal: LegalMoves, rng: random.Random) -> Move:
        """The move with the best mean result over sampled deals."""
        _check_choice("SearchAgent", view, legal, rng, rng_needed=True)
        if len(legal) == 1:
            return legal[0]
        seat = view.seat
        if resolve(self.backend):
            return self._choose_compiled(view, legal, rng)
        totals = [0.0] * len(legal)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        for _ in range(self.iterations):
            world = view.sample(rng)
            seed = rng.getrandbits(64)
            for i, m in enumerate(legal):
                if self.rollout == "greedy":
                    end = playout(apply(world, m), policy=_greedy_policy)
                elif self.rollout == "heuristic":
                    end = playout(apply(world, m), policy=heuristic_policy)
                else:
                    # The same random choices after every move: the comparison of the moves
                    # is not drowned in the noise of the rollouts.
                    end = playout(apply(world, m), random.Random(seed))
                totals[i] += score(end.penalties(), seat, self.objective)
            if deadline is not None and time.perf_counter() > deadline:
                break
        best = min(range(len(legal)), key=totals.__getitem__)
        return legal[best]

    def _choose_compiled(self, view: View, legal: LegalMoves, rng: random.Random) -> Move:
        """:meth:`choose` with the rollouts compiled: the same samples, seeds and scores."""
        rollouts = Rollouts(view.rules, legal, self.rollout, view.seat, self.objective)
        deadline = None if self.time_limit is None else time.perf_counter() + self.time_limit
        rollouts.search(view, rng, self.iterations, deadline)
        totals = rollouts.totals
        best = min(range(len(legal)), key=totals.__getitem__)
        return legal[best]


def _greedy_policy(state: State, legal: LegalMoves) -> Move:
    """The greedy choice on a full state (for rollouts): the play worth the most points."""
    best: Move = legal[0]
    best_value = -1
    blank = state.rules.double_blank
    for m in legal:
        if isinstance(m, Play):
            t = m.tile
            value = blank if t.id == 0 else t.pips
            if value > best_value:
                best, best_value = m, value
    return best


# -- drivers ------------------------------------------------------------------------------


def check_agents(agents: object, players: int) -> None:
    """Raise :class:`~chickenfoot.AgentError` unless ``agents`` is one agent per seat.

    What every driver checks first (:func:`play_round`, :func:`play_match`,
    :func:`~chickenfoot.simulate`): a sequence (not a string) of ``players`` objects with a
    ``choose`` method.

    >>> check_agents([RandomAgent()], 2)
    Traceback (most recent call last):
    ...
    chickenfoot.errors.AgentError: expected 2 agents (one per seat), got 1
    """
    if isinstance(agents, (str, bytes, bytearray)) or not isinstance(agents, Sequence):
        raise AgentError(f"agents must be a sequence of agents, got {brief(agents)}")
    if len(agents) != players:
        raise AgentError(f"expected {players} agents (one per seat), got {len(agents)}")
    for i, a in enumerate(agents):
        if not callable(getattr(a, "choose", None)):
            kind = type(a).__name__[:40]
            raise AgentError(f"agents[{i}] (a {kind}) has no choose(view, legal, rng) method")


def ask(agent: Agent, state: State, rng: random.Random) -> Move:
    """One step of a driver: the move ``agent`` makes for the seat to act in ``state``.

    The agent is handed that seat's view and its legal moves (a forced move, the only legal
    one, is made without asking); its answer, a move or its notation, is checked and
    raises :class:`~chickenfoot.AgentError` naming the agent, the seat and the answer if
    it is not listed. :func:`play_round` is this in a loop; a program with its own loop
    (a server, a tournament) calls it directly.

    >>> import random
    >>> from chickenfoot import Rules, deal
    >>> str(ask(GreedyAgent(), deal(Rules(), seed=2), random.Random(0)))
    '9-7@9-9'
    """
    seat = state.turn
    v = state.view(seat)
    legal = v.legal_moves
    if len(legal) == 1:
        return legal[0]
    answer = agent.choose(v, legal, rng)
    move = answer
    if isinstance(answer, str):
        try:
            move = parse_move(answer, max_pip=state.rules.max_pip)
        except InvalidMoveError:
            raise AgentError(
                f"{_name(agent)} at seat {seat} answered {brief(answer)}, which is not a move "
                f"of the double-{state.rules.max_pip} set in notation (e.g. {legal[0]})"
            ) from None
    if not isinstance(move, Move):
        raise AgentError(
            f"{_name(agent)} at seat {seat} returned {brief(answer)}, which is not a move"
        )
    if move not in legal:
        raise AgentError(
            f"{_name(agent)} at seat {seat} chose {move}, which is not legal here "
            f"(legal: {', '.join(map(str, legal[:8]))}{', ...' if len(legal) > 8 else ''})"
        )
    return move


def _name(agent: object) -> str:
    return type(agent).__name__


def play_round(state: State, agents: Sequence[Agent], rng: random.Random) -> State:
    """Play the round from ``state`` to its end, ``agents[seat]`` choosing for each seat.

    Each agent is handed its seat's view and the legal moves; a forced move (the only
    legal one) is made without asking. An answer that is not one of the legal moves raises
    :class:`~chickenfoot.AgentError` naming the agent, the seat and the answer.

    >>> import random
    >>> from chickenfoot import Rules, deal
    >>> class Cheat:
    ...     def choose(self, view, legal, rng):
    ...         return "pass"
    >>> play_round(deal(Rules(), seed=2), [Cheat()] * 4, random.Random(0))
    Traceback (most recent call last):
    ...
    chickenfoot.errors.AgentError: Cheat at seat 0 chose pass, which is not legal here (legal: 9-2@9-9, 9-7@9-9)
    """
    checks.instance(state, State, "play_round")
    check_agents(agents, state.players)
    checks.random_generator(rng)
    while not state.is_over():
        state = apply(state, ask(agents[state.turn], state, rng))
    return state


def play_match(
    rules: Rules,
    agents: Sequence[Agent],
    *,
    seed: int,
    rng: random.Random,
    on_round: Callable[[State], object] | None = None,
) -> Match:
    """Play a whole match (``rules.match`` rounds, dealt from ``seed``) among ``agents``.

    Each round is played with :func:`play_round`; ``on_round``, if given, is called with
    each round's final state (its ``history`` holds every move) before the next is dealt.

    >>> import random
    >>> from chickenfoot import Rules, Rounds
    >>> ends = []
    >>> m = play_match(Rules(match=Rounds(2)), [GreedyAgent()] * 4, seed=1,
    ...                rng=random.Random(0), on_round=ends.append)
    >>> m.is_over(), m.rounds_played, [e.is_over() for e in ends]
    (True, 2, [True, True])
    >>> m.scores == tuple(e.penalties() for e in ends)
    True
    """
    from chickenfoot.match import Match

    if not isinstance(rules, Rules):
        raise RulesError(f"rules={brief(rules)} is invalid: must be a Rules object", field="rules")
    check_agents(agents, rules.players)
    checks.seed(seed)
    checks.random_generator(rng)
    if on_round is not None:
        checks.function(on_round, "on_round")
    m = Match.start(rules, seed=seed)
    while m.round is not None:
        end = play_round(m.round, agents, rng)
        if on_round is not None:
            on_round(end)
        m = Match.from_scores(rules, seed=seed, scores=(*m.scores, end.penalties()))
    return m
