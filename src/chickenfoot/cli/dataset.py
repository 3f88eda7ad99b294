"""``chickenfoot dataset build|check|export``: data sets of rounds as Parquet (docs/dataset.md)."""

from __future__ import annotations

import argparse
import time
from typing import TextIO

from chickenfoot.cli._common import UsageError, write
from chickenfoot.cli._dataset_export import EXAMPLES as EXPORT_EXAMPLES
from chickenfoot.cli._dataset_export import add_export, cmd_export
from chickenfoot.cli._executors import KINDS, executor
from chickenfoot.errors import ChickenFootError, brief, within_digits
from chickenfoot.specs import EXPECTED, Trust, parse_spec, said, split_specs

MAX_WORKERS = 256
DESCRIPTION = (
    "Build a data set of rounds played by built-in agents, as Parquet partitioned by preset "
    "and table size, with a manifest and a data card (build); replay every round of one and "
    "list what does not agree with the rules and its records (check). The data set depends "
    "only on the command, not on --executor or --workers; run again, a build continues "
    "where it stopped; write its decisions as numpy files, OpenSpiel's trajectory arrays or "
    "a Minari data set of one seat's rounds (export). Needs the data extra: pip install "
    "'chickenfoot[data]'."
)
EXAMPLES = (
    "chickenfoot dataset build data --rounds 1000 --agents heuristic,greedy,random "
    "--players 2,4 --presets house,classic --seed 1",
    "chickenfoot dataset build data --rounds 100000 --executor process --workers 2 ...",
    "chickenfoot dataset build data --rounds 1000000 --agents heuristic,greedy,random "
    "--engine batch",
    "chickenfoot dataset check data",
    *EXPORT_EXAMPLES,
)


def add_options(p: argparse.ArgumentParser) -> None:
    """The actions of ``dataset`` and their options."""
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True
    build = actions.add_parser("build", help="play rounds and write them as Parquet")
    build.add_argument("directory", metavar="DIR", help="the data set's directory")
    build.add_argument(
        "--rounds", type=int, required=True, metavar="N",
        help="rounds for each preset and table size",
    )  # fmt: skip
    build.add_argument(
        "--agents", required=True, metavar="NAMES",
        help="the agents, comma-separated; seat i of round k is played by agent (k+i) mod "
        f"their number ({EXPECTED.removeprefix('expected one of ')})",
    )  # fmt: skip
    build.add_argument("--players", default="4", metavar="N,...", help="table sizes (default: 4)")
    build.add_argument(
        "--presets", default="house", metavar="NAMES", help="rules presets (default: house)"
    )
    build.add_argument("--seed", type=int, default=1, metavar="S", help="seed (default: 1)")
    build.add_argument(
        "--part-rounds", type=int, default=10_000, metavar="N",
        help="rounds in each Parquet file (default: 10000)",
    )  # fmt: skip
    build.add_argument(
        "--decisions", action="store_true",
        help="also write every decision (observation, legal mask, true hands) as Parquet",
    )  # fmt: skip
    _label_options(build)
    build.add_argument(
        "--engine", choices=("core", "batch"), default="core",
        help="who plays: the core, any agent (default), or the batch engine's compiled "
        "random, greedy and heuristic agents (the fast extra; other moves, the same deals)",
    )  # fmt: skip
    build.add_argument(
        "--executor", choices=KINDS, default="none",
        help="where parts are played: this process (default), a process pool, or a Dask "
        "cluster (the dask extra); the bytes are the same",
    )  # fmt: skip
    build.add_argument(
        "--workers", type=int, default=2, metavar="N",
        help="processes of --executor process, or of a local Dask cluster (default: 2)",
    )  # fmt: skip
    build.add_argument(
        "--scheduler", metavar="ADDRESS", help="the Dask scheduler to use (default: a local one)"
    )
    check = actions.add_parser("check", help="replay every round and list what does not agree")
    check.add_argument("directory", metavar="DIR", help="the data set's directory")
    check.add_argument(
        "--executor", choices=KINDS, default="none",
        help="where parts are checked: this process (default), a process pool, or a Dask "
        "cluster (the dask extra); the lines are the same",
    )  # fmt: skip
    check.add_argument(
        "--workers", type=int, default=2, metavar="N",
        help="processes of --executor process, or of a local Dask cluster (default: 2)",
    )  # fmt: skip
    check.add_argument(
        "--scheduler", metavar="ADDRESS", help="the Dask scheduler to use (default: a local one)"
    )
    add_export(actions)


