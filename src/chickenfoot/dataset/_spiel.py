"""OpenSpiel's trajectory arrays of a data set's rounds (docs/dataset.md, "Exports").

Each round is replayed through the core as the OpenSpiel game ``python_chickenfoot``
(:mod:`chickenfoot.openspiel`) plays it, in round scope: the deal's chance outcomes (the
tiles of :func:`~chickenfoot.deal.shuffled_tiles`, seat by seat), each decision, and after
each draw its chance outcome (the boneyard's front tile). Per decision it writes what
OpenSpiel's learning code consumes, in the game's own layout: ``info_state`` (the
information-state tensor, the last ``INFO_HISTORY`` public events), ``observation`` (the
observation tensor), ``legal_actions_mask``, ``action``, ``player`` and ``returns``
(every player's at the end of the round, by the game's default utility for a round,
``penalty``: minus the seat's penalty); per round the
whole OpenSpiel ``history`` (chance outcomes too), so that
``game.new_initial_state()`` and ``apply_action`` rebuild any state. It needs no
OpenSpiel: the tensors are the encodings the game itself writes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from numpy.lib.format import open_memmap

from chickenfoot.dataset._arrays import folder
from chickenfoot.dataset._parts import (
    base_index,
    count_decisions,
    part_decisions,
    part_paths,
    read_part,
)
from chickenfoot.dataset._rows import rules_of
from chickenfoot.deal import deal, shuffled_tiles
from chickenfoot.encoding import Encoding
from chickenfoot.errors import FormatError
from chickenfoot.moves import DRAW
from chickenfoot.openspiel import GAME_NAME, INFO_HISTORY, parameters
from chickenfoot.rules import Rules


def game_string(rules: Rules) -> str:
    """The ``pyspiel.load_game`` string of the round-scope game of ``rules``, with its
    default utility for a round, ``penalty``, said."""
    params = ",".join(f"{k}={v}" for k, v in parameters(rules, utility="penalty").items())
    return f"{GAME_NAME}({params})"


def round_returns(penalties: tuple[int, ...]) -> list[float]:
    """A round's returns by the game's ``penalty`` utility (its default for a round): minus
    each seat's penalty (as :meth:`chickenfoot.openspiel.ChickenFootState.returns`)."""
    return [-float(x) for x in penalties]


def write_openspiel(
    root: Path, out: Path, manifest: dict[str, Any], chosen: list[tuple[str, int]]
) -> dict[str, Any]:
    """The ``openspiel`` export's files (the index is the caller's to write, last)."""
    index = base_index(manifest, "openspiel")
    for preset, players in chosen:
        rules = rules_of(preset, players)
        enc, info = Encoding(rules), Encoding(rules, history=INFO_HISTORY)
        paths = part_paths(root, manifest, preset, players)
        n = count_decisions(paths)
        part = {"preset": preset, "players": players, "decisions": n,
                "num_actions": enc.num_actions, "observation_size": enc.observation_size,
                "tiles": rules.set_size, "info_state_size": info.observation_size,
                "game": game_string(rules)}  # fmt: skip
        index["partitions"].append(part)
        where = out / folder(preset, players)
        where.mkdir(parents=True)

        def new(name: str, dtype: Any, *shape: int, where: Path = where, n: int = n) -> Any:
            return open_memmap(where / f"{name}.npy", mode="w+", dtype=dtype, shape=(n, *shape))

        files = {
            "info_state": new("info_state", np.float32, info.observation_size),
            "observation": new("observation", np.float32, enc.observation_size),
            "legal_actions_mask": new("legal_actions_mask", np.uint8, enc.num_actions),
            "action": new("action", np.int64),
            "player": new("player", np.int32),
            "returns": new("returns", np.float64, players),
            "episode": new("episode", np.int64),
            "history_index": new("history_index", np.int32),
        }
        rows = {k: m.view(np.ndarray) for k, m in files.items()}  # no memmap per item
        history: list[int] = []
        offsets, numbers = [0], list[int]()
        at = 0
        for path in paths:
            table = read_part(path, ["round", "seed", "moves"])
            b = part_decisions(table, preset, players, enc)
            if b is None:
                continue
            hi = at + len(b["action"])
            rows["observation"][at:hi] = b["observation"]
            rows["legal_actions_mask"][at:hi] = b["mask"]
            rows["player"][at:hi] = b["seat"]
            rows["action"][at:hi] = b["action"]
            t = table.to_pydict()
            for k, seed, moves in zip(t["round"], t["seed"], t["moves"], strict=True):
                first = at
                at, pens = _round(rules, enc, info, seed, moves, len(numbers), rows, at, history)
                rows["returns"][first:at] = round_returns(pens)
                numbers.append(k)
                offsets.append(len(history))
        for m in files.values():
            m.flush()
        np.save(where / "history.npy", np.array(history, np.int64))
        np.save(where / "history_offsets.npy", np.array(offsets, np.int64))
        np.save(where / "round.npy", np.array(numbers, np.int64))
    return index


def _round(
    rules: Rules, enc: Encoding, info: Encoding, seed: int, moves: list[int], e: int,
    rows: dict[str, Any], at: int, history: list[int],
) -> tuple[int, tuple[int, ...]]:  # fmt: skip
    """Replay one round from row ``at``: its information states, episode and history
    indices into ``rows`` (the rest is the compiled replay's) and its history onto
    ``history``; the next free row and the round's penalties."""
    tiles = shuffled_tiles(rules, seed)
    dealt = rules.players * rules.hand_size
    start = len(history)
    history.extend(tiles[:dealt])
    bone = dealt
    state = deal(rules, seed)
    move_of = enc.move
    info_state, index, episode = rows["info_state"], rows["history_index"], rows["episode"]
    for a in moves:
        episode[at] = e
        index[at] = len(history) - start
        info.observe(state.view(state.turn), out=info_state[at])
        history.append(a)
        move = move_of(a)
        if move is DRAW:
            history.append(tiles[bone])
            bone += 1
        state = state.apply(move)
        at += 1
    if not state.is_over():
        raise FormatError(f"round of seed {seed}", "its moves do not end the round (edited?)")
    return at, tuple(state.penalties())
