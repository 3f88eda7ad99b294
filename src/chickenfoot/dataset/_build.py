"""Building a data set of rounds: parts written whole, a manifest, resumable, deterministic."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any, Final

import pyarrow.parquet as pq

from chickenfoot import _checks as checks
from chickenfoot.agents import Agent, check_agents
from chickenfoot.dataset._card import card
from chickenfoot.dataset._labels import (
    DEFAULT_ITERATIONS,
    DEFAULT_NODES,
    label_command,
    labels_path,
    write_labels,
)
from chickenfoot.dataset._manifest import ENGINES, MANIFEST, MAX_ROUNDS, read_manifest
from chickenfoot.dataset._rows import FORMAT, play, rules_of, table_of
from chickenfoot.errors import FormatError
from chickenfoot.rules import PRESETS

# Writer options fixed here so that the same rows give the same bytes: no statistics that
# depend on the pyarrow build beyond its name, zstd at a fixed level.
_WRITE: Final[dict[str, Any]] = {
    "compression": "zstd",
    "compression_level": 9,
    "use_dictionary": ["preset", "agents.list.element", "ending"],
    "write_statistics": ["round", "seed"],
    "store_schema": False,
}


def part_path(preset: str, players: int, part: int) -> str:
    """Where a part lives, relative to the data set's directory."""
    return f"rounds/preset={preset}/players={players}/part-{part:05d}.parquet"


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _write_json(path: Path, obj: object) -> None:
    _write_bytes(path, (json.dumps(obj, indent=2, sort_keys=True) + "\n").encode())


