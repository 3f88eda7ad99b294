"""Labels (``build --label N``): every legal move's value at chosen decisions.

The contract shared by the build, the check and the reader (docs/dataset.md, "Labels"):
``label = {"decisions": N, "iterations": I, "nodes": B}`` in the manifest's command labels
``N`` decisions of each partition, spread over its ``R`` rounds: label ``j`` (``0 <= j <
N``) falls in round ``j * R // N``, so round ``k`` holds ``count(k)`` of them, and they are
``random.Random(f"label:{seed}:{preset}:{players}:{k}").sample`` of the round's decisions
with two legal moves or more (all of them when it has fewer), in move order. Each is
valued twice, in the legal moves' order (docs/formats.md):

- from what the seat knew: :func:`chickenfoot.analysis.evaluate` with ``I`` deals, seeded
  by ``search_seed`` (the first ``getrandbits(53)`` of
  ``random.Random(f"label:{seed}:{preset}:{players}:{k}:{move}")``): the seat's expected
  penalty and win share after each move;
- from the true hands (hindsight): :func:`chickenfoot.solve` within ``B`` nodes, the
  seat's exact final penalty after each move, or ``solved`` false and no values when the
  budget runs out (never an inexact value); and, always, the clairvoyant rollout: the
  true round (every hand and the boneyard's order) finished by the heuristic rollout
  after each move, the seat's final penalty (a cheap hindsight, not exact).

A rounds part's labels live in ``labels/`` beside it, one row a label.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pyarrow as pa
import pyarrow.parquet as pq

from chickenfoot import _checks as checks
from chickenfoot._rollouts import heuristic_policy
from chickenfoot.analysis import evaluate
from chickenfoot.dataset._manifest import read_manifest
from chickenfoot.dataset._rows import rules_of
from chickenfoot.deal import deal
from chickenfoot.encoding import Encoding
from chickenfoot.errors import BudgetError
from chickenfoot.playout import playout
from chickenfoot.solve import MAX_NODES, solve
from chickenfoot.state import State, apply

__all__ = [
    "DEFAULT_ITERATIONS",
    "DEFAULT_NODES",
    "SCHEMA",
    "label_command",
    "label_rows",
    "labels",
    "labels_path",
    "labels_problems",
    "write_labels",
]

DEFAULT_ITERATIONS: Final = 200
"""The deals the search samples per label when none are given (as the analysis does)."""
DEFAULT_NODES: Final = 50_000
"""The solver's node budget per label when none is given (as the analysis's)."""
MAX_LABELS: Final = 100_000_000
MAX_LABEL_ITERATIONS: Final = 100_000

SCHEMA: Final = pa.schema(
    [
        pa.field("round", pa.int64(), nullable=False),
        pa.field("move", pa.int16(), nullable=False),
        pa.field("seat", pa.int8(), nullable=False),
        pa.field("legal", pa.list_(pa.uint16()), nullable=False),
        pa.field("search_seed", pa.int64(), nullable=False),
        pa.field("search_penalty", pa.list_(pa.float32()), nullable=False),
        pa.field("search_win", pa.list_(pa.float32()), nullable=False),
        pa.field("solved", pa.bool_(), nullable=False),
        pa.field("nodes", pa.int32(), nullable=False),
        pa.field("solver_penalty", pa.list_(pa.int16())),
        pa.field("clairvoyant_penalty", pa.list_(pa.int16()), nullable=False),
        pa.field("digest", pa.int64(), nullable=False),
    ]
)
_WRITE: Final[dict[str, Any]] = {
    "compression": "zstd",
    "compression_level": 9,
    "write_statistics": ["round"],
    "store_schema": False,
}


def label_command(decisions: int, iterations: int, nodes: int) -> dict[str, int]:
    """The ``label`` entry of a build's command, its numbers checked."""
    return {
        "decisions": checks.integer(decisions, "label", low=1, high=MAX_LABELS),
        "iterations": checks.integer(
            iterations, "label_iterations", low=1, high=MAX_LABEL_ITERATIONS
        ),
        "nodes": checks.integer(nodes, "label_nodes", low=1, high=MAX_NODES),
    }


def labels_path(rounds_path: str) -> str:
    """Where the labels of a rounds part live (``labels/`` for ``rounds/``)."""
    return "labels/" + rounds_path.removeprefix("rounds/")


def _count(k: int, rounds: int, n: int) -> int:
    """How many of the ``n`` labels fall in round ``k`` of ``rounds`` (label j: j*R//N)."""
    # j*R//N == k  <=>  k*N <= j*R < (k+1)*N  <=>  ceil(k*N/R) <= j < ceil((k+1)*N/R)
    return -(-(k + 1) * n // rounds) - -(-k * n // rounds)


def _digest(row: dict[str, Any]) -> int:
    body = [row[c] for c in SCHEMA.names if c != "digest"]
    text = json.dumps(body, separators=(",", ":")).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "little", signed=True)


def _label(state: State, k: int, n: int, where: str, enc: Encoding, c: dict[str, int]) -> Any:
    legal = state.legal_moves
    search_seed = random.Random(f"{where}:{k}:{n}").getrandbits(53)
    values = evaluate(state.view(state.turn), iterations=c["iterations"], seed=search_seed)
    row: dict[str, Any] = {
        "round": k,
        "move": n,
        "seat": state.turn,
        "legal": [enc.action(m) for m in legal],
        "search_seed": search_seed,
        # float32 on disk: rounded here so the digest is of the values stored
        "search_penalty": pa.array([v.penalty for v in values], pa.float32()).to_pylist(),
        "search_win": pa.array([v.win for v in values], pa.float32()).to_pylist(),
    }
    try:
        sol = solve(state, nodes=c["nodes"])
    except BudgetError:
        row.update(solved=False, nodes=c["nodes"], solver_penalty=None)
    else:
        exact = [sol.values[m][state.turn] for m in legal]
        row.update(solved=True, nodes=sol.nodes, solver_penalty=exact)
    me = state.turn
    ends = [playout(apply(state, m), policy=heuristic_policy).penalties()[me] for m in legal]
    row["clairvoyant_penalty"] = ends
    row["digest"] = _digest(row)
    return row


