"""Fuzz every chickenfoot loader, parser and entry point for a time budget (issue 8).

    nox -s fuzz                                   # 60 seconds
    nox -s fuzz -- 600                            # ten minutes
    python bench/fuzz.py --seconds 60 [--target State.from_json --target cli.main] [--list]

The targets, their Hypothesis input strategies and the property are those of
``tests/fuzz_targets.py``, which ``tests/test_fuzz.py`` also runs with a short fixed budget
in the normal test suite. The property: every call returns or raises a
``chickenfoot.ChickenFootError`` or a ``TypeError`` raised by the library itself; the
message has at most 500 characters; the call takes under a second; plus a few checks per
target on success (see that module).

The targets take turns, a chunk of inputs each, until the budget is spent. The report gives
the budget, the inputs tried per target and every distinct failure (target, what went
wrong, the exception and where it was raised, the shortest input seen); the exit status is 1
if there was any failure.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests_adapters"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fuzz_targets import HARD_LIMIT, MAX_MESSAGE, MAX_SECONDS, TARGETS, Failure, Target, check

ROOT = Path(__file__).resolve().parent.parent
TEST_DIRS = (ROOT / "tests", ROOT / "tests_adapters")


def load_more_targets() -> list[str]:
    """Import every other ``fuzz_*.py`` of the test directories: each registers its targets
    in :data:`TARGETS` (the batch engine's, the adapters'...). A module whose optional
    dependency is missing (numpy, OpenSpiel, PettingZoo) is skipped; returns those lines."""
    skipped = []
    for path in sorted(p for d in TEST_DIRS for p in d.glob("fuzz_*.py")):
        if path.stem == "fuzz_targets":
            continue
        try:
            importlib.import_module(path.stem)
        except ImportError as err:
            skipped.append(f"{path.stem}: skipped ({err})")
    return skipped


def _runner(
    target: Target,
    chunk: int,
    deadline: float,
    tried: Counter[str],
    seen: Counter[tuple[str, str, str, str]],
    failures: dict[tuple[str, str, str, str], Failure],
) -> Callable[[], None]:
    """A Hypothesis run of ``chunk`` inputs of ``target`` that records, never raises."""

    @settings(
        max_examples=chunk,
        database=None,
        deadline=None,
        phases=[Phase.generate],
        suppress_health_check=list(HealthCheck),
        print_blob=False,
    )
    @given(target.inputs)
    def run(case: object) -> None:
        if time.monotonic() >= deadline:
            return
        tried[target.name] += 1
        failure = check(target, case, max_seconds=MAX_SECONDS)  # type: ignore[arg-type]
        if failure is not None:
            seen[failure.key] += 1
            old = failures.get(failure.key)
            if old is None or len(failure.input) < len(old.input):
                failures[failure.key] = failure

    return run


def fuzz(
    seconds: float, names: list[str], chunk: int
) -> tuple[
    Counter[str], Counter[tuple[str, str, str, str]], dict[tuple[str, str, str, str], Failure]
]:
    """Run the named targets in turn for ``seconds``; inputs tried and failures found."""
    tried: Counter[str] = Counter(dict.fromkeys(names, 0))
    seen: Counter[tuple[str, str, str, str]] = Counter()
    failures: dict[tuple[str, str, str, str], Failure] = {}
    deadline = time.monotonic() + seconds
    runners = [_runner(TARGETS[n], chunk, deadline, tried, seen, failures) for n in names]
    while time.monotonic() < deadline:
        for run in runners:
            if time.monotonic() >= deadline:
                break
            run()
    return tried, seen, failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="time budget (default: 60)")
    parser.add_argument(
        "--target",
        action="append",
        default=[],
        metavar="NAME",
        help="fuzz only this target (repeatable; see --list)",
    )
    parser.add_argument(
        "--chunk", type=int, default=50, help="inputs per target per turn (default: 50)"
    )
    parser.add_argument("--list", action="store_true", help="list the targets and exit")
    args = parser.parse_args(argv)
    skipped = load_more_targets()
    for line in skipped:
        print(line, flush=True)
    if args.list:
        print("\n".join(TARGETS))
        return 0
    names = args.target or list(TARGETS)
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        parser.error(f"unknown target(s): {', '.join(unknown)} (see --list)")
    print(
        f"chickenfoot fuzz: budget {args.seconds:g} s over {len(names)} targets; property: "
        f"only ChickenFootError or the library's TypeError, messages <= {MAX_MESSAGE} "
        f"characters, calls under {MAX_SECONDS:g} s (interrupted after {HARD_LIMIT:g} s)",
        flush=True,
    )
    start = time.monotonic()
    tried, seen, failures = fuzz(args.seconds, names, args.chunk)
    elapsed = time.monotonic() - start
    per_target = Counter(key[0] for key in failures)
    width = max(len(n) for n in names)
    print(f"\nran {elapsed:.1f} s, {sum(tried.values()):,} inputs\n")
    print(f"{'target':<{width}}  {'inputs':>8}  distinct failures")
    for name in names:
        print(f"{name:<{width}}  {tried[name]:>8,}  {per_target[name] or ''}")
    print(f"\n{len(failures)} distinct failure(s)")
    for i, (key, failure) in enumerate(sorted(failures.items()), 1):
        print(f"\n[{i}] {failure.report()}\n  (seen {seen[key]:,} times)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
