"""Determinization: deal the tiles a view cannot see into full states that fit its history.

The history of a round constrains where each unseen tile can be. A seat that drew at the
start of its turn (without ``may_draw_instead``) or passed held no tile that was playable
then; a drawn tile that was passed under ``drawn_tile="must_play"``, or followed by another
draw, was not playable; a drawn tile that was played is the tile played. Every such fact
concerns one tile and one stay in one hand, so the problem is an assignment:

* each tile whose place the viewer does not know (the unseen tiles, and the tiles the
  others played, which they held from the deal or drew) goes to one **slot**: a seat's
  hand at the start of the history, one of that seat's draws, or the boneyard now;
* a tile may go to a slot when none of the facts above excludes it (a tile played by seat
  ``r`` at move ``i`` only to ``r``'s start hand or a draw of ``r`` before ``i``);
* the start hands hold their sizes, each draw one tile, the boneyard its size.

:func:`sample_state` fills the slots one tile at a time in random order, each tile into a
slot chosen at random in proportion to the room left, keeping a complete assignment at
every step (an alternating path moves other, unplaced tiles out of the way), so it never
fails and every place a tile can be in some consistent deal has a chance. Without any
constraint this is a uniform random deal of the unseen tiles.

>>> import random
>>> from chickenfoot import Rules, deal
>>> s = deal(Rules(), seed=1).apply("9-3@9-9").apply("draw").apply("pass")
>>> v = s.view(0)
>>> guess = v.sample(random.Random(1))
>>> guess.view(0) == v
True
>>> any(t.has(9) for t in guess.hand(1))   # seat 1 drew and passed: it holds no 9
False
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Final

from chickenfoot._kernel import do_draw, do_play, make, settle
from chickenfoot._slots import Problem, Weights, assign, complete
from chickenfoot.errors import FormatError
from chickenfoot.formats import position_from_parts
from chickenfoot.moves import DRAWS, Draw, Play
from chickenfoot.outcome import Termination
from chickenfoot.record import Record
from chickenfoot.tiles import BY_ID, WITH

if TYPE_CHECKING:
    from chickenfoot.state import State
    from chickenfoot.view import View

__all__ = ["check_history", "problem", "public_facts", "sample_record", "sample_state"]

_FAR: Final = 1 << 30  # "never left the hand"
_GHOST: Final = 1 << 200  # a bit beyond every tile: keeps a ghost hand from emptying


def check_history(view: View) -> None:
    """Raise :class:`~chickenfoot.FormatError` unless the view's history could be real."""
    _problem(view)


def public_facts(view: View, *, viewer: bool = False) -> list[int]:
    """Per seat, a bitmask of the numbers it provably holds no tile of now.

    A seat that drew at the start of its turn or passed while number ``v`` was open (every
    tile showing ``v`` was playable) held no tile showing ``v``; that still holds if it
    has not drawn since, or every tile it drew since is known not to show ``v``. Empty
    for seats that never drew or passed, and for the viewer (it knows its hand) unless
    ``viewer``: then the viewer's entry is what the other seats can prove of it. The facts
    come from the public history alone, so every other seat proves the same of a seat.

    >>> from chickenfoot import Rules, deal
    >>> s = deal(Rules(), seed=1).apply("9-3@9-9").apply("draw").apply("pass")
    >>> [bin(m) for m in public_facts(s.view(0))]   # seat 1 has no 9
    ['0b0', '0b1000000000', '0b0', '0b0']
    >>> public_facts(s.view(1), viewer=True) == public_facts(s.view(0))   # as seat 0 proves it
    True
    """
    p = _problem(view)
    n = view.rules.max_pip
    full = (1 << view.rules.set_size) - 1
    out = [0] * view.players
    for seat, events in enumerate(p.noplay):
        if not events or (seat == view.seat and not viewer):
            continue
        k, mask = events[-1]
        # What it drew since, unless the tile is known (then it was played): any tile may
        # be a draw's that nothing followed (-1).
        if seat == view.seat:  # its own draws, as the others' problems hold them
            drawn = [a for i, a in p.own_draws if i >= k]
        else:
            drawn = [
                p.allow[g] for g in range(len(p.cap)) if p.owner[g] == seat and p.arrival[g] >= k
            ]
        later = [a for a in drawn if a < 0 or a.bit_count() != 1]
        for v in range(n + 1):
            tiles = WITH[v] & full
            if not tiles & ~mask and not any(tiles & a for a in later):
                out[seat] |= 1 << v
    return out


