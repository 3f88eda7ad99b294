"""Decisions read from the rounds by replaying them: numpy batches, nothing stored."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import numpy as np
import pyarrow.parquet as pq

from chickenfoot import _checks as checks
from chickenfoot.dataset._manifest import read_manifest
from chickenfoot.dataset._rows import rules_of
from chickenfoot.deal import deal
from chickenfoot.encoding import Encoding
from chickenfoot.errors import FormatError
from chickenfoot.tiles import set_size

Batch = dict[str, Any]
FIELDS: Final = ("round", "seat", "move", "action", "mask", "observation", "hands")
BLOCK: Final = 256
"""Rounds replayed at once by the compiled reader."""


class Batcher:
    """Fixed-size arrays for one partition, filled decision by decision."""

    def __init__(self, preset: str, players: int, enc: Encoding, size: int) -> None:
        self.preset, self.players, self.enc, self.size = preset, players, enc, size
        self.tiles = set_size(enc.rules.max_pip)
        self.n = 0
        self._fresh()

    def _fresh(self) -> None:
        s, p = self.size, self.players
        self.round = np.zeros(s, np.int64)
        self.seat = np.zeros(s, np.int8)
        self.move = np.zeros(s, np.int16)
        self.action = np.zeros(s, np.int32)
        self.mask = np.zeros((s, self.enc.num_actions), np.bool_)
        self.observation = np.zeros((s, self.enc.observation_size), np.float32)
        self.hands = np.zeros((s, p, self.tiles), np.bool_)

    def add(self, k: int, n: int, state: Any, action: int) -> Batch | None:
        i, enc = self.n, self.enc
        seat = state.turn
        self.round[i], self.seat[i], self.move[i], self.action[i] = k, seat, n, action
        for a in enc.legal_actions(state):
            self.mask[i, a] = True
        enc.observe(state.view(seat), out=self.observation[i])
        for s, hand in enumerate(state.hands):
            self.hands[i, s, [t.id for t in hand]] = True
        self.n += 1
        return self.flush() if self.n == self.size else None

    def add_block(self, block: dict[str, Any]) -> Iterator[Batch]:
        """Add the decisions of ``block`` (arrays of :data:`FIELDS`, one row each); the
        batches filled."""
        n, j = len(block["round"]), 0
        while j < n:
            take = min(self.size - self.n, n - j)
            for name in FIELDS:
                getattr(self, name)[self.n : self.n + take] = block[name][j : j + take]
            self.n += take
            j += take
            if self.n == self.size:
                full = self.flush()
                assert full is not None
                yield full

    def flush(self) -> Batch | None:
        if not self.n:
            return None
        n = self.n
        batch: Batch = {
            "preset": self.preset,
            "players": self.players,
            "round": self.round[:n],
            "seat": self.seat[:n],
            "move": self.move[:n],
            "action": self.action[:n],
            "mask": self.mask[:n],
            "observation": self.observation[:n],
            "hands": self.hands[:n],
        }
        self.n = 0
        self._fresh()
        return batch


def decisions(directory: str | os.PathLike[str], *, batch_size: int = 1024) -> Iterator[Batch]:
    """Every decision of the data set in ``directory``, replayed, as numpy batches.

    A batch is a dict: ``preset`` and ``players`` (one partition per batch), and arrays of
    one row per decision: ``round``, ``seat`` (the seat to act), ``move`` (its number in the
    round, from 0), ``action`` (the move made, an action id of
    :class:`~chickenfoot.encoding.Encoding`), ``mask`` (the legal actions), ``observation``
    (the seat's view, encoded) and ``hands`` (``[players, tiles]``: the true hands). Forced
    moves are decisions too (one legal action). Raises :class:`~chickenfoot.FormatError`
    if ``directory`` holds no data set.

    >>> import tempfile
    >>> from chickenfoot.agents import GreedyAgent
    >>> from chickenfoot.dataset import build
    >>> folder = tempfile.mkdtemp()
    >>> _ = build(folder, rounds=1, agents=[("greedy", GreedyAgent())], players=[2],
    ...           presets=["house"], seed=1)
    >>> b = next(decisions(folder))
    >>> bool(b["mask"][range(len(b["action"])), b["action"]].all()), b["hands"].shape[1:]
    (True, (2, 55))
    """
    checks.integer(batch_size, "batch_size", low=1, high=1 << 20)
    root = Path(directory)
    manifest = read_manifest(root)
    for preset in manifest["command"]["presets"]:
        for players in manifest["command"]["players"]:
            enc = Encoding(rules_of(preset, players))
            batcher = Batcher(preset, players, enc, batch_size)
            prefix = f"rounds/preset={preset}/players={players}/"
            for entry in manifest["parts"]:  # sorted by path, so by round
                if str(entry["path"]).startswith(prefix):
                    yield from replay_part(pq.read_table(root / entry["path"]), enc, batcher)
            last = batcher.flush()
            if last is not None:
                yield last


def replay_part(table: Any, enc: Encoding, batcher: Batcher) -> Iterator[Batch]:
    """The full batches of a rounds table's decisions (the batcher keeps the rest): by
    the compiled replay with numba, else through the core."""
    if table.num_rows and not any(table.column(c).null_count for c in ("seed", "moves")):
        from chickenfoot.dataset._batch import engine_for

        eng = engine_for(batcher.preset, batcher.players, min(table.num_rows, BLOCK))
        if eng is not None:
            yield from _compiled_part(eng, table, batcher)
            return
    move_of = enc.move
    for k, seed, moves in zip(
        table.column("round").to_pylist(),
        table.column("seed").to_pylist(),
        table.column("moves").to_pylist(),
        strict=True,
    ):
        state = deal(enc.rules, seed=seed)
        for n, action in enumerate(moves):
            batch = batcher.add(k, n, state, action)
            if batch is not None:
                yield batch
            state = state.apply(move_of(action))


def _compiled_part(eng: Any, table: Any, batcher: Batcher) -> Iterator[Batch]:
    """:func:`replay_part` by the batch engine's compiled replay, ``BLOCK`` rounds a time."""
    from chickenfoot.dataset._batch import replay_rows

    moves = table.column("moves").combine_chunks()
    flat = moves.values.to_numpy(zero_copy_only=False).astype(np.int64)
    offsets = moves.offsets.to_numpy().astype(np.int64)
    counts = np.diff(offsets)
    seeds = table.column("seed").to_numpy()
    rounds = table.column("round").to_numpy()
    enc, p = batcher.enc, batcher.players
    for b in range(0, table.num_rows, BLOCK):
        e = min(b + BLOCK, table.num_rows)
        lo, hi = int(offsets[b]), int(offsets[e])
        k = hi - lo
        block: dict[str, Any] = {
            "seat": np.empty(k, np.int64),
            "mask": np.empty((k, enc.num_actions), np.bool_),
            "observation": np.empty((k, enc.observation_size), np.float32),
            "hands": np.empty((k, p, batcher.tiles), np.bool_),
        }
        made = replay_rows(eng, seeds[b:e].tolist(), flat[lo:hi], counts[b:e], seats=block["seat"],
                           mask=block["mask"], observations=block["observation"],
                           hands=block["hands"])  # fmt: skip
        wrong = np.flatnonzero(made != counts[b:e])
        if len(wrong):
            r = b + int(wrong[0])
            raise FormatError(
                f"round {int(rounds[r])}", f"move {int(made[wrong[0]])} is not legal (edited?)"
            )
        block["round"] = np.repeat(rounds[b:e], counts[b:e])
        block["move"] = np.arange(k) - np.repeat(offsets[b:e] - lo, counts[b:e])
        block["action"] = flat[lo:hi]
        yield from batcher.add_block(block)
