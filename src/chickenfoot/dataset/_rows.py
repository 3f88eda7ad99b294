"""One row of the rounds table: how a round is seeded, seated, played, digested and stored.

The contract shared by the build, the check and the readers of :mod:`chickenfoot.dataset`
(docs/dataset.md): round ``k`` of the partition ``(preset, players)`` of a data set seeded
``seed`` takes ``rng = random.Random(f"dataset:{seed}:{preset}:{players}:{k}")``; its deal
seed is ``rng.getrandbits(53)`` (dealt with :func:`chickenfoot.deal`, round 0), seat ``i``
is played by ``agents[(k + i) % len(agents)]`` and the agents draw from ``rng``. The moves
are stored as action ids of :class:`chickenfoot.encoding.Encoding` (a draw takes the
boneyard's front tile, so the deal and the actions give every tile drawn).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from typing import Any, Final

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from chickenfoot.agents import Agent, ask
from chickenfoot.deal import deal
from chickenfoot.encoding import Encoding
from chickenfoot.rules import Rules

FORMAT: Final = "chickenfoot/dataset"
SCHEMA: Final = pa.schema(
    [
        pa.field("round", pa.int64(), nullable=False),
        pa.field("seed", pa.int64(), nullable=False),
        pa.field("preset", pa.string(), nullable=False),
        pa.field("players", pa.int8(), nullable=False),
        pa.field("agents", pa.list_(pa.string()), nullable=False),
        pa.field("penalties", pa.list_(pa.int16()), nullable=False),
        pa.field("ending", pa.string(), nullable=False),
        pa.field("out", pa.int8()),
        pa.field("moves", pa.list_(pa.uint16()), nullable=False),
        pa.field("digest", pa.int64(), nullable=False),
    ]
)
COLUMNS: Final = tuple(SCHEMA.names)
_DIGESTED: Final = tuple(c for c in COLUMNS if c != "digest")
_JSON: Final = json.JSONEncoder(separators=(",", ":"))


def rules_of(preset: str, players: int) -> Rules:
    """The rules of a partition."""
    return Rules.preset(preset, players=players)


def round_rng(seed: int, preset: str, players: int, k: int) -> random.Random:
    """The generator of round ``k`` of a partition (its first draw is the deal seed)."""
    return random.Random(f"dataset:{seed}:{preset}:{players}:{k}")


def seats(names: Sequence[str], players: int, k: int) -> list[int]:
    """Which of the agents plays each seat in round ``k``: a rotation of the list."""
    return [(k + i) % len(names) for i in range(players)]


def digest(row: dict[str, Any]) -> int:
    """A signed 64-bit digest of every other column of ``row`` (finds rows edited by hand)."""
    body = [row[c] for c in _DIGESTED]
    text = _JSON.encode(body).encode()  # json.dumps(body, separators=(",", ":")), made once
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little", signed=True)


_PLAIN: Final = r"^[ !#-\[\]-~]*$"
"""Text that JSON writes as it is between its quotes: printable ASCII but ``"`` and ``\\``."""


def digests(table: pa.Table) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """:func:`digest` of every row of a rounds table, its JSON text made by Arrow for the
    whole table at once: ``(values, exact)``. ``exact[i]`` is False where that text could
    differ from :func:`digest`'s (a null, a string JSON would escape, no agents): there
    ``values[i]`` means nothing and only :func:`digest` of the row says."""
    join = pc.binary_join_element_wise

    def ints(name: str) -> pa.ChunkedArray:
        return pc.cast(table.column(name), pa.string())

    def ints_list(name: str) -> pa.ChunkedArray:
        items = pc.binary_join(pc.cast(table.column(name), pa.list_(pa.string())), ",")
        return join("[", items, "]", "")

    def quoted(values: Any) -> pa.ChunkedArray:
        return join('"', values, '"', "")

    agents = table.column("agents")
    body = [
        ints("round"),
        ints("seed"),
        quoted(table.column("preset")),
        ints("players"),
        join('["', pc.binary_join(agents, '","'), '"]', ""),
        ints_list("penalties"),
        quoted(table.column("ending")),
        pc.fill_null(ints("out"), "null"),
        ints_list("moves"),
    ]
    text = join("[", join(*body, ","), "]", "")
    exact = pc.is_valid(text).to_numpy(zero_copy_only=False)
    for name in ("preset", "ending"):
        exact &= pc.fill_null(pc.match_substring_regex(table.column(name), _PLAIN), False)
    exact &= pc.fill_null(pc.list_value_length(agents), 0).to_numpy() > 0
    flat = pc.list_flatten(agents)
    if len(flat):
        odd = ~pc.fill_null(pc.match_substring_regex(flat, _PLAIN), False).to_numpy(False)
        exact[pc.list_parent_indices(agents).to_numpy()[odd]] = False
    blake = hashlib.blake2b
    texts = pc.fill_null(pc.cast(text, pa.binary()), b"").to_pylist()
    raw = b"".join([blake(t, digest_size=8).digest() for t in texts])
    return np.frombuffer(raw, dtype="<i8").astype(np.int64), exact


def play(
    seed: int, preset: str, players: int, k: int, names: Sequence[str], agents: Sequence[Agent]
) -> dict[str, Any]:
    """Play round ``k`` of a partition: its row (a dict of the columns)."""
    rules = rules_of(preset, players)
    enc = Encoding(rules)
    rng = round_rng(seed, preset, players, k)
    deal_seed = rng.getrandbits(53)
    who = seats(names, players, k)
    seated = [agents[i] for i in who]
    state = deal(rules, seed=deal_seed)
    moves = []
    while not state.is_over():
        move = ask(seated[state.turn], state, rng)
        moves.append(enc.action(move))
        state = state.apply(move)
    outcome = state.outcome()
    assert outcome is not None
    row: dict[str, Any] = {
        "round": k,
        "seed": deal_seed,
        "preset": preset,
        "players": players,
        "agents": [names[i] for i in who],
        "penalties": list(state.penalties()),
        "ending": outcome.termination.value,
        "out": outcome.seat,
        "moves": moves,
    }
    row["digest"] = digest(row)
    return row


def table_of(rows: list[dict[str, Any]]) -> pa.Table:
    """The rows as an Arrow table of :data:`SCHEMA`."""
    return pa.Table.from_pylist(rows, schema=SCHEMA)
