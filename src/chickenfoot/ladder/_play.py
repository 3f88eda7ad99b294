"""The games of a ladder: which agents sit where on which deal, and one game played.

A ladder of ``n`` agents at ``P`` seats plays tables of ``P`` agents: every combination of
``P`` of them, in order (:func:`tables`); deal ``d`` is played by table ``d mod C`` (``C``
combinations), under each of its seatings (:func:`seatings`): every rotation of the
table, its agents first put in an order drawn for the deal, or every permutation. So every
agent meets the same cards from every seat and the luck of the deal cancels (duplicate
deals); and over the deals each agent plays right after each other as often as right
before it. (Rotations alone keep the order: with the agents always in the table's order,
the same agent would always play just before the same other, and at six seats the seat
just before another's is worth about 1.4 points of penalty over it, either way round:
docs, Strength.) Game ``(d, k)``, deal ``d`` under seating
``k``, is dealt from ``random.Random(f"ladder:{seed}:{d}").getrandbits(53)`` (the same for
every seating of the deal) and its agents draw from ``random.Random(f"ladder:{seed}:{d}:{k}")``:
the games depend only on the rules, the agents and the seed, not on the executor.

>>> tables(3, 2)
[(0, 1), (0, 2), (1, 2)]
>>> seatings((0, 1, 2), "rotations")
[(0, 1, 2), (1, 2, 0), (2, 0, 1)]
>>> seatings((0, 1, 2, 3), "rotations", seed=7, deal_index=0)
[(0, 1, 3, 2), (1, 3, 2, 0), (3, 2, 0, 1), (2, 0, 1, 3)]
>>> len(seatings((0, 1, 2), "permutations"))
6
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from chickenfoot.agents import Agent, ask
from chickenfoot.deal import deal
from chickenfoot.match import Match
from chickenfoot.moves import Move
from chickenfoot.rules import Rules
from chickenfoot.specs import said
from chickenfoot.state import apply

__all__ = [
    "GAMES",
    "MAX_DEALS",
    "SEATINGS",
    "Game",
    "Task",
    "deal_seed",
    "play",
    "rotates",
    "seatings",
    "tables",
]

MAX_DEALS: Final = 10_000_000
"""The most deals a ladder plays."""
GAMES: Final = ("round", "match")
"""What one game of a ladder is: one round (the default) or a whole match."""
SEATINGS: Final = ("auto", "rotations", "permutations")
"""How a deal is seated: ``auto`` is every permutation when there are at most six
(three seats or fewer), else every rotation."""
_AFFORDABLE = 6


def tables(agents: int, players: int) -> list[tuple[int, ...]]:
    """Every combination of ``players`` agents (indices), in lexicographic order."""
    return list(itertools.combinations(range(agents), players))


def seatings(
    table: Sequence[int], how: str, *, seed: int | None = None, deal_index: int = 0
) -> list[tuple[int, ...]]:
    """The seatings of a table: each a tuple of agent indices, seat by seat. Rotations
    turn the table's agents in the order deal ``deal_index`` of a ladder seeded ``seed``
    draws (``random.Random(f"ladder:{seed}:{deal_index}:order")`` shuffles them), or in
    the table's own order when ``seed`` is ``None``."""
    p = len(table)
    if not rotates(how, p):
        return [tuple(s) for s in itertools.permutations(table)]
    order = list(table)
    if seed is not None:
        random.Random(f"ladder:{seed}:{deal_index}:order").shuffle(order)
    return [tuple(order[(i + r) % p] for i in range(p)) for r in range(p)]


def rotates(how: str, players: int) -> bool:
    """Whether a deal at ``players`` seats seated ``how`` is seated by rotations (else by
    every permutation)."""
    return how == "rotations" or (how == "auto" and math.factorial(players) > _AFFORDABLE)


def deal_seed(seed: int, deal_index: int) -> int:
    """The seed deal ``deal_index`` of a ladder seeded ``seed`` is dealt from."""
    return random.Random(f"ladder:{seed}:{deal_index}").getrandbits(53)


