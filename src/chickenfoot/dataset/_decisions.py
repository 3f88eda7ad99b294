"""The decisions of a rounds part written as Parquet (``build --decisions``), and read back."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Final

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from chickenfoot.dataset._read import Batch, Batcher, replay_part
from chickenfoot.dataset._rows import rules_of
from chickenfoot.encoding import Encoding

_WRITE: Final[dict[str, Any]] = {
    "compression": "zstd",
    "compression_level": 9,
    "write_statistics": ["round"],
    "store_schema": True,  # fixed-size lists read back as such
}


def decisions_path(rounds_path: str) -> str:
    """Where the decisions of a rounds part live (``decisions/`` for ``rounds/``)."""
    return "decisions/" + rounds_path.removeprefix("rounds/")


def _flat(values: np.ndarray[Any, Any], kind: pa.DataType) -> pa.Array:
    n = len(values)
    width = int(values.size // n) if n else 0
    return pa.FixedSizeListArray.from_arrays(pa.array(values.reshape(-1), type=kind), width)


def _arrow(b: Batch) -> pa.Table:
    n = len(b["round"])
    return pa.table(
        {
            "round": pa.array(b["round"]),
            "seat": pa.array(b["seat"]),
            "move": pa.array(b["move"]),
            "action": pa.array(b["action"].astype(np.uint16)),
            "mask": _flat(b["mask"], pa.bool_()),
            "observation": _flat(b["observation"], pa.float32()),
            "hands": _flat(b["hands"].reshape(n, -1), pa.bool_()),
        }
    )


def decisions_tables(rounds: pa.Table, preset: str, players: int) -> list[pa.Table]:
    """Every decision of a rounds table, one row each, in tables of up to 4,096 rows."""
    enc = Encoding(rules_of(preset, players))
    batcher = Batcher(preset, players, enc, 4096)
    tables = [_arrow(b) for b in replay_part(rounds, enc, batcher)]
    last = batcher.flush()
    if last is not None:
        tables.append(_arrow(last))
    return tables


def write_decisions(root: str, rounds_path: str, preset: str, players: int) -> str:
    """Write the decisions of a written rounds part; return their path."""
    rel = decisions_path(rounds_path)
    path = Path(root) / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tables = decisions_tables(pq.read_table(Path(root) / rounds_path), preset, players)
    with pq.ParquetWriter(tmp, tables[0].schema, **_WRITE) as writer:
        for table in tables:
            writer.write_table(table)
    os.replace(tmp, path)
    return rel


def _same_type(a: pa.DataType, b: pa.DataType) -> bool:
    """Equal types, a fixed-size list's item name aside (Parquet renames it)."""
    if pa.types.is_fixed_size_list(a) and pa.types.is_fixed_size_list(b):
        return bool(a.list_size == b.list_size and a.value_type == b.value_type)
    return bool(a == b)


def decisions_problems(root: Path, rounds_path: str, preset: str, players: int) -> list[str]:
    """What in the decisions of a rounds part does not agree with replaying its rounds."""
    rel = decisions_path(rounds_path)
    try:
        found = pq.read_table(root / rel)
        rounds = pq.read_table(root / rounds_path)
    except (OSError, ValueError) as err:
        return [f"{rel}: cannot be read as Parquet ({type(err).__name__})"]
    replayed = pa.concat_tables(decisions_tables(rounds, preset, players))
    if found.schema.names != replayed.schema.names or found.num_rows != replayed.num_rows:
        return [f"{rel}: {found.num_rows} rows where the rounds give {replayed.num_rows}"]
    rows: set[int] = set()
    for name in replayed.schema.names:
        a, b = found.column(name), replayed.column(name)
        if not _same_type(a.type, b.type):
            return [f"{rel}: column {name} is not of type {b.type}"]
        if not a.equals(b):
            x = np.asarray(a.combine_chunks().flatten() if a.type.num_fields else a)
            y = np.asarray(b.combine_chunks().flatten() if b.type.num_fields else b)
            width = len(x) // max(1, found.num_rows)
            diff = (x.reshape(found.num_rows, width) != y.reshape(found.num_rows, width)).any(1)
            rows.update(int(i) for i in np.flatnonzero(diff))
    return [f"{rel} row {i}: does not agree with the replay of its round" for i in sorted(rows)]
