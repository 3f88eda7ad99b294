"""Fuzz targets of the saved games of ``chickenfoot play`` (issue 29: opening a save file
must run no code), ``chickenfoot/play`` documents.

Importing this module registers them in ``fuzz_targets.TARGETS`` (``bench/fuzz.py`` imports
every ``tests*/fuzz_*.py``); ``tests/test_fuzz_saves.py`` runs each on a short fixed budget.

Inputs: real saves (a match or a round, of 2 to 4 players) whose ``bots`` name agents in
every form a spec takes (built-in names in any case, ``search:N``, ``engine:COMMAND`` with
commands that would leave a mark, ``module:Class`` for modules planted in the working
directory and for the standard library's ``os``, ``subprocess``...), then mutated (values
swapped, keys dropped and added, see ``fuzz_targets``).

The property is ``fuzz_targets.check``'s, and on top of it, while the call runs:

* no program is started: an audit hook (``sys.addaudithook``, which cannot be removed, so
  it is installed once and acts only while a call is watched) records and refuses
  ``subprocess.Popen``, ``os.posix_spawn``, ``os.exec*``, ``os.spawn*``, ``os.system`` and
  ``os.fork``;
* no module that the document names is imported: ``importlib.import_module`` and a finder
  first on ``sys.meta_path`` record and refuse every import of such a name (the import
  statement and ``import_module`` both go through the finder; names already imported,
  such as ``os``, only through ``import_module``); and the planted modules leave a mark
  if they run at all, as an engine command would (a file ``RAN``).

``PlaySave.from_json``: returns a ``PlaySave`` (which reads back equal) or raises
``FormatError``. ``cli play SAVE``: ``chickenfoot play FILE`` (and ``validate``, ``show``
on the same file) with standard input at its end returns 0 (stderr empty, or bounded
``chickenfoot: ...`` warnings), or 2 with one bounded ``chickenfoot: error:`` line, never a
traceback. Today's ``play`` imports ``module:Class``
bots while it reads the save and starts ``engine:`` bots at their first turn: issue 29
part 1 makes a save name only built-in agents unless the user opts in.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.abc
import io
import json
import os
import re
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from hypothesis import strategies as st

import chickenfoot as cf
from chickenfoot.cli import main as cli_main
from chickenfoot.cli._save import PlaySave
from fuzz_targets import JSON_VALUES, MAX_MESSAGE, Case, _mutate, _target, describe, encode

__all__ = ["NAMES", "PLANTED", "SPECS", "Guard", "SaveRun", "play_save", "read_save"]

NAMES = ["PlaySave.from_json (runs nothing)", "cli play SAVE (runs nothing)"]
"""The targets this module registers."""

PLANTED = ("cf_sidecar", "sidecar", "mybot")
"""Modules written in the working directory of every call: importing one leaves a mark."""
_MODULE = """import builtins
builtins.__dict__.setdefault("_cf_fuzz_ran", []).append(__name__)
class Bot:
    def choose(self, view, legal, rng=None):
        return legal[0]
