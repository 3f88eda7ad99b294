"""The assignment behind determinization: unseen tiles into slots, each where it may go.

:mod:`chickenfoot.sampling` turns a view's history into a :class:`Problem` (the slots, the
tiles, which tile may go where) and asks this module for assignments: :func:`complete`
finds one complete assignment or proves there is none, :func:`assign` draws one at random
(each tile into a slot chosen in proportion to the room left, kept complete at every step
by alternating paths, so it never fails when :func:`complete` succeeded). Both take the
problem as built and change only what they return.
"""

from __future__ import annotations

import random

__all__ = ["Problem", "Weights", "assign", "complete"]

Weights = list[dict[int, float]]
"""Per tile of a problem, a weight for each slot it may take (scales the slot's room)."""


class Problem:
    """The slots, the tiles and which tile may go where, for one view (built once)."""

    __slots__ = (
        "allow",
        "arrival",
        "base",
        "bone_slot",
        "cap",
        "draw_slots",
        "drawn_slot",
        "feasible",
        "force",
        "masks",
        "noplay",
        "own_draws",
        "owner",
        "played",
        "start_hands",
        "start_len",
        "start_turn",
        "tiles",
    )

    tiles: list[int]  # tile ids whose place is unknown
    feasible: list[list[int]]  # per tile (index into tiles): the slots it may take
    cap: list[int]  # per slot: how many tiles it takes
    owner: list[int]  # per slot: the seat, or -1 for the boneyard
    bone_slot: int
    draw_slots: list[int]  # per history event: its slot (-1: not a hidden draw)
    drawn_slot: int  # the slot of the tile the seat to act drew and still holds, or -1
    played: set[int]  # tiles played by the other seats during the history
    start_hands: list[int]  # per slot < players: known tiles (the viewer's start hand)
    start_len: int  # board length when the history starts
    start_turn: int
    force: list[tuple[int, int]]  # (tile index, slot): pairs that keep the round unblocked
    base: list[int]  # one complete assignment: the slot of each tile
    noplay: list[list[tuple[int, int]]]  # per seat: (event index, tiles it did not hold)
    arrival: list[int]  # per slot: the event index of the draw (-1: start or boneyard)
    allow: list[int]  # per slot: the tiles it may take (-1: any)
    own_draws: list[tuple[int, int]]  # the viewer's draws: (event index, ``allow`` as a slot's)
    masks: list[int]  # per history event: the tiles that were playable before it


def complete(p: Problem) -> list[int] | None:
    """One complete assignment (augmenting paths), or ``None`` when there is none."""
    n, slots = len(p.tiles), len(p.cap)
    where = [-1] * n
    members: list[list[int]] = [[] for _ in range(slots)]
    for x in range(n):
        # Breadth-first search for a slot with room, moving placed tiles along the way.
        parent: dict[int, tuple[int, int]] = {}  # slot -> (tile moved into it, its old slot)
        queue, seen = [x], {x}
        found = -1
        for y in queue:
            for g in p.feasible[y]:
                if g in parent:
                    continue
                parent[g] = (y, where[y])
                if len(members[g]) < p.cap[g]:
                    found = g
                    break
                for z in members[g]:
                    if z not in seen:
                        seen.add(z)
                        queue.append(z)
            if found >= 0:
                break
        if found < 0:
            return None
        g = found
        while True:
            y, old = parent[g]
            members[g].append(y)
            where[y] = g
            if old < 0:
                break
            members[old].remove(y)
            g = old
    return where


def assign(p: Problem, rng: random.Random, weights: Weights | None = None) -> list[int] | None:
    """A random complete assignment (see the module docstring); ``None`` if forcing fails.

    ``weights`` (per tile, by slot) scale the room of each slot the tile may take when it
    is placed (:mod:`chickenfoot.belief`'s learned dealing); without them, the room alone.
    """
    where = list(p.base)
    # Lists, not sets: the walk below visits a slot's tiles in the order they came, an
    # order of the language's, where a set's would be its implementation's (the compiled
    # sampler, chickenfoot._jit.sample, follows the same lists).
    members: list[list[int]] = [[] for _ in p.cap]
    for x, g in enumerate(where):
        members[g].append(x)
    fixed = [False] * len(where)
    room = list(p.cap)

    def move_to(x: int, g: int) -> bool:
        """Place ``x`` in ``g``, moving unfixed tiles along an alternating path if needed."""
        home = where[x]
        if home != g:
            parent = {g: (-1, -1)}
            queue = [g]
            for q in queue:
                for y in members[q]:
                    if fixed[y] or y == x:
                        continue
                    for h in p.feasible[y]:
                        if h in parent:
                            continue
                        parent[h] = (y, q)
                        if h == home:
                            break
                        queue.append(h)
                    if home in parent:
                        break
                if home in parent:
                    break
            if home not in parent:
                return False
            h = home
            while h != g:
                y, q = parent[h]
                members[q].remove(y)
                members[h].append(y)
                where[y] = h
                h = q
            members[home].remove(x)
            members[g].append(x)
            where[x] = g
        fixed[x] = True
        room[g] -= 1
        return True

    if p.force:
        pairs = list(p.force)
        rng.shuffle(pairs)
        for x, g in pairs:
            if move_to(x, g):
                break
        else:
            return None
    order = list(range(len(where)))
    rng.shuffle(order)
    for x in order:
        if fixed[x]:
            continue
        cands = [g for g in p.feasible[x] if room[g]]
        while True:
            if len(cands) == 1:
                g = cands[0]
            elif weights is None:
                g = rng.choices(cands, [room[c] for c in cands])[0]
            else:
                g = rng.choices(cands, [room[c] * weights[x][c] for c in cands])[0]
            if move_to(x, g):
                break
            cands.remove(g)
    return where
