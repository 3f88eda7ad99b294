"""Conformance with the vectors of an independent implementation (``tests/data/``).

One test per line of ``vectors.jsonl`` (id: the vector's ``id``) and of ``deals.jsonl``;
``tests/data/README.md`` explains the keys.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chickenfoot import (
    IllegalMoveError,
    Rules,
    State,
    apply,
    deal,
    legal_moves,
    outcome,
    penalties,
    perft,
)

DATA = Path(__file__).parent / "data"


def load(name: str) -> list[dict[str, Any]]:
    with (DATA / name).open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


VECTORS = load("vectors.jsonl")
DEALS = load("deals.jsonl")


def deal_id(d: dict[str, Any]) -> str:
    r = d["rules"]
    return f"p{r['players']}-n{r['max_pip']}-{r['centre']}/s{d['seed']}-r{d['round']}"


def test_the_data_files_are_complete() -> None:
    assert len(VECTORS) == 681 and len(DEALS) == 50
    assert len({v["id"] for v in VECTORS}) == len(VECTORS)
    assert len({deal_id(d) + json.dumps(d["rules"]) for d in DEALS}) == len(DEALS)


@pytest.mark.parametrize("vector", VECTORS, ids=[v["id"] for v in VECTORS])
def test_vector(vector: dict[str, Any]) -> None:
    doc = vector["position"]
    s = State.from_dict(doc)
    assert s.to_dict() == doc
    assert State.from_json(json.dumps(doc)) == s

    assert [str(m) for m in legal_moves(s)] == vector["legal"]

    for move, expected in vector["after"].items():
        nxt = apply(s, move)
        if expected == "over":
            assert nxt.is_over(), move
        else:
            assert nxt.to_dict() == expected, move
            assert nxt.is_over() == State.from_dict(expected).is_over()
        assert s.to_dict() == doc, f"apply({move!r}) changed its input"

    for move in vector["illegal"]:
        with pytest.raises(IllegalMoveError):
            apply(s, move)
        assert move not in legal_moves(s)
        assert s.to_dict() == doc, f"rejecting {move!r} changed the state"

    assert s.is_over() is vector["over"]
    got = outcome(s)
    assert (None if got is None else got.to_dict()) == vector["outcome"]
    assert list(penalties(s)) == vector["penalties"]
    for depth, count in (vector.get("perft") or {}).items():
        assert perft(s, int(depth)) == count, f"perft {depth}"


@pytest.mark.parametrize("case", DEALS, ids=[deal_id(d) for d in DEALS])
def test_deal(case: dict[str, Any]) -> None:
    rules = Rules.from_dict(case["rules"])
    s = deal(rules, case["seed"], case["round"])
    assert s.to_dict() == case["position"]
    assert s == State.from_dict(case["position"])