"""
SPECS = [
    "random", "greedy", "heuristic", "search", "search:4", "Search:3", "GREEDY", " random",
    "engine:sh -c 'touch RAN'", "engine:python3 -c \"open('RAN', 'w')\"", "engine:/bin/true",
    "ENGINE:touch RAN", " engine:touch RAN", "engine:", "engine: ", "engine:touch RAN; ls",
    "cf_sidecar:Bot", "sidecar:Bot", "mybot:Bot", "cf_sidecar.x:Bot", "mybot:Bot.choose",
    "os:system", "subprocess:Popen", "antigravity:x", "this:s", "module:Class", "sidecar:",
    ":Bot", "sidecar :Bot", "Sidecar:Bot",
]  # fmt: skip
"""Agent specs of every form, harmless and not."""

_PROCESS_EVENTS = ("subprocess.Popen", "os.posix_spawn", "os.exec", "os.spawn", "os.system")
_PROCESS_EVENTS += ("os.fork", "os.forkpty", "pty.spawn")
_BUILT_IN = {"random", "greedy", "heuristic", "search", "engine"}
_NAMED = re.compile(r"\s*([A-Za-z_][\w.]*)\s*:")


class RanError(Exception):
    """What the guard refused: a program started or a named module imported."""


def named_modules(doc: Any, limit: int = 2000) -> set[str]:
    """The top-level names of the modules that the strings in ``doc`` could name as
    ``module:Class`` (and the planted ones).

    >>> sorted(named_modules({"bots": ["search:4", "mybot:Bot", "os.path:x", "engine:ls"]}))
    ['cf_sidecar', 'mybot', 'os', 'sidecar']
    """
    found = set(PLANTED)
    stack, seen = [doc], 0
    while stack and seen < limit:
        v = stack.pop()
        seen += 1
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v[:50])
        elif isinstance(v, str):
            m = _NAMED.match(v[:200])
            if m and m.group(1).lower() not in _BUILT_IN:
                found.add(m.group(1).split(".")[0])
    return found


class _Finder(importlib.abc.MetaPathFinder):
    def __init__(self, guard: Guard) -> None:
        self.guard = guard

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> None:
        self.guard.check_import(name)
        return None


class Guard:
    """Watches one call: records (and refuses) programs started and named modules imported."""

    _active: Guard | None = None
    _hooked = False

    def __init__(self, names: set[str]) -> None:
        self.names = names
        self.events: list[str] = []

    def check_import(self, name: str) -> None:
        if name.split(".", maxsplit=1)[0] in self.names:
            self.events.append(f"imported {name!r}")
            raise RanError(f"the fuzz guard refused to import {name!r}")

    @classmethod
    def _hook(cls, event: str, args: tuple[Any, ...]) -> None:
        guard = cls._active
        if guard is not None and event.startswith(_PROCESS_EVENTS):
            what = describe(args[1] if event == "subprocess.Popen" else args[:1], 100)
            guard.events.append(f"{event} {what}")
            raise RanError(f"the fuzz guard refused {event}")

    @contextlib.contextmanager
    def watching(self) -> Iterator[None]:
        if not Guard._hooked:
            sys.addaudithook(Guard._hook)
            Guard._hooked = True
        for name in list(sys.modules):
            if name.split(".")[0] in PLANTED:
                del sys.modules[name]
        real = importlib.import_module
        guard = self

        def import_module(name: str, package: str | None = None) -> ModuleType:
            guard.check_import(name)
            return real(name, package)

        finder = _Finder(self)
        sys.meta_path.insert(0, finder)
        importlib.import_module = import_module  # type: ignore[assignment]
        Guard._active = self
        try:
            yield
        finally:
            Guard._active = None
            importlib.import_module = real
            sys.meta_path.remove(finder)
            marks = vars(sys.modules["builtins"]).pop("_cf_fuzz_ran", [])
            self.events += [f"the planted module {m!r} ran" for m in marks]


@contextlib.contextmanager
def _workdir() -> Iterator[str]:
    """A temporary working directory with the planted modules, for one call."""
    here = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="chickenfoot-fuzz-save-") as tmp:
        for name in PLANTED:
            with open(os.path.join(tmp, f"{name}.py"), "w", encoding="utf-8") as f:
                f.write(_MODULE)
        os.chdir(tmp)
        try:
            yield tmp
        finally:
            os.chdir(here)
            if os.path.exists(os.path.join(tmp, "RAN")):
                raise RanError("a command of the document ran (it wrote RAN)")


def _guarded(doc: Any, call: Any) -> Any:
    guard = Guard(named_modules(doc))
    error: BaseException | None = None
    result: Any = None
    with _workdir(), guard.watching():
        try:
            result = call()
        except Exception as err:
            error = err
    if guard.events:
        raise RanError("; ".join(dict.fromkeys(guard.events))[:300])
    if error is not None:
        raise error
    return result


# -- inputs -------------------------------------------------------------------------------------

_TINY = cf.Rules(players=2, max_pip=4, hand_size=4, opening_toes=2, foot_toes=1)


def _games() -> list[tuple[str, Any, Any]]:
    """``(name, game, seed)``: real games of a save, from their first decision to later."""
    out: list[tuple[str, Any, Any]] = []
    for players in (2, 3, 4):
        rules = _TINY if players == 2 else cf.Rules(players=players, max_pip=6, hand_size=5)
        m = cf.Match.start(rules.replace(match=cf.Rounds(2)), seed=players)
        out.append((f"a match of {players}", m, players))
        for _ in range(3):
            if m.round is not None:
                m = m.apply(m.legal_moves[-1])
        out.append((f"a match of {players}, 3 moves on", m, players))
        rec = cf.Record(cf.deal(rules, seed=players + 10))
        out.append((f"a round of {players}", rec, players + 10))
    return out


_GAMES = _games()
_SEARCH = re.compile(r"(?i)^\s*search\s*:\s*(\d+)\s*$")


def _short(doc: Any) -> Any:
    """A save whose bots search long (``search:N``, N over 16) is legal but slow: N := 4."""
    if isinstance(doc, dict) and isinstance(doc.get("bots"), list):
        bots = doc["bots"]
        for i, b in enumerate(bots[:50]):
            if isinstance(b, str) and (m := _SEARCH.match(b[:50])) and int(m.group(1)) > 16:
                bots[i] = "search:4"
    return doc


_VALUES = st.one_of(
    JSON_VALUES.filter(lambda v: not isinstance(v, str) or len(v) <= 10_000),
    st.sampled_from(SPECS),
)
"""Values for the mutations (no long strings: a tweak repeats a string 100,000 times)."""


@st.composite
def _saves(draw: st.DrawFn) -> tuple[Any, str]:
    name, game, seed = draw(st.sampled_from(_GAMES))
    players = game.rules.players if isinstance(game, cf.Match) else game.start.rules.players
    seat = draw(st.integers(0, players - 1))
    bots = tuple(draw(st.lists(st.sampled_from(SPECS), min_size=players - 1, max_size=players - 1)))
    doc = PlaySave(game, seat=seat, bots=bots, seed=seed, watch=draw(st.booleans())).to_dict()
    notes = [f"{name}, seat {seat}, bots {list(bots)}"]
    for _ in range(draw(st.integers(0, 3))):
        doc, note = _mutate(draw, doc, _VALUES)
        notes.append(note)
    return _short(doc), "; ".join(notes)


@st.composite
def _read_cases(draw: st.DrawFn) -> Case:
    doc, note = draw(_saves())
    form = draw(st.sampled_from(["str", "str", "bytes"]))
    text = encode(doc)
    return Case(text if form == "str" else text.encode(), note=note)


def _doc(text: str | bytes) -> Any:
    """The JSON value of ``text`` (for the names it holds), or ``None``."""
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def read_save(text: str | bytes) -> Any:
    """``PlaySave.from_json(text)``, watched."""
    return _guarded(_doc(text), lambda: PlaySave.from_json(text))


def _reads_back(case: Case, result: Any) -> str | None:
    if not isinstance(result, PlaySave):
        return f"returned {describe(result, 60)}, not a PlaySave"
    if PlaySave.from_dict(result.to_dict()) != result:
        return "the save does not read back equal from its own to_dict()"
    return None


_target("PlaySave.from_json (runs nothing)", _read_cases(), read_save, _reads_back)


# -- chickenfoot play FILE -------------------------------------------------------------------------


@dataclass
class SaveRun:
    """What ``chickenfoot ARGV FILE`` returned and printed."""

    status: Any
    stdout: str = ""
    stderr: str = ""
    events: list[str] = field(default_factory=list)


@st.composite
def _play_cases(draw: st.DrawFn) -> Case:
    doc, note = draw(_saves())
    command = draw(st.sampled_from([["play"], ["play"], ["play"], ["validate"], ["show"]]))
    return Case(command, encode(doc), note=note)


def play_save(command: Sequence[str], text: str) -> SaveRun:
    """``chickenfoot COMMAND save.json`` with the save ``text``, standard input at its end."""
    doc = _doc(text)
    out, err = io.StringIO(), io.StringIO()

    def run() -> Any:
        with open("save.json", "w", encoding="utf-8", errors="surrogatepass") as f:
            f.write(text)
        stdin = sys.stdin
        sys.stdin = io.StringIO("")
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                return cli_main([*command, "save.json"])
        finally:
            sys.stdin = stdin

    status = _guarded(doc, run)
    return SaveRun(status, out.getvalue(), err.getvalue())


_ERROR_LINE = re.compile(r"chickenfoot: error: ([^\n]*)\n\Z")


def _play_ok(case: Case, run: SaveRun) -> str | None:
    if type(run.status) is not int:
        return f"main returned {describe(run.status, 60)}, not an int"
    if "Traceback" in run.stderr or "Traceback" in run.stdout:
        return "a traceback"
    if run.status == 0:  # a warning may say what the bots of the file fall back to
        lines = run.stderr.splitlines()
        if all(x.startswith("chickenfoot: ") and len(x) <= MAX_MESSAGE for x in lines):
            return None
        return f"status 0 with {describe(run.stderr, 200)} on stderr"
    line = _ERROR_LINE.match(run.stderr)
    if run.status != 2 or line is None:
        return f"status {run.status}, stderr {describe(run.stderr, 200)}"
    if len(line.group(1)) > MAX_MESSAGE:
        return f"an error line of {len(line.group(1)):,} characters"
    return None


_target("cli play SAVE (runs nothing)", _play_cases(), play_save, _play_ok)
