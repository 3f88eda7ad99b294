"""The documentation site's pages: every page is in the nav, and no page is too big to read.

Checked without building the site, from ``mkdocs.yml`` and the files under ``docs/``:

- the nav lists every Markdown page of ``docs/`` once, and nothing else;
- no page is heavier than ``MAX_PAGE_CHARS``, counting what it will show: its own Markdown
  plus the docstrings its ``::: module`` blocks pull in (the API reference was one page of
  every module, 620 KB of HTML; split by module, its heaviest page is a fifth of that);
- the API reference's index (``docs/api.md``) keeps a heading for every module, with the
  anchor the single page had (``api.md#rules``, ``api.md#playouts``, ...), so old links
  and bookmarks still land on the module's entry, and that entry links to the page that
  renders the module; every public module of the package is rendered on some page.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SRC = ROOT / "src"

MAX_PAGE_CHARS = 45_000
"""The most a page may show, in characters of Markdown (docstrings count three times).

Why 45,000: the longest hand-written pages (the command line's, the rules') are 20,000 to
33,000 characters; they read well as one page with a table of contents and render to 85 to
105 KB of HTML. The limit leaves them room to grow by a third; past it a page is a
half-hour read (7,000 words or more) that a reader can only search, not scan, and about
140 KB to load, and it is time to split it by topic. A docstring character counts three
times (``DOCSTRING_WEIGHT``) because it renders to about three times the HTML of a
character of prose: a signature, a parameter table, an entry in the table of contents. By
this measure the single API page was over 290,000 (620 KB); the heaviest page of the split
reference, round state and outcome, is under 40,000 (130 KB).
"""

DOCSTRING_WEIGHT = 3

NAV_ENTRY = re.compile(r"^\s*-\s+(?:[^:\n]+:\s+)?(?P<page>[\w/.-]+\.md)\s*$")
DIRECTIVE = re.compile(r"^::: (?P<module>chickenfoot[\w.]*)\s*$", re.MULTILINE)
HEADING = re.compile(r"^(?P<level>#{1,6}) (?P<title>.+?)\s*$", re.MULTILINE)
TRANSLATION = re.compile(r"^(?P<page>.+)\.(?:el|hr|ro|lv)\.md$")
"""A page's translation in mkdocs-static-i18n's suffix layout (``rules.el.md`` beside
``rules.md``): the nav names the English page, and the plugin puts the translation in its place."""


def nav_pages() -> list[str]:
    """The pages named in ``mkdocs.yml``'s nav, in order, as paths under ``docs/``."""
    lines = (ROOT / "mkdocs.yml").read_text(encoding="utf-8").splitlines()
    start = lines.index("nav:")
    pages = []
    for line in lines[start + 1 :]:
        if line and not line.startswith(" "):  # the next top-level key
            break
        m = NAV_ENTRY.match(line)
        if m:
            pages.append(m["page"])
    return pages


def doc_pages() -> list[str]:
    return sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))


def test_the_nav_lists_every_page_once() -> None:
    nav = nav_pages()
    assert "api/rules.md" in nav, nav  # the parser reads the nested API reference section
    repeated = sorted({p for p in nav if nav.count(p) > 1})
    assert not repeated, f"pages listed twice in mkdocs.yml's nav: {repeated}"
    translations = {p for p in doc_pages() if TRANSLATION.match(p)}
    orphans = sorted(p for p in translations if TRANSLATION.sub(r"\g<page>.md", p) not in nav)
    assert not orphans, f"translations of pages the nav does not list: {orphans}"
    missing = sorted(set(doc_pages()) - set(nav) - translations)
    assert not missing, f"pages of docs/ the nav does not list (no reader finds them): {missing}"
    absent = sorted(set(nav) - set(doc_pages()))
    assert not absent, f"nav entries with no file in docs/: {absent}"


# -- page weight ---------------------------------------------------------------------------


def _module_file(module: str) -> Path:
    base = SRC.joinpath(*module.split("."))
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def _public(name: str) -> bool:
    return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))