def _chosen(
    rounds: pa.Table, seed: int, preset: str, players: int, command: dict[str, Any]
) -> Iterator[tuple[int, int, State]]:
    """The decisions a rounds table's labels are of: (round, move number, state), in order."""
    enc = Encoding(rules_of(preset, players))
    where = f"label:{seed}:{preset}:{players}"
    total, n = int(command["rounds"]), int(command["label"]["decisions"])
    for k, deal_seed, actions in zip(
        rounds.column("round").to_pylist(),
        rounds.column("seed").to_pylist(),
        rounds.column("moves").to_pylist(),
        strict=True,
    ):
        m = _count(k, total, n)
        if not m:
            continue
        states, state = [], deal(enc.rules, seed=deal_seed)
        for action in actions:
            states.append(state)
            state = state.apply(enc.move(action))
        choices = [j for j, s in enumerate(states) if len(s.legal_moves) > 1]
        for j in sorted(random.Random(f"{where}:{k}").sample(choices, min(m, len(choices)))):
            yield k, j, states[j]


def label_rows(
    rounds: pa.Table, seed: int, preset: str, players: int, command: dict[str, Any]
) -> list[dict[str, Any]]:
    """The labels of a rounds table of the partition ``(preset, players)``."""
    enc = Encoding(rules_of(preset, players))
    where = f"label:{seed}:{preset}:{players}"
    c = command["label"]
    return [
        _label(state, k, n, where, enc, c)
        for k, n, state in _chosen(rounds, seed, preset, players, command)
    ]


def _partition(rounds_path: str) -> tuple[str, int]:
    """The preset and table size of a rounds part, from its path."""
    _, preset, players, _ = rounds_path.split("/")
    return preset.removeprefix("preset="), int(players.removeprefix("players="))


def write_labels(root: str, rounds_path: str, seed: int, command: dict[str, Any]) -> str:
    """Write the labels of a written rounds part; return their path."""
    rounds = pq.read_table(Path(root) / rounds_path)
    rows = label_rows(rounds, seed, *_partition(rounds_path), command)
    rel = labels_path(rounds_path)
    path = Path(root) / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    pq.write_table(pa.Table.from_pylist(rows, schema=SCHEMA), tmp, **_WRITE)
    os.replace(tmp, path)
    return rel


def labels_problems(
    root: Path, rounds_path: str, command: dict[str, Any], entry: dict[str, Any]
) -> list[str]:
    """What in the labels of a rounds part does not agree: a row whose digest does not
    match it, labels not at the decisions the seed chooses, bytes that differ from the
    manifest entry's ``labels_sha256``."""
    rel = labels_path(rounds_path)
    if not (root / rel).is_file():
        return [f"{rel}: missing (the build did not finish: run it again)"]
    try:
        found = pq.read_table(root / rel)
    except (OSError, ValueError) as err:
        return [f"{rel}: cannot be read as Parquet ({type(err).__name__})"]
    if [(f.name, f.type) for f in found.schema] != [(f.name, f.type) for f in SCHEMA]:
        return [f"{rel}: its columns are not those of a data set's labels"]
    problems = []
    for i, row in enumerate(found.to_pylist()):
        try:
            edited = row["digest"] != _digest(row)
        except (TypeError, ValueError):
            edited = True
        if edited:
            problems.append(f"{rel} row {i}: the digest does not match the label (edited?)")
    if problems:
        return problems
    rounds = pq.read_table(root / rounds_path)
    enc = Encoding(rules_of(*_partition(rounds_path)))
    places = [
        (k, n, state.turn, [enc.action(m) for m in state.legal_moves])
        for k, n, state in _chosen(rounds, int(command["seed"]), *_partition(rounds_path), command)
    ]
    if [(r["round"], r["move"], r["seat"], r["legal"]) for r in found.to_pylist()] != places:
        return [f"{rel}: its labels are not at the decisions the seed chooses"]
    if hashlib.sha256((root / rel).read_bytes()).hexdigest() != entry.get("labels_sha256"):
        return [f"{rel}: its bytes differ from the manifest's labels_sha256 (rewritten?)"]
    return []


def labels(directory: str | os.PathLike[str]) -> Iterator[pa.Table]:
    """The labels of the data set in ``directory``: one Arrow table per rounds part, in the
    manifest's order (none if it was built without ``--label``).

    >>> import tempfile
    >>> from chickenfoot.agents import GreedyAgent
    >>> from chickenfoot.dataset import build
    >>> folder = tempfile.mkdtemp()
    >>> _ = build(folder, rounds=2, agents=[("greedy", GreedyAgent())], players=[2],
    ...           presets=["house"], seed=1, label=2, label_iterations=8, label_nodes=100)
    >>> t = next(labels(folder))
    >>> t.num_rows, t.column_names[:4]
    (2, ['round', 'move', 'seat', 'legal'])
    """
    root = Path(directory)
    manifest = read_manifest(root)
    if "label" not in manifest["command"]:
        return
    for entry in manifest["parts"]:
        yield pq.read_table(root / labels_path(str(entry["path"])))
