"""``chickenfoot play`` (issue 30, item 6): the moves grouped by the place they go, each
place written as the table picture draws it; the numbers typed at the prompt count them in
that order (notation and a tile alone still work); the winner of a round named.

The positions are built by hand and reasoned about from the rules (docs/rules.md): which
open end each tile fits, how it would lie there, who scores the fewest points.
"""

from __future__ import annotations

import io
import random
from collections.abc import Sequence

import pytest

import chickenfoot as cf
from chickenfoot.cli._prompt import understand
from chickenfoot.cli._screen import Screen
from chickenfoot.cli.play import Game, Session
from chickenfoot.record import Record
from chickenfoot.specs import Trust, agents_of

# Double-six, three players, 3 toes on the centre and 2 on each foot.
RULES = cf.Rules(players=3, max_pip=6, hand_size=5, opening_toes=3, foot_toes=2)
BOARD = ["6-6", "6-1@6-6", "6-4@6-6", "6-5@6-6", "3-1@6-1", "4-4@6-4", "4-2@4-4", "4-0@4-4",
         "3-0@4-0"]  # fmt: skip
# The picture of that table:
#   centre 6-6  (3/3 toes)
#     ├ 6|1 1|3 → 3
#     ├ 6|4 4|4 ▪ foot 4-4
#     └ 6|5 → 5
#   foot 4-4  (2/2 toes)
#     ├ 4|2 → 2
#     └ 4|0 0|3* → 3
HAND = ["5-3", "2-0", "5-5", "6-2", "1-0"]
REST = (["0-0", "1-1", "2-1", "2-2"], ["3-3", "4-1", "4-3", "5-0"])
BONEYARD = ["3-2", "5-1", "5-2", "5-4", "6-0", "6-3"]


def position(hand: Sequence[str] = HAND, boneyard: Sequence[str] = BONEYARD) -> cf.State:
    return cf.State.setup(RULES, board=BOARD, hands=[hand, *REST], boneyard=boneyard)


def the_rest(board: Sequence[str], hands: Sequence[Sequence[str]]) -> list[str]:
    """The tiles of the double-six set on neither the board nor a hand (placements name
    their tile first)."""
    used = {cf.Tile.parse(p.split("@")[0]) for p in board}
    used |= {cf.Tile.parse(t) for hand in hands for t in hand}
    return [str(t) for t in cf.tiles_of_set(6) if t not in used]


def session(state: cf.State, *answers: str, bots: str = "greedy") -> tuple[Session, io.StringIO]:
    out = io.StringIO()
    queue = list(answers)

    def ask(prompt: str) -> str:
        out.write(prompt + "\n")
        if not queue:
            raise EOFError
        return queue.pop(0)

    players = state.rules.players
    named = agents_of(bots, players - 1, "--bots", trust=Trust.user())
    s = Session(
        Game(record=Record(state)),
        seat=0,
        bots=dict(zip(range(1, players), named, strict=True)),
        rng=random.Random(0),
        out=out,
        ask=ask,
        header="test",
    )
    return s, out


# -- the moves, by place --------------------------------------------------------------------


def test_the_moves_are_listed_by_the_place_they_go_as_the_table_draws_it() -> None:
    # Open ends, in the picture's order: 3 on 3-1 (drawn 1|3), 5 on 6-5 (6|5), 2 on 4-2
    # (4|2), 3 on 3-0 (0|3). 5-3 fits both 3s and the 5; 5-5 the 5; 2-0 and 6-2 the 2;
    # 1-0 fits nowhere. Each tile is written as it would lie: the touching number first.
    s, out = session(position(), "quit")
    assert s.run() == 0
    text = out.getvalue()
    listing = text[text.index("Your moves") :].split("move [")[0]
    assert listing.splitlines() == [
        "Your moves, by where they go on the table:",
        "  1|3 → 3  1) 3|5",
        "  6|5 → 5  2) 5|3  3) 5|5",
        "  4|2 → 2  4) 2|0  5) 2|6",
        "  0|3 → 3  6) 3|5",
    ]
    assert "move [1-6, help]> " in text
    for place in ("1|3 → 3", "6|5 → 5", "4|2 → 2", "0|3* → 3"):  # each place is on the picture
        assert f" {place}\n" in text


