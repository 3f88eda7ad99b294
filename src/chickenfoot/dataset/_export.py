"""``export``: a data set's decisions for readers people already use (docs/dataset.md, "Exports").

- ``to="numpy"``: every decision as ``.npy`` files, read with numpy alone (:mod:`._arrays`);
- ``to="openspiel"``: OpenSpiel's trajectory arrays of every round (:mod:`._spiel`);
- ``to="minari"``: the rounds of one partition seen from one seat, as a Minari data set
  of episodes of the Gymnasium environment (:mod:`._minari`).

The output directory must not exist or be empty; an export that fails is removed, so
nothing half-written is left for a reader. Everything is checked (the data set, the
partition, the seat) before anything is written.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

import numpy as np

from chickenfoot import _checks as checks
from chickenfoot.dataset._arrays import INDEX, folder, numpy_fields
from chickenfoot.dataset._manifest import read_manifest
from chickenfoot.dataset._parts import base_index, count_decisions, part_paths
from chickenfoot.dataset._read import decisions
from chickenfoot.dataset._rows import rules_of
from chickenfoot.encoding import Encoding
from chickenfoot.errors import ArgumentError, FormatError, SeatError, brief
from chickenfoot.tiles import set_size

TARGETS: Final = ("numpy", "openspiel", "minari")
"""What ``export`` writes (``to=``)."""
BATCH: Final = 4096


def export(
    directory: str | os.PathLike[str],
    out: str | os.PathLike[str],
    *,
    to: str,
    seat: int | None = None,
    preset: str | None = None,
    players: int | None = None,
    dataset_id: str | None = None,
) -> dict[str, Any]:
    """Export the data set in ``directory`` into ``out`` (a new or empty directory).

    ``to`` is ``"numpy"`` (read back with :func:`~chickenfoot.dataset.arrays`),
    ``"openspiel"`` (OpenSpiel's trajectory arrays) or ``"minari"`` (a Minari data set
    of ``seat``'s rounds, ``dataset_id`` by default ``chickenfoot/P-Np-seatK-v0``: the
    ``minari`` and ``gym`` extras). ``preset`` and ``players`` choose one partition (a
    Minari data set holds one, so it needs them when the data set has more); the numpy
    and OpenSpiel exports take every partition by default. Returns the index written
    (``arrays.json``, or the Minari data set's summary).

    Raises :class:`~chickenfoot.FormatError` if ``directory`` holds no data set or
    ``out`` is not empty, :class:`~chickenfoot.SeatError` for a seat the table does not
    have, :class:`~chickenfoot.ArgumentError` for a partition it does not hold.

    >>> import tempfile
    >>> from chickenfoot.agents import GreedyAgent
    >>> from chickenfoot.dataset import build
    >>> data, out = tempfile.mkdtemp(), tempfile.mkdtemp()
    >>> _ = build(data, rounds=2, agents=[("greedy", GreedyAgent())], players=[2],
    ...           presets=["house"], seed=1)
    >>> [(p["preset"], p["players"]) for p in export(data, out, to="numpy")["partitions"]]
    [('house', 2)]
    """
    kind = checks.choice(to, "to", TARGETS)
    root = Path(directory)
    manifest = read_manifest(root)
    chosen = partitions(manifest, preset, players)
    if kind == "minari":
        if len(chosen) != 1:
            names = ", ".join(f"{p} {n}" for p, n in chosen)
            raise ArgumentError(
                f"a Minari data set holds one partition and this data set has {len(chosen)} "
                f"({names}): choose one with preset and players"
            )
        if seat is None:
            raise ArgumentError("to='minari' needs a seat: the episodes are one seat's rounds")
        checks.integer(seat, "seat", low=0, high=chosen[0][1] - 1, index=True, error=SeatError)
        try:
            import gymnasium  # noqa: F401
            import minari  # noqa: F401
        except ImportError:
            raise ImportError(
                "to='minari' needs Minari and Gymnasium: pip install minari 'chickenfoot[gym]'"
            ) from None
        from chickenfoot.dataset._minari import dataset_name, write_minari

        name = dataset_name(chosen[0], int(seat), dataset_id)
        with fresh(out) as target:
            return write_minari(root, target, manifest, chosen[0], int(seat), name)
    if seat is not None or dataset_id is not None:
        raise ArgumentError(f"seat and dataset_id are for to='minari', not to={kind!r}")
    with fresh(out) as target:
        if kind == "numpy":
            index = write_numpy(root, target, manifest, chosen)
        else:
            from chickenfoot.dataset._spiel import write_openspiel

            index = write_openspiel(root, target, manifest, chosen)
        (target / INDEX).write_text(json.dumps(index, indent=1) + "\n")
    return index


def partitions(
    manifest: dict[str, Any], preset: str | None, players: int | None
) -> list[tuple[str, int]]:
    """The data set's partitions ``(preset, players)`` that ``preset`` and ``players`` (None:
    any) choose, in the manifest's order; ArgumentError if none."""
    command = manifest["command"]
    every = [(p, n) for p in command["presets"] for n in command["players"]]
    chosen = [(p, n) for p, n in every if preset in (None, p) and players in (None, n)]
    if not chosen:
        asked = ", ".join(
            f"{k}={brief(v)}"
            for k, v in (("preset", preset), ("players", players))
            if v is not None
        )
        names = ", ".join(f"{p} {n}" for p, n in every)
        raise ArgumentError(f"{asked}: the data set holds no such partition (it holds {names})")
    return chosen


