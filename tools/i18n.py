"""The translation catalogs, managed with Babel (docs/contributors/translations.md).

``python tools/i18n.py extract``: the English sentences, read from the source into the
templates ``src/chickenfoot/locale/chickenfoot.pot`` (the command line, the server and
the SVG pictures' words: ``_()``, ``gettext()``, ``ngettext()`` in Python) and ``web.pot`` (the pages: ``t()`` and ``tn()`` in
their JavaScript, and each element marked ``data-t`` in their HTML).
``update``: each language's ``.po`` brought up to the templates (new sentences empty,
changed ones marked fuzzy). ``compile``: each ``.po`` into what the package reads, with
the standard library only: the ``.mo`` of the command line, and a small JSON per language
for the pages (``server/static/i18n/<lang>.json``: each sentence, its plural forms in
the language's order). The nox sessions ``i18n_extract``, ``i18n_update`` and
``i18n_compile`` run these. Babel is needed here, never by the package.

The compiled files are committed beside their sources, so that a checkout runs and tests
without Babel and the wheel ships them as they are; ``tests/test_i18n_catalogs.py`` fails
when one is out of date with its ``.po``.
"""

from __future__ import annotations

import html.parser
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "src" / "chickenfoot" / "locale"
STATIC = ROOT / "src" / "chickenfoot" / "server" / "static"
LANGUAGES = ("el", "hr", "ro", "lv")  # English is the source text
DOMAINS = ("chickenfoot", "web")
KEYWORDS = {"chickenfoot": ["_", "N_", "gettext", "ngettext:1,2"], "web": ["t", "tn:1,2"]}
SOURCES = {
    "chickenfoot": [
        ("python", "src/chickenfoot/cli/**.py"),
        ("python", "src/chickenfoot/server/**.py"),
        ("python", "src/chickenfoot/_picture_words.py"),
    ],
    "web": [
        ("javascript", "src/chickenfoot/server/static/**.js"),
        ("html", "src/chickenfoot/server/static/**.html"),
        # the docs' Play and Puzzles pages: their scripts and the settings they mark data-t
        ("javascript", "docs/play/**.js"),
        ("javascript", "docs/puzzles/**.js"),
        ("html", "docs/play/index.md"),
        ("html", "docs/puzzles.md"),
    ],
}


class _Marked(html.parser.HTMLParser):
    """The text of each element marked ``data-t`` (its whole text is one sentence), and
    the values of the attributes it names in ``data-t-attr`` (``aria-label title``)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[int, str]] = []
        self._open: list[tuple[str, int, list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        line = self.getpos()[0]
        for name in (a.get("data-t-attr") or "").split():
            value = a.get(name)
            if value:
                self.found.append((line, value))
        if "data-t" in a:
            self._open.append((tag, line, []))
        elif self._open:
            self._open[-1][2].append("")

    def handle_data(self, data: str) -> None:
        if self._open:
            self._open[-1][2].append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1][0] == tag:
            _, line, parts = self._open.pop()
            text = " ".join("".join(parts).split())
            if text:
                self.found.append((line, text))


def extract_html(
    fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str | None, str, list[str]]]:
    """A Babel extractor for the pages' HTML: see :class:`_Marked`."""
    parser = _Marked()
    parser.feed(fileobj.read().decode("utf-8"))
    for line, text in parser.found:
        yield line, None, text, []


def _babel(*args: str) -> None:
    import os

    from babel.messages.frontend import CommandLineInterface

    sys.path.insert(0, str(ROOT))  # tools.i18n:extract_html
    os.chdir(ROOT)  # the source's paths in the templates relative to the project
    CommandLineInterface().run(["pybabel", "-q", *args])


def extract() -> None:
    for domain in DOMAINS:
        cfg = LOCALE / f"{domain}.cfg"
        lines = ["[extractors]", "html = tools.i18n:extract_html", ""]
        for method, pattern in SOURCES[domain]:
            lines += [f"[{method}: {pattern}]", "encoding = utf-8", ""]
        cfg.write_text("\n".join(lines), encoding="utf-8")
        try:
            args = ["extract", "-F", str(cfg), "-o", str(LOCALE / f"{domain}.pot")]
            for k in KEYWORDS[domain]:
                args += ["-k", k]
            _babel(
                *args,
                "--no-default-keywords",
                "--sort-by-file",
                "--project=chickenfoot",
                "--copyright-holder=The chickenfoot developers",
                "--msgid-bugs-address=https://github.com/chickenfoot/chickenfoot/issues",
                "--no-wrap",
                "--add-location=file",  # no line numbers: an edit elsewhere changes nothing
                ".",
            )
        finally:
            cfg.unlink()


def update() -> None:
    for domain in DOMAINS:
        pot = LOCALE / f"{domain}.pot"
        for lang in LANGUAGES:
            po = LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"
            verb = "update" if po.exists() else "init"
            extra = ["--no-wrap", "--ignore-obsolete"] if verb == "update" else ["--no-wrap"]
            _babel(verb, "-D", domain, "-i", str(pot), "-d", str(LOCALE), "-l", lang, *extra)


def web_catalog(po: Path, lang: str) -> dict[str, Any]:
    """The JSON of a page's catalog: each translated sentence by its English, a plural
    one as the list of its forms (the page's ``plural`` rule picks one)."""
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f, locale=lang)
    messages: dict[str, Any] = {}
    for m in catalog:
        if not m.id or m.fuzzy:
            continue
        if isinstance(m.id, tuple):
            forms = list(m.string)
            if all(forms):
                messages[m.id[0]] = forms
        elif m.string:
            messages[m.id] = m.string
    return {"lang": lang, "plural_forms": catalog.plural_forms, "messages": messages}


def compile_all() -> None:
    for lang in LANGUAGES:
        _babel("compile", "-D", "chickenfoot", "-d", str(LOCALE), "-l", lang)
        po = LOCALE / lang / "LC_MESSAGES" / "web.po"
        data = web_catalog(po, lang)
        out = STATIC / "i18n" / f"{lang}.json"
        out.parent.mkdir(exist_ok=True)
        text = json.dumps(data, ensure_ascii=False, sort_keys=True, indent=0)
        out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    steps = {"extract": extract, "update": update, "compile": compile_all}
    if len(sys.argv) != 2 or sys.argv[1] not in steps:
        sys.exit(f"usage: python tools/i18n.py {{{'|'.join(steps)}}}")
    steps[sys.argv[1]]()
