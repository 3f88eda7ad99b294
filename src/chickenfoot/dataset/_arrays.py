"""A data set's decisions as numpy files, read back with numpy alone (docs/dataset.md, "Exports").

The contract shared by the writers (:mod:`._export`, :mod:`._spiel`) and the reader
:func:`arrays`: an export directory holds ``arrays.json`` (the index: :data:`ARRAYS`, its
``kind``, the version, the data set's command, and one entry per partition: ``preset``,
``players``, ``decisions`` and the sizes) and, per partition,
``preset=P/players=N/FIELD.npy``: one ``.npy`` file a field, rows in the order of
:func:`~chickenfoot.dataset.decisions`. The index is written last, so an export that
stopped has none and is refused. A path is made from the preset and table size checked
here, never taken from the file. This module imports numpy and the standard library
only (no pyarrow): ``arrays`` reads an export where pyarrow is not installed.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import numpy as np

from chickenfoot import _checks as checks
from chickenfoot.errors import FormatError, brief
from chickenfoot.rules import PRESETS

ARRAYS: Final = "chickenfoot/arrays"
"""The ``format`` of an export's ``arrays.json``."""
INDEX: Final = "arrays.json"
KINDS: Final = ("numpy", "openspiel")
"""What an export's files hold: the decisions' batches, or OpenSpiel's trajectory arrays."""
SIZES: Final = ("decisions", "num_actions", "observation_size", "tiles")


def folder(preset: str, players: int) -> str:
    """The folder of a partition's files, under an export's directory."""
    return f"preset={preset}/players={players}"


def numpy_fields(part: dict[str, Any]) -> dict[str, tuple[str, tuple[int, ...]]]:
    """The files of a ``numpy`` export's partition: name -> (dtype, shape). The mask and the
    hands are bits, packed eight to a byte (``np.packbits(..., axis=1)``: the first action or
    tile in the high bit); the observation as bytes (every number of it is a count from 0
    to the set's size, so exact; read back as float32); the rest as
    :func:`~chickenfoot.dataset.decisions` gives them."""
    n, p = part["decisions"], part["players"]
    return {
        "round": ("int64", (n,)),
        "seat": ("int8", (n,)),
        "move": ("int16", (n,)),
        "action": ("int32", (n,)),
        "mask": ("uint8", (n, (part["num_actions"] + 7) // 8)),
        "observation": ("uint8", (n, part["observation_size"])),
        "hands": ("uint8", (n, (p * part["tiles"] + 7) // 8)),
    }


def read_index(directory: str | os.PathLike[str], kind: str) -> dict[str, Any]:
    """The index of the export of ``kind`` in ``directory``, checked (FormatError if not)."""
    path = Path(directory) / INDEX
    if not path.is_file():
        raise FormatError(str(directory), f"not a chickenfoot arrays export (no {INDEX})")
    try:
        obj = json.loads(path.read_bytes())
    except (OSError, ValueError) as err:
        raise FormatError(str(path), f"cannot be read as JSON ({type(err).__name__})") from None
    if not isinstance(obj, dict) or obj.get("format") != ARRAYS:
        raise FormatError(str(path), f"not a chickenfoot arrays export (format is not {ARRAYS!r})")
    if obj.get("kind") != kind:
        raise FormatError(str(path), f"holds {brief(obj.get('kind'))} arrays, not {kind}")
    parts = obj.get("partitions")
    if not isinstance(parts, list) or not all(_is_partition(p) for p in parts):
        raise FormatError(str(path), "the partitions are not as an export writes them")
    return obj


def _is_partition(p: object) -> bool:
    return (
        isinstance(p, dict)
        and p.get("preset") in PRESETS
        and type(p.get("players")) is int
        and 2 <= p["players"] <= 8
        and all(type(p.get(k)) is int and 0 <= p[k] < 1 << 40 for k in SIZES)
    )


def load(root: Path, part: dict[str, Any], name: str, dtype: str, shape: tuple[int, ...]) -> Any:
    """One field's file, mapped into memory without pickles, checked to be ``dtype`` and
    ``shape`` (FormatError naming the file if not)."""
    path = root / folder(part["preset"], part["players"]) / f"{name}.npy"
    try:
        got = np.load(path, mmap_mode="r", allow_pickle=False)
    except (OSError, ValueError) as err:
        raise FormatError(
            str(path), f"cannot be read as a numpy array ({type(err).__name__})"
        ) from None
    if got.dtype != np.dtype(dtype) or got.shape != shape:
        raise FormatError(str(path), f"holds {got.dtype} {got.shape}, not {dtype} {shape}")
    return got


def arrays(
    directory: str | os.PathLike[str], *, batch_size: int = 1024
) -> Iterator[dict[str, Any]]:
    """The decisions of a ``numpy`` export (``chickenfoot dataset export DIR OUT --to numpy``)
    as :func:`~chickenfoot.dataset.decisions` gives them: the same batches, the same keys
    and dtypes, read from memory-mapped ``.npy`` files with numpy alone (no pyarrow, no
    replay). Raises :class:`~chickenfoot.FormatError` if ``directory`` is not such an
    export or a file is cut or of another shape.

    >>> import tempfile
    >>> from chickenfoot.agents import GreedyAgent
    >>> from chickenfoot.dataset import build, export
    >>> data, out = tempfile.mkdtemp(), tempfile.mkdtemp()
    >>> _ = build(data, rounds=2, agents=[("greedy", GreedyAgent())], players=[2],
    ...           presets=["house"], seed=1)
    >>> _ = export(data, out, to="numpy")
    >>> b = next(arrays(out, batch_size=8))
    >>> b["preset"], b["mask"].dtype, b["observation"].shape, b["hands"].shape
    ('house', dtype('bool'), (8, 301), (8, 2, 55))
    """
    size = checks.integer(batch_size, "batch_size", low=1, high=1 << 20)
    root = Path(directory)
    for part in read_index(root, "numpy")["partitions"]:
        fields = numpy_fields(part)
        files = {name: load(root, part, name, *fields[name]) for name in fields}
        n, p, tiles, actions = (
            part["decisions"],
            part["players"],
            part["tiles"],
            part["num_actions"],
        )
        for lo in range(0, n, size):
            hi = min(lo + size, n)
            batch: dict[str, Any] = {"preset": part["preset"], "players": p}
            for name in ("round", "seat", "move", "action"):
                batch[name] = np.array(files[name][lo:hi])
            batch["mask"] = np.unpackbits(files["mask"][lo:hi], axis=1, count=actions).view(
                np.bool_
            )
            batch["observation"] = files["observation"][lo:hi].astype(np.float32)
            bits = np.unpackbits(files["hands"][lo:hi], axis=1, count=p * tiles)
            batch["hands"] = bits.view(np.bool_).reshape(hi - lo, p, tiles)
            yield batch