@pytest.mark.parametrize(
    ("answer", "played"),
    [
        ("1", "5-3@3-1"),
        ("3", "5-5@6-5"),
        ("5", "6-2@4-2"),
        ("6", "5-3@3-0"),
        ("5-3@6-5", "5-3@6-5"),  # notation still works
        ("3-5@5-6", "5-3@6-5"),  # either order
        ("6-2", "6-2@4-2"),  # a tile alone, where it fits in one place
        # what the screen shows (issue 50, item 6)
        ("5|3", "5-3@6-5"),  # a tile as the list writes it: 5|3 lies only at 6|5 → 5
        ("2|6", "6-2@4-2"),
        ("6|2", "6-2@4-2"),  # the other way round: the tile, which fits in one place
        ("3|5 at 0|3 → 3", "5-3@3-0"),  # a tile at a place, as the screen writes both
        ("3|5  at 0|3 -> 3", "5-3@3-0"),  # -> for →, and spaces as typed
        ("1|3 → 3", "5-3@3-1"),  # a place alone, where one move goes
        ("1|3 -> 3", "5-3@3-1"),
    ],
)
def test_the_numbers_typed_count_the_moves_as_listed(answer: str, played: str) -> None:
    s, _ = session(position(), answer, "quit")
    assert s.run() == 0
    assert s.game.record is not None
    assert str(s.game.record.moves[0]) == played


def test_a_tile_in_several_places_is_answered_with_the_places() -> None:
    state = position()
    reply = understand("5-3", state.view(0), state)
    assert reply == "5-3 fits in 3 places: 1) 3|5 at 1|3 → 3, 2) 5|3 at 6|5 → 5, 6) 3|5 at 0|3 → 3. Choose one."  # fmt: skip


LISTED = "1) 3|5 at 1|3 → 3; 2) 5|3 3) 5|5 at 6|5 → 5; 4) 2|0 5) 2|6 at 4|2 → 2; 6) 3|5 at 0|3 → 3"


@pytest.mark.parametrize(
    ("answer", "reply"),
    [
        ("3|5", "3|5 goes to 2 places: 1) 3|5 at 1|3 → 3, 6) 3|5 at 0|3 → 3. Choose one."),
        ("6|5 → 5", "2 moves go to 6|5 → 5: 2) 5|3 3) 5|5. Choose one."),
        ("5|5 at 4|2 -> 2", f"5|5 does not go to 4|2 → 2. Your moves: {LISTED}."),
        ("5|5 at 6|1 -> 1", f"No move of yours goes to '6|1 → 1' now. Your moves: {LISTED}."),
        ("4|4 -> 4", f"No move of yours goes to '4|4 → 4' now. Your moves: {LISTED}."),
        ("1-0", "1-0 fits nowhere now: no open end shows 1 or 0 (the open ends show 2, 3, 5). "
                f"Your moves: {LISTED}."),
        ("4-1", f"4-1: you do not hold 4-1. Your moves: {LISTED}."),
        ("zz", "'zz' is not a move: type 1 to 6, a move as listed (3|5), or help."),
    ],
)  # fmt: skip
def test_a_refusal_answers_in_the_screens_terms(answer: str, reply: str) -> None:
    # The moves it lists are written as the menu writes them, by place, with their numbers
    # (issue 50, item 6): never in the notation (5-3@3-1) the menu does not show.
    state = position()
    assert understand(answer, state.view(0), state) == reply


def test_toes_go_on_the_hub_row_and_draw_is_a_row_of_its_own() -> None:
    # A fresh table: the centre 6-6 needs 3 toes, and seat 0 holds two 6s; under
    # may_draw_instead it may draw instead.
    rules = RULES.replace(may_draw_instead=True)
    hands = [["6-0", "6-3", "2-1"], ["6-1"], ["6-2"]]
    state = cf.State.setup(rules, hands=hands, boneyard=the_rest(["6-6"], hands))
    out = io.StringIO()
    Screen(out).moves(state.view(0))
    assert out.getvalue().splitlines() == [
        "Your moves, by where they go on the table:",
        "  centre 6-6 (toe)  1) 6|0  2) 6|3",
        "  or                3) draw",
    ]
    assert understand("3", state.view(0), state) == cf.Draw()


# -- the winner of the round ----------------------------------------------------------------


def test_the_winner_of_a_round_is_named_by_seat_and_name() -> None:
    # Nothing is left to draw. Seat 0 holds 1-0 only: it fits no open end (3, 5, 2, 3), so
    # it passes. Seat 1 (greedy) holds 2-1, which fits the 2 of 4-2: it goes out with 0 and
    # wins; seat 0 keeps 1 point, seat 2 every other tile.
    hands = [["1-0"], ["2-1"]]
    state = cf.State.setup(RULES, board=BOARD, hands=[*hands, the_rest(BOARD, hands)], boneyard=[])
    assert [str(m) for m in state.legal_moves] == ["pass"]
    s, out = session(state)
    assert s.run() == 0
    text = out.getvalue()
    assert "== The round is over: seat 1 (greedy) went out ==" in text
    assert text.endswith("seat 1 (greedy) wins the round with 0.\n")
    assert "lowest" not in text


