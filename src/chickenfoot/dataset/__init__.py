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
  value at N decisions, by the search from the seat's view and by the solver.

>>> import tempfile
>>> from chickenfoot.agents import GreedyAgent, RandomAgent
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

from chickenfoot.dataset._build import build
from chickenfoot.dataset._check import check
from chickenfoot.dataset._labels import labels
from chickenfoot.dataset._manifest import read_manifest as manifest
from chickenfoot.dataset._read import decisions
from chickenfoot.dataset._rows import FORMAT

__all__ = ["FORMAT", "build", "check", "decisions", "labels", "manifest"]