def problem(view: View) -> Problem:
    """The assignment problem behind the view's samples (built once per view): for the
    compiled search (``chickenfoot._rollouts``), which deals exactly as :func:`sample_state`."""
    return _problem(view)


def _fail(path: str, message: str) -> FormatError:
    return FormatError(path, message)


def _problem(view: View) -> Problem:
    cached = view._cache.get("problem")
    if cached is None:
        cached = view._cache["problem"] = _analyse(view)
    return cached


def _analyse(v: View) -> Problem:
    """Replay the public history, collect what it proves, and find one consistent deal."""
    rules, me, players = v.rules, v.seat, v.players
    events = v.history
    board = v.board
    set_aside = rules.centre == "set_aside"
    plays = [e for e in events if isinstance(e.move, Play)]
    start_len = len(board) - len(plays)
    if start_len < (1 if set_aside else 0):
        raise _fail("history", f"{len(plays)} plays, but the board has only {len(board)} tiles")
    j = start_len
    for i, e in enumerate(events):
        if isinstance(e.move, Play):
            if board[j] is not e.move:
                raise _fail(
                    f"history[{i}]", f"{e.move} is not the placement board[{j}] ({board[j]})"
                )
            j += 1
    centre = v.centre.id
    table = settle(rules, centre, board[:start_len], (_GHOST,), (0,), 0, -1, None)

    sizes = list(v.hand_sizes)
    for e in events:
        if isinstance(e.move, Play):
            sizes[e.seat] += 1
        elif isinstance(e.move, Draw):
            sizes[e.seat] -= 1
    for seat, size in enumerate(sizes):
        if size < 0:
            raise _fail("history", f"seat {seat} drew more tiles than it holds")
        if not size and events:  # R10: a position with an empty hand is over
            raise _fail("history", f"seat {seat} holds no tiles where it starts: nothing follows")
    start_sizes = tuple(sizes)
    bone = v.boneyard_size + sum(isinstance(e.move, Draw) for e in events)

    own_hand = v._table._hands[me]
    own_drawn = own_played = 0
    for e in events:
        if e.seat == me:
            if isinstance(e.move, Draw) and e.move.tile is not None:
                own_drawn |= 1 << e.move.tile.id
            elif isinstance(e.move, Play):
                own_played |= 1 << e.move._t
    own = (own_hand | own_played) & ~own_drawn

    # Slots 0..players-1: the start hands (the viewer's is known, capacity 0 here).
    cap = [0 if seat == me else start_sizes[seat] for seat in range(players)]
    owner = list(range(players))
    arrival = [-1] * players
    allow = [-1] * players
    draw_slots = [-1] * len(events)
    noplay: list[list[tuple[int, int]]] = [[] for _ in range(players)]
    masks: list[int] = []
    own_draws: list[tuple[int, int]] = []
    played: dict[int, tuple[int, int]] = {}
    drawn_slot = -1
    bone_now = bone
    out = -1
    for i, (seat, move) in enumerate(events):
        where = f"history[{i}]"
        if out >= 0:
            raise _fail(where, f"the round ended when seat {out} went out")
        mask = table._mask
        masks.append(mask)
        prev = events[i - 1] if i else None
        after_draw = prev is not None and prev.seat == seat and isinstance(prev.move, Draw)
        if prev is not None and not after_draw:
            expected = prev.seat if isinstance(prev.move, Draw) else (prev.seat + 1) % players
            if seat != expected:
                raise _fail(where, f"seat {seat} moves, but it is seat {expected}'s turn")
        nxt = events[i + 1] if i + 1 < len(events) else None
        if isinstance(move, Draw):
            if not bone_now:
                raise _fail(where, f"seat {seat} draws from an empty boneyard")
            if after_draw and rules.draw == "one":
                raise _fail(where, f"seat {seat} draws twice in one turn (the rules draw one)")
            if (move.tile is not None) != (seat == me):
                if seat == me:
                    raise _fail(where, f"seat {me}'s own draw must name its tile (draw:X-Y)")
                raise _fail(where, f"the draw of seat {seat} names a tile seat {me} cannot see")
            if not after_draw and not (rules.may_draw_instead and table.board):
                noplay[seat].append((i, mask))
            # What the next move proves about the drawn tile.
            ok = -1
            if nxt is not None and nxt.seat == seat:
                if isinstance(nxt.move, Draw):
                    ok = ~mask
                elif isinstance(nxt.move, Play):
                    ok = 1 << nxt.move._t
                elif rules.drawn_tile == "must_play":
                    if rules.draw == "until_playable" and bone_now > 1:
                        raise _fail(
                            f"history[{i + 1}]", f"seat {seat} passes with tiles left to draw"
                        )
                    ok = ~mask
                elif rules.draw == "until_playable" and bone_now > 1:
                    ok = mask  # passing instead of drawing again: the tile was playable
            elif nxt is None and (v.turn != seat or v.is_over()):
                raise _fail(where, f"seat {seat} drew, so the turn is still seat {seat}'s")
            if seat == me:
                assert move.tile is not None
                if not ok >> move.tile.id & 1:
                    raise _fail(
                        where, f"seat {me} drew {move.tile}, which the next move contradicts"
                    )
                own_draws.append((i, ok))
            else:
                draw_slots[i] = len(cap)
                if nxt is None:
                    drawn_slot = len(cap)
                cap.append(1)
                owner.append(seat)
                arrival.append(i)
                allow.append(ok)
            bone_now -= 1
            sizes[seat] += 1
        elif isinstance(move, Play):
            if sizes[seat] == 0:
                raise _fail(where, f"seat {seat} plays with no tiles in hand")
            if seat != me:
                played[move._t] = (seat, i)
            ghost = make(
                rules, centre, table.board, (_GHOST | 1 << move._t,), (0,), 0, -1,
                table._ends, table._pending, table._need, table._mask, table._nums, None, None,
            )  # fmt: skip
            table = do_play(ghost, move)
            sizes[seat] -= 1
            if sizes[seat] == 0:
                out = seat
        elif not after_draw:  # a pass at the start of a turn
            if bone_now:
                raise _fail(where, f"seat {seat} passes while the boneyard has tiles")
            noplay[seat].append((i, mask))
    if events:
        last = events[-1]
        stays = isinstance(last.move, Draw) or out >= 0
        want = last.seat if stays else (last.seat + 1) % players
        if v.turn != want:
            raise _fail("turn", f"after the history it is seat {want}'s turn, not {v.turn}'s")
    last_draw = events[-1].move if events and events[-1].seat == me else None
    if not isinstance(last_draw, Draw):
        last_draw = None
    if (
        events
        and (last_draw is not None or v.drawn is not None)
        and (last_draw is None or last_draw.tile != v.drawn)
    ):
        # (An empty history may start after the draw: a position read as it stands.)
        raise _fail("drawn", f"must be the tile of seat {me}'s own draw that ends the history")
    mask_now = table._mask
    outcome = v.outcome()
    if outcome is not None and outcome.termination is Termination.BLOCKED:
        for seat in range(players):
            noplay[seat].append((len(events), mask_now))
        tail = events[-2:]
        drew = len(tail) == 2 and tail[0].seat == tail[1].seat and isinstance(tail[0].move, Draw)
        if tail and not isinstance(tail[-1].move, (Draw, Play)) and not drew:
            # R10: blocked is checked at the start of every turn, and a pass with nothing
            # drawn changes no hand: the round was not blocked before it, nor is it now.
            raise _fail("outcome", "a pass with nothing drawn cannot block the round")

    # The viewer's own hand through the history: no contradiction allowed.
    hand = own
    for i, (seat, move) in enumerate(events):
        for k, m in noplay[seat] if seat == me else ():
            # (A history that starts with a draw may start with a position read as it
            # stands, which the reader does not check for how the turn arose.)
            if k == i and hand & m and (i or not isinstance(move, Draw)):
                raise _fail(
                    f"history[{i}]", f"seat {me} held a playable tile, so could not do that"
                )
        if seat != me:
            continue
        if isinstance(move, Draw):
            assert move.tile is not None
            if hand >> move.tile.id & 1:
                raise _fail(f"history[{i}]", f"seat {me} drew {move.tile}, which it held")
            hand |= 1 << move.tile.id
        elif isinstance(move, Play):
            if not hand >> move._t & 1:
                raise _fail(f"history[{i}]", f"seat {me} did not hold {move.tile}")
            hand ^= 1 << move._t
    if hand != own_hand:
        raise _fail("history", f"seat {me}'s draws and plays do not lead to its hand")
    if noplay[me] and noplay[me][-1][0] == len(events) and hand & mask_now:
        raise _fail("outcome", f"seat {me} holds a playable tile, so the round is not blocked")

    # The tiles to place, and where each may go.
    known = own | own_drawn
    for placed in board[:start_len]:
        known |= 1 << placed._t
    tiles = [t for t in range(rules.set_size) if not known >> t & 1]
    bone_slot = len(cap)
    cap.append(v.boneyard_size)
    owner.append(-1)
    arrival.append(-1)
    allow.append(-1)
    if len(tiles) != sum(cap):
        raise _fail(
            "", f"{len(tiles)} unseen tiles for {sum(cap)} places in the hands and the boneyard"
        )
    feasible = []
    for t in tiles:
        seat_left = played.get(t)
        ok_slots = []
        for g in range(len(cap)):
            r = owner[g]
            if r < 0:
                if seat_left is None:
                    ok_slots.append(g)
                continue
            if r == me or not cap[g]:
                continue
            a = arrival[g]
            if seat_left is None:
                left = _FAR
            elif seat_left[0] != r or seat_left[1] < a:
                continue
            else:
                left = seat_left[1]
            if not allow[g] >> t & 1:
                continue
            if any(a < k < left and m >> t & 1 for k, m in noplay[r]):
                continue
            ok_slots.append(g)
        feasible.append(ok_slots)
    # A history that starts before anything was drawn or laid in ``holder`` mode starts at
    # a deal (R4, R5) if it can: then the centre was dealt to the first seat or not at all,
    # and surely to it when that seat is no R5 seat for this centre (any round index).
    dealt = None
    hs = rules.hand_size
    if (
        rules.centre == "holder"
        and not start_len
        and centre in tiles
        and bone == rules.set_size - players * hs
        and all(size == hs for size in start_sizes)
    ):
        s0, c, n1 = events[0].seat if events else v.turn, v.centre.high, rules.max_pip + 1
        leaders = {rules.leader_of_round(n1 - 1 - c + j * n1) for j in range(players)}
        i = tiles.index(centre)
        dealt = list(feasible)
        dealt[i] = [g for g in feasible[i] if g == s0 or (g >= players and s0 in leaders)]
    p = Problem()
    p.tiles, p.feasible, p.cap, p.owner = tiles, feasible, cap, owner
    p.bone_slot, p.draw_slots, p.drawn_slot = bone_slot, draw_slots, drawn_slot
    p.noplay, p.arrival, p.allow, p.own_draws = noplay, arrival, allow, own_draws
    p.masks = masks
    p.played = set(played)
    p.start_hands = [own if seat == me else 0 for seat in range(players)]
    p.start_len = start_len
    p.start_turn = events[0].seat if events else v.turn
    options = [feasible] if dealt is None else [dealt, feasible]  # the deal's, if any works
    for k, option in enumerate(options):
        p.feasible, final = option, k == len(options) - 1
        p.force, unblock = [], False
        at_turn_start = v.drawn is None and not v.has_drawn
        if outcome is None and not v.boneyard_size and at_turn_start and not own_hand & mask_now:
            # Someone must hold a playable tile, or the round would be blocked.
            unblock = True
            p.force = [
                (i, g)
                for i, t in enumerate(tiles)
                if mask_now >> t & 1 and t not in played
                for g in p.feasible[i]
                if owner[g] >= 0
            ]
        base = complete(p)
        if base is None:
            if final:
                raise _fail("history", "no deal of the unseen tiles agrees with it")
            continue
        p.base = base
        if unblock and (not p.force or assign(p, random.Random(0)) is None):
            if final:
                raise _fail("outcome", "no deal of the unseen tiles leaves the round unblocked")
            continue
        break
    return p