def test_a_blocked_round_is_won_by_the_fewest_points() -> None:
    from chickenfoot.cli._game import round_winners

    # Double-three: 3-3 with toes 3-2 and 3-1; 2-2 closes the line of 3-2 and takes the toe
    # 2-0, closed in turn by 0-0 with the toe 3-0; 1-0 ends the line of 3-1. The open ends
    # show 0 and 3; the last tiles, 2-1 and 1-1, carry neither, and nothing is left to draw:
    # blocked (R10). Seat 1 keeps 1-1, 2 points, fewer than seat 0's 3 (R11).
    rules = cf.Rules(players=2, max_pip=3, hand_size=3, opening_toes=2, foot_toes=1)
    board = ["3-3", "3-2@3-3", "3-1@3-3", "2-2@3-2", "2-0@2-2", "0-0@2-0", "3-0@0-0", "1-0@3-1"]
    blocked = cf.State.setup(rules, board=board, hands=[["2-1"], ["1-1"]], boneyard=[])
    assert blocked.is_over() and blocked.penalties() == (3, 2)
    names = {1: "random"}
    assert round_winners(blocked, 0, names) == "seat 1 (random) wins the round with 2."
    assert round_winners(blocked, 1, {0: "greedy"}) == "You win the round with 2."


def test_you_win_and_ties_share_the_win() -> None:
    from chickenfoot.cli._game import round_winners

    # Seat 0 has laid its last tile, 2-1 on the 2 of 4-2: out, 0 points (R10, R11).
    board = [*BOARD, "2-1@4-2"]
    hands = [[], ["1-0"], ["0-0"]]
    out = cf.State.setup(RULES, board=board, hands=hands, boneyard=the_rest(board, hands))
    names = {1: "greedy", 2: "random"}
    assert out.penalties() == (0, 1, 50)
    assert round_winners(out, 0, names) == "You win the round with 0."
    assert round_winners(out, 2, {0: "greedy", 1: "random"}) == (
        "seat 0 (greedy) wins the round with 0."
    )
    # With the double blank worth 0, seat 2's 0-0 scores 0 too: equal lowest scores share
    # the win (R12, as for a match's totals).
    free = RULES.replace(double_blank=0)
    tie = cf.State.setup(free, board=board, hands=hands, boneyard=the_rest(board, hands))
    assert tie.is_over() and tie.penalties() == (0, 1, 0)
    assert (
        round_winners(tie, 0, names) == "You and seat 2 (random) share the win of the round with 0."
    )
    assert round_winners(tie, 1, {0: "greedy", 2: "random"}) == (
        "seat 0 (greedy) and seat 2 (random) share the win of the round with 0."
    )


@pytest.mark.parametrize(
    "rules",
    [
        cf.Rules(players=3),
        cf.Rules.preset("classic", players=2, drawn_tile="may_play", may_draw_instead=True),
    ],
    ids=["house", "classic, may_play, may_draw_instead"],
)
def test_every_place_listed_is_on_the_picture_and_every_move_is_listed_once(
    rules: cf.Rules,
) -> None:
    # Whole rounds of random play: at each decision the listing holds every legal move
    # once; an end's label is how its row of the picture ends, and a tile laid there
    # touches the open number; a toe's label names the pending hub.
    from chickenfoot.cli._places import OTHERS, in_order, laid, places

    rng = random.Random(0)
    decisions = 0
    for seed in range(4):
        s = cf.deal(rules, seed)
        while not s.is_over():
            v = s.view(s.turn)
            legal = v.legal_moves
            assert sorted(map(str, in_order(v.table, legal))) == sorted(map(str, legal))
            rows = cf.render_compact(v, width=200).replace("* →", " →").split("\n")
            for place in places(v.table, legal):
                for move in place.moves:
                    shown = laid(move, v.table)
                    if place.label == OTHERS:
                        assert isinstance(move, (cf.Draw, cf.Pass)) and shown == str(move)
                        continue
                    assert isinstance(move, cf.Play)
                    a, b = map(int, shown.split("|"))
                    assert cf.Tile(a, b) == move.tile
                    if place.label.endswith(" (toe)"):
                        assert v.pending_hub == move.anchor and a == move.anchor.high
                        assert any(r.startswith(place.label[:-6] + "  (") for r in rows)
                    elif place.label == "the centre":
                        assert move.anchor is None and not v.centre_laid
                    else:
                        assert any(r.endswith(" " + place.label) for r in rows), place.label
                        assert place.label.endswith(f" → {a}")
                        end = place.label.split(" ")[0]
                        assert end.replace("|", "-") in (str(move.anchor), _flip(move.anchor))
            decisions += len(legal) > 1
            s = s.apply(rng.choice(legal))
    assert decisions > 20


def _flip(tile: cf.Tile | None) -> str:
    assert tile is not None
    return f"{tile.low}-{tile.high}"
