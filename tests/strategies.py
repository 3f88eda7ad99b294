"""Hypothesis strategies for Chicken Foot tests, and an independent reference model.

Import these from any test module (``from strategies import rules, positions``; the
``tests`` directory is on ``sys.path`` under pytest's default ``rootdir`` import mode).

Strategies
----------
``rules()``
    Every valid :class:`~chickenfoot.Rules`: all values of every variant field (docs/rules.md), the
    presets for 2-8 players (optionally with non-structural fields changed), the R2 table
    with defaults, tiny sets (double-2, double-3, ...) with small ``opening_toes`` /
    ``foot_toes``, and big tables (double-15 with 10 players, double-18). Shrinks towards
    small sets with few players. ``rules(max_pip=...)`` bounds the set size for expensive
    properties.
``preset_or_tiny_rules()``
    The base rules of the whole-round and whole-match properties (test_record, test_match):
    a preset for 2-8 players or a tiny set; those tests vary the other fields themselves.
``seeds()``
    Integer deal seeds, negative and huge ones included.
``positions()``
    Reachable positions: ``deal(rules, seed, round)`` followed by a drawn number of
    random legal moves (``draw`` sometimes replaced by ``draw:X-Y`` for a random boneyard
    tile). Includes finished rounds. Shrinks towards fewer moves and earlier legal moves.
``games()``
    Like ``positions()`` but returns the whole path ``[s0, s1, ...]`` of a random round.

Reference model
---------------
``reference_legal_moves(s)``, ``reference_outcome(s)``, ``reference_successor(s, m)``,
``hub_toes(s)`` and ``tile_census(s)`` re-derive the terms, R1-R12 (docs/rules.md) and the move order (docs/formats.md)
from the public views of a state (board, hands, boneyard, turn, drawn, rules) only, walking
the board from scratch. They share no code with ``chickenfoot.state`` and serve as the
oracle of the property and state-machine tests.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st

from chickenfoot import (
    DRAW,
    PASS,
    PRESETS,
    Draw,
    Move,
    Pass,
    Play,
    Rounds,
    Rules,
    State,
    Threshold,
    Tile,
    apply,
    deal,
    legal_moves,
)
from chickenfoot.rules import CentreMode

__all__ = [
    "R2_TABLE",
    "check_against_reference",
    "examples",
    "games",
    "hub_toes",
    "open_ends",
    "pending_hubs",
    "positions",
    "reference_legal_moves",
    "reference_outcome",
    "reference_successor",
    "round_move_bound",
    "rules",
    "seeds",
    "set_tiles",
    "tile_census",
]

R2_TABLE: dict[tuple[int, int], int] = {
    (2, 9): 20,
    (3, 9): 14,
    (4, 9): 11,
    (5, 9): 9,
    (6, 9): 7,
    (7, 12): 10,
    (8, 12): 9,
}
"""R2 of docs/rules.md, copied from the page (not from the library): ``(players, max_pip) -> hand_size``."""


def set_tiles(max_pip: int) -> list[Tile]:
    """Every tile of the double-``max_pip`` set in id order, enumerated from the terms of docs/rules.md.

    >>> [str(t) for t in set_tiles(2)]
    ['0-0', '1-0', '1-1', '2-0', '2-1', '2-2']
    """
    return [Tile(a, b) for a in range(max_pip + 1) for b in range(a + 1)]


# -- rules -------------------------------------------------------------------------------------

CENTRE_MODES: st.SearchStrategy[CentreMode] = st.sampled_from(["set_aside", "holder"])


def _dealt(max_pip: int, centre: str) -> int:
    n = (max_pip + 1) * (max_pip + 2) // 2
    return n - 1 if centre == "set_aside" else n


@st.composite
def _free_fields(draw: st.DrawFn, max_pip: int, players: int) -> dict[str, Any]:
    """The fields that do not change what can be dealt, each over all its values."""
    match: Rounds | Threshold = draw(
        st.one_of(
            st.builds(Rounds, st.integers(1, max_pip + 1)),
            st.builds(
                Threshold,
                st.one_of(st.sampled_from([0, 100, 150, 200, 250]), st.integers(0, 10**6)),
                inclusive=st.booleans(),
            ),
        )
    )
    return {
        "double_blank": draw(st.one_of(st.sampled_from([50, 25, 0]), st.integers(0, 1000))),
        "draw": draw(st.sampled_from(["one", "until_playable"])),
        "drawn_tile": draw(st.sampled_from(["must_play", "may_play"])),
        "may_draw_instead": draw(st.booleans()),
        "match": match,
        "tie_break": draw(st.sampled_from(["shared", "zero_rounds"])),
        "first_leader": draw(st.integers(0, players - 1)),
    }


@st.composite
def _custom_rules(draw: st.DrawFn, max_pip_values: Sequence[int], max_players: int) -> Rules:
    n = draw(st.sampled_from(max_pip_values))
    centre = draw(CENTRE_MODES)
    dealt = _dealt(n, centre)
    players = draw(st.integers(2, min(max_players, dealt)))
    hand_size = draw(st.integers(1, dealt // players))
    fields = draw(_free_fields(n, players))
    opening = draw(st.one_of(st.integers(1, min(n, 6)), st.integers(1, n)))
    foot = draw(st.one_of(st.integers(1, min(n - 1, 3)), st.integers(1, n - 1)))
    return Rules(
        players=players,
        max_pip=n,
        hand_size=hand_size,
        opening_toes=opening,
        foot_toes=foot,
        centre=centre,
        **fields,
    )


@st.composite
def _standard_rules(draw: st.DrawFn) -> Rules:
    """2-8 players on the R2 table, ``max_pip``/``hand_size`` left to their defaults."""
    players = draw(st.integers(2, 8))
    n = 9 if players <= 6 else 12
    fields = draw(_free_fields(n, players))
    return Rules(
        players=players,
        opening_toes=draw(st.sampled_from([6, 4, 1, n])),
        foot_toes=draw(st.sampled_from([3, 1, 2, n - 1])),
        centre=draw(CENTRE_MODES),
        **fields,
    )


@st.composite
def _preset_rules(draw: st.DrawFn) -> Rules:
    name = draw(st.sampled_from(sorted(PRESETS)))
    players = draw(st.integers(2, 8))
    base = Rules.preset(name, players=players)
    if draw(st.booleans()):
        return base
    fields = draw(_free_fields(base.max_pip, players))
    keep = draw(st.sets(st.sampled_from(sorted(fields))))
    return base.replace(**{k: v for k, v in fields.items() if k in keep})


@st.composite
def _big_rules(draw: st.DrawFn) -> Rules:
    """Big tables: double-15 with 10 players, double-18 with up to 16."""
    n, players = draw(st.sampled_from([(15, 10), (18, 6), (18, 10), (18, 16), (15, 2)]))
    centre = draw(CENTRE_MODES)
    dealt = _dealt(n, centre)
    hand_size = draw(st.sampled_from([7, 10, 12, dealt // players]))
    fields = draw(_free_fields(n, players))
    return Rules(
        players=players,
        max_pip=n,
        hand_size=min(hand_size, dealt // players),
        opening_toes=draw(st.sampled_from([6, 4, n, 1])),
        foot_toes=draw(st.sampled_from([3, 1, n - 1])),
        centre=centre,
        **fields,
    )


def rules(*, min_pip: int = 2, max_pip: int = 18) -> st.SearchStrategy[Rules]:
    """Valid rules configurations over every variant of docs/rules.md, sets from double-``min_pip``
    to double-``max_pip``.

    Tiny sets come first (shrinking goes there); big tables (double-15 with 10 players,
    double-18) are included when ``max_pip`` allows.

    >>> from hypothesis import find
    >>> find(rules(), lambda r: r.centre == "holder" and r.max_pip == 2).players
    2
    >>> find(rules(min_pip=15), lambda r: True).max_pip >= 15
    True
    """

    def within(values: Sequence[int]) -> list[int]:
        return [n for n in values if min_pip <= n <= max_pip]

    options: list[st.SearchStrategy[Rules]] = []
    if tiny := within((2, 3, 4)):
        options.append(_custom_rules(tiny, 6))
    if within((9, 12)) == [9, 12]:
        options.append(_standard_rules())
        options.append(_preset_rules())
    if mid := within(range(5, 18)):
        options.append(_custom_rules(mid, 10))
    if within((15, 18)) == [15, 18]:
        options.append(_big_rules())
    if not options:
        raise ValueError(f"no rules with {min_pip} <= max_pip <= {max_pip}")
    return st.one_of(options)


@st.composite
def preset_or_tiny_rules(draw: st.DrawFn) -> Rules:
    """A preset for 2-8 players, or a tiny set (double-2 to double-4) for 2 or 3 players with
    either centre; the other variant fields at their defaults, for the caller to vary."""
    if draw(st.booleans()):
        players = draw(st.integers(2, 8))
        return Rules.preset(
            draw(st.sampled_from(["house", "four-toe", "classic"])), players=players
        )
    n = draw(st.integers(2, 4))
    players = draw(st.integers(2, 3))
    centre = draw(st.sampled_from(["set_aside", "holder"]))
    dealt = (n + 1) * (n + 2) // 2 - (centre == "set_aside")
    return Rules(
        players=players,
        max_pip=n,
        hand_size=draw(st.integers(1, min(4, dealt // players))),
        opening_toes=draw(st.integers(1, n)),
        foot_toes=draw(st.integers(1, n - 1)),
        centre=centre,
    )


def seeds() -> st.SearchStrategy[int]:
    """Deal seeds: small, negative and very large integers.

    >>> from hypothesis import find
    >>> find(seeds(), lambda s: s < 0)
    -1
    """
    return st.one_of(st.integers(0, 1000), st.integers(-(2**70), 2**70))


# -- positions ---------------------------------------------------------------------------------


def _choose(draw: st.DrawFn, s: State) -> Move:
    moves = list(legal_moves(s))
    m = moves[draw(st.integers(0, len(moves) - 1))]
    if m is DRAW and s.boneyard_size > 1 and draw(st.integers(0, 3)) == 0:
        return Draw(s.boneyard[draw(st.integers(0, s.boneyard_size - 1))])
    return m


@st.composite
def games(
    draw: st.DrawFn,
    rules_strategy: st.SearchStrategy[Rules] | None = None,
    max_plies: int | None = None,
) -> list[State]:
    """A random round: ``[deal(...), apply(...), ...]``, stopping when it is over or after a
    drawn number of plies (at most ``max_plies``; unbounded plays to the end).

    >>> from hypothesis import find
    >>> path = find(games(rules(max_pip=2)), lambda p: len(p) > 1)
    >>> len(path), path[1] in [apply(path[0], m) for m in legal_moves(path[0])]
    (2, True)
    """
    r = draw(rules_strategy if rules_strategy is not None else rules())
    seed = draw(seeds())
    rnd = draw(st.integers(0, 3 * (r.max_pip + 1)))
    s = deal(r, seed, rnd)
    limit = round_move_bound(s)
    if max_plies is not None:
        limit = min(limit, max_plies)
    plies = draw(st.one_of(st.integers(0, min(limit, 25)), st.just(limit)))
    path = [s]
    for _ in range(plies):
        if s.is_over():
            break
        s = apply(s, _choose(draw, s))
        path.append(s)
    return path


def positions(
    rules_strategy: st.SearchStrategy[Rules] | None = None, max_plies: int | None = None
) -> st.SearchStrategy[State]:
    """Reachable positions: a seeded deal and a drawn number of random legal moves.

    ``rules_strategy`` defaults to :func:`rules`; ``max_plies`` caps the moves made.

    >>> from hypothesis import find
    >>> find(positions(rules(max_pip=2)), lambda s: len(s.board) > 1).board[0].anchor is None
    True
    """
    return games(rules_strategy, max_plies).map(lambda path: path[-1])


def round_move_bound(s: State) -> int:
    """An upper bound on the moves left in the round from ``s`` (derived from the rules).

    With ``H`` tiles in hands, ``B`` in the boneyard and ``P`` players:

    * every play moves a tile from a hand to the board, never back: at most ``H + B`` plays;
    * every draw removes a boneyard tile: at most ``B`` draws;
    * a pass after a draw ends that turn: at most ``B + 1`` such passes (``+1``: ``s`` may
      already be in a drawn turn);
    * a pass with nothing drawn needs an empty boneyard (otherwise ``draw`` is the move).
      Such passes come in runs with no play between them; the table and hands are then
      frozen, so a run of ``P`` would mean every seat had no play at the start of the
      run's first turn, which R10 calls blocked: a run has at most ``P - 1`` passes. Runs
      are separated by plays or by the one pass after the last draw: at most
      ``(H + B) + 2`` runs.

    Total: ``(H + B) + B + (B + 1) + (P - 1) * (H + B + 2)``.

    >>> round_move_bound(deal(Rules(), seed=1))
    243
    """
    h = sum(s.hand_sizes)
    b = s.boneyard_size
    p = s.rules.players
    return (h + b) + b + (b + 1) + (p - 1) * (h + b + 2)


# -- reference model ---------------------------------------------------------------------------


def tile_census(s: State) -> list[Tile]:
    """Every tile where it lies: board (in order), then hands (seat order), then boneyard.

    >>> len(tile_census(deal(Rules(), seed=1)))
    55
    """
    out = [m.tile for m in s.board]
    for hand in s.hands:
        out.extend(hand)
    out.extend(s.boneyard)
    return out


def hub_toes(s: State) -> dict[Tile, tuple[int, int]]:
    """Each hub on the table -> ``(toes laid, toes needed)``, counted from the board.

    Every double on the table is a hub (the centre needs ``opening_toes``, a double laid on
    a line ``foot_toes``) and every tile laid against a double is one of its toes.

    >>> hub_toes(deal(Rules(), seed=1))
    {Tile(9, 9): (0, 6)}
    """
    out: dict[Tile, tuple[int, int]] = {}
    for m in s.board:
        if m.tile.is_double:
            need = s.rules.opening_toes if m.tile == s.centre else s.rules.foot_toes
            out[m.tile] = (0, need)
    for m in s.board:
        if m.anchor is not None and m.anchor.is_double:
            laid, need = out[m.anchor]
            out[m.anchor] = (laid + 1, need)
    return out


def pending_hubs(s: State) -> list[Tile]:
    """The hubs with fewer toes than they need (docs/rules.md, "pending hub": at most one).

    >>> pending_hubs(deal(Rules(), seed=1))
    [Tile(9, 9)]
    """
    return [hub for hub, (laid, need) in hub_toes(s).items() if laid < need]


def open_ends(s: State) -> dict[Tile, int]:
    """Each open end: the last tile of a line -> its free number, walking the board.

    A toe on hub ``c-c`` shows ``toe.other(c)``; a tile laid on an open end ``v`` shows
    ``tile.other(v)``; a double laid on a line closes it (it is a hub, not an end); a tile
    with something laid on it is no longer an end.

    >>> s = deal(Rules(), seed=1)
    >>> toe = legal_moves(s)[0]
    >>> open_ends(apply(s, toe)) == {toe.tile: toe.tile.other(9)}
    True
    """
    free: dict[Tile, int] = {}
    covered: set[Tile] = set()
    for m in s.board[1:]:
        assert m.anchor is not None
        if m.anchor.is_double:
            end = m.tile.other(m.anchor.high)
        else:
            assert m.anchor not in covered, f"{m}: {m.anchor} already has a tile laid on it"
            end = m.tile.other(free[m.anchor])
            covered.add(m.anchor)
        free[m.tile] = end
    return {t: v for t, v in free.items() if t not in covered and not t.is_double}


def _plays(s: State, candidates: Sequence[Tile]) -> list[Move]:
    pending = pending_hubs(s)
    assert len(pending) <= 1, f"several pending hubs: {pending}"
    places = [(pending[0], pending[0].high)] if pending else list(open_ends(s).items())
    out = [(t.id, a.id, Play(t, a)) for t in candidates for a, v in places if t.has(v)]
    return [m for _, _, m in sorted(out, key=lambda x: (x[0], x[1]))]


def reference_outcome(s: State) -> dict[str, Any] | None:
    """``{"kind": "out"|"blocked", "seat": ...}`` by R10, or ``None`` while play goes on.

    >>> reference_outcome(deal(Rules(), seed=1)) is None
    True
    """
    for seat, hand in enumerate(s.hands):
        if not hand:
            return {"kind": "out", "seat": seat}
    if (
        s.board
        and s.drawn is None
        and not s.boneyard
        and not any(_plays(s, hand) for hand in s.hands)
    ):
        return {"kind": "blocked", "seat": None}
    return None


def reference_legal_moves(s: State) -> list[Move]:
    """The legal moves by R6-R10 (docs/rules.md), in the order of docs/formats.md.

    >>> s = deal(Rules(), seed=1)
    >>> reference_legal_moves(s) == [Play(t, s.centre) for t in s.hand(0) if t.has(9)]
    True
    """
    if reference_outcome(s) is not None:
        return []
    r = s.rules
    hand = s.hand(s.turn)
    bone = bool(s.boneyard)
    if not s.board:  # holder mode, the centre is not laid yet
        lay = Play(s.centre, None)
        if s.drawn is None:
            if s.centre in hand:
                return [lay]
            return [DRAW] if bone else [PASS]
        if s.drawn == s.centre:
            return [lay, PASS] if r.drawn_tile == "may_play" else [lay]
        return [DRAW] if bone and r.draw == "until_playable" else [PASS]
    if s.drawn is None:
        plays = _plays(s, hand)
        if plays:
            return plays + ([DRAW] if bone and r.may_draw_instead else [])
        return [DRAW] if bone else [PASS]
    plays = _plays(s, [s.drawn])
    if plays:
        return plays + ([PASS] if r.drawn_tile == "may_play" else [])
    return [DRAW] if bone and r.draw == "until_playable" else [PASS]


def reference_successor(s: State, move: Move) -> dict[str, Any]:
    """The position document after the legal ``move`` (R9, R10), built from ``s.to_dict()``.

    >>> s = deal(Rules(), seed=1)
    >>> reference_successor(s, legal_moves(s)[0])["turn"]
    1
    """
    doc = s.to_dict()
    seat = s.turn
    hands = [list(h) for h in s.hands]
    bone = list(s.boneyard)
    board = list(doc["board"])
    drawn: Tile | None = None
    turn = seat
    if isinstance(move, Play):
        hands[seat].remove(move.tile)
        board.append(str(move))
        if hands[seat]:
            turn = (seat + 1) % s.rules.players
    elif isinstance(move, Draw):
        tile = bone[0] if move.tile is None else move.tile
        bone.remove(tile)
        hands[seat].append(tile)
        drawn = tile
    else:
        assert isinstance(move, Pass)
        turn = (seat + 1) % s.rules.players
    doc["board"] = board
    doc["hands"] = [[str(t) for t in sorted(h, key=lambda t: t.id)] for h in hands]
    doc["boneyard"] = [str(t) for t in bone]
    doc["turn"] = turn
    doc["drawn"] = None if drawn is None else str(drawn)
    return doc


def check_against_reference(s: State) -> None:
    """Assert that ``s``'s legal moves, outcome and penalties agree with the reference model.

    >>> check_against_reference(deal(Rules(), seed=1))
    """
    expected = reference_legal_moves(s)
    actual = list(legal_moves(s))
    assert [str(m) for m in actual] == [str(m) for m in expected], (s.to_dict(), actual)
    out = s.outcome()
    assert (None if out is None else out.to_dict()) == reference_outcome(s), s.to_dict()
    blank = s.rules.double_blank
    recount = tuple(
        sum(blank if t == Tile(0, 0) else t.high + t.low for t in hand) for hand in s.hands
    )
    assert s.penalties() == recount, s.to_dict()


def examples(n: int) -> int:
    """``n`` examples under the ``default`` profile (100 examples), scaled to the loaded one.

    For tests that are costly per example: ``@settings(max_examples=examples(20))`` runs 20
    examples locally and proportionally more under the ``ci`` profile.

    >>> examples(20) >= 1
    True
    """
    current = settings.default
    base = 100 if current is None else current.max_examples
    return max(1, n * base // 100)