def _write_bytes(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def write_part(
    root: str,
    seed: int,
    preset: str,
    players: int,
    part: int,
    first: int,
    count: int,
    names: tuple[str, ...],
    agents: tuple[Agent, ...],
    decisions: bool = False,
    engine: str = "core",
    labelled: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Play and write one part (a top-level, picklable task): its manifest entry.
    ``labelled``: the build's command when it labels decisions (``--label``)."""
    if engine == "batch":
        from chickenfoot.dataset._batch import play_part

        table = play_part(seed, preset, players, part, first, count, names)
    else:
        table = table_of(
            [play(seed, preset, players, k, names, agents) for k in range(first, first + count)]
        )
    rel = part_path(preset, players, part)
    path = Path(root) / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    pq.write_table(table, tmp, **_WRITE)
    os.replace(tmp, path)
    entry = {"path": rel, "rounds": count, "sha256": _sha256(path)}
    if decisions:
        from chickenfoot.dataset._decisions import write_decisions

        written = write_decisions(root, rel, preset, players)
        entry["decisions_sha256"] = _sha256(Path(root) / written)
    if labelled is not None:
        entry["labels_sha256"] = _sha256(Path(root) / write_labels(root, rel, seed, labelled))
    return entry


def _command(
    rounds: int,
    names: Sequence[str],
    players: Sequence[int],
    presets: Sequence[str],
    seed: int,
    part_rounds: int,
    decisions: bool,
    engine: str,
) -> dict[str, Any]:
    return {
        "engine": engine,
        "rounds": rounds,
        "agents": list(names),
        "players": list(players),
        "presets": list(presets),
        "seed": seed,
        "part_rounds": part_rounds,
        "decisions": decisions,
    }


def _start(root: Path, command: dict[str, Any], version: str) -> dict[str, str]:
    """The parts already written by an earlier run of the same command (path: sha256)."""
    if root.exists() and not root.is_dir():
        raise FormatError(str(root), "is not a directory")
    if not root.exists() or not any(root.iterdir()):
        return {}
    manifest = read_manifest(root)
    if manifest.get("version") != version:
        raise FormatError(
            str(root),
            f"holds a data set of chickenfoot version {manifest.get('version')}, "
            f"not {version}: build into another directory",
        )
    if manifest["command"] != command:
        raise FormatError(
            str(root), "holds another data set (built by another command): use another directory"
        )
    done = {}
    for entry in manifest["parts"]:
        path = root / str(entry.get("path"))
        if not path.is_file() or _sha256(path) != entry.get("sha256"):
            continue
        if command["decisions"]:
            from chickenfoot.dataset._decisions import decisions_path

            written = root / decisions_path(str(entry["path"]))
            if not written.is_file() or _sha256(written) != entry.get("decisions_sha256"):
                continue
        if "label" in command:
            written = root / labels_path(str(entry["path"]))
            if not written.is_file() or _sha256(written) != entry.get("labels_sha256"):
                continue
        done[entry["path"]] = entry
    return done


def _check_args(
    rounds: int,
    names: Sequence[str],
    agents: Sequence[Agent],
    players: Sequence[int],
    presets: Sequence[str],
    part_rounds: int,
    seed: int,
    engine: str,
) -> None:
    checks.integer(rounds, "rounds", low=1, high=MAX_ROUNDS)
    if engine not in ENGINES:
        raise checks.invalid("engine", engine, f"must be one of {', '.join(ENGINES)}")
    if engine == "batch":
        from chickenfoot.batch import BUILT_IN

        for name in names:
            if name not in BUILT_IN:
                must = f"must be among {', '.join(BUILT_IN)} with engine batch"
                raise checks.invalid("agents", name, must)
    checks.integer(part_rounds, "part_rounds", low=1, high=10_000_000)
    checks.seed(seed)
    check_agents(agents, len(agents))
    if len(names) != len(agents) or not agents:
        raise checks.invalid("names", names, "must name each agent")
    for p in players:
        checks.integer(p, "players", low=2, high=8)
    for name in presets:
        if name not in PRESETS:
            raise checks.invalid("presets", name, f"must be among {', '.join(PRESETS)}")
        for p in players:
            rules_of(name, p)  # RulesError if the preset has no such table


def build(
    directory: str | os.PathLike[str],
    *,
    rounds: int,
    agents: Sequence[tuple[str, Agent]],
    players: Sequence[int],
    presets: Sequence[str],
    seed: int,
    part_rounds: int = 10_000,
    decisions: bool = False,
    label: int = 0,
    label_iterations: int = DEFAULT_ITERATIONS,
    label_nodes: int = DEFAULT_NODES,
    executor: Executor | None = None,
    progress: Callable[[int, int], object] | None = None,
    engine: str = "core",
) -> dict[str, Any]:
    """Build (or continue) a data set of ``rounds`` rounds per preset and table size.

    ``agents`` are ``(name, agent)`` pairs (the names are recorded); seat ``i`` of round
    ``k`` is played by ``agents[(k + i) % len(agents)]``. Parts of ``part_rounds`` rounds
    are tasks for ``executor`` (``None``: played here); the bytes written do not depend on
    it. ``engine``: ``"core"`` (every agent, played through the core) or ``"batch"`` (the
    batch engine's compiled agents, named ``random``, ``greedy`` and ``heuristic``: the
    same deals, faster, other moves; needs numba; docs/dataset.md, "Engines"). With
    ``decisions``, each part's decisions are written too, under ``decisions/`` (as
    :func:`~chickenfoot.dataset.decisions` replays them). With ``label``, that many
    decisions of each partition are labelled, every legal move valued by the search
    (``label_iterations`` deals) and the solver (``label_nodes`` nodes), under ``labels/``
    (:func:`~chickenfoot.dataset.labels`; docs/dataset.md, "Labels").
    A directory that holds another data set, or one of another version, raises
    :class:`~chickenfoot.FormatError`; one that holds this command's parts keeps them.
    Returns the manifest.

    >>> import tempfile
    >>> from chickenfoot.agents import RandomAgent
    >>> m = build(tempfile.mkdtemp(), rounds=2, agents=[("random", RandomAgent())],
    ...           players=[3], presets=["classic"], seed=7)
    >>> m["complete"], [p["rounds"] for p in m["parts"]]
    (True, [2])
    """
    from chickenfoot import __version__

    names = tuple(n for n, _ in agents)
    played = tuple(a for _, a in agents)
    _check_args(rounds, names, played, players, presets, part_rounds, seed, engine)
    root = Path(directory)
    checks.flag(decisions, "decisions")
    command = _command(rounds, names, players, presets, seed, part_rounds, decisions, engine)
    checks.integer(label, "label", low=0, high=100_000_000)
    if label:
        command["label"] = label_command(label, label_iterations, label_nodes)
    done = _start(root, command, __version__)
    root.mkdir(parents=True, exist_ok=True)
    for stale in root.rglob("*.tmp"):
        stale.unlink()
    manifest: dict[str, Any] = {
        "format": FORMAT,
        "version": __version__,
        "command": command,
        "parts": sorted(done.values(), key=lambda e: e["path"]),
        "complete": False,
    }
    _write_json(root / MANIFEST, manifest)
    tasks: list[tuple[Any, ...]] = []
    for preset in presets:
        for p in players:
            for part, first in enumerate(range(0, rounds, part_rounds)):
                if part_path(preset, p, part) not in done:
                    count = min(part_rounds, rounds - first)
                    task = (str(root), seed, preset, p, part, first, count, names, played)
                    labelled = command if label else None
                    # the arguments of write_part
                    tasks.append((*task, decisions, engine, labelled))
    total = len(tasks)

    def finish(entry: dict[str, Any]) -> None:
        manifest["parts"] = sorted([*manifest["parts"], entry], key=lambda e: e["path"])
        _write_json(root / MANIFEST, manifest)
        if progress is not None:
            progress(len(manifest["parts"]) - len(done), total)

    if executor is None:
        for task in tasks:
            finish(write_part(*task))
    else:
        futures: list[Future[dict[str, Any]]] = [executor.submit(write_part, *t) for t in tasks]
        try:
            for future in futures:
                finish(future.result())
        finally:
            for future in futures:
                future.cancel()
    manifest["complete"] = True
    _write_json(root / MANIFEST, manifest)
    _write_bytes(root / "README.md", card(manifest).encode())
    return manifest
