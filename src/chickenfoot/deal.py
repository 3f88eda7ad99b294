"""Seeded, reproducible deals (docs/formats.md, "Seeded deals"; the rules page, R4 and R5).

>>> from chickenfoot import Rules
>>> s = deal(Rules(), seed=1000)
>>> [str(t) for t in s.hand(0)][:3], s.boneyard_size, s.turn
(['3-1', '6-1', '6-2'], 10, 0)
>>> deal(Rules(), seed=1000, round=3).centre
Tile(6, 6)
"""

from __future__ import annotations

import random

from chickenfoot import _checks as checks
from chickenfoot._kernel import BLOCKED, blocked, make
from chickenfoot.errors import RulesError, brief
from chickenfoot.moves import Play, play_by_ids
from chickenfoot.rules import Rules
from chickenfoot.state import State
from chickenfoot.tiles import DOUBLE_ID, MAX_PIP, PIPS, WITH, set_size

__all__ = ["deal", "shuffled_tiles"]

# The deal seeds its generator with the text f"{seed}:{round}" (docs: Formats, seeded
# deals): seed and round have at most 4,000 digits (errors.within_digits), so Python, which
# prints integers of up to 4,300 digits, can always write that text.

_BIT = tuple(1 << t for t in range(set_size(MAX_PIP)))  # distinct bits: their sum is their union


def shuffled_tiles(rules: Rules, seed: int, round: int = 0) -> list[int]:
    """The tile ids of round ``round`` in dealt order (docs/formats.md, "Seeded deals").

    The tiles to deal, in id order (without the centre in ``set_aside`` mode), shuffled by
    ``random.Random(f"{seed}:{round}")``. The arguments are checked as :func:`deal` checks
    them.

    >>> shuffled_tiles(Rules(), seed=1000)[:3]
    [50, 51, 48]
    """
    _check(rules, seed, round)
    return _shuffled(rules, seed, round)


def _check(rules: object, seed: object, round: object) -> None:
    if not isinstance(rules, Rules):
        raise RulesError(f"rules={brief(rules)} is invalid: must be a Rules object", field="rules")
    checks.seed(seed)
    checks.seed(round, "round", low=0)


def _shuffled(rules: Rules, seed: int, round: int) -> list[int]:
    centre = DOUBLE_ID[rules.centre_of_round(round)]
    tiles = list(range(set_size(rules.max_pip)))
    if rules.centre == "set_aside":
        del tiles[centre]
    random.Random(f"{seed}:{round}").shuffle(tiles)
    return tiles


def deal(rules: Rules, seed: int, round: int = 0) -> State:
    """Deal round ``round`` (0-based) of a match with integer ``seed``.

    Round ``k`` has centre ``N - (k mod (N+1))``; seat 0 takes the first ``hand_size``
    shuffled tiles, seat 1 the next, and the rest is the boneyard, front first. The R5 seat
    ``(first_leader + k) mod P`` acts first, except that in ``holder`` mode the holder of
    the round's double opens (the R5 seat when nobody holds it).

    >>> s = deal(Rules.preset("classic"), seed=1010)
    >>> s.centre_laid, s.turn, [str(m) for m in s.legal_moves]
    (False, 0, ['9-9'])
    """
    _check(rules, seed, round)
    tiles = _shuffled(rules, seed, round)
    hs, p = rules.hand_size, rules.players
    bit = _BIT.__getitem__
    hands = [sum(map(bit, tiles[seat * hs : (seat + 1) * hs])) for seat in range(p)]
    bone = tuple(tiles[p * hs :])
    centre = DOUBLE_ID[rules.centre_of_round(round)]
    turn = rules.leader_of_round(round)
    ends = (0,) * (rules.max_pip + 1)
    if rules.centre == "set_aside":
        board: tuple[Play, ...] = (play_by_ids(centre, -1),)
        pending, need, playable = centre, rules.opening_toes, WITH[PIPS[centre][0]]
    else:
        board, pending, need, playable = (), -1, 0, 1 << centre
        for seat, mask in enumerate(hands):
            if mask >> centre & 1:
                turn = seat
    result = BLOCKED if not bone and blocked(tuple(hands), playable) else None
    return make(
        rules,
        centre,
        board,
        tuple(hands),
        bone,
        turn,
        -1,
        ends,
        pending,
        need,
        playable,
        0,
        result,
        None,
    )
