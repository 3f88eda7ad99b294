"""Fuzz targets of the public entry points beside the documents (issue 18): agents and the
drivers that play them, simulation, the pictures, the encoding, view sampling and the small
helpers of every module.

Each target is one entry point with valid arguments (real states, views, rules and agents
from :func:`fuzz_targets.pool`), of which up to two are replaced by anything a caller could
pass (:data:`fuzz_targets.PY_VALUES`, and integers or floats of every size where the
argument is a number). The property is :func:`fuzz_targets.check`'s: the call returns or
raises a ``ChickenFootError`` (or a ``TypeError`` the library raised itself) with a short
message, quickly. A call with every argument valid must return.

Registered in :data:`fuzz_targets.TARGETS` on import; ``bench/fuzz.py`` imports this module
and ``tests/test_fuzz_surfaces.py`` runs each target on a short fixed budget.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from hypothesis import strategies as st

import chickenfoot as cf
from chickenfoot.encoding import Encoding
from chickenfoot.render import render, render_compact, render_table
from chickenfoot.simulation import mean_interval, wilson_interval
from fuzz_targets import FLOATS, HUGE_INTS, INTS, PY_VALUES, Case, _target, describe, pool

__all__ = ["ENTRIES", "Entry"]

Draw = st.DrawFn


@dataclass(frozen=True)
class Entry:
    """An entry point: ``call(**kwargs)`` with ``valid(draw)`` giving real keyword arguments;
    ``junk[name]`` is extra bad input for one argument (beside ``PY_VALUES``)."""

    name: str
    call: Callable[..., Any]
    valid: Callable[[Draw], dict[str, Any]]
    junk: dict[str, st.SearchStrategy[Any]] = field(default_factory=dict)
    keep: tuple[str, ...] = ()
    """Arguments never replaced: the object whose method is called."""


def _cases(entry: Entry) -> st.SearchStrategy[Case]:
    @st.composite
    def cases(draw: Draw) -> Case:
        kwargs = entry.valid(draw)
        names = sorted(k for k in kwargs if k not in entry.keep)
        changed = draw(st.lists(st.sampled_from(names), max_size=2, unique=True))
        for name in changed:
            extra = entry.junk.get(name)
            values = PY_VALUES if extra is None else st.one_of(extra, PY_VALUES)
            kwargs[name] = draw(values)
        if LONG_BUT_LEGAL.get(entry.name, lambda kw: False)(kwargs):
            kwargs = entry.valid(draw)  # a legal input that only takes long: not the point
            changed = []
        return Case(note="" if changed else VALID, **kwargs)

    return cases()


VALID = "valid arguments"


def _returns(case: Case, result: Any) -> str | None:
    return None


def _only_bad_input(case: Case, error: BaseException) -> str | None:
    """An error is right only if some argument was replaced."""
    if case.note == VALID:
        return f"raised {type(error).__name__} for valid arguments"
    return None


ENTRIES: list[Entry] = []

LONG_BUT_LEGAL: dict[str, Callable[[dict[str, Any]], bool]] = {
    # A legal but large number of games is a long simulation, not bad input.
    "simulate": lambda kw: type(kw.get("games")) is int and 3 < kw["games"] <= 10**9,
}


SELVES = ("agent", "encoding", "tile", "obj", "view_of")


def entry(
    name: str,
    call: Callable[..., Any],
    valid: Callable[[Draw], dict[str, Any]],
    **junk: st.SearchStrategy[Any],
) -> None:
    """Register the target ``name`` (the object of a method, an argument named as in
    :data:`SELVES`, is never replaced)."""
    e = Entry(name, call, valid, junk, SELVES)
    ENTRIES.append(e)
    _target(name, _cases(e), call, _returns, _only_bad_input)


# -- real values -----------------------------------------------------------------------------------

SMALL_RULES = ("tiny", "tiny-holder", "Rules(players=2)")


def _small_rules(draw: Draw) -> cf.Rules:
    rules = [r for r in pool().rules if describe(r) in SMALL_RULES]
    return draw(st.sampled_from(rules))


def _state(draw: Draw) -> cf.State:
    return draw(st.sampled_from(pool().states))


def _live_state(draw: Draw) -> cf.State:
    return draw(st.sampled_from([s for s in pool().states if not s.is_over()]))


def _small_state(draw: Draw) -> cf.State:
    small = [s for s in pool().states if s.rules.max_pip <= 6 and not s.is_over()]
    return draw(st.sampled_from(small))


def _view(draw: Draw) -> cf.View:
    return draw(st.sampled_from(pool().views))


def _to_act(draw: Draw) -> cf.View:
    """A view of the seat to act, with more than one legal move."""
    views = [v for v in pool().views if len(v.legal_moves) > 1]
    return draw(st.sampled_from(views))


def _rng(draw: Draw) -> random.Random:
    return random.Random(draw(st.integers(0, 1000)))


def _agents(draw: Draw, players: int) -> list[Any]:
    kinds = [cf.RandomAgent(), cf.GreedyAgent(), cf.HeuristicAgent()]
    return [draw(st.sampled_from(kinds)) for _ in range(players)]


NUMBERS = st.one_of(INTS, FLOATS, st.sampled_from([np.int64(3), np.float32(2.5), np.nan]))
RNGS = st.sampled_from([np.random.default_rng(0), random, 0, "0", None])


class _Shut(ThreadPoolExecutor):
    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.shutdown()

    def __repr__(self) -> str:
        return "a shut-down ThreadPoolExecutor"


class _NoFuture(ThreadPoolExecutor):
    def __init__(self, answer: Any) -> None:
        super().__init__(max_workers=1)
        self.answer = answer

    def submit(self, *args: Any, **kwargs: Any) -> Any:
        return self.answer

    def __repr__(self) -> str:
        return f"an executor whose submit() returns {describe(self.answer, 40)}"


EXECUTORS = st.one_of(st.builds(_Shut), st.builds(_NoFuture, PY_VALUES))


# -- agents and drivers ----------------------------------------------------------------------------


def _round(draw: Draw) -> dict[str, Any]:
    s = _small_state(draw)
    return {"state": s, "agents": _agents(draw, s.players), "rng": _rng(draw)}


entry("play_round", cf.play_round, _round, rng=RNGS)


def _match(draw: Draw) -> dict[str, Any]:
    rules = _small_rules(draw).replace(match=cf.Rounds(1))
    return {
        "rules": rules,
        "agents": _agents(draw, rules.players),
        "seed": draw(st.integers(0, 100)),
        "rng": _rng(draw),
        "on_round": None,
    }


entry("play_match", cf.play_match, _match, seed=INTS, rng=RNGS)


def _simulation(draw: Draw) -> dict[str, Any]:
    rules = _small_rules(draw).replace(match=cf.Rounds(1))
    return {
        "rules": rules,
        "agents": _agents(draw, rules.players),
        "games": draw(st.integers(1, 3)),
        "seed": draw(st.integers(0, 100)),
        "executor": None,
        "progress": None,
    }


BAD_GAMES = st.one_of(st.integers(max_value=0), st.integers(min_value=10**9 + 1), HUGE_INTS)
entry("simulate", cf.simulate, _simulation, games=BAD_GAMES, seed=INTS, executor=EXECUTORS)


def _heuristic(draw: Draw) -> dict[str, Any]:
    return {k: draw(st.floats(-10, 10)) for k in ("follow", "hurt", "foot", "keep")}


entry(
    "HeuristicAgent(**fields)",
    cf.HeuristicAgent,
    _heuristic,
    **dict.fromkeys(("follow", "hurt", "foot", "keep"), NUMBERS),
)


def _search(draw: Draw) -> dict[str, Any]:
    return {
        "iterations": draw(st.integers(1, 3)),
        "time_limit": draw(st.one_of(st.none(), st.floats(0.01, 1))),
        "rollout": draw(st.sampled_from(["greedy", "random", "heuristic"])),
        "objective": draw(st.sampled_from(["margin", "win"])),
    }


entry("SearchAgent(**fields)", cf.SearchAgent, _search, iterations=INTS, time_limit=NUMBERS)


def _choose(draw: Draw) -> dict[str, Any]:
    agent = draw(
        st.sampled_from(
            [cf.RandomAgent(), cf.GreedyAgent(), cf.HeuristicAgent(), cf.SearchAgent(iterations=2)]
        )
    )
    v = _to_act(draw)
    return {"agent": agent, "view": v, "legal": v.legal_moves, "rng": _rng(draw)}


def _agent_choose(agent: Any, view: Any, legal: Any, rng: Any) -> Any:
    """An agent's answer as the drivers take it: ``play_round`` checks it, so a built-in
    agent given junk (not a view, moves that are not legal here) must say so itself."""
    return agent.choose(view, legal, rng)


# Agents are called by the drivers with checked arguments; called directly with anything,
# a built-in agent may raise, but only the library's errors.
entry("Agent.choose", _agent_choose, _choose, rng=RNGS)

# -- pictures -------------------------------------------------------------------------------------


def _picture(draw: Draw) -> dict[str, Any]:
    return {"state": draw(st.sampled_from([*pool().states, *pool().views]))}


entry("render", render, _picture)
entry("render_table", render_table, _picture)


def _compact(draw: Draw) -> dict[str, Any]:
    s = _state(draw)
    return {
        "position": s,
        "seat": draw(st.one_of(st.none(), st.integers(0, s.players - 1))),
        "width": draw(st.integers(20, 200)),
    }


entry("render_compact", render_compact, _compact, seat=INTS, width=INTS)


def _svg(draw: Draw) -> dict[str, Any]:
    s = _state(draw)
    return {
        "position": s,
        "size": draw(st.one_of(st.none(), st.integers(16, 2000))),
        "hands": draw(st.sampled_from(["all", "none", 0])),
        "seat": draw(st.one_of(st.none(), st.integers(0, s.players - 1))),
    }


entry("svg", cf.svg, _svg, size=INTS, seat=INTS, hands=INTS)

# -- the encoding ----------------------------------------------------------------------------------


def _encoding(draw: Draw) -> dict[str, Any]:
    return {"rules": draw(st.sampled_from(pool().rules)), "history": draw(st.integers(0, 64))}


entry("Encoding(rules, history)", Encoding, _encoding, history=INTS)


def _observe(draw: Draw) -> dict[str, Any]:
    v = _view(draw)
    enc = Encoding(v.rules)
    out = None if draw(st.booleans()) else np.zeros(enc.observation_size, np.float32)
    return {"encoding": enc, "view": v, "out": out}


OUTS = st.sampled_from(
    [[0.0] * 3, np.zeros(3, np.float32), np.zeros(305, np.float64), np.zeros((1, 305), np.float32)]
)
entry(
    "Encoding.observe",
    lambda encoding, view, out: encoding.observe(view, out=out),
    _observe,
    out=OUTS,
)


def _action(draw: Draw) -> dict[str, Any]:
    s = _live_state(draw)
    return {"encoding": Encoding(s.rules), "move": draw(st.sampled_from(list(s.legal_moves)))}


entry("Encoding.action", lambda encoding, move: encoding.action(move), _action)


def _move(draw: Draw) -> dict[str, Any]:
    rules = draw(st.sampled_from(pool().rules))
    enc = Encoding(rules)
    return {"encoding": enc, "action": draw(st.integers(enc.num_actions - 2, enc.num_actions - 1))}


entry(
    "Encoding.move",
    lambda encoding, action: encoding.move(action),
    _move,
    action=st.one_of(INTS, st.sampled_from([np.int64(-1), np.uint64(2**63), np.int8(3)])),
)


def _legal(draw: Draw) -> dict[str, Any]:
    s = _state(draw)
    return {"encoding": Encoding(s.rules), "position": s}


entry("Encoding.legal_mask", lambda encoding, position: encoding.legal_mask(position), _legal)
entry("Encoding.legal_actions", lambda encoding, position: encoding.legal_actions(position), _legal)

# -- views, matches and the small helpers -------------------------------------------------------------


def _sample(draw: Draw) -> dict[str, Any]:
    return {"view_of": _view(draw), "rng": _rng(draw)}


entry("View.sample", lambda view_of, rng: view_of.sample(rng), _sample, rng=RNGS)
entry("View.sample_record", lambda view_of, rng: view_of.sample_record(rng), _sample, rng=RNGS)


def _view_of(draw: Draw) -> dict[str, Any]:
    s = _state(draw)
    return {"state": s, "seat": draw(st.integers(0, s.players - 1))}


entry("view", cf.view, _view_of, seat=INTS)


def _intervals(draw: Draw) -> dict[str, Any]:
    return {"values": draw(st.lists(st.integers(0, 500), min_size=1, max_size=5))}


entry("mean_interval", mean_interval, _intervals, values=st.lists(NUMBERS, max_size=4))


def _wilson(draw: Draw) -> dict[str, Any]:
    n = draw(st.integers(1, 100))
    return {"successes": draw(st.integers(0, n)), "n": n}


entry("wilson_interval", wilson_interval, _wilson, successes=NUMBERS, n=NUMBERS)


def _tile_number(draw: Draw) -> dict[str, Any]:
    t = draw(st.sampled_from(cf.tiles_of_set(18)))
    return {"tile": t, "number": draw(st.sampled_from([t.high, t.low]))}


entry("Tile.other", lambda tile, number: tile.other(number), _tile_number, number=INTS)
entry("Tile.has", lambda tile, number: tile.has(number), _tile_number, number=INTS)
entry(
    "tile_id",
    cf.tile_id,
    lambda d: {"a": d(st.integers(0, 18)), "b": d(st.integers(0, 18))},
    a=INTS,
    b=INTS,
)
entry("set_size", cf.set_size, lambda d: {"max_pip": d(st.integers(0, 18))}, max_pip=INTS)
entry("tiles_of_set", cf.tiles_of_set, lambda d: {"max_pip": d(st.integers(0, 18))}, max_pip=INTS)
entry("half_match", cf.half_match, lambda d: {"max_pip": d(st.integers(2, 18))}, max_pip=INTS)


def _deal_args(draw: Draw) -> dict[str, Any]:
    return {
        "rules": draw(st.sampled_from(pool().rules)),
        "seed": draw(st.integers(0, 100)),
        "round": draw(st.integers(0, 40)),
    }


entry("shuffled_tiles", cf.shuffled_tiles, _deal_args, seed=INTS, round=INTS)
entry(
    "Rules.centre_of_round",
    lambda obj, round: obj.centre_of_round(round),
    lambda d: {"obj": d(st.sampled_from(pool().rules)), "round": d(st.integers(0, 40))},
    round=INTS,
)
entry(
    "Rules.leader_of_round",
    lambda obj, round: obj.leader_of_round(round),
    lambda d: {"obj": d(st.sampled_from(pool().rules)), "round": d(st.integers(0, 40))},
    round=INTS,
)


def _from_scores(draw: Draw) -> dict[str, Any]:
    m = draw(st.sampled_from(pool().matches))
    return {"rules": m.rules, "seed": m.seed, "scores": [list(r) for r in m.scores]}


entry(
    "Match.from_scores",
    cf.Match.from_scores,
    _from_scores,
    seed=INTS,
    scores=st.lists(st.lists(INTS, max_size=5), max_size=3),
)


def _match_of(draw: Draw) -> dict[str, Any]:
    return {"match": draw(st.sampled_from(pool().matches))}


entry("match_legal_moves", cf.match_legal_moves, _match_of)


def _to_json(draw: Draw) -> dict[str, Any]:
    p = pool()
    obj = draw(st.sampled_from([*p.states[:6], *p.views[:6], *p.records[:4], *p.matches[:4]]))
    return {"obj": obj, "indent": draw(st.one_of(st.none(), st.integers(0, 16)))}


entry("to_json(indent=)", lambda obj, indent: obj.to_json(indent=indent), _to_json, indent=INTS)