def _label_options(build: argparse.ArgumentParser) -> None:
    build.add_argument(
        "--label", type=int, default=0, metavar="N",
        help="label N decisions of each preset and table size: every legal move's value by "
        "the search from the seat's view and by the solver from the true hands",
    )  # fmt: skip
    build.add_argument(
        "--label-iterations", type=int, default=200, metavar="N",
        help="deals the search samples for a label (default: 200)",
    )  # fmt: skip
    build.add_argument(
        "--label-nodes", type=int, default=50_000, metavar="N",
        help="the solver's node budget for a label, else 'not solved' (default: 50000)",
    )  # fmt: skip


def _integers(text: str, what: str) -> list[int]:
    try:
        values = [int(x) for x in text.split(",")]
    except ValueError:
        raise UsageError(f"{what} {brief(text)} is invalid: comma-separated numbers") from None
    return values


def _names(text: str, what: str) -> list[str]:
    names = [n.strip() for n in text.split(",")]
    if not all(names):
        raise UsageError(f"{what} {brief(text)} is invalid: an empty name")
    return names


def cmd_dataset(args: argparse.Namespace, out: TextIO) -> int:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        raise UsageError("dataset needs the data extra: pip install 'chickenfoot[data]'") from None
    if args.action == "export":
        return cmd_export(args, out)
    return _build(args, out) if args.action == "build" else _check(args, out)


def _build(args: argparse.Namespace, out: TextIO) -> int:
    from chickenfoot.dataset import build

    if not within_digits(args.seed) or abs(args.seed) >= 1 << 63:
        raise UsageError(f"--seed {brief(args.seed)} is invalid: must fit in 64 bits")
    trust = Trust.user()
    names = split_specs(args.agents)
    specs = [trust.check(parse_spec(n)) for n in names]
    agents = [(s.name, s.build(trust=trust)) for s in specs]
    own = any(s.kind in ("module", "engine") for s in specs)
    start = time.perf_counter()
    try:
        with executor(args.executor, args.workers, args.scheduler, MAX_WORKERS) as pool:
            manifest = build(
                args.directory,
                rounds=args.rounds,
                agents=agents,
                players=_integers(args.players, "--players"),
                presets=_names(args.presets, "--presets"),
                seed=args.seed,
                part_rounds=args.part_rounds,
                decisions=args.decisions,
                label=args.label,
                label_iterations=args.label_iterations,
                label_nodes=args.label_nodes,
                executor=pool,
                engine=args.engine,
            )
    except (ChickenFootError, UsageError, KeyboardInterrupt, OSError):
        raise
    except Exception as err:
        if not own:
            raise
        raise UsageError(
            f"the build stopped (run it again to continue): an agent raised {said(err)}"
        ) from None
    rounds = sum(int(p["rounds"]) for p in manifest["parts"])
    took = time.perf_counter() - start
    write(
        out, f"{args.directory}: {rounds:,} rounds in {len(manifest['parts'])} parts ({took:.1f} s)"
    )
    return 0


def _check(args: argparse.Namespace, out: TextIO) -> int:
    from chickenfoot.dataset import check, manifest

    start = time.perf_counter()
    with executor(args.executor, args.workers, args.scheduler, MAX_WORKERS) as pool:
        problems = check(args.directory, executor=pool)
    took = time.perf_counter() - start
    for line in problems:
        write(out, line)
    verdict = "all agree" if not problems else f"{len(problems)} problems"
    rounds = sum(int(p["rounds"]) for p in manifest(args.directory)["parts"])
    write(out, f"{args.directory}: {rounds:,} rounds replayed, {verdict} ({took:.1f} s)")
    return 1 if problems else 0


__all__ = ["DESCRIPTION", "EXAMPLES", "add_options", "cmd_dataset"]
