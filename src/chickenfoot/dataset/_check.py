"""``check``: replay every round of a data set and list what does not agree."""

from __future__ import annotations

import hashlib
import os
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from chickenfoot.dataset._build import part_path
from chickenfoot.dataset._manifest import read_manifest
from chickenfoot.dataset._rows import SCHEMA, digest, digests, round_rng, rules_of, seats
from chickenfoot.deal import deal
from chickenfoot.encoding import Encoding
from chickenfoot.errors import ChickenFootError, brief


def _expected(command: dict[str, Any]) -> dict[str, tuple[str, int, int, int]]:
    """Every part the command makes: path -> (preset, players, first round, rounds)."""
    out = {}
    n, size = int(command["rounds"]), int(command["part_rounds"])
    for preset in command["presets"]:
        for p in command["players"]:
            for part, first in enumerate(range(0, n, size)):
                out[part_path(preset, p, part)] = (preset, p, first, min(size, n - first))
    return out


def replay_problems(row: dict[str, Any], enc: Encoding) -> list[str]:
    """What in ``row`` the rules do not agree with: its moves, penalties and ending."""
    rules = enc.rules
    try:
        state = deal(rules, seed=row["seed"])
    except ChickenFootError as err:
        return [f"seed {brief(row['seed'])} cannot be dealt ({brief(str(err), 80)})"]
    for n, action in enumerate(row["moves"]):
        if state.is_over():
            return [f"move {n} comes after the end of the round"]
        try:
            state = state.apply(enc.move(action))
        except ChickenFootError:
            return [f"move {n} (action {action}) is not legal here"]
    if not state.is_over():
        return [f"the moves stop before the end of the round (after {len(row['moves'])})"]
    problems = []
    if list(state.penalties()) != row["penalties"]:
        problems.append(
            f"penalties {row['penalties']} are recorded, the moves give {list(state.penalties())}"
        )
    outcome = state.outcome()
    assert outcome is not None
    if (row["ending"], row["out"]) != (outcome.termination.value, outcome.seat):
        problems.append(
            f"ending {row['ending']} (seat {row['out']}) is recorded, the moves give "
            f"{outcome.termination.value} (seat {outcome.seat})"
        )
    return problems


def _row_problems(
    row: dict[str, Any],
    k: int,
    where: tuple[str, int],
    command: dict[str, Any],
    enc: Encoding,
    replay: bool = True,
) -> list[str]:
    preset, players = where
    if (row["preset"], row["players"]) != where:
        return [f"preset {row['preset']} and {row['players']} players, but its part is {where}"]
    problems = []
    if row["round"] != k:
        problems.append(f"round {row['round']} where round {k} belongs")
    seed = round_rng(int(command["seed"]), preset, players, k).getrandbits(53)
    if row["seed"] != seed:
        problems.append(f"seed {row['seed']} is not round {k}'s seed {seed}")
    names = command["agents"]
    if row["agents"] != [names[i] for i in seats(names, players, k)]:
        problems.append(f"agents {row['agents']} are not the seating of round {k}")
    if row["digest"] != digest(row):
        problems.append("the digest does not match the row (edited?)")
    return problems + (replay_problems(row, enc) if replay else [])


def _suspects(table: Any, preset: str, players: int) -> set[int] | range:
    """The rows to replay through the core: those the compiled replay (numba) does not
    agree with, or every row without numba or with a null in a column it reads."""
    every = range(table.num_rows)
    if not table.num_rows or any(table.column(c).null_count for c in _REPLAYED):
        return every
    from chickenfoot.dataset._batch import LANES, disagreeing, engine_for

    eng = engine_for(preset, players, min(table.num_rows, LANES))
    return every if eng is None else disagreeing(eng, table)


_REPLAYED = ("seed", "penalties", "ending", "moves")


def _flagged(table: Any, first: int, preset: str, players: int, command: dict[str, Any]) -> Any:
    """The rows whose partition, round, seed, seating or digest may not be right, found on
    whole columns (numpy, Arrow): :func:`_row_problems` says which, for these rows only."""
    n = table.num_rows
    bad = np.zeros(n, dtype=bool)
    for name in SCHEMA.names:
        if table.column(name).null_count and not SCHEMA.field(name).nullable:
            bad |= pc.is_null(table.column(name)).to_numpy(zero_copy_only=False)
    bad |= ~pc.fill_null(pc.equal(table.column("preset"), preset), False).to_numpy(False)
    column = table.column("players").fill_null(0).to_numpy()
    bad |= column != players
    ks = first + np.arange(n, dtype=np.int64)
    bad |= table.column("round").fill_null(-1).to_numpy() != ks
    seed = int(command["seed"])
    want = [round_rng(seed, preset, players, k).getrandbits(53) for k in ks.tolist()]
    bad |= table.column("seed").fill_null(-1).to_numpy() != np.array(want, dtype=np.int64)
    agents = table.column("agents").combine_chunks()
    bad |= pc.fill_null(pc.list_value_length(agents), 0).to_numpy() != players
    names = command["agents"]
    seat = pc.index_in(pc.list_flatten(agents), value_set=pa.array(names, pa.string()))
    parent = pc.list_parent_indices(agents).to_numpy()
    if len(parent):  # agent j of row r sits at seat j: it is names[(k + j) % len(names)]
        offsets = agents.offsets.to_numpy()
        starts = offsets[parent] - offsets[0]
        j = np.arange(len(parent)) - starts
        first_of = np.array([names.index(x) for x in names])  # index_in: a name's first
        wrong = seat.fill_null(-1).to_numpy() != first_of[(ks[parent] + j) % len(names)]
        bad[parent[wrong]] = True
    values, exact = digests(table)
    bad |= ~exact | (table.column("digest").fill_null(0).to_numpy() != values)
    return np.flatnonzero(bad).tolist()