def _doc_chars(body: list[ast.stmt]) -> int:
    """Characters of the docstrings of the public definitions and attributes in ``body``."""
    total = 0
    for i, node in enumerate(body):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if _public(node.name):
                total += len(ast.get_docstring(node, clean=False) or "")
                if isinstance(node, ast.ClassDef):
                    total += _doc_chars(node.body)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)) and i + 1 < len(body):
            after = body[i + 1]  # an attribute docstring: a string right after the assignment
            value = after.value if isinstance(after, ast.Expr) else None
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                total += len(value.value)
    return total


def docstring_chars(module: str) -> int:
    """About how much text ``::: module`` renders: the docstrings of what it documents.

    The module's own docstring and those of its public definitions; a name that
    ``__all__`` re-exports from another module (``chickenfoot.batch`` re-exports its
    private modules' classes) counts with that module's docstrings of it.
    """
    tree = ast.parse(_module_file(module).read_text(encoding="utf-8"))
    total = len(ast.get_docstring(tree, clean=False) or "") + _doc_chars(tree.body)
    defined = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    exported: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            exported = list(ast.literal_eval(node.value))
    for node in tree.body:
        if not (isinstance(node, ast.ImportFrom) and node.module and node.level == 0):
            continue
        names = {a.name for a in node.names} & set(exported) - defined
        if names and node.module.startswith("chickenfoot.") and _module_file(node.module).exists():
            source = ast.parse(_module_file(node.module).read_text(encoding="utf-8"))
            chosen = [n for n in source.body if getattr(n, "name", None) in names]
            total += _doc_chars(chosen)
    return total


def page_chars(page: str) -> int:
    """How much ``page`` shows: its Markdown, and its docstrings at ``DOCSTRING_WEIGHT``."""
    text = (DOCS / page).read_text(encoding="utf-8")
    docstrings = sum(docstring_chars(m["module"]) for m in DIRECTIVE.finditer(text))
    return len(text) + DOCSTRING_WEIGHT * docstrings


@pytest.mark.parametrize("page", doc_pages())
def test_no_page_is_too_big(page: str) -> None:
    chars = page_chars(page)
    assert chars <= MAX_PAGE_CHARS, (
        f"docs/{page} weighs {chars:,} characters of Markdown and docstrings, more than "
        f"{MAX_PAGE_CHARS:,}: split it (the API reference has one page per module: docs/api/)"
    )


def test_the_measure_catches_the_old_single_api_page() -> None:
    """Every module on one page, as docs/api.md was, is far over the limit."""
    modules = [m["module"] for p in doc_pages() for m in DIRECTIVE.finditer((DOCS / p).read_text())]
    assert len(modules) >= 25
    assert DOCSTRING_WEIGHT * sum(docstring_chars(m) for m in modules) > 5 * MAX_PAGE_CHARS
    assert docstring_chars("chickenfoot.batch") > 5_000  # re-exported classes are counted


# -- the API reference's index ---------------------------------------------------------------

LINK = re.compile(
    r"\[`(?P<module>chickenfoot[\w.]*)`\]\((?P<page>api/[\w-]+\.md)(?:#(?P<anchor>[\w-]+))?\)"
)

OLD_ANCHORS = [
    "bad-input-one-policy", "rules", "tiles", "moves", "round-state",
    "the-table-as-a-structure", "outcome", "deals", "position-json", "records", "matches",
    "views", "sampling", "agents", "simulation", "playouts", "perft", "errors",
    "deprecations", "encodings-for-learning-agents", "openspiel-game",
    "pettingzoo-environment", "text-pictures", "svg-pictures", "command-line",
]  # fmt: skip
"""The section anchors of the single API page (docs/api.md), which other pages link to."""


def _slug(title: str) -> str:
    title = re.sub(r"`([^`]*)`", r"\1", title)
    title = re.sub(r"[^\w\s-]", "", title).strip().lower()
    return re.sub(r"[-\s]+", "-", title)


def _sections(text: str) -> dict[str, str]:
    """Each heading's anchor and the text under it, up to the next heading."""
    heads = list(HEADING.finditer(text))
    return {
        _slug(h["title"]): text[h.end() : heads[i + 1].start() if i + 1 < len(heads) else None]
        for i, h in enumerate(heads)
    }


