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
from chickenfoot.dataset._rows import FORMAT, play, rules_of, table_of
from chickenfoot.errors import FormatError
from chickenfoot.rules import PRESETS

MANIFEST: Final = "manifest.json"
MAX_ROUNDS: Final = 100_000_000
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
) -> dict[str, Any]:
    """Play and write one part (a top-level, picklable task): its manifest entry."""
    rows = [play(seed, preset, players, k, names, agents) for k in range(first, first + count)]
    rel = part_path(preset, players, part)
    path = Path(root) / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    pq.write_table(table_of(rows), tmp, **_WRITE)
    os.replace(tmp, path)
    return {"path": rel, "rounds": count, "sha256": _sha256(path)}


def _command(
    rounds: int,
    names: Sequence[str],
    players: Sequence[int],
    presets: Sequence[str],
    seed: int,
    part_rounds: int,
) -> dict[str, Any]:
    return {
        "rounds": rounds,
        "agents": list(names),
        "players": list(players),
        "presets": list(presets),
        "seed": seed,
        "part_rounds": part_rounds,
    }


def read_manifest(directory: str | os.PathLike[str]) -> dict[str, Any]:
    """The manifest of the data set in ``directory``, checked to be one (FormatError if not).

    >>> read_manifest("/nonexistent")
    Traceback (most recent call last):
    ...
    chickenfoot.errors.FormatError: /nonexistent: not a chickenfoot data set (no manifest.json)
    """
    root = Path(directory)
    path = root / MANIFEST
    if not path.is_file():
        raise FormatError(str(root), "not a chickenfoot data set (no manifest.json)")
    try:
        obj = json.loads(path.read_bytes())
    except (OSError, ValueError) as err:
        raise FormatError(str(path), f"cannot be read as JSON ({type(err).__name__})") from None
    if not isinstance(obj, dict) or obj.get("format") != FORMAT:
        raise FormatError(str(path), f"not a chickenfoot data set (format is not {FORMAT!r})")
    if not isinstance(obj.get("parts"), list) or not isinstance(obj.get("command"), dict):
        raise FormatError(str(path), "the manifest has no parts or command list")
    command = obj["command"]
    kinds = {"rounds": int, "seed": int, "part_rounds": int}
    wrong = [k for k, kind in kinds.items() if type(command.get(k)) is not kind]
    if not wrong and not (1 <= command["rounds"] <= MAX_ROUNDS and command["part_rounds"] >= 1):
        wrong.append("rounds")
    items = {"agents": str, "players": int, "presets": str}
    for key, kind in items.items():
        values = command.get(key)
        if not isinstance(values, list) or any(type(v) is not kind for v in values):
            wrong.append(key)
    if "players" not in wrong and not all(2 <= p <= 8 for p in command["players"]):
        wrong.append("players")
    if "presets" not in wrong and not all(p in PRESETS for p in command["presets"]):
        wrong.append("presets")
    if wrong or not all(isinstance(e, dict) for e in obj["parts"]):
        what = ", ".join(sorted(set(wrong))) or "parts"
        raise FormatError(str(path), f"the manifest's {what} is not as a build writes it")
    return obj


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
        if path.is_file() and _sha256(path) == entry.get("sha256"):
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
) -> None:
    checks.integer(rounds, "rounds", low=1, high=MAX_ROUNDS)
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
    executor: Executor | None = None,
    progress: Callable[[int, int], object] | None = None,
) -> dict[str, Any]:
    """Build (or continue) a data set of ``rounds`` rounds per preset and table size.

    ``agents`` are ``(name, agent)`` pairs (the names are recorded); seat ``i`` of round
    ``k`` is played by ``agents[(k + i) % len(agents)]``. Parts of ``part_rounds`` rounds
    are tasks for ``executor`` (``None``: played here); the bytes written do not depend on
    it. A directory that holds another data set, or one of another version, raises
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
    _check_args(rounds, names, played, players, presets, part_rounds, seed)
    root = Path(directory)
    command = _command(rounds, names, players, presets, seed, part_rounds)
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
    tasks = []
    for preset in presets:
        for p in players:
            for part, first in enumerate(range(0, rounds, part_rounds)):
                if part_path(preset, p, part) not in done:
                    count = min(part_rounds, rounds - first)
                    tasks.append((str(root), seed, preset, p, part, first, count, names, played))
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
