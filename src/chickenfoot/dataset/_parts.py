"""The rounds files of a data set's partition, as the exports read them (:mod:`._export`,
:mod:`._spiel`, :mod:`._minari`): their paths in round order, how many decisions they
hold, each one's table and decisions, and the start of an export's index."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pyarrow.compute as pc
import pyarrow.parquet as pq

from chickenfoot.dataset._arrays import ARRAYS, folder
from chickenfoot.dataset._read import Batcher, replay_part
from chickenfoot.encoding import Encoding
from chickenfoot.errors import FormatError


def part_paths(root: Path, manifest: dict[str, Any], preset: str, players: int) -> list[Path]:
    """The rounds files of a partition, in round order: only names of the form a build
    writes (``part-NNNNN.parquet``), never another path a manifest may hold."""
    form = re.compile(re.escape(f"rounds/{folder(preset, players)}/") + r"part-\d{5,9}\.parquet")
    return [root / e["path"] for e in manifest["parts"] if form.fullmatch(str(e.get("path")))]


def count_decisions(paths: list[Path]) -> int:
    """How many decisions (moves) the rounds files hold."""
    total = 0
    for path in paths:
        try:
            moves = pq.read_table(path, columns=["moves"]).column("moves")
        except (OSError, ValueError) as err:
            raise FormatError(
                str(path), f"cannot be read as Parquet ({type(err).__name__})"
            ) from None
        total += int(pc.sum(pc.list_value_length(moves)).as_py() or 0)
    return total


def base_index(manifest: dict[str, Any], kind: str) -> dict[str, Any]:
    """The start of an export's index: what it is and what it was made from."""
    from chickenfoot import __version__

    return {"format": ARRAYS, "kind": kind, "version": __version__,
            "source": manifest["command"], "partitions": []}  # fmt: skip


def read_part(path: Path, columns: list[str] | None = None) -> Any:
    """A rounds file as a pyarrow table (FormatError if it cannot be read)."""
    try:
        return pq.read_table(path, columns=columns)
    except (OSError, ValueError) as err:
        raise FormatError(str(path), f"cannot be read as Parquet ({type(err).__name__})") from None


def part_decisions(table: Any, preset: str, players: int, enc: Encoding) -> dict[str, Any] | None:
    """Every decision of a rounds table in one batch as
    :func:`~chickenfoot.dataset.decisions` gives them (by the compiled replay with numba);
    None for a table of no moves."""
    total = int(pc.sum(pc.list_value_length(table.column("moves"))).as_py() or 0)
    batcher = Batcher(preset, players, enc, max(1, total))
    full = list(replay_part(table, enc, batcher))
    return full[0] if full else batcher.flush()
