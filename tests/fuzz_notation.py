"""Fuzz targets of the notation's reader (docs/notation.md, issue 47): any bytes at all.

Importing this module registers them in ``fuzz_targets.TARGETS`` (``bench/fuzz.py`` imports
every ``tests*/fuzz_*.py``, so ``nox -s fuzz`` runs them); ``tests/test_fuzz_notation.py``
runs each on a short fixed budget.

Inputs: files of real rounds for every audience (with their deal's seed and commitment),
and a match, written by the library and
then mutated (bytes flipped, cut, doubled, brackets, braces and terminators inserted,
another encoding), and arbitrary bytes.

``notation read (tolerant)``: reading every game of the file never raises (a game's
problems are in ``game.errors``, each a ``NotationError`` with a line and a column from 1).
``notation read (strict)``: returns the games or raises a ``NotationError``; the property
of ``fuzz_targets.check`` on top (bounded message, under a second).
"""

from __future__ import annotations

import io
import random
from typing import Any

from hypothesis import strategies as st

import chickenfoot as cf
from chickenfoot.notation import NotationError, iter_games, write_game, write_match
from chickenfoot.record import Record
from fuzz_targets import TARGETS, Case, Target

NAMES = ["notation read (tolerant)", "notation read (strict)"]
_RULES = cf.Rules(players=3, max_pip=5, hand_size=4, opening_toes=2, foot_toes=1)
_MAX_GAMES = 200


def _files() -> list[bytes]:
    out = []
    for seed in range(4):
        rng = random.Random(seed)
        rec = Record(cf.deal(_RULES, seed))
        while not rec.final().is_over() and (len(rec.moves) < 30 or seed == 3):
            rec = rec.apply(rng.choice(list(rec.final().legal_moves)))
        seeded = {"DealSeed": str(seed)}  # the deal's check too (its seed, its commitment)
        text = "".join(
            write_game(rec, audience=a, headers=seeded) for a in ("full", "spectator", "seat 1")
        )
        out.append(text.encode())
    m = cf.Match.start(_RULES.replace(match=cf.Rounds(2)), seed=1)
    out.append(write_match(m).encode())
    return out


_FILES = _files()
_INSERTS = [
    b"(",
    b")",
    b"{",
    b"}",
    b"*",
    b"[",
    b"]",
    b'"',
    b"\\",
    b"\n",
    b"\xff",
    b"draw:??",
    b"0. ",
    b"9-9@0-0",
    b"!!",
    b"\x00",
    b"(" * 200,
    b'[Hand0 "?? ??"]\n',
]


@st.composite
def _mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(_FILES)))
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.integers(0, 4))
        at = draw(st.integers(0, len(data)))
        if kind == 0:
            del data[at : at + draw(st.integers(1, 40))]
        elif kind == 1:
            data[at:at] = draw(st.sampled_from(_INSERTS))
        elif kind == 2 and at < len(data):
            data[at] = draw(st.integers(0, 255))
        elif kind == 3:
            del data[at:]
        else:
            data[at:at] = draw(st.binary(max_size=30))
    return bytes(data)


_INPUTS = st.one_of(
    _mutated(),
    _mutated(),
    st.binary(max_size=600),
    st.sampled_from(_FILES).map(lambda b: b.decode().encode("utf-16")),
).map(Case)


def read_all(data: bytes, *, strict: bool = False) -> list[Any]:
    """Every game of ``data`` (at most 200)."""
    games = []
    for game in iter_games(io.BytesIO(data), strict=strict):
        games.append(game)
        if len(games) >= _MAX_GAMES:
            break
    return games


def _tolerant_ok(case: Case, games: Any) -> str | None:
    for game in games:
        for err in game.errors:
            if not isinstance(err, NotationError) or err.line < 1 or err.column < 1:
                return f"an error without its place: {err!r}"[:200]
    return None


def _never(case: Case, error: BaseException) -> str | None:
    return f"the tolerant reader raised {type(error).__name__}"


def _only_notation(case: Case, error: BaseException) -> str | None:
    if not isinstance(error, NotationError):
        return f"raised {type(error).__name__}, not a NotationError"
    return None


TARGETS[NAMES[0]] = Target(NAMES[0], _INPUTS, read_all, _tolerant_ok, _never)
TARGETS[NAMES[1]] = Target(
    NAMES[1], _INPUTS, lambda data: read_all(data, strict=True), None, _only_notation
)
