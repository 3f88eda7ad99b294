"""A data set's manifest: read and checked to be as a build writes it."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Final

from chickenfoot.dataset._rows import FORMAT
from chickenfoot.errors import FormatError
from chickenfoot.rules import PRESETS

MANIFEST: Final = "manifest.json"
MAX_ROUNDS: Final = 100_000_000
ENGINES: Final = ("core", "batch")
"""Who plays a data set's rounds: the core (any agent) or the batch engine's kernel."""


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
    if type(command.get("decisions")) is not bool:
        wrong.append("decisions")
    if command.get("engine") not in ENGINES:
        wrong.append("engine")
    items = {"agents": str, "players": int, "presets": str}
    for key, kind in items.items():
        values = command.get(key)
        if not isinstance(values, list) or any(type(v) is not kind for v in values):
            wrong.append(key)
    if "players" not in wrong and not all(2 <= p <= 8 for p in command["players"]):
        wrong.append("players")
    if "presets" not in wrong and not all(p in PRESETS for p in command["presets"]):
        wrong.append("presets")
    label = command.get("label", {"decisions": 1, "iterations": 1, "nodes": 1})
    if not (
        isinstance(label, dict)
        and sorted(label) == ["decisions", "iterations", "nodes"]
        and all(type(v) is int and v >= 1 for v in label.values())
    ):
        wrong.append("label")
    if not wrong and not all(_is_part(e, command) for e in obj["parts"]):
        wrong.append("parts")
    if wrong:
        what = ", ".join(sorted(set(wrong)))
        raise FormatError(str(path), f"the manifest's {what} is not as a build writes it")
    return obj


_PART: Final = re.compile(r"rounds/preset=([a-z-]+)/players=([0-9])/part-[0-9]{5,9}\.parquet")
_SHA256: Final = re.compile(r"[0-9a-f]{64}")


def _is_part(entry: object, command: dict[str, Any]) -> bool:
    """Whether a manifest's part is one a build of its command writes: a rounds file of one
    of its partitions (never a path that leads out of the data set: every reader opens it),
    its round count and its sha256."""
    if not isinstance(entry, dict):
        return False
    form = _PART.fullmatch(str(entry.get("path")))
    return (
        form is not None
        and form[1] in command["presets"]
        and int(form[2]) in command["players"]
        and type(entry.get("rounds")) is int
        and entry["rounds"] >= 0
        and _SHA256.fullmatch(str(entry.get("sha256"))) is not None
    )
