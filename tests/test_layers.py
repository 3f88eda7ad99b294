"""The plan of the package holds: layers with no way back up, no import circles, no private
names taken from another module, every module under 500 lines (CONTRIBUTING.md, "The
layers").

Imports are read from the source with ``ast``, at any depth (an import inside a function
counts like one at the top, and so does ``importlib.import_module("chickenfoot...")``),
relative ones (``from ._store import X``) resolved; an ``if TYPE_CHECKING:`` block is left
out, since it never runs (it names types for annotations only).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src" / "chickenfoot"
MAX_LINES = 500

# The layers, bottom up: a module may import from its own layer and the layers below it.
# A name ending in "." stands for a subpackage and every module in it.
LAYERS: tuple[tuple[str, ...], ...] = (
    # 0. Values and checks: tiles, moves, rules, outcomes, the table structure, errors.
    # The files a user names (_files): opened only when regular, written whole. The words a
    # person reads, in their language (_i18n: the standard library's gettext).
    (
        "errors",
        "_checks",
        "_files",
        "_i18n",
        "deprecation",
        "tiles",
        "moves",
        "rules",
        "outcome",
        "table",
    ),
    # 1. The kernel: how a position is stored and moves; the parts of documents; the
    #    compiled kernels (numba), which import nothing from the package.
    ("_kernel.", "_jit.", "_reading"),
    # 2. Below State, built from kernel data: position documents, records, determinization,
    #    views and their text picture (State's convenience methods call these).
    ("formats", "record", "_slots", "sampling", "_view_reader", "_compact", "view"),
    # 3. The public face of a round.
    ("state",),
    # 4. Built on rounds: deals, matches, walks, encodings, pictures, agents, simulation.
    (
        "deal",
        "commitment",
        "perft",
        "solve",
        "playout",
        "_scoring",
        "match",
        "encoding",
        "render",
        "_layout",
        "_picture_words",
        "picture",
        "_rollouts",
        "agents",
        "belief",
        "ismcts",
        "levels",
        "simulation",
        "_protocol",
        "notation.",
        "analysis.",
        "puzzles",
    ),
    # 5. Adapters and programs: the OpenSpiel game, the PettingZoo environment, batched
    #    play, the engine protocol's host and server.
    (
        "openspiel.",
        "pettingzoo",
        "batch.",
        "gym.",
        "policy",
        "engine.",
    ),
    # 6. Agents named in text, and the one decision of what such text may run; the ladder,
    #    which rates agents named by their specs.
    ("specs.", "ladder."),
    # 7. Front ends, which nothing in the library imports; the data sets, which record the
    #    package's version (chickenfoot.__version__) in what they write.
    ("cli.", "server.", "__init__", "__main__", "dataset."),
)


def _name(path: Path) -> str:
    rel = path.relative_to(SRC).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" and len(rel.parts) > 1 else rel.parts
    return ".".join(parts)


def _layer(module: str) -> int:
    for i, names in enumerate(LAYERS):
        for n in names:
            if module == n or (n.endswith(".") and (module + ".").startswith(n)):
                return i
    raise AssertionError(f"chickenfoot.{module} has no layer: add it to LAYERS (and CONTRIBUTING)")


def _modules() -> dict[str, Path]:
    return {_name(p): p for p in sorted(SRC.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node):
            yield from (n for child in node.orelse for n in _imports_of(child))
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        yield from _imports(node)


def _imports_of(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        yield node
    yield from _imports(node)


def _resolve(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The absolute name ``node`` imports from (``from ._store import X`` in
    ``chickenfoot.batch._engine``: ``chickenfoot.batch._store``)."""
    base = node.module or ""
    if not node.level:
        return base
    # The package a relative import starts from: the module's own for an __init__.
    package = ["chickenfoot", *module.split(".")] if module != "__init__" else ["chickenfoot"]
    if path.name != "__init__.py":
        package = package[:-1]
    package = package[: len(package) - (node.level - 1)]
    return ".".join([*package, base] if base else package)


def _loaded(tree: ast.AST) -> Iterator[str]:
    """The modules named to ``importlib.import_module`` as a constant (a lazy import too)."""
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        func, first = node.func, node.args[0]
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name == "import_module" and isinstance(first, ast.Constant):
            yield str(first.value)


