"""Playouts: play a round to its end fast, for simulation and search.

:func:`playout` gives exactly the state that the public-API loop gives with the same random
choices::

    while not s.is_over():
        s = apply(s, rng.choice(legal_moves(s)))

With the default uniform policy it runs the round on local variables (no intermediate
states are built); with a ``policy`` it skips only the checks a legal move does not need.

>>> import random
>>> from chickenfoot import Rules, apply, deal, legal_moves
>>> s = deal(Rules(), seed=11)
>>> fast = playout(s, random.Random(5))
>>> rng, slow = random.Random(5), s
>>> while not slow.is_over():
...     slow = apply(slow, rng.choice(legal_moves(slow)))
>>> fast == slow, fast.outcome() == slow.outcome()
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable

from chickenfoot._kernel import (
    BLOCKED,
    OUT,
    UNION,
    do_draw,
    do_pass,
    do_play,
    generate,
    make,
    new_legal,
    union,
)
from chickenfoot.errors import ArgumentError, brief
from chickenfoot.moves import DRAW, DRAWS, PASS, PLAY_ROWS, Move, Play, play_by_ids
from chickenfoot.state import LegalMoves, State, apply
from chickenfoot.tiles import PIPS, WITH

__all__ = ["Policy", "playout"]

Policy = Callable[[State, LegalMoves], Move]
"""Chooses a move: called with the state and its (non-empty) legal moves."""


def playout(
    state: State,
    rng: random.Random | None = None,
    *,
    policy: Policy | None = None,
) -> State:
    """Play ``state`` to the end of the round and return the final state.

    Without ``policy`` every move is ``rng.choice(legal_moves(s))`` (``rng`` defaults to a
    fresh unseeded :class:`random.Random`); with a ``policy``, ``policy(s, legal_moves(s))``
    picks each move, and the move it returns must be one of those listed.

    >>> from chickenfoot import Rules, deal
    >>> first = lambda s, moves: moves[0]
    >>> end = playout(deal(Rules(), seed=3), policy=first)
    >>> end.is_over()
    True
    """
    if not isinstance(state, State):
        raise ArgumentError(f"playout needs a State, got {brief(state)}")
    if policy is not None:
        if not callable(policy):
            raise ArgumentError(f"policy={brief(policy)} is invalid: must be callable")
        return _policy_playout(state, policy)
    if rng is not None and not isinstance(rng, random.Random):
        raise ArgumentError(f"rng={brief(rng)} is invalid: must be a random.Random or None")
    if rng is None:
        rng = random.Random()
    kind = type(rng)
    if (
        kind.choice is not random.Random.choice
        or getattr(kind, "_randbelow", None) is not _RANDBELOW
    ):
        choose = rng.choice
        return _policy_playout(state, lambda s, moves: choose(moves))
    return _random_playout(state, rng)


_RANDBELOW = getattr(random.Random, "_randbelow_with_getrandbits", None)


def _policy_playout(s: State, policy: Policy) -> State:
    listed = tuple.__contains__
    while s._outcome is None:
        moves = new_legal(LegalMoves, generate(s))
        m = policy(s, moves)
        if not listed(moves, m):
            # A named draw, notation, or an illegal move: the checked path decides.
            s = apply(s, m)
        elif isinstance(m, Play):
            s = do_play(s, m)
        elif m is DRAW:
            s = do_draw(s, s._bone[0])
        else:  # PASS, the only other move ever listed
            s = do_pass(s)
    return s


def _random_playout(s: State, rng: random.Random) -> State:
    """The uniform random playout on local variables; mirrors ``generate`` and ``do_*``.

    Its play step is the kernel's ``lay`` written out on local variables: calling ``lay``
    costs 5% of a round's instructions (bench/instructions.sh: 962,471 -> 1,012,159), so
    the loop keeps this one copy, and ``tests/test_playout.py`` holds it to ``apply``
    move for move.

    Instead of building each legal-move list, it counts the moves, draws the index exactly
    as ``rng.choice`` would (``Random._randbelow``: ``k = n.bit_length()``, then
    ``getrandbits(k)`` until below ``n``), and walks to that move in the legal-move order.
    """
    if s._outcome is not None:
        return s
    rules = s.rules
    getrandbits = rng.getrandbits
    hands = list(s._hands)
    players = len(hands)
    bone = list(reversed(s._bone))  # pop() takes the front tile
    ends = list(s._ends)
    pending, need, mask, nums = s._pending, s._need, s._mask, s._nums
    turn, d = s.turn, s._drawn
    board = list(s.board)
    centre = s._centre
    laid = bool(board)
    draw_instead = rules.may_draw_instead
    until = rules.draw == "until_playable"
    may_play = rules.drawn_tile == "may_play"
    opening_toes, foot_toes = rules.opening_toes, rules.foot_toes
    rows = PLAY_ROWS
    union_get = UNION.get
    draws = DRAWS
    with_, pips = WITH, PIPS  # locals: the loop reads them on most moves
    log = s._log
    result = None
    while True:
        cand = (hands[turn] if d < 0 else 1 << d) & mask
        if not cand:
            while getrandbits(1):  # choice() over the single forced move: _randbelow(1)
                pass
            if bone and (d < 0 or until):  # draw
                t = bone.pop()
                hands[turn] |= 1 << t
                d = t
                log = (log, turn, draws[t])
                continue
            log = (log, turn, PASS)
        else:
            # The legal list is: the plays, then DRAW (draw instead) or PASS (may play).
            extra = (bone and draw_instead and laid) if d < 0 else may_play
            if pending >= 0:
                total = cand.bit_count()
            elif laid:
                # sum over open numbers v: (tiles showing v) x (ends at v); a tile showing
                # two open numbers is counted once for each, as its anchors are.
                total = 0
                c = nums
                while c:
                    v = c.bit_length() - 1
                    c ^= 1 << v
                    total += (cand & with_[v]).bit_count() * ends[v].bit_count()
            else:
                total = 1
            n = total + 1 if extra else total
            k = n.bit_length()
            r = getrandbits(k)
            while r >= n:
                r = getrandbits(k)
            if r == total:  # the extra move
                if d < 0:
                    t = bone.pop()
                    hands[turn] |= 1 << t
                    d = t
                    log = (log, turn, draws[t])
                    continue
                log = (log, turn, PASS)
            else:
                # Walk from the last move (highest tile, highest anchor) down: q moves
                # before it; bit_length is cheaper than isolating the lowest bit.
                q = total - 1 - r
                if pending >= 0:
                    while q:
                        cand ^= 1 << (cand.bit_length() - 1)
                        q -= 1
                    t = cand.bit_length() - 1
                    a = pending
                elif laid:
                    while True:
                        t = cand.bit_length() - 1
                        cand ^= 1 << t
                        x, y = pips[t]
                        anchors = ends[x] | ends[y]
                        k = anchors.bit_count()
                        if q < k:
                            break
                        q -= k
                    while q:
                        anchors ^= 1 << (anchors.bit_length() - 1)
                        q -= 1
                    a = anchors.bit_length() - 1
                else:
                    t, a = centre, -1
                # play tile t on anchor a
                h = hands[turn] ^ (1 << t)
                hands[turn] = h
                m = rows[t].get(a)
                if m is None:
                    m = play_by_ids(t, a)
                board.append(m)
                log = (log, turn, m)
                x, y = pips[t]
                if a < 0:
                    laid = True
                    pending, need, mask = t, opening_toes, with_[x]
                elif pending >= 0:
                    o = y if x == pips[pending][0] else x
                    ends[o] |= 1 << t
                    nums |= 1 << o
                    need -= 1
                    if not need:
                        pending = -1
                        mask = union_get(nums) or union(nums)
                else:
                    if ends[x] >> a & 1:
                        v, o = x, y
                    else:
                        v, o = y, x
                    ev = ends[v] ^ (1 << a)
                    ends[v] = ev
                    before = nums
                    if not ev:
                        nums ^= 1 << v
                    if x == y:
                        pending, need, mask = t, foot_toes, with_[x]
                    else:
                        ends[o] |= 1 << t
                        nums |= 1 << o
                        if nums != before:
                            mask = union_get(nums) or union(nums)
                if not h:
                    d = -1
                    result = OUT[turn]
                    break
        # a pass, or the turn after a play
        d = -1
        turn += 1
        if turn == players:
            turn = 0
        if not bone:
            for h in hands:
                if h & mask:
                    break
            else:
                result = BLOCKED
                break
    bone.reverse()
    return make(
        rules,
        centre,
        tuple(board),
        tuple(hands),
        tuple(bone),
        turn,
        d,
        tuple(ends),
        pending,
        need,
        mask,
        nums,
        result,
        log,
    )
