"""``chickenfoot dataset export``: a data set for other readers (docs/dataset.md, "Exports")."""

from __future__ import annotations

import argparse
import time
from typing import TextIO

from chickenfoot.cli._common import UsageError, write

EXAMPLES = (
    "chickenfoot dataset export data data-npy --to numpy",
    "chickenfoot dataset export data data-spiel --to openspiel --preset house --players 4",
    "chickenfoot dataset export data ~/.minari/datasets/chickenfoot/house-4p-seat0-v0 "
    "--to minari --seat 0",
)


def add_export(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``export`` action and its options."""
    p = actions.add_parser(
        "export", help="write the decisions as numpy files, OpenSpiel arrays or a Minari data set"
    )
    p.add_argument("directory", metavar="DIR", help="the data set's directory")
    p.add_argument("out", metavar="OUT", help="a new or empty directory to write into")
    p.add_argument(
        "--to", required=True, choices=("numpy", "openspiel", "minari"),
        help="numpy: .npy files read with numpy alone; openspiel: OpenSpiel's trajectory "
        "arrays; minari: one seat's rounds as a Minari data set (needs minari and gymnasium)",
    )  # fmt: skip
    p.add_argument("--seat", type=int, metavar="K", help="the seat whose rounds (minari)")
    p.add_argument("--preset", metavar="NAME", help="only this preset's rounds")
    p.add_argument("--players", type=int, metavar="N", help="only this table size's rounds")
    p.add_argument(
        "--id", dest="dataset_id", metavar="ID",
        help="the Minari data set's id (default: chickenfoot/PRESET-Np-seatK-v0)",
    )  # fmt: skip


def cmd_export(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``dataset export``: one line saying what was written."""
    from chickenfoot.dataset import export

    start = time.perf_counter()
    try:
        index = export(
            args.directory, args.out, to=args.to, seat=args.seat, preset=args.preset,
            players=args.players, dataset_id=args.dataset_id,
        )  # fmt: skip
    except ImportError as err:
        raise UsageError(str(err).splitlines()[0] if str(err) else "a module is missing") from None
    took = time.perf_counter() - start
    if index["format"] == "minari":
        what = f"{index['episodes']:,} episodes, {index['steps']:,} steps of seat {index['seat']}"
        write(out, f"{args.out}: Minari data set {index['dataset_id']}, {what} ({took:.1f} s)")
    else:
        n = sum(p["decisions"] for p in index["partitions"])
        write(out, f"{args.out}: {n:,} decisions as {args.to} arrays, "
                   f"{len(index['partitions'])} partitions ({took:.1f} s)")  # fmt: skip
    return 0


__all__ = ["EXAMPLES", "add_export", "cmd_export"]
