"""A data set's rounds from one seat, as a Minari data set (docs/dataset.md, "Exports").

An episode is one round of one partition, as :class:`chickenfoot.gym.ChickenFootEnv`
(``seat=K``, the partition's rules, the default ``"win"`` reward) would have recorded it:
the seat's observations ``{"observation", "action_mask"}`` at each of its decisions and
once more at the end (its view of the final table, the mask all ones as the env gives it
once the episode is over), its actions, a reward of 0 at each step but the last, which
is its share of the win (:func:`chickenfoot.gym.reward_of`), terminated at the last step,
never truncated. The data set's env spec is the env's registered id with those
arguments (the rules as their document, so the spec stays JSON), so
``recover_environment()`` builds the same env. Written with Minari's own storage
(``data_format="arrow"``), a few hundred episodes at a time; needs the ``minari`` and
``gym`` extras, imported here only.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any, Final

import numpy as np

from chickenfoot.dataset._parts import part_decisions, part_paths, read_part
from chickenfoot.dataset._read import BLOCK
from chickenfoot.dataset._rows import rules_of
from chickenfoot.deal import deal
from chickenfoot.encoding import Encoding
from chickenfoot.errors import ArgumentError, brief

CHUNK: Final = 256
"""Episodes handed to Minari's storage at once."""
DATASET_ID: Final = re.compile(r"(?:[-_\w][-_\w/]*[-_\w]+/)?[-_\w]+?-v\d+")
"""Minari's form of a data set id: ``(namespace/)name-vN``."""


def dataset_name(partition: tuple[str, int], seat: int, given: str | None) -> str:
    """The Minari id: ``given``, checked, or ``chickenfoot/P-Np-seatK-v0``."""
    if given is None:
        return f"chickenfoot/{partition[0]}-{partition[1]}p-seat{seat}-v0"
    if not isinstance(given, str) or not DATASET_ID.fullmatch(given) or len(given) > 200:
        raise ArgumentError(
            f"dataset_id={brief(given)} is invalid: Minari's form is (namespace/)name-vN"
        )
    return given


def write_minari(
    root: Path, out: Path, manifest: dict[str, Any], partition: tuple[str, int], seat: int,
    name: str,
) -> dict[str, Any]:  # fmt: skip
    """Write the Minari data set ``name`` of ``seat``'s rounds into ``out`` (``out/data``)."""
    import gymnasium
    from minari.data_collector import EpisodeBuffer
    from minari.dataset.minari_storage import MinariStorage

    from chickenfoot import __version__
    from chickenfoot.gym import ENV_ID, ChickenFootEnv, reward_of

    preset, players = partition
    rules = rules_of(preset, players)
    env = ChickenFootEnv(rules=rules, seat=seat)
    kwargs = {"rules": rules.to_dict(), "seat": seat}
    spec = dataclasses.replace(gymnasium.spec(ENV_ID), kwargs=kwargs)
    storage = MinariStorage.new(out / "data", observation_space=env.observation_space,
                                action_space=env.action_space, env_spec=spec,
                                data_format="arrow")  # fmt: skip
    command = manifest["command"]
    storage.update_metadata({
        "dataset_id": name,
        "minari_version": _minari_version(),
        "algorithm_name": f"chickenfoot dataset: {', '.join(command['agents'])}",
        "author": {"chickenfoot"},
        "description": (
            f"Rounds of Chicken Foot ({preset} rules, {players} players) seen from seat {seat}, "
            f"exported from a chickenfoot data set (chickenfoot {manifest.get('version')}; "
            f"seed {command['seed']}); the seat is played by each agent in turn."
        ),
        "requirements": [f"chickenfoot[gym]=={__version__}"],
    })  # fmt: skip
    # Minari's storage measures the whole data set after every episode it writes (a walk
    # of every file: quadratic in the episodes); this storage measures it once, at the end.
    storage.get_size = lambda: 0.0
    enc = Encoding(rules)
    buffers: list[Any] = []
    episodes = steps = 0
    for path in part_paths(root, manifest, preset, players):
        table = read_part(path)
        lengths = [len(m) for m in table.column("moves").to_pylist()]
        b = part_decisions(table, preset, players, enc)
        if b is None:
            continue
        finals = _final_views(table, preset, players, seat, enc)
        pens = np.array(table.column("penalties").to_pylist(), np.int64)
        won = reward_of("win", pens)[:, seat]
        ends = np.cumsum(lengths)
        for r, (lo, hi) in enumerate(zip(ends - lengths, ends, strict=True)):
            mine = np.flatnonzero(b["seat"][lo:hi] == seat) + lo
            n = len(mine)
            if not n:  # pragma: no cover - every seat moves in every round (R6)
                continue
            rewards = np.zeros(n, np.float32)
            rewards[-1] = won[r]
            masks = np.ones((n + 1, enc.num_actions), np.int8)
            masks[:n] = b["mask"][mine]
            buffers.append(EpisodeBuffer(
                id=episodes,
                observations={"observation": np.vstack([b["observation"][mine], finals[r:r + 1]]),
                              "action_mask": masks},
                actions=b["action"][mine].astype(np.int64),
                rewards=rewards.tolist(),
                terminations=[False] * (n - 1) + [True],
                truncations=[False] * n,
            ))  # fmt: skip
            episodes += 1
            steps += n
            if len(buffers) == CHUNK:
                storage.update_episodes(buffers)
                buffers = []
    if buffers:
        storage.update_episodes(buffers)
    del storage.get_size
    storage.update_metadata({"dataset_size": storage.get_size()})
    return {"format": "minari", "dataset_id": name, "episodes": episodes, "steps": steps,
            "preset": preset, "players": players, "seat": seat}  # fmt: skip


def _final_views(table: Any, preset: str, players: int, seat: int, enc: Encoding) -> Any:
    """``seat``'s encoded view of each round's final table: by the batch engine's compiled
    replay with numba, else through the core."""
    from chickenfoot.dataset._batch import engine_for, replay_rows

    n = table.num_rows
    out = np.zeros((n, enc.observation_size), np.float32)
    eng = engine_for(preset, players, min(max(n, 1), BLOCK))
    moves = table.column("moves").to_pylist()
    seeds = table.column("seed").to_pylist()
    if eng is None:
        for r, (seed, acts) in enumerate(zip(seeds, moves, strict=True)):
            state = deal(enc.rules, seed=seed)
            for a in acts:
                state = state.apply(enc.move(a))
            enc.observe(state.view(seat), out=out[r])
        return out
    for lo in range(0, n, eng.n):
        hi = min(lo + eng.n, n)
        flat = np.array([a for m in moves[lo:hi] for a in m], np.int64)
        counts = np.array([len(m) for m in moves[lo:hi]], np.int64)
        replay_rows(eng, seeds[lo:hi], flat, counts)
        out[lo:hi] = eng.observe(seat)[: hi - lo]
    return out


def _minari_version() -> str:
    import minari

    return str(minari.__version__)