class Task(NamedTuple):
    """One game to play: deal ``deal`` under seating ``seating`` (its index) with
    ``seats[i]`` (an agent index) at seat ``i``."""

    deal: int
    seating: int
    seats: tuple[int, ...]


class Game(NamedTuple):
    """One game played: each seat's penalty (a match: its total) and the winning seats, or
    the ``error`` that stopped it and the ``seat`` whose agent raised it."""

    task: Task
    penalties: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    error: str | None = None
    seat: int | None = None
    record: str = ""
    """The game in the notation, when the ladder keeps records (not in the results file)."""

    def to_dict(self) -> dict[str, Any]:
        """The game's line in a results file."""
        d: dict[str, Any] = {
            "deal": self.task.deal,
            "seating": self.task.seating,
            "seats": list(self.task.seats),
        }
        if self.error is None:
            d["penalties"] = list(self.penalties)
            d["winners"] = list(self.winners)
        else:
            d["error"] = self.error
            d["seat"] = self.seat
        return d


def play(
    rules: Rules,
    agents: tuple[Agent, ...],
    game: str,
    seed: int,
    task: Task,
    names: tuple[str, ...] | None = None,
) -> Game:
    """Play ``task`` (a top-level, picklable function for executors): ``agents`` are the
    ladder's, indexed as ``task.seats`` names them. An agent that raises (an engine that
    crashed, a move that is not legal) ends the game with its seat and the error. With
    ``names`` (the agents' specs), the game is also written in the notation (``record``)."""
    seated = [agents[i] for i in task.seats]
    rng = random.Random(f"ladder:{seed}:{task.deal}:{task.seating}")
    dealt = deal_seed(seed, task.deal)
    seat = 0
    rounds: list[list[Move]] = [[]]
    try:
        if game == "round":
            state = deal(rules, dealt)
            while not state.is_over():
                seat = state.turn
                move = ask(seated[seat], state, rng)
                state = apply(state, move)
                rounds[0].append(move)
            pens = state.penalties()
            low = min(pens)
            text = _notation(rules, seed, task, dealt, rounds, names, game)
            return Game(task, pens, tuple(s for s, p in enumerate(pens) if p == low), record=text)
        m = Match.start(rules, seed=dealt)
        while m.round is not None:
            seat = m.round.turn
            move = ask(seated[seat], m.round, rng)
            played = m.rounds_played
            m = m.apply(move)
            rounds[-1].append(move)
            if m.rounds_played != played and m.round is not None:
                rounds.append([])
        result = m.result()
        text = _notation(rules, seed, task, dealt, rounds, names, game)
        return Game(task, result.totals, tuple(result.winners), record=text)
    except KeyboardInterrupt:
        raise
    except Exception as err:
        return Game(task, error=said(err), seat=seat)


def _notation(
    rules: Rules,
    seed: int,
    task: Task,
    dealt: int,
    rounds: list[list[Move]],
    names: tuple[str, ...] | None,
    game: str,
) -> str:
    """The game of ``task`` in the notation (``full``), or ``""`` without ``names``: its
    ``Event`` names the ladder's seed, the deal and the seating, ``AgentK`` the spec at
    seat K; a round has the deal's ``Seed`` and ``Round "0"``, a match is a match."""
    if names is None:
        return ""
    from chickenfoot.notation import write_game, write_match_rounds
    from chickenfoot.record import Record

    headers = {
        "Event": f"chickenfoot ladder, seed {seed}, deal {task.deal}, seating {task.seating}"
    }
    for k, agent in enumerate(task.seats):
        headers[f"Agent{k}"] = names[agent]
    records = [Record(deal(rules, dealt, k), moves) for k, moves in enumerate(rounds)]
    if game == "round":
        return write_game(records[0], headers={**headers, "Seed": str(dealt), "Round": "0"})
    return write_match_rounds(rules, seed=dealt, rounds=records, headers=headers)