def _deal(
    v: View, rng: random.Random, weights: Weights | None = None
) -> tuple[Problem, list[int], list[int]]:
    p = _problem(v)
    where = assign(p, rng, weights)
    assert where is not None  # forcing succeeded once, so it always can
    bone = [t for t, g in zip(p.tiles, where, strict=True) if g == p.bone_slot]
    rng.shuffle(bone)
    return p, where, bone


def sample_state(v: View, rng: random.Random, *, weights: Weights | None = None) -> State:
    """A random full state consistent with ``v``; see :meth:`View.sample`. ``weights``:
    per tile of :func:`problem`'s ``tiles``, a weight for each slot it may take, which
    scales the slot's room when the tile is placed (:func:`chickenfoot.belief.deal_weights`)."""
    p, where, bone = _deal(v, rng, weights)
    rules, players, me = v.rules, v.players, v.seat
    hands = [0] * players
    hands[me] = v._table._hands[me]
    in_slot = {}
    for t, g in zip(p.tiles, where, strict=True):
        r = p.owner[g]
        if g >= players:
            in_slot[g] = t
        if r >= 0 and t not in p.played:
            hands[r] |= 1 << t
    log: Any = None
    for i, (seat, move) in enumerate(v.history):
        g = p.draw_slots[i]
        log = (log, seat, DRAWS[in_slot[g]] if g >= 0 else move)
    if v.drawn is not None:
        drawn = v.drawn.id
    elif p.drawn_slot >= 0:
        drawn = in_slot[p.drawn_slot]
    else:
        drawn = -1
    return settle(rules, v.centre.id, v.board, tuple(hands), tuple(bone), v.turn, drawn, log)


