"""The fast reader's compiled replay (``chickenfoot.notation._compiled``, numba) reads what
the general parser reads, and builds the very positions the pure replay builds.

Needs numba (``FAST_TESTS`` in noxfile.py; left out where numba is not installed). The
compiled replay is forced from the first game (a process otherwise reads
``COMPILED_FROM`` plain games in pure Python first).
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chickenfoot as cf
from chickenfoot._kernel.position import FIELDS
from chickenfoot.encoding import Encoding
from chickenfoot.notation import _compiled as compiled
from chickenfoot.notation import iter_games, write_game
from chickenfoot.record import Record
from chickenfoot.rules import PRESETS
from test_notation_fast import _both, _files, _round


@pytest.fixture(autouse=True)
def _compiled_from_the_first_game(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Every plain game takes the compiled replay; yields [taken, handed back] counts."""
    counts = [0, 0]
    run = compiled.replayed

    def counted(*args: object) -> object:
        got = run(*args)  # type: ignore[arg-type]
        counts[got is None] += 1
        return got

    monkeypatch.setattr(compiled, "_SEEN", [compiled.COMPILED_FROM])
    monkeypatch.setattr(compiled, "replayed", counted)
    yield counts


def _random_round(rules: cf.Rules, seed: int) -> Record:
    rng = random.Random(seed)
    s = cf.deal(rules, seed)
    moves = []
    while not s.is_over():
        move = rng.choice(cf.legal_moves(s))
        moves.append(move)
        s = cf.apply(s, move)
    return Record(cf.deal(rules, seed), moves)


@pytest.mark.parametrize(
    ("preset", "players"), [(p, n) for p in PRESETS for n in (2, 4)] + [("house", 8)]
)
def test_compiled_positions_are_the_pure_replays_field_by_field(
    preset: str, players: int, _compiled_from_the_first_game: list[int]
) -> None:
    rules = cf.Rules.preset(preset, players=players)
    recs = [_random_round(rules, seed) for seed in range(12)]
    recs += [Record(r.start, r.moves[: len(r.moves) // 2]) for r in recs[:4]]  # unfinished
    data = "".join(write_game(r) for r in recs).encode()
    games = list(iter_games(io.BytesIO(data)))
    assert _compiled_from_the_first_game == [len(recs), 0]
    for game, rec in zip(games, recs, strict=True):
        assert not game.errors and game.record == rec
        got, want = game.record.final(), rec.final()
        assert [getattr(got, f) for f in FIELDS] == [getattr(want, f) for f in FIELDS]
        assert game.record.states() == rec.states()
        assert got.history == want.history


def test_action_ids_are_the_encodings() -> None:
    for rules in (
        cf.Rules(),
        cf.Rules.preset("classic", players=3),
        cf.Rules(players=8, max_pip=12),
    ):
        enc = Encoding(rules)
        for x in range(enc.num_actions):
            try:
                move = enc.move(x)
            except cf.ArgumentError:
                continue  # a slot that names no move
            assert compiled.action_of(move, rules.max_pip) == x
    assert compiled.action_of(cf.parse_move("draw:5-3"), 9) == -1  # not the draw action


def test_a_move_out_of_turn_or_unplayable_goes_to_the_pure_replay(
    _compiled_from_the_first_game: list[int],
) -> None:
    rec = _round(cf.Rules(), 5)
    good = write_game(rec)
    moved = good.replace(" 1. ", " 2. ", 1)  # a seat that is not the one to act
    named = good.replace(" draw ", " draw:9-9 ", 1)  # a named draw: never the compiled's
    for text in (moved, named):
        assert text != good
        fast, general = _both(text.encode(), False)
        assert fast == general
    assert _compiled_from_the_first_game[1] >= 1


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(_files(), st.booleans())
def test_the_compiled_reader_reads_what_the_general_parser_reads(data: bytes, strict: bool) -> None:
    fast, general = _both(data, strict)
    assert fast == general
