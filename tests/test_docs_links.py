"""The documentation is self-contained: it cites only itself, and every relative link resolves.

The rules page (docs/rules.md) and the formats page (docs/formats.md) are the library's
specification. Code, docs and help text must point at them, never at a document users
cannot see, so ``SPEC`` as a citation ("SPEC section 5", "the SPEC", "SPEC.md") is an error
in ``src/``, ``docs/``, ``README.md``, ``CHANGELOG.md``, ``tests/data/README.md`` and the
command line's help. Every relative Markdown link in those documents must name an existing
file and, for ``page.md#anchor``, a heading of that page, with the anchor computed as
mkdocs computes it (Python-Markdown's ``toc`` extension).
"""

from __future__ import annotations

import html
import importlib
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

SPEC_CITATION = re.compile(r"\bSPEC\b")


def _markdown_pages() -> list[Path]:
    pages = sorted(DOCS.rglob("*.md"))  # docs/api/ holds the API reference's pages
    return [*pages, ROOT / "README.md", ROOT / "CHANGELOG.md", ROOT / "tests/data/README.md"]


def _cited_files() -> list[Path]:
    sources = sorted((ROOT / "src").rglob("*.py"))
    return [*sources, *_markdown_pages()]


@pytest.mark.parametrize("path", _cited_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_spec_citation(path: Path) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    bad = [f"{i}: {line.strip()}" for i, line in enumerate(lines, 1) if SPEC_CITATION.search(line)]
    assert not bad, (
        f"{path.relative_to(ROOT)} cites the SPEC, which does not ship; link or name the "
        "page of the docs instead (docs/rules.md, docs/formats.md):\n" + "\n".join(bad)
    )


def _help(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "chickenfoot", *args, "--help"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return done.stdout


def test_help_cites_no_spec() -> None:
    top = _help()
    # The commands are listed under "positional arguments", indented four spaces.
    commands = re.findall(r"^    ([a-z][\w-]*) ", top, flags=re.MULTILINE)
    assert "demo" in commands, top
    helps = {"chickenfoot --help": top}
    for command in commands:
        helps[f"chickenfoot {command} --help"] = _help(command)
    bad = [name for name, text in helps.items() if SPEC_CITATION.search(text)]
    assert not bad, f"the help cites the SPEC: {bad}"


# -- links -------------------------------------------------------------------------------

FENCE = re.compile(r"^\s*(```|~~~)")
LINK = re.compile(r"(?<!!)\[(?P<text>[^\]]*)\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(?P<title>.+?)\s*#*\s*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
EXPLICIT_ID = re.compile(r"\s*\{#(?P<id>[\w-]+)\}$")
"""A heading's own anchor (``attr_list``): a translated page keeps the English page's anchors."""
HTML_ANCHOR = re.compile(r'^<div id="(?P<id>[\w-]+)"></div>\s*$')
"""An anchor made by hand, on its own line: a translated page keeps the English page's
anchors this way (docs/rules.el.md: ``<div id="r9-turn"></div>`` above its heading)."""


def _prose(text: str) -> list[tuple[int, str]]:
    """The lines outside fenced code blocks, numbered from 1."""
    out, fenced = [], False
    for i, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            out.append((i, line))
    return out


def slugify(value: str, separator: str = "-") -> str:
    """Python-Markdown's ``toc`` slugify: ASCII, lowercase, non-word characters dropped."""
    value = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode("ascii")
    value = re.sub(r"[^\w\s-]", "", value).strip().lower()
    return re.sub(rf"[{separator}\s]+", separator, value)


def anchors(page: Path) -> set[str]:
    """The heading ids mkdocs gives ``page`` (repeated titles get ``_1``, ``_2``, ...)."""
    found: set[str] = set()
    for _, line in _prose(page.read_text(encoding="utf-8")):
        made = HTML_ANCHOR.match(line)
        if made:
            found.add(made["id"])
            continue
        m = HEADING.match(line)
        if not m:
            continue
        explicit = EXPLICIT_ID.search(m["title"])
        if explicit:
            found.add(explicit["id"])
            continue
        title = LINK.sub(lambda link: link["text"], m["title"])
        title = CODE_SPAN.sub(lambda span: span[2], title)
        slug = slugify(html.unescape(title))
        unique, n = slug, 0
        while unique in found:
            n += 1
            unique = f"{slug}_{n}"
        found.add(unique)
    return found


def _links(page: Path) -> list[tuple[int, str]]:
    links = []
    for i, line in _prose(page.read_text(encoding="utf-8")):
        for m in LINK.finditer(CODE_SPAN.sub("", line)):
            target = m["target"]
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:, ...
                continue
            links.append((i, target))
    return links


def _api_object(anchor: str) -> bool:
    """An anchor mkdocstrings makes for an object: ``chickenfoot.rules.Rules``."""
    parts = anchor.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for name in parts[cut:]:
                obj = getattr(obj, name)
        except AttributeError:
            return False
        return True
    return False


def _documented_modules(page: Path) -> list[str]:
    """The modules whose objects ``page`` renders: its ``::: module`` blocks."""
    text = page.read_text(encoding="utf-8")
    return [f"{m}." for m in re.findall(r"^::: (chickenfoot[\w.]*)", text, flags=re.MULTILINE)]


def _is_api_page(page: Path) -> bool:
    """A page of the API reference, where mkdocstrings makes the objects' anchors."""
    return page == DOCS / "api.md" or page.parent == DOCS / "api"


@pytest.mark.parametrize("page", _markdown_pages(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_resolve(page: Path) -> None:
    bad = []
    for line, target in _links(page):
        file_part, _, anchor = target.partition("#")
        dest = (page.parent / file_part).resolve() if file_part else page
        if not dest.exists():
            bad.append(f"{line}: {target}: no file {dest}")
            continue
        if not anchor:
            continue
        if dest.suffix != ".md":
            bad.append(f"{line}: {target}: an anchor into a file that is not Markdown")
        elif anchor.startswith("chickenfoot.") and _is_api_page(dest):
            if not _api_object(anchor):
                bad.append(f"{line}: {target}: no such object for the API reference")
            elif not any(anchor.startswith(m) for m in _documented_modules(dest)):
                bad.append(f"{line}: {target}: {dest.name} does not document that object")
        elif anchor not in anchors(dest):
            bad.append(f"{line}: {target}: no heading with that anchor in {dest.name}")
    assert not bad, f"{page.relative_to(ROOT)}:\n" + "\n".join(bad)


def test_slugify_as_mkdocs() -> None:
    assert slugify("R9 — turn") == "r9-turn"
    assert slugify('The centre held in hand (centre = "holder")') == (
        "the-centre-held-in-hand-centre-holder"
    )
    assert slugify("The chickenfoot/match document") == "the-chickenfootmatch-document"


def test_every_rule_has_its_anchor() -> None:
    found = anchors(DOCS / "rules.md")
    missing = [f"r{k}" for k in range(1, 13) if not any(a.startswith(f"r{k}-") for a in found)]
    assert not missing


def test_api_reference_lists_every_rules_field() -> None:
    import attrs

    import chickenfoot as cf

    api = (DOCS / "api" / "rules.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `(\w+)` \|", api, flags=re.MULTILINE))
    assert {f.name for f in attrs.fields(cf.Rules)} <= rows