def sample_record(v: View, rng: random.Random) -> Record:
    """A random hidden history consistent with ``v``; see :meth:`View.sample_record`."""
    p, where, bone = _deal(v, rng)
    players = v.players
    hands = list(p.start_hands)
    in_slot = {}
    for t, g in zip(p.tiles, where, strict=True):
        if g < players:
            hands[g] |= 1 << t
        elif g != p.bone_slot:
            in_slot[g] = t
    moves = []
    drawn = []
    for i, event in enumerate(v.history):
        g = p.draw_slots[i]
        move = DRAWS[in_slot[g]] if g >= 0 else event.move
        if isinstance(move, Draw):
            assert move.tile is not None
            drawn.append(move.tile.id)
        moves.append(move)
    start = position_from_parts(
        v.rules,
        centre=str(v.centre),
        board=[str(m) for m in v.board[: p.start_len]],
        hands=[[_tile(t) for t in _bits(h)] for h in hands],
        boneyard=[_tile(t) for t in drawn + bone],
        turn=p.start_turn,
        drawn=None if v.history or v.drawn is None else str(v.drawn),  # (may start after the draw)
    )
    if moves and not start.is_legal(moves[0]):
        # Only a position read as it stands, with a drawn tile that could not have been
        # drawn: the record starts there, after the draw.
        first = moves.pop(0)
        assert isinstance(first, Draw) and first.tile is not None
        start = do_draw(start, first.tile.id)
    return Record(start, moves)


def _bits(mask: int) -> list[int]:
    return [t for t in range(mask.bit_length()) if mask >> t & 1]


def _tile(t: int) -> str:
    return str(BY_ID[t])