@contextmanager
def fresh(out: str | os.PathLike[str]) -> Iterator[Path]:
    """``out``, created (or found empty); removed again if the export fails."""
    target = Path(out)
    made = not target.exists()
    if not made and (not target.is_dir() or any(target.iterdir())):
        raise FormatError(str(target), "is not empty (or not a directory): export into a new one")
    target.mkdir(parents=True, exist_ok=True)
    try:
        yield target
    except BaseException:
        if made:
            shutil.rmtree(target, ignore_errors=True)
        else:
            for child in target.iterdir():
                if child.is_dir():
                    shutil.rmtree(child, ignore_errors=True)
                else:
                    child.unlink(missing_ok=True)
        raise


def write_numpy(
    root: Path, out: Path, manifest: dict[str, Any], chosen: list[tuple[str, int]]
) -> dict[str, Any]:
    """The ``numpy`` export's files (the index is the caller's to write, last)."""
    from numpy.lib.format import open_memmap

    index = base_index(manifest, "numpy")
    files: dict[tuple[str, int], tuple[dict[str, Any], list[int]]] = {}
    for preset, players in chosen:
        enc = Encoding(rules_of(preset, players))
        part = {"preset": preset, "players": players,
                "decisions": count_decisions(part_paths(root, manifest, preset, players)),
                "num_actions": enc.num_actions, "observation_size": enc.observation_size,
                "tiles": set_size(enc.rules.max_pip)}  # fmt: skip
        index["partitions"].append(part)
        where = out / folder(preset, players)
        where.mkdir(parents=True)
        maps = {
            name: open_memmap(where / f"{name}.npy", mode="w+", dtype=np.dtype(dtype), shape=shape)
            for name, (dtype, shape) in numpy_fields(part).items()
        }
        files[(preset, players)] = (maps, [0])
    for b in decisions(root, batch_size=BATCH):
        key = (b["preset"], b["players"])
        if key not in files:
            continue
        maps, at = files[key]
        lo, hi = at[0], at[0] + len(b["action"])
        for name in ("round", "seat", "move", "action"):
            maps[name][lo:hi] = b[name]
        small = b["observation"].astype(np.uint8)
        if not np.array_equal(small, b["observation"]):  # pragma: no cover - counts <= 190
            raise FormatError(str(out), "an observation is not a byte: cannot be exported")
        maps["observation"][lo:hi] = small
        maps["mask"][lo:hi] = np.packbits(b["mask"], axis=1)
        maps["hands"][lo:hi] = np.packbits(b["hands"].reshape(hi - lo, -1), axis=1)
        at[0] = hi
    for maps, _ in files.values():
        for m in maps.values():
            m.flush()
    return index
