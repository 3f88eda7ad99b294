"""Data sets of Chicken Foot rounds, as Parquet (the ``data`` extra: pyarrow and numpy).

A data set is a directory (docs/dataset.md): ``manifest.json`` (the command that made it,
the version, every part with its sha256), ``README.md`` (the data card) and the rounds,
``rounds/preset=P/players=N/part-00000.parquet``, one row a round: ``round``, ``seed`` (the
deal's: :func:`chickenfoot.deal` with the preset's rules), ``preset``, ``players``,
``agents`` (by seat), ``penalties``, ``ending`` (``out`` or ``blocked``) and ``out`` (the
seat that went out), ``moves`` (action ids of :class:`chickenfoot.encoding.Encoding`) and
``digest`` (of the other columns).

- :func:`build` plays the rounds and writes them (deterministic; run again, it continues);
- :func:`check` replays every round and lists what does not agree, one line each;
- :func:`manifest` reads a data set's manifest (``FormatError`` if it is none);
- :func:`decisions` replays the rounds into numpy batches of decisions, with each seat's
  observation and the true hands;
- :func:`labels` reads the labels of a data set built with ``label=N``: every legal move's
  value at N decisions, by the search from the seat's view and by the solver;
- :func:`export` writes the decisions for other readers: numpy files, OpenSpiel's
  trajectory arrays, a Minari data set of one seat's rounds;
- :func:`arrays` reads a numpy export back as :func:`decisions` gives it, with numpy alone.

The names are imported when first used, so ``arrays`` works where pyarrow is missing.

>>> import tempfile
>>> from chickenfoot.agents import GreedyAgent, RandomAgent
>>> from chickenfoot.dataset import build, check, decisions
>>> folder = tempfile.mkdtemp()
>>> m = build(folder, rounds=3, agents=[("greedy", GreedyAgent()), ("random", RandomAgent())],
...           players=[2], presets=["house"], seed=1)
>>> [p["path"] for p in m["parts"]], check(folder)
(['rounds/preset=house/players=2/part-00000.parquet'], [])
>>> b = next(decisions(folder, batch_size=8))
>>> b["mask"].shape, b["observation"].shape, b["hands"].shape
((8, 1157), (8, 301), (8, 2, 55))
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from chickenfoot.dataset._arrays import arrays
    from chickenfoot.dataset._build import build
    from chickenfoot.dataset._check import check
    from chickenfoot.dataset._export import export
    from chickenfoot.dataset._labels import labels
    from chickenfoot.dataset._manifest import read_manifest as manifest
    from chickenfoot.dataset._read import decisions
    from chickenfoot.dataset._rows import FORMAT

__all__ = ["FORMAT", "arrays", "build", "check", "decisions", "export", "labels", "manifest"]

_WHERE: Final = {
    "FORMAT": ("_rows", "FORMAT"),
    "arrays": ("_arrays", "arrays"),
    "build": ("_build", "build"),
    "check": ("_check", "check"),
    "decisions": ("_read", "decisions"),
    "export": ("_export", "export"),
    "labels": ("_labels", "labels"),
    "manifest": ("_manifest", "read_manifest"),
}


def __getattr__(name: str) -> Any:
    """The public names, each imported from its module when first asked for."""
    if name not in _WHERE:
        raise AttributeError(f"module 'chickenfoot.dataset' has no attribute {name!r}")
    module, attr = _WHERE[name]
    value = getattr(importlib.import_module(f"chickenfoot.dataset.{module}"), attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
