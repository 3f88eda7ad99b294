"""Golden deals and documents: what the library promises not to change between releases.

The seeded deal of ``deal(rules, seed, round)`` and every document format are stable (see
docs/stability.md). ``tests/data/golden.json`` pins, as committed text, a deal for each
preset and set size (including rounds past the first cycle of a threshold match) and one
document of each kind. A change to the shuffle, the deal order, a field name, the key
order or the way a value is written fails here; such a change needs a new format version
and a CHANGELOG entry, and then new goldens.

To write new goldens after such a deliberate change: ``CHICKENFOOT_WRITE_GOLDEN=1 pytest
tests/test_golden.py`` (the run fails, so it is never silently green), then review the diff.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

import chickenfoot as cf

GOLDEN = Path(__file__).parent / "data" / "golden.json"

DEALS: list[tuple[str, cf.Rules, int, int]] = [
    ("house 4p", cf.Rules(), 2026, 0),
    ("house 4p round 9", cf.Rules(), 2026, 9),
    ("house 2p", cf.Rules(players=2), 7, 3),
    ("four-toe 6p", cf.Rules.preset("four-toe", players=6), 11, 1),
    ("classic 4p holder", cf.Rules.preset("classic"), 5, 0),
    ("classic 8p holder", cf.Rules.preset("classic", players=8), 5, 12),
    ("house 8p double-12", cf.Rules(players=8), 99, 4),
    ("threshold wraps", cf.Rules(players=3, match=cf.Threshold(300)), 3, 23),
    ("double-18 custom", cf.Rules(players=10, max_pip=18, hand_size=15), -5, 2),
    ("huge seed", cf.Rules(), 2**80 + 1, 0),
]


def _deal_doc(rules: cf.Rules, seed: int, round: int) -> dict[str, Any]:
    return cf.deal(rules, seed, round).to_dict()


def _documents() -> dict[str, Any]:
    rules = cf.Rules(players=3, match=cf.Rounds(2))
    start = cf.deal(rules, 42)
    rng = random.Random(42)
    s = start
    moves = []
    for _ in range(30):
        m = rng.choice(s.legal_moves)
        moves.append(str(m))
        s = s.apply(m)
    record = cf.Record(start, moves)
    match = cf.Match.start(rules, seed=42)
    while match.rounds_played < 1:
        match = match.apply(rng.choice(match.legal_moves))
    match = match.apply(match.legal_moves[0])
    return {
        "rules house": cf.Rules().to_dict(),
        "rules classic 7p": cf.Rules.preset("classic", players=7).to_dict(),
        "rules threshold": cf.Rules(match=cf.Threshold(150, inclusive=True)).to_dict(),
        "position": s.to_dict(),
        "record": record.to_dict(),
        "match": match.to_dict(),
        "view": s.view(1).to_dict(),
    }


def _current() -> dict[str, Any]:
    return {
        "deals": {name: _deal_doc(r, seed, k) for name, r, seed, k in DEALS},
        "documents": _documents(),
    }


def _text(data: Any) -> str:
    return json.dumps(data, indent=1, sort_keys=False) + "\n"


@pytest.fixture(scope="module")
def golden() -> dict[str, Any]:
    if os.environ.get("CHICKENFOOT_WRITE_GOLDEN"):
        GOLDEN.write_text(_text(_current()))
        pytest.fail(f"wrote {GOLDEN}: review the diff, then run again without the variable")
    data: dict[str, Any] = json.loads(GOLDEN.read_text())
    return data


@pytest.mark.parametrize(("name", "rules", "seed", "round"), DEALS, ids=[d[0] for d in DEALS])
def test_golden_deals(
    golden: dict[str, Any], name: str, rules: cf.Rules, seed: int, round: int
) -> None:
    expected = golden["deals"][name]
    assert _deal_doc(rules, seed, round) == expected
    # and the pinned text still reads as that deal, key order included
    assert json.dumps(_deal_doc(rules, seed, round)) == json.dumps(expected)


def test_golden_documents(golden: dict[str, Any]) -> None:
    current = _documents()
    assert list(current) == list(golden["documents"])
    for kind, doc in golden["documents"].items():
        assert json.dumps(current[kind]) == json.dumps(doc), kind


def test_golden_documents_read_back(golden: dict[str, Any]) -> None:
    docs = golden["documents"]
    for kind in ("rules house", "rules classic 7p", "rules threshold"):
        assert cf.Rules.from_dict(docs[kind]).to_dict() == docs[kind]
    assert cf.State.from_dict(docs["position"]).to_dict() == docs["position"]
    assert cf.Record.from_dict(docs["record"]).to_dict() == docs["record"]
    assert cf.Match.from_dict(docs["match"]).to_dict() == docs["match"]
    assert cf.View.from_dict(docs["view"]).to_dict() == docs["view"]


def _documented_deal(rules: cf.Rules, seed: int, round: int) -> dict[str, Any]:
    """The deal as docs/formats.md ("Seeded deals") describes it, without the library."""
    n, p, size = rules.max_pip, rules.players, rules.hand_size
    d = n - round % (n + 1)
    tiles = [(a, b) for a in range(n + 1) for b in range(a + 1)]  # id order
    holder = rules.centre == "holder"
    if not holder:
        tiles.remove((d, d))
    random.Random(f"{seed}:{round}").shuffle(tiles)
    hands = [
        sorted(tiles[i * size : (i + 1) * size], key=lambda t: t[0] * (t[0] + 1) // 2 + t[1])
        for i in range(p)
    ]
    name = [f"{a}-{b}" for a, b in tiles]
    turn = (rules.first_leader + round) % p
    holders = [i for i, h in enumerate(hands) if (d, d) in h]
    if holder and holders:  # the holder of the centre opens (holder mode)
        turn = holders[0]
    return {
        "centre": f"{d}-{d}",
        "board": [] if holder else [f"{d}-{d}"],
        "hands": [[f"{a}-{b}" for a, b in h] for h in hands],
        "boneyard": name[p * size :],
        "turn": turn,
        "drawn": None,
    }


@pytest.mark.parametrize(("name", "rules", "seed", "round"), DEALS, ids=[d[0] for d in DEALS])
def test_golden_deals_are_the_documented_shuffle(
    golden: dict[str, Any], name: str, rules: cf.Rules, seed: int, round: int
) -> None:
    pinned = golden["deals"][name]
    assert {k: pinned[k] for k in ("centre", "board", "hands", "boneyard", "turn", "drawn")} == (
        _documented_deal(rules, seed, round)
    )


def test_the_public_api_only_grows() -> None:
    """Every name ever public (``chickenfoot.__all__``) is still there: removing one is a
    breaking change (a major release, after a deprecation). A new name is added to
    ``tests/data/public_api.txt`` in the same change."""
    pinned = (Path(__file__).parent / "data" / "public_api.txt").read_text().split()
    missing = sorted(set(pinned) - set(cf.__all__))
    assert missing == [], f"public names removed: {missing}"
    new = sorted(set(cf.__all__) - set(pinned))
    assert new == [], f"new public names, add them to tests/data/public_api.txt: {new}"
    for name in cf.__all__:
        assert getattr(cf, name) is not None
