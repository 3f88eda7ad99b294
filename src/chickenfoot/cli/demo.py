"""The ``demo`` and ``rules`` commands: a round played out in text, and the rules of a table.

:func:`play_demo` and :func:`demo_lines` are public (re-exported by :mod:`chickenfoot.cli`).
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Iterator
from typing import TextIO

from chickenfoot._i18n import gettext as _
from chickenfoot._i18n import ngettext, number, use
from chickenfoot.cli._common import (
    EXIT_OK,
    UsageError,
    language,
    rules_from_args,
)
from chickenfoot.deal import deal
from chickenfoot.errors import brief
from chickenfoot.moves import Draw
from chickenfoot.render import render
from chickenfoot.rules import PRESETS, Rules
from chickenfoot.state import State, legal_moves


def play_demo(rules: Rules, seed: int, round: int = 0) -> Iterator[tuple[int, str, State]]:
    """Play one round among random players: yield ``(seat, move text, state after)``.

    The round is ``deal(rules, seed, round)``; a ``random.Random(seed)`` picks each move
    among the legal moves. A draw is given as ``draw:X-Y``, naming the tile drawn (the
    front of the boneyard), so every move text replays with :func:`~chickenfoot.apply`.

    >>> from chickenfoot import Rules
    >>> moves = list(play_demo(Rules(), seed=1))
    >>> moves[0][:2]
    (0, '9-0@9-9')
    >>> moves[-1][2].is_over()
    True
    """
    state = deal(rules, seed, round)
    rng = random.Random(seed)
    while not state.is_over():
        seat = state.turn
        move = rng.choice(legal_moves(state))
        state = state.apply(move)
        if isinstance(move, Draw):
            assert state.drawn is not None
            move = Draw(state.drawn)
        yield seat, str(move), state


def demo_lines(rules: Rules, seed: int, round: int = 0, *, label: str = "") -> Iterator[str]:
    """The lines that ``chickenfoot demo`` prints for one seeded round.

    ``label`` names the rules in the header line (e.g. ``house rules``).

    >>> from chickenfoot import Rules
    >>> lines = list(demo_lines(Rules(players=2), seed=1))
    >>> lines[:2]
    ['Chicken Foot demo: 2 players, double-9, seed 1, round 0 (centre 9-9)', 'seat 0: 9-0@9-9']
    >>> lines[-5:]
    ['Outcome: blocked after 68 moves', 'Winner: seat 0, with the lowest hand (R11)', 'Penalties:', '  seat 0: 42', '  seat 1: 49']
    """
    centre = rules.centre_of_round(round)
    values = {
        "players": rules.players,
        "max_pip": rules.max_pip,
        "seed": seed,
        "round": round,
        "centre": f"{centre}-{centre}",
    }
    if label:
        yield _(
            "Chicken Foot demo: {rules}, {players} players, double-{max_pip}, seed {seed}, "
            "round {round} (centre {centre})",
            rules=label,
            **values,
        )
    else:
        yield _(
            "Chicken Foot demo: {players} players, double-{max_pip}, seed {seed}, round {round} "
            "(centre {centre})",
            **values,
        )
    state = deal(rules, seed, round)
    moves = 0
    for seat, text, after in play_demo(rules, seed, round):
        yield _("seat {seat}: {name}", seat=seat, name=text)
        state = after
        moves += 1
    yield ""
    yield from render(state).splitlines()
    yield ""
    outcome = state.outcome()
    if outcome is not None and outcome.seat is not None:
        yield ngettext(
            "Outcome: seat {seat} went out after {n} move",
            "Outcome: seat {seat} went out after {n} moves",
            moves,
            seat=outcome.seat,
            n=moves,
        )
    else:
        yield ngettext(
            "Outcome: blocked after {n} move", "Outcome: blocked after {n} moves", moves, n=moves
        )
    yield winner_line(state)
    yield _("Penalties:")
    for seat, points in enumerate(state.penalties()):
        yield "  " + _("seat {seat}: {name}", seat=seat, name=number(points))


def winner_line(final: State) -> str:
    """Who won the round that ended in ``final``: the seat that went out, or, in a blocked
    round, the fewest penalty points, equal fewest sharing the win (docs/rules.md, R11).

    >>> from chickenfoot import Rules, deal
    >>> s = deal(Rules(players=2), seed=1)  # not over: as if it were blocked now
    >>> s.penalties(), winner_line(s)
    ((161, 230), 'Winner: seat 0, with the lowest hand (R11)')
    """
    outcome = final.outcome()
    if outcome is not None and outcome.seat is not None:
        return _("Winner: seat {seat}, who went out", seat=outcome.seat)
    points = final.penalties()
    seats = [_("seat {seat}", seat=s) for s, p in enumerate(points) if p == min(points)]
    if len(seats) == 1:
        return _("Winner: {player}, with the lowest hand (R11)", player=seats[0])
    return _(
        "Winners: {players} and {last} share the lowest hand (R11)",
        players=", ".join(seats[:-1]),
        last=seats[-1],
    )


def cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    rules = rules_from_args(args.preset, args.players, args.changes)
    with use(language(args)):
        if args.changes:
            changes = " ".join(
                f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in args.changes
            )
            label = _("{preset} rules with {changes}", preset=args.preset, changes=changes)
        else:
            label = _("{preset} rules", preset=args.preset)
        lines = list(demo_lines(rules, args.seed, args.round, label=label))
    out.write("\n".join(lines) + "\n")  # all or nothing: errors come before any output
    return EXIT_OK


PRESET_NOTES = {
    "house": "the house rules: 6 toes on the centre, 3 on each foot, one draw",
    "four-toe": "the house rules with 4 toes on the centre",
    "classic": "7 tiles each, the holder of the double lays the centre, 4 toes, "
    "ties broken by rounds scored 0",
}
"""One line per preset for ``chickenfoot rules`` (docs: Rules and variants)."""


def cmd_rules(args: argparse.Namespace, out: TextIO) -> int:
    preset = args.name
    if preset is not None and args.preset is not None and preset != args.preset:
        raise UsageError(f"two presets given: {brief(preset)} and --preset {brief(args.preset)}")
    preset = preset or args.preset
    if preset is None and args.players is None and not args.changes and not args.compact:
        width = max(map(len, PRESETS))
        lines = [f"{name:<{width}}  {PRESET_NOTES.get(name, '')}" for name in PRESETS]
        lines.append("")
        lines.append("Print one as JSON: chickenfoot rules NAME [--players P] [--set FIELD=VALUE]")
        out.write("\n".join(lines) + "\n")
        return EXIT_OK
    rules = rules_from_args(
        preset or "house", 4 if args.players is None else args.players, args.changes
    )
    out.write(json.dumps(rules.to_dict(), indent=None if args.compact else 2) + "\n")
    return EXIT_OK
