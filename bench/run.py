"""Speed and memory figures for chickenfoot, beside the shared reference engine.

Every figure is a median over ``--repeats`` timed runs of ``--seconds`` each, and each
speed figure is printed beside the matching reference figure measured in the same session
(runs interleaved, so drift on a noisy machine hits both), as a ratio. The results are also
written as JSON (``--json``, default ``bench/results.json``) so runs can be compared.

    nox -s bench                              # or: python bench/run.py --seconds 1 --repeats 5
    python bench/run.py --reference ../shared/bench/reference.py

The reference (``reference.py``) is a bare pure-Python playout of the house rules: four
players, bitmask hands, open ends counted per number, no anchors, no objects, no checks.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from common import HERE, load_reference, rate, ref_rounds

import chickenfoot as cf
from chickenfoot.playout import playout

# -- workloads --------------------------------------------------------------------------------


def api_rounds(rules: cf.Rules) -> Callable[[], int]:
    """Random rounds through the public API: deal, then legal_moves + apply + random.choice."""
    rng = random.Random(1)
    seeds = iter(range(10**9))
    legal_moves, apply, choice = cf.legal_moves, cf.apply, rng.choice

    def one() -> int:
        s = cf.deal(rules, next(seeds))
        while not s.is_over():
            s = apply(s, choice(legal_moves(s)))
        return 1

    return one


def fast_rounds(rules: cf.Rules) -> Callable[[], int]:
    """Random rounds through the playout fast path (deal included)."""
    rng = random.Random(1)
    seeds = iter(range(10**9))

    def one() -> int:
        playout(cf.deal(rules, next(seeds)), rng)
        return 1

    return one


def mid_game_states(rules: cf.Rules, count: int = 200) -> list[cf.State]:
    """A fixed, seeded set of mid-game positions (about half the tiles played, not over)."""
    rng = random.Random(2024)
    out: list[cf.State] = []
    seed = 0
    while len(out) < count:
        s = cf.deal(rules, seed)
        seed += 1
        target = rng.randrange(10, 30)
        while not s.is_over() and len(s.board) < target:
            s = cf.apply(s, rng.choice(cf.legal_moves(s)))
        if not s.is_over():
            out.append(s)
    return out


def legal_moves_calls(states: list[cf.State]) -> Callable[[], int]:
    lm = cf.legal_moves

    def run() -> int:
        for s in states:
            lm(s)
        return len(states)

    return run


def apply_calls(states: list[cf.State]) -> Callable[[], int]:
    pairs = [(s, cf.legal_moves(s)[0]) for s in states]
    apply = cf.apply

    def run() -> int:
        for s, m in pairs:
            apply(s, m)
        return len(pairs)

    return run


def perft_nodes(states: list[cf.State]) -> Callable[[], int]:
    picks = states[:10]

    def run() -> int:
        return sum(cf.perft(s, 3) for s in picks)

    return run


def deals(rules: cf.Rules) -> Callable[[], int]:
    seeds = iter(range(10**9))

    def run() -> int:
        for _ in range(100):
            cf.deal(rules, next(seeds))
        return 100

    return run


def json_round_trips(states: list[cf.State]) -> Callable[[], int]:
    def run() -> int:
        for s in states[:50]:
            cf.State.from_json(s.to_json())
        return 50

    return run


def whole_match(rules: cf.Rules) -> Callable[[], int] | None:
    """Rounds per second of whole seeded matches through the public Match API, if present."""
    try:
        from chickenfoot.match import Match
    except ImportError:
        return None
    rng = random.Random(3)
    seeds = iter(range(10**9))

    def run() -> int:
        m: Any = Match.start(rules, seed=next(seeds))
        while not m.is_over():
            m = m.apply(rng.choice(m.legal_moves))
        return len(m.scores)

    return run


# -- the reference's counterparts ----------------------------------------------------------


def ref_mid_states(ref: ModuleType, count: int = 200) -> list[tuple[Any, ...]]:
    rng = random.Random(2024)
    out = []
    while len(out) < count:
        s = ref.new_state(rng)
        target = rng.randrange(10, 30)
        plays = 0
        while not s[7] and plays < target:
            moves = ref.legal_moves(s)
            if not moves and s[1]:
                s = ref.draw(s)
                moves = ref.legal_moves(s)
            if moves:
                s = ref.apply(s, moves[rng.randrange(len(moves))])
                plays += 1
            else:
                s = ref.pass_(s)
        if not s[7] and ref.legal_moves(s):
            out.append(s)
    return out


def ref_legal_calls(ref: ModuleType, states: list[Any]) -> Callable[[], int]:
    lm = ref.legal_moves

    def run() -> int:
        for s in states:
            lm(s)
        return len(states)

    return run


def ref_apply_calls(ref: ModuleType, states: list[Any]) -> Callable[[], int]:
    pairs = [(s, ref.legal_moves(s)[0]) for s in states]
    ap = ref.apply

    def run() -> int:
        for s, m in pairs:
            ap(s, m)
        return len(pairs)

    return run


def ref_deals(ref: ModuleType) -> Callable[[], int]:
    rng = random.Random(5)

    def run() -> int:
        for _ in range(100):
            ref.new_state(rng)
        return 100

    return run


# -- memory -----------------------------------------------------------------------------------


def apply_bytes(states: list[cf.State]) -> float:
    """Bytes newly allocated (and kept) per ``apply`` on mid-game positions."""
    pairs = [(s, cf.legal_moves(s)[0]) for s in states]
    kept = []
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for s, m in pairs:
        kept.append(cf.apply(s, m))
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before - sys.getsizeof(kept)) / len(pairs)


def state_bytes(states: list[cf.State]) -> float:
    """Bytes of a mid-game state rebuilt from JSON (its own objects; rules and moves shared)."""
    docs = [s.to_dict() for s in states[:50]]
    kept = []
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for d in docs:
        kept.append(cf.State.from_dict(d))
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    # from_dict also builds a Rules object per state; count the state's own part.
    rules_size = _rules_bytes(states[0].rules)
    return (after - before - sys.getsizeof(kept)) / len(docs) - rules_size


def _rules_bytes(rules: cf.Rules) -> int:
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    r = cf.Rules.from_dict(rules.to_dict())
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del r
    return after - before


# -- driver -----------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--seconds", type=float, default=1.0, help="length of one timed run")
    ap.add_argument("--repeats", type=int, default=5, help="timed runs per figure (median)")
    ap.add_argument("--reference", help="path to the shared reference.py")
    ap.add_argument("--json", default=str(HERE / "results.json"), help="where to write results")
    args = ap.parse_args(argv)
    ref = load_reference(args.reference)
    house = cf.Rules()
    eight = cf.Rules(players=8)
    classic = cf.Rules.preset("classic")
    mids = mid_game_states(house)
    ref_mids = ref_mid_states(ref) if ref else []

    rows: list[tuple[str, str, Callable[[], int] | None, Callable[[], int] | None]] = [
        ("api rounds/s, house 4p", "rounds/s", api_rounds(house), ref and ref_rounds(ref)),
        ("api rounds/s, 8p double-12", "rounds/s", api_rounds(eight), ref and ref_rounds(ref)),
        ("api rounds/s, classic 4p", "rounds/s", api_rounds(classic), ref and ref_rounds(ref)),
        ("playout rounds/s, house 4p", "rounds/s", fast_rounds(house), ref and ref_rounds(ref)),
        (
            "legal_moves calls/s, mid-game",
            "calls/s",
            legal_moves_calls(mids),
            ref and ref_legal_calls(ref, ref_mids),
        ),
        (
            "apply calls/s, mid-game",
            "calls/s",
            apply_calls(mids),
            ref and ref_apply_calls(ref, ref_mids),
        ),
        (
            "perft nodes/s (depth 3)",
            "nodes/s",
            perft_nodes(mids),
            ref and ref_apply_calls(ref, ref_mids),
        ),
        ("deals/s, house 4p", "deals/s", deals(house), ref and ref_deals(ref)),
        ("JSON round trips/s", "trips/s", json_round_trips(mids), None),
        ("match rounds/s, house 4p", "rounds/s", whole_match(house), ref and ref_rounds(ref)),
    ]
    try:  # chickenfoot.batch needs numpy (the batch extra): bench/batch.py
        from batch import rows as batch_rows
    except ImportError:
        print("batch rounds/s: numpy is not installed (pip install chickenfoot[batch])")
    else:
        rows += batch_rows(ref)
    results: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "chickenfoot": cf.__version__,
        "seconds": args.seconds,
        "repeats": args.repeats,
        "figures": {},
    }
    print(
        f"chickenfoot {cf.__version__} on Python {platform.python_version()}; "
        f"median of {args.repeats} x {args.seconds:g}s; reference "
        f"{'loaded' if ref else 'NOT FOUND (no ratios)'}"
    )
    print(f"{'figure':34} {'chickenfoot':>12} {'reference':>12} {'ratio':>7}   reference figure")
    ref_names = {
        "rounds/s": "reference random rounds/s",
        "calls/s": "same call on the reference's tuples",
        "nodes/s": "reference apply calls/s",
        "deals/s": "reference new_state/s",
        "C rounds/s": "C loop rounds/s (cf.c, same run)",
    }
    for name, unit, ours, theirs in rows:
        if ours is None:
            print(f"{name:34} {'(n/a)':>12}")
            continue
        mine, refs = [], []
        rate(ours, args.seconds / 4)  # warm-up: memos, caches, allocator
        if theirs:
            rate(theirs, args.seconds / 4)
        for _ in range(args.repeats):
            mine.append(rate(ours, args.seconds))
            if theirs:
                refs.append(rate(theirs, args.seconds))
        m = statistics.median(mine)
        r = statistics.median(refs) if refs else None
        ratios = [a / b for a, b in zip(mine, refs, strict=True)] if refs else []
        ratio = statistics.median(ratios) if ratios else None
        results["figures"][name] = {
            "unit": unit,
            "median": m,
            "runs": mine,
            "reference_median": r,
            "reference_runs": refs,
            "ratio": ratio,
        }
        rs = f"{r:12,.0f}" if r else f"{'-':>12}"
        qs = f"{ratio:7.2f}" if ratio else f"{'-':>7}"
        print(f"{name:34} {m:12,.0f} {rs} {qs}   {ref_names.get(unit, '') if r else ''}")
    ab, sb = apply_bytes(mids), state_bytes(mids)
    results["figures"]["bytes allocated per apply"] = {"unit": "bytes", "median": ab}
    results["figures"]["bytes of a mid-game state"] = {"unit": "bytes", "median": sb}
    print(f"{'bytes allocated per apply':34} {ab:12,.0f}")
    print(f"{'bytes of a mid-game state':34} {sb:12,.0f}")
    try:
        from batch import bytes_per_round

        bb = bytes_per_round(8)
        results["figures"]["batch bytes per round, house 4p"] = {"unit": "bytes", "median": bb}
        print(f"{'batch bytes per round, house 4p':34} {bb:12,.0f}")
    except ImportError:
        pass
    Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    print(f"results written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