def test_old_api_anchors_land_on_their_module() -> None:
    index = _sections((DOCS / "api.md").read_text(encoding="utf-8"))
    missing = [a for a in OLD_ANCHORS if a not in index]
    assert not missing, f"docs/api.md lost the anchors {missing}, which old links use"
    wrong = []
    for anchor in OLD_ANCHORS[1:]:
        link = LINK.search(index[anchor])
        if link is None:
            wrong.append(f"#{anchor}: no link to the module's page")
            continue
        page = (DOCS / link["page"]).read_text(encoding="utf-8")
        where = _sections(page)[link["anchor"]] if link["anchor"] else page
        if f"::: {link['module']}\n" not in where:
            wrong.append(f"#{anchor}: {link['page']}#{link['anchor'] or ''} does not render it")
    assert not wrong, "docs/api.md:\n" + "\n".join(wrong)


def test_every_public_module_has_a_page() -> None:
    package = SRC / "chickenfoot"
    public = {
        f"chickenfoot.{p.stem if p.is_file() else p.name}"
        for p in package.iterdir()
        if not p.name.startswith("_") and (p.suffix == ".py" or (p / "__init__.py").exists())
    }
    rendered = {
        m["module"]
        for page in doc_pages()
        if page.startswith("api/")
        for m in DIRECTIVE.finditer((DOCS / page).read_text(encoding="utf-8"))
    }
    assert public - rendered == set(), "modules with no page in docs/api/"
    listed = set(LINK.findall((DOCS / "api.md").read_text(encoding="utf-8")))
    assert {m for m, _, _ in listed} == rendered, "docs/api.md lists every module with a page"


def _load_griffe_pycon() -> object:
    """``tools/griffe_pycon.py`` without griffe (a docs-build dependency): its text
    function needs nothing of griffe, only the extension class does."""
    import importlib.util
    import sys
    import types
    from unittest import mock

    fake = types.ModuleType("griffe")
    fake.Extension = object  # type: ignore[attr-defined]
    fake.Object = object  # type: ignore[attr-defined]
    spec = importlib.util.spec_from_file_location(
        "griffe_pycon", ROOT / "tools" / "griffe_pycon.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    with mock.patch.dict(sys.modules, {"griffe": fake}):
        spec.loader.exec_module(module)
    return module


def test_no_sphinx_role_reaches_the_site_as_text() -> None:
    # Roles with a title (``:attr:`State.table <chickenfoot.State.table>```), and roles broken
    # over two lines, reached the API pages as raw text (issue 19: what a newcomer reads).
    fence = _load_griffe_pycon().fence_doctests  # type: ignore[attr-defined]
    assert fence("See :attr:`State.table\n    <chickenfoot.State.table>`.") == "See `State.table`."
    role = re.compile(r":(class|func|meth|attr|data|mod|exc|obj):`")
    left = []
    for path in sorted((SRC / "chickenfoot").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            body = getattr(node, "body", None)
            if (
                not isinstance(body, list)
                or not body
                or not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
            ):
                continue
            doc = ast.get_docstring(node, clean=True)
            if doc and role.search(fence(doc)):
                left.append(f"{path.name}: {getattr(node, 'name', '<module>')}")
    assert left == []


# -- users' pages and contributors' pages ---------------------------------------------------

CONTRIBUTOR_WORDS = re.compile(
    r"callgrind|valgrind|broadword|_nrt=|\binstructions per\b|\b\d[\d.,]* ?[kM]? instructions\b"
)
"""What belongs to the contributors' section (``docs/contributors/``): instruction counts,
the kernels' internals."""


def test_contributor_material_lives_in_the_contributors_section() -> None:
    assert any(CONTRIBUTOR_WORDS.search((DOCS / p).read_text()) for p in doc_pages()
               if p.startswith("contributors/"))  # fmt: skip
    found = [p for p in doc_pages() if not p.startswith("contributors/")
             and CONTRIBUTOR_WORDS.search((DOCS / p).read_text(encoding="utf-8"))]  # fmt: skip
    assert not found, f"contributors' material on users' pages: {found}"


def test_the_engine_page_starts_with_the_wire_format() -> None:
    heads = [h["title"] for h in HEADING.finditer((DOCS / "engine.md").read_text())]
    assert heads[1].startswith("The wire format"), heads[:3]
    wire = _sections((DOCS / "engine.md").read_text())["the-core"]
    assert "Can `legal` hold `draw` and `pass`?" in wire