def _edges_of(
    module: str, path: Path, source: str, modules: Iterable[str]
) -> set[tuple[str, str | None]]:
    """(imported module, imported name or None) for every import of one module's source."""
    known = set(modules)
    found: set[tuple[str, str | None]] = set()
    tree = ast.parse(source)
    for node in _imports(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "chickenfoot":  # ``import chickenfoot as cf``: the package
                    found.add(("__init__", None))
                elif alias.name.startswith("chickenfoot."):
                    found.add((alias.name.removeprefix("chickenfoot."), None))
            continue
        target = _resolve(module, path, node)
        if target != "chickenfoot" and not target.startswith("chickenfoot."):
            continue
        target = target.removeprefix("chickenfoot").removeprefix(".")
        for alias in node.names:
            sub = f"{target}.{alias.name}" if target else alias.name
            if sub in known:  # ``from chickenfoot import view``: a module
                found.add((sub, None))
            else:
                found.add((target or "__init__", alias.name))
    for name in _loaded(tree):
        if name.startswith("chickenfoot."):
            found.add((name.removeprefix("chickenfoot."), None))
    found.discard((module, None))
    return found


def _edges(modules: dict[str, Path]) -> dict[str, set[tuple[str, str | None]]]:
    """For each module: (imported module, imported name or None) for every import."""
    return {
        module: _edges_of(module, path, path.read_text(encoding="utf-8"), modules)
        for module, path in modules.items()
    }


MODULES = _modules()
EDGES = _edges(MODULES)


def test_the_reader_finds_the_package() -> None:
    assert {"state", "_kernel", "_kernel.position", "view", "cli", "batch"} <= set(MODULES)
    assert ("_kernel", "make") in EDGES["deal"]  # a top-level import, read
    assert ("state", "State") not in EDGES["formats"]  # a TYPE_CHECKING one, left out
    assert ("batch._store", "ONGOING") in EDGES["batch._engine"]  # a relative one, read
    assert ("_jit.run", None) in EDGES["batch._compiled"]  # importlib.import_module, read


def test_the_reader_resolves_every_form_of_import() -> None:
    source = (
        "import chickenfoot as cf\n"
        "import chickenfoot.rules\n"
        "from . import _store\n"
        "from ._tables import Tables\n"
        "from .. import view\n"
        "from ..state import State\n"
        "def later():\n"
        "    from .._jit import run\n"
        "    importlib.import_module('chickenfoot._jit.deal')\n"
    )
    path = SRC / "batch" / "_engine.py"
    assert _edges_of("batch._engine", path, source, MODULES) == {
        ("__init__", None),
        ("rules", None),
        ("batch._store", None),
        ("batch._tables", "Tables"),
        ("view", None),
        ("state", "State"),
        ("_jit.run", None),
        ("_jit.deal", None),
    }
    # in a package's __init__, "." is the package itself
    init = _edges_of("batch", SRC / "batch" / "__init__.py", "from ._engine import X\n", MODULES)
    assert init == {("batch._engine", "X")}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_module_imports_only_its_own_layer_and_below(module: str) -> None:
    mine = _layer(module)
    above = sorted(
        {f"chickenfoot.{t}" for t, _ in EDGES[module] if t in MODULES and _layer(t) > mine}
    )
    assert not above, f"chickenfoot.{module} (layer {mine}) imports from above it: {above}"


def test_no_module_takes_a_private_name_from_another() -> None:
    taken = sorted(
        f"chickenfoot.{m} takes {name} from chickenfoot.{t}"
        for m, edges in EDGES.items()
        for t, name in edges
        if name is not None
        and name.startswith("_")
        and not (name.startswith("__") and name.endswith("__"))
        and t != m
    )
    assert not taken, "\n".join(taken)


def test_a_subpackage_keeps_its_private_modules_to_itself() -> None:
    # ``chickenfoot._kernel`` or ``chickenfoot._checks`` is shared by the whole package (a
    # named internal module with a contract); ``chickenfoot.cli._common`` only within cli.
    taken = []
    for m, edges in EDGES.items():
        for t, _ in edges:
            parts = t.split(".")
            for i in range(1, len(parts)):
                owner = ".".join(parts[:i])
                if parts[i].startswith("_") and not (m == owner or m.startswith(owner + ".")):
                    taken.append(f"chickenfoot.{m} imports chickenfoot.{t}, private to {owner}")
    assert not taken, "\n".join(sorted(set(taken)))


def test_there_is_no_import_circle() -> None:
    graph = {m: {t for t, _ in e if t in MODULES and t != m} for m, e in EDGES.items()}
    # A package's __init__ re-exports its modules: an edge into a package is into __init__.
    seen: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(m: str) -> None:
        seen[m] = 1
        stack.append(m)
        for t in sorted(graph[m]):
            if seen.get(t) == 1:
                circles.append(stack[stack.index(t) :] + [t])
            elif t not in seen:
                visit(t)
        stack.pop()
        seen[m] = 2

    for m in sorted(graph):
        if m not in seen:
            visit(m)
    assert not circles, "import circles: " + "; ".join(" -> ".join(c) for c in circles)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_module_is_under_500_lines(module: str) -> None:
    lines = len(MODULES[module].read_text(encoding="utf-8").splitlines())
    assert lines < MAX_LINES, f"chickenfoot.{module} has {lines} lines: split it along a seam"


def test_the_server_stands_beside_the_command_line_not_on_it() -> None:
    # ``chickenfoot serve`` starts the server; the server never reaches into the command
    # line (what both need, such as agent specs, lives below both: ``specs``).
    def within(module: str, package: str) -> bool:
        return module == package or module.startswith(package + ".")

    wrong = sorted(
        f"chickenfoot.{m} imports chickenfoot.{t}"
        for m, edges in EDGES.items()
        if within(m, "server")
        for t, _ in edges
        if within(t, "cli")
    )
    assert not wrong, "\n".join(wrong)
