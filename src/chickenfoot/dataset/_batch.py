"""The batch engine under a data set: rounds played by its compiled agents, and replayed.

The contract shared by the build (``engine="batch"``), the check and the decisions reader
of :mod:`chickenfoot.dataset` (docs/dataset.md, "Engines"):

- :func:`play_part`: rounds ``first .. first + count - 1`` of a partition, dealt from the
  seeds of :func:`~._rows.round_rng` (the same deals as the core engine's), played by the
  batch engine's in-kernel agents (:data:`chickenfoot.batch.BUILT_IN`: ``random``,
  ``greedy``, ``heuristic``, the last being the search rollouts' heuristic, not
  :class:`~chickenfoot.agents.HeuristicAgent`), seated as :func:`~._rows.seats` says. The
  random agent draws from the engine's generator, seeded by the part (:func:`part_seed`),
  so a part's rows depend on its rounds and the command only. Needs numba.
- :func:`engine_for`: a numba batch engine of a partition's rules (None without numba);
- :func:`replay_rows`: a block of rows replayed in such an engine, the moves made in each.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import pyarrow as pa

from chickenfoot.dataset._rows import COLUMNS, SCHEMA, digest, digests, round_rng, rules_of, seats
from chickenfoot.errors import ArgumentError
from chickenfoot.tiles import set_size

if TYPE_CHECKING:
    from chickenfoot.batch import BatchEngine

LANES: Final = 2048
"""Rounds played or replayed at once (a block)."""


def part_seed(seed: int, preset: str, players: int, part: int) -> int:
    """The seed of a part's engine generator (the random agent's draws)."""
    text = f"dataset:{seed}:{preset}:{players}:part:{part}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little")


def engine_for(preset: str, players: int, lanes: int, rng_seed: int = 0) -> BatchEngine | None:
    """A numba batch engine of the partition's rules with ``lanes`` rounds (exact deals),
    or None when numba cannot be imported."""
    from chickenfoot.batch import BatchEngine

    try:
        eng = BatchEngine(rules_of(preset, players), lanes, backend="numba", rng_seed=rng_seed)
    except ArgumentError:  # no numba: the fast extra is not installed
        return None
    return eng


def most_moves(preset: str, players: int) -> int:
    """More moves than a round can have: each tile drawn and played once at most, a pass
    after each draw and at most ``players - 1`` between two plays."""
    tiles = set_size(rules_of(preset, players).max_pip)
    return tiles * (players + 2) + players + 1


def play_part(
    seed: int, preset: str, players: int, part: int, first: int, count: int, names: Sequence[str]
) -> pa.Table:
    """The rows of rounds ``first .. first + count - 1``, played in the batch engine, as an
    Arrow table of :data:`~._rows.SCHEMA` (made from the kernel's arrays, one chunk)."""
    eng = engine_for(preset, players, min(count, LANES), part_seed(seed, preset, players, part))
    if eng is None:
        raise ArgumentError("the batch engine needs numba: pip install 'chickenfoot[fast]'")
    from chickenfoot.batch import BUILT_IN

    assert all(w in BUILT_IN for w in names)
    width = most_moves(preset, players)
    blocks = []
    for start in range(first, first + count, LANES):
        ks = list(range(start, min(start + LANES, first + count)))
        n = len(ks)
        deal_seeds = [round_rng(seed, preset, players, k).getrandbits(53) for k in ks]
        eng.reset(deal_seeds, lanes=np.arange(n))
        moves = np.zeros(n, dtype=np.int64)
        kept = np.zeros((n, width), dtype=np.int64)
        for rot in range(len(names)):  # the rounds seated alike, played together
            g = np.array([r for r, k in enumerate(ks) if k % len(names) == rot], np.int64)
            if not len(g):
                continue
            who = [names[i] for i in seats(names, players, int(ks[g[0]]))]
            part_kept = np.zeros((len(g), width), dtype=np.int64)
            _, done, made = eng.play_agents(who, lanes=g, actions=part_kept)
            if not done[g].all():  # pragma: no cover - most_moves bounds every round
                raise ArgumentError("a round of the batch engine did not end")
            moves[g] = made[g]
            kept[g] = part_kept
        outs = eng.outcomes()[:n]
        seating = (np.array(ks)[:, None] + np.arange(players)) % len(names)
        blocks.append(
            {
                "round": pa.array(ks, pa.int64()),
                "seed": pa.array(deal_seeds, pa.int64()),
                "preset": pa.array([preset] * n, pa.string()),
                "players": pa.array(np.full(n, players, np.int8)),
                "agents": _lists(
                    np.array(names, dtype=object)[seating].ravel(), players, pa.string()
                ),
                "penalties": _lists(eng.penalties()[:n].ravel(), players, pa.int16()),
                "ending": pa.array(np.where(outs == -1, "blocked", "out").tolist(), pa.string()),
                "out": pa.array(outs.astype(np.int8), mask=outs == -1),
                "moves": pa.ListArray.from_arrays(
                    pa.array(np.concatenate([[0], np.cumsum(moves)]).astype(np.int32)),
                    pa.array(kept[np.arange(width) < moves[:, None]].astype(np.uint16)),
                ),
            }
        )
    columns = {c: pa.concat_arrays([b[c] for b in blocks]) for c in COLUMNS if c != "digest"}
    table = pa.table(columns, schema=SCHEMA.remove(SCHEMA.get_field_index("digest")))
    values, exact = digests(table)
    for i in np.flatnonzero(~exact).tolist():  # pragma: no cover - built-in names are plain
        values[i] = digest(table.slice(i, 1).to_pylist()[0])
    return table.append_column(SCHEMA.field("digest"), pa.array(values, pa.int64()))


def _lists(values: Any, size: int, kind: pa.DataType) -> pa.ListArray:
    """Lists of ``size`` items each, from their items in order."""
    offsets = pa.array(np.arange(0, len(values) + 1, size, dtype=np.int32))
    return pa.ListArray.from_arrays(offsets, pa.array(values, kind))


def replay_rows(
    eng: BatchEngine, seeds: Sequence[int], flat: Any, counts: Any, **outs: Any
) -> np.ndarray[Any, Any]:
    """Deal ``seeds`` into the first lanes of ``eng`` and replay there the action ids
    ``flat`` (``counts[r]`` for round ``r``, in order), filling ``outs`` as
    :meth:`BatchEngine.replay` does; the moves made in each round."""
    n = len(seeds)
    eng.reset(list(seeds), lanes=np.arange(n))
    every = np.zeros(eng.n, dtype=np.int64)
    every[:n] = counts
    made: np.ndarray[Any, Any] = eng.replay(flat, every, **outs)[:n]
    return made


def disagreeing(eng: BatchEngine, table: Any) -> set[int]:
    """The rows of a rounds table (no nulls) whose moves, penalties, ending or seat out
    the compiled replay does not agree with (the rows to replay through the core for the
    words of the check)."""
    moves = table.column("moves").combine_chunks()
    flat = moves.values.to_numpy(zero_copy_only=False).astype(np.int64)
    offsets = moves.offsets.to_numpy()
    counts = np.diff(offsets)
    seeds = table.column("seed").to_numpy()
    pens = table.column("penalties").combine_chunks()
    p = eng.penalties().shape[1]
    if (np.diff(pens.offsets.to_numpy()) != p).any():
        return set(range(table.num_rows))
    want = pens.values.to_numpy(zero_copy_only=False).reshape(-1, p)
    code = {"blocked": 0, "out": 1}
    ending = np.array([code.get(x, 2) for x in table.column("ending").to_pylist()])
    seat = np.array([-1 if x is None else x for x in table.column("out").to_pylist()])
    out: set[int] = set()
    for b in range(0, table.num_rows, eng.n):
        e = min(b + eng.n, table.num_rows)
        lo, hi = int(offsets[b]), int(offsets[e])
        made = replay_rows(eng, seeds[b:e].tolist(), flat[lo:hi], counts[b:e])
        got = eng.outcomes()[: e - b]
        bad = (made != counts[b:e]) | (got == -2) | (seat[b:e] != np.maximum(got, -1))
        bad |= (want[b:e] != eng.penalties()[: e - b]).any(axis=1)
        bad |= ending[b:e] != (got >= 0)
        out.update(int(b + r) for r in np.flatnonzero(bad))
    return out
