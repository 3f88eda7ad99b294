"""``chickenfoot simulate``: seeded matches among built-in agents, with a results table."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, TextIO

from chickenfoot.cli._common import UsageError, rules_from_args, write
from chickenfoot.cli._records_out import open_records
from chickenfoot.cli._streams import OutputError
from chickenfoot.errors import ChickenFootError, brief, within_digits
from chickenfoot.simulation import SimulationResult, simulate
from chickenfoot.specs import Trust, agents_of, parse_spec, rules_refusal, said, split_specs

MAX_GAMES = 10_000_000
MAX_WORKERS = 256


def _rich() -> Any:
    """The ``rich`` package, or ``None`` when the ``cli`` extra is not installed."""
    try:
        import rich
    except ImportError:
        return None
    return rich


def default_agents(players: int) -> str:
    """``heuristic,greedy`` and random players for the other seats.

    >>> default_agents(4)
    'heuristic,greedy,random,random'
    """
    return ",".join(["heuristic", "greedy", *["random"] * (players - 2)])


@contextmanager
def _progress(out: TextIO, games: int, show: bool) -> Iterator[Callable[[int, int], object] | None]:
    """A progress callback for :func:`simulate`: a rich bar, a plain counter, or none."""
    if not show:
        yield None
        return
    if _rich() is not None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        with Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=Console(file=out),
            transient=True,
        ) as bar:
            task = bar.add_task("games", total=games)

            def advance(done: int, total: int) -> None:
                bar.update(task, completed=done)

            yield advance
        return

    def count(done: int, total: int) -> None:
        if done == total or done % max(1, total // 100) == 0:
            out.write(f"\rgames {done}/{total}")
            out.flush()

    yield count
    out.write("\r" + " " * 40 + "\r")


def _rows(result: SimulationResult, names: list[str]) -> list[list[str]]:
    rows = []
    for i, (name, a) in enumerate(zip(names, result.agents, strict=True)):
        (lo, hi), (wlo, whi) = a.score_ci, a.win_ci
        rows.append(
            [
                str(i),
                name,
                f"{a.mean_score:.1f}",
                f"[{lo:.1f}, {hi:.1f}]",
                f"{a.win_rate:.1%}",
                f"[{wlo:.1%}, {whi:.1%}]",
            ]
        )
    return rows


_COLUMNS = (
    ("seat", "right"),
    ("agent", "left"),
    ("mean score", "right"),
    ("95% CI", "left"),
    ("win rate", "right"),
    ("95% CI", "left"),
)


def _table(result: SimulationResult, names: list[str], out: TextIO) -> None:
    """The results as a rich table (on a terminal with the ``cli`` extra), else plain.

    Agents are named as on the command line; ``seat`` is the agent's seat in game 0 (seats
    rotate from game to game).
    """
    head = str(result).splitlines()[0]
    rows = _rows(result, names)
    if _rich() is None or not out.isatty():
        widths = [max(len(c[0]), *(len(r[k]) for r in rows)) for k, c in enumerate(_COLUMNS)]

        def line(cells: list[str]) -> str:
            return "  ".join(
                cell.rjust(w) if how == "right" else cell.ljust(w)
                for cell, w, (_, how) in zip(cells, widths, _COLUMNS, strict=True)
            ).rstrip()

        write(out, "\n".join([head, line([c[0] for c in _COLUMNS]), *map(line, rows)]))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title=head, title_justify="left")
    for name, justify in _COLUMNS:
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    best = max(a.win_rate for a in result.agents)
    for row, a in zip(rows, result.agents, strict=True):
        table.add_row(*row, style="bold green" if a.win_rate == best else None)
    Console(file=out).print(table)


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    if not 1 <= args.games <= MAX_GAMES:
        raise UsageError(f"--games {brief(args.games)} is invalid: must be from 1 to {MAX_GAMES:,}")
    if not 1 <= args.workers <= MAX_WORKERS:
        raise UsageError(
            f"--workers {brief(args.workers)} is invalid: must be from 1 to {MAX_WORKERS}"
        )
    if not within_digits(args.seed):
        raise UsageError(f"--seed {brief(args.seed)} is invalid: at most 4,000 digits")
    players = args.players
    if players is None:
        names = split_specs(args.agents) if args.agents else []
        players = len(names) if len(names) > 1 else 4
    rules = rules_from_args(args.preset or "house", players, args.changes)
    spec = args.agents or default_agents(rules.players)
    named = agents_of(spec, rules.players, "--agents", trust=Trust.user())
    why = rules_refusal(named, rules)
    if why is not None:
        raise UsageError(f"--agents {why}; choose another agent, or the rules it was trained for")
    agents = [a for _, a in named]
    records = None if args.records is None else open_records(args.records, "--records")
    show = out.isatty() and not args.json
    executor: Executor | None = None
    if args.workers > 1:
        executor = ProcessPoolExecutor(max_workers=args.workers)
    own = any(parse_spec(n).kind == "module" for n in split_specs(spec))
    try:
        with _progress(out, args.games, show) as progress:
            result = simulate(
                rules,
                agents,
                games=args.games,
                seed=args.seed,
                executor=executor,
                progress=progress,
                records=records,
            )
    except (ChickenFootError, OutputError, KeyboardInterrupt):
        raise
    except Exception as err:
        if not own:
            raise
        # An agent of yours failed in a game (here, or in a worker process).
        raise UsageError(f"the simulation stopped: an agent raised {said(err)}") from None
    finally:
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
        if records is not None:
            records.close()
    if args.json:
        write(out, json.dumps(result.to_dict(), indent=2))
    else:
        _table(result, [n for n, _ in named], out)
    return 0


__all__ = ["cmd_simulate", "default_agents"]