def _check_part(
    root: Path,
    rel: str,
    spec: tuple[str, int, int, int],
    entry: dict[str, Any],
    command: dict[str, Any],
) -> list[str]:
    preset, players, first, count = spec
    path = root / rel
    try:
        table = pq.read_table(path)
    except (OSError, ValueError) as err:  # pyarrow's errors are OSError/ValueError subclasses
        return [f"{rel}: cannot be read as Parquet ({brief(' '.join(str(err).split()), 120)})"]
    if [(f.name, f.type) for f in table.schema] != [(f.name, f.type) for f in SCHEMA]:
        return [f"{rel}: its columns are not those of a chickenfoot data set"]
    problems = []
    if table.num_rows != count:
        problems.append(f"{rel}: {table.num_rows} rows where {count} belong")
    enc = Encoding(rules_of(preset, players))
    suspect = _suspects(table, preset, players)
    names = SCHEMA.names
    nulls = any(table.column(c).null_count for c in names if not SCHEMA.field(c).nullable)
    looked = sorted(set(suspect) | set(_flagged(table, first, preset, players, command)))
    for i, row in zip(looked, table.take(looked).to_pylist() if looked else [], strict=True):
        empty = (
            [c for c in names if row[c] is None and not SCHEMA.field(c).nullable] if nulls else []
        )
        if empty:
            problems.append(f"{rel} row {i}: no value in {', '.join(empty)}")
            continue
        try:
            found = _row_problems(row, first + i, (preset, players), command, enc, i in suspect)
        except (TypeError, ValueError, KeyError, IndexError) as err:
            found = [f"cannot be replayed ({type(err).__name__})"]
        problems += [f"{rel} row {i}: {p}" for p in found]
    if not problems and hashlib.sha256(path.read_bytes()).hexdigest() != entry.get("sha256"):
        problems.append(f"{rel}: its bytes differ from the manifest's sha256 (rewritten?)")
    if not problems and command["decisions"]:
        from chickenfoot.dataset._decisions import decisions_problems

        problems += decisions_problems(root, rel, preset, players)
    if not problems and "label" in command:
        from chickenfoot.dataset._labels import labels_problems

        problems += labels_problems(root, rel, command, entry)
    return problems


def check(directory: str | os.PathLike[str], *, executor: Executor | None = None) -> list[str]:
    """Replay every round of the data set in ``directory``: one line per disagreement.

    Each round's seed, seating and digest are checked against the manifest's command, its
    moves against the rules, its penalties and ending against the replay; a part that cannot
    be read, is missing or is not listed is a line too. Raises
    :class:`~chickenfoot.FormatError` if ``directory`` holds no data set. With numba the
    rounds are replayed by the batch engine's compiled replay, and the core replays only
    the rows it does not agree with (for the words). ``executor`` checks the parts as its
    tasks (a process pool: one core each); the lines are the same, in the same order.

    >>> import tempfile
    >>> from chickenfoot.agents import GreedyAgent
    >>> from chickenfoot.dataset import build
    >>> folder = tempfile.mkdtemp()
    >>> _ = build(folder, rounds=2, agents=[("greedy", GreedyAgent())], players=[2],
    ...           presets=["house"], seed=1)
    >>> check(folder)
    []
    """
    root = Path(directory)
    manifest = read_manifest(root)
    command = manifest["command"]
    expected = _expected(command)
    listed = {str(e.get("path")): e for e in manifest["parts"] if isinstance(e, dict)}
    problems = [f"{rel}: is not in the manifest" for rel in sorted(set(listed) - set(expected))]
    found: list[list[str] | Future[list[str]]] = []
    for rel, spec in expected.items():
        if rel not in listed:
            found.append([f"{rel}: missing (the build did not finish: run it again)"])
        elif not (root / rel).is_file():
            found.append([f"{rel}: listed in the manifest but not on disk"])
        elif executor is None:
            found.append(_check_part(root, rel, spec, listed[rel], command))
        else:
            found.append(executor.submit(_check_part, root, rel, spec, listed[rel], command))
    try:
        for f in found:
            problems += f if isinstance(f, list) else f.result()
    finally:
        for f in found:
            if not isinstance(f, list):
                f.cancel()
    problems += [f"{rel}: a file that is not in the manifest" for rel in _strays(root, command)]
    return problems


_TREES = ("decisions", "labels", "rounds")
"""The directories of a data set's parts: every file in them belongs to a part."""


def _strays(root: Path, command: dict[str, Any]) -> list[str]:
    """The files under the parts' directories that no part of the command is (a rounds part
    not asked for, labels or decisions of a build without them, a ``.tmp`` left over...)."""
    belong = set(_expected(command))
    if command["decisions"]:
        from chickenfoot.dataset._decisions import decisions_path

        belong |= {decisions_path(rel) for rel in _expected(command)}
    if "label" in command:
        from chickenfoot.dataset._labels import labels_path

        belong |= {labels_path(rel) for rel in _expected(command)}
    found = (p for tree in _TREES for p in (root / tree).rglob("*") if not p.is_dir())
    return sorted(
        rel for rel in (p.relative_to(root).as_posix() for p in found) if rel not in belong
    )
