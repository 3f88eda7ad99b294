"""``chickenfoot ladder``: agents rated on duplicate deals (docs: Strength).

The ladder itself is :mod:`chickenfoot.ladder` (the ``ladder`` extra: openskill); this
module reads the options, runs it on this process, a process pool or a Dask cluster, and
prints the tables (or ``--json``), the picture with ``--plot``.

>>> import argparse
>>> p = argparse.ArgumentParser()
>>> add_options(p)
>>> p.parse_args(["--agents", "random,greedy", "--deals", "5"]).deals
5
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from typing import Any, TextIO

from chickenfoot._files import appendable, writable, write_file
from chickenfoot.cli._common import UsageError, rules_from_args, rules_options, write
from chickenfoot.cli._executors import executor
from chickenfoot.cli._records_out import open_records
from chickenfoot.errors import brief, within_digits
from chickenfoot.specs import EXPECTED, Trust, split_specs

__all__ = ["DESCRIPTION", "EXAMPLES", "add_options", "cmd_ladder"]

MAX_WORKERS = 256

DESCRIPTION = (
    "Rate agents on duplicate deals: each deal is played under every seating of its table "
    "(every rotation, in an order drawn for the deal, or every permutation at three seats "
    "or fewer), so the luck of the "
    "deal cancels. Prints each agent's rating (openskill Plackett-Luce: mu and its "
    "uncertainty sigma), and per pair the mean penalty difference and the win share with "
    "95% intervals over the deals. With --results the games are appended to a file, and a "
    "later run with the same file continues it. With --sprt A,B it stops as soon as a "
    "sequential test decides whether A is stronger than B. Needs the ladder extra: pip "
    "install 'chickenfoot[ladder]'."
)
EXAMPLES = (
    "chickenfoot ladder --agents random,greedy,heuristic,search --deals 50",
    "chickenfoot ladder --agents greedy,random --players 2 --sprt greedy,random",
    "chickenfoot ladder --agents random,greedy,heuristic,ismcts --deals 200 --executor process "
    "--workers 2 --results ladder4.jsonl --plot ladder4.svg",
    "chickenfoot ladder --agents 'engine:node examples/engine.js',greedy,random --players 2",
)


def add_options(p: argparse.ArgumentParser) -> None:
    """The options of ``ladder``."""
    p.add_argument(
        "--agents", required=True, metavar="NAMES",
        help="the agents, comma-separated, at least one per seat "
        f"({EXPECTED.removeprefix('expected one of ')})",
    )  # fmt: skip
    p.add_argument("--deals", type=int, default=100, metavar="D", help="deals (default: 100)")
    p.add_argument("--seed", type=int, default=1, metavar="S", help="seed (default: 1)")
    p.add_argument(
        "--match", action="store_true", help="a game is a whole match (default: one round)"
    )
    p.add_argument(
        "--seatings", choices=("auto", "rotations", "permutations"), default="auto",
        help="how a deal is seated (default: auto, permutations at three seats or fewer)",
    )  # fmt: skip
    p.add_argument(
        "--executor", choices=("none", "process", "dask"), default="none",
        help="where games are played: this process (default), a process pool, or a Dask "
        "cluster (the dask extra); the numbers are the same",
    )  # fmt: skip
    p.add_argument(
        "--workers", type=int, default=2, metavar="N",
        help="processes of --executor process, or of a local Dask cluster (default: 2)",
    )  # fmt: skip
    p.add_argument(
        "--scheduler", metavar="ADDRESS", help="the Dask scheduler to use (default: a local one)"
    )
    p.add_argument(
        "--results", metavar="FILE",
        help="append the games to FILE (JSON lines); a FILE of the same ladder is continued",
    )  # fmt: skip
    p.add_argument("--plot", metavar="FILE.svg", help="draw the ratings in FILE.svg")
    p.add_argument(
        "--records", metavar="FILE",
        help="append every game played to FILE in the notation (docs: Notation), in the "
        "order of the deals",
    )  # fmt: skip
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument(
        "--sprt", metavar="A,B",
        help="stop when a sequential test decides whether A is stronger than B",
    )  # fmt: skip
    p.add_argument("--elo0", type=float, default=0.0, help="the SPRT's H0 (default: 0)")
    p.add_argument("--elo1", type=float, default=10.0, help="the SPRT's H1 (default: 10)")
    p.add_argument("--alpha", type=float, default=0.05, help="the SPRT's alpha (default: 0.05)")
    p.add_argument("--beta", type=float, default=0.05, help="the SPRT's beta (default: 0.05)")
    rules_options(p, defaults=False)


@contextmanager
def _progress(out: TextIO, show: bool) -> Iterator[Callable[[int, int], object] | None]:
    """A progress callback: a rich bar when rich is installed, else a plain counter."""
    if not show:
        yield None
        return
    try:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
    except ImportError:

        def count(done: int, total: int) -> None:
            out.write(f"\rgames {done}/{total}")
            out.flush()

        yield count
        out.write("\r" + " " * 40 + "\r")
        return
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(file=out),
        transient=True,
    ) as bar:
        task = bar.add_task("games", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield advance


@contextmanager
def _executor(args: argparse.Namespace) -> Iterator[Executor | None]:
    with executor(args.executor, args.workers, args.scheduler, MAX_WORKERS) as chosen:
        yield chosen


def _lines(result: Any) -> list[str]:
    head = (
        f"{result.deals} deals, {result.games} games at {result.players} seats "
        f"({result.game}s), seed {result.seed}"
    )
    width = max(5, *(len(r.agent) for r in result.ratings))
    rows = [head, "", f"{'#':>2}  {'agent':<{width}}  {'mu':>6}  {'sigma':>5}  mu ± 2 sigma"]
    for k, r in enumerate(result.ratings, start=1):
        rows.append(
            f"{k:>2}  {r.agent:<{width}}  {r.mu:>6.2f}  {r.sigma:>5.2f}  "
            f"[{r.mu - 2 * r.sigma:.1f}, {r.mu + 2 * r.sigma:.1f}]"
        )
    if result.pairs:
        rows += ["", "A vs B: mean penalty of A minus B, and A's win share over B (95% intervals)"]
        for p in result.pairs:
            (dlo, dhi), (slo, shi) = p.difference_ci, p.share_ci
            rows.append(
                f"{p.a} vs {p.b}: {p.difference:+.2f} [{dlo:+.2f}, {dhi:+.2f}], "
                f"{p.share:.1%} [{slo:.1%}, {shi:.1%}] over {p.deals} deals"
            )
    v = result.variance
    if v is not None:
        rows += [
            "",
            f"variance of a seat's penalty: {v.deal:.0%} the cards, {v.skill:.0%} skill, "
            f"{v.rest:.0%} the rest (neighbours, draws, interplay)",
        ]
    t = result.sprt
    if t is not None:
        low, high = t.bounds
        verdict = {
            "H1": f"{t.a} is stronger than {t.b} (H1, elo >= {t.elo1:g})",
            "H0": f"{t.a} is not {t.elo1:g} elo stronger than {t.b} (H0, elo <= {t.elo0:g})",
            None: "undecided",
        }[t.decision]
        rows += [
            "",
            f"SPRT: {verdict} after {t.units} deals, LLR {t.llr:.2f} [{low:.2f}, {high:.2f}]",
        ]
    return rows


def cmd_ladder(args: argparse.Namespace, out: TextIO) -> int:
    from chickenfoot.ladder import Sprt

    if not 1 <= args.deals <= 10_000_000:
        raise UsageError(f"--deals {brief(args.deals)} is invalid: must be from 1 to 10,000,000")
    if not within_digits(args.seed):
        raise UsageError(f"--seed {brief(args.seed)} is invalid: at most 4,000 digits")
    names = split_specs(args.agents)
    rules = rules_from_args(args.preset or "house", args.players or 4, args.changes)
    sprt = None
    if args.sprt:
        sides = split_specs(args.sprt)
        if len(sides) != 2:
            raise UsageError(f"--sprt {brief(args.sprt)}: expected two agents, A,B")
        sprt = Sprt(
            a=sides[0], b=sides[1], elo0=args.elo0, elo1=args.elo1,
            alpha=args.alpha, beta=args.beta,
        )  # fmt: skip
    _check_files(args.results, args.plot)
    for other, option in ((args.results, "--results"), (args.plot, "--plot")):
        if args.records and other and _same_file(args.records, other):
            raise UsageError(f"--records {brief(args.records, 80)} is the {option} file")
    show = out.isatty() and not args.json
    records = None if not args.records else open_records(args.records, "--records", replace=False)
    try:
        result = _play(args, rules, names, sprt, out, show, records)
    except OSError as err:  # the results file: a write that failed (a full disk)
        if not args.results and not args.records:
            raise
        where = f"--results {brief(args.results, 80)}" if args.results else "--records"
        raise UsageError(f"{where}: {err.strerror or type(err).__name__}") from None
    finally:
        if records is not None:
            records.close()
    if args.plot:
        failed = write_file(args.plot, result.svg())
        if failed is not None:
            raise UsageError(f"--plot {brief(args.plot, 80)}: {failed}")
    if args.json:
        write(out, json.dumps(result.to_dict(), indent=2))
    else:
        write(out, "\n".join(_lines(result)))
    return 0


def _check_files(results: str | None, plot: str | None) -> None:
    """Check first, write after: the files the ladder will write are checked before it
    plays (a named pipe, a device or a folder refused, never opened; the plot's folder
    must take it), so a long ladder never ends unable to write, nor writes a file that is
    then refused."""
    if results:
        why = appendable(results)
        if why is not None:
            raise UsageError(f"--results {brief(results, 80)}: {why}")
    if plot:
        why = writable(plot)
        if why is not None:
            raise UsageError(f"--plot {brief(plot, 80)}: {why}")
        if results and _same_file(results, plot):
            raise UsageError(
                f"--plot {brief(plot, 80)} is the --results file: give the picture its own"
            )


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):  # one does not exist yet
        return os.path.realpath(a) == os.path.realpath(b)


def _play(
    args: argparse.Namespace,
    rules: Any,
    names: list[str],
    sprt: Any,
    out: TextIO,
    show: bool,
    records: TextIO | None = None,
) -> Any:
    from chickenfoot.ladder import play_ladder

    with _executor(args) as executor, _progress(out, show) as progress:
        return play_ladder(
            rules,
            names,
            deals=args.deals,
            seed=args.seed,
            trust=Trust.user(),
            game="match" if args.match else "round",
            seatings=args.seatings,
            results=args.results,
            executor=executor,
            progress=progress,
            sprt=sprt,
            records=records,
        )
