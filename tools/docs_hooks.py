"""mkdocs hooks: draw the pictures and rules pages from real positions, keep table code whole.

``docs/pictures.md`` holds the marker ``<!-- pictures -->``; at build time it is replaced by
every picture of the catalogue in ``tools/pictures.py``, each drawn by ``chickenfoot.svg``
as a figure with its caption. Nothing is hand-drawn and nothing is committed: change the
renderer and the next build shows it.

``docs/rules.md`` opens with ``<!-- rules-table -->``: a table with its parts numbered
(``labelled_table`` in ``tools/rules_pictures.py``) and their names below it, for a reader
new to the game. It holds markers ``<!-- rules-picture: STEM -->``: each is replaced by the
picture of that name in ``tools/rules_pictures.py`` (a real position for each rule a
picture explains, its caption written from the position), drawn the same way into
``img/rules/STEM.svg``. A marker with no such picture, or a picture with no marker, fails
the build. The rules page's translations (``docs/rules.el.md``, ``rules.hr.md``, ...) hold the
same markers: their pictures are the same files, and the captions, the legend, the text
alternatives and the figures' own words are written in the page's language
(``tools/rules_words.py``; a page's language is the suffix of its file name, else English).

Each picture is its own file of the site (``img/gallery/STEM.svg``), shown with an
``<img>`` that links to it: the page stays small (inlined, the dozen pictures made it a
480 KB page), and a table too big to read at the width of the page is one click from its
natural size.

In a table, a code span with no space in it (``double_blank``, ``--players``, ``9-8@9-9``)
gets the class ``word``, which ``docs/stylesheets/extra.css`` keeps on one line: a browser
would otherwise break it after a hyphen (``--`` / ``players``). Code with spaces in it
still wraps at its spaces, so that tables stay inside the column.
"""

from __future__ import annotations

import html
import importlib.util
import re
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files
from mkdocs.utils import get_relative_url

MARKER = "<!-- pictures -->"
RULES_MARKER = re.compile(r"<!-- rules-picture: ([\w-]+) -->")
RULES_IMG = "img/rules"
TABLE = re.compile(r"<table>.*?</table>", re.DOTALL)
WORD = re.compile(r"<code>([^<\s]+)</code>")
GALLERY = "img/gallery"

_drawn: list[tuple[str, str, str, str]] = []
"""(stem, caption, the call that drew it, the SVG) of each picture, drawn once a build."""

_table: dict[str, Any] = {}
"""The rules page's first picture, the table with its parts numbered: ``"svg"``, and for
each language ``(alt, legend)``."""

TABLE_MARKER = "<!-- rules-table -->"
TABLE_STEM = "table-in-brief"

_rules_drawn: dict[str, tuple[dict[str, str], str]] = {}
"""stem: (its caption in each language, the SVG) of each picture of the rules page, drawn
once a build."""

_words: list[Any] = []
"""``tools/rules_words.py``, loaded once a build."""

PAGE_LANGUAGE = re.compile(r"\.(?P<lang>[a-z]{2})\.md$")
"""A translated page's file name: ``rules.el.md`` (mkdocs-static-i18n's suffix layout)."""


def page_language(src_uri: str) -> str:
    """The language of the page read from ``src_uri``: its suffix if the rules' words have
    it, else English."""
    if not _words:
        _words.append(_tool("rules_words"))
    m = PAGE_LANGUAGE.search(src_uri)
    return m["lang"] if m and m["lang"] in _words[0].LANGUAGES else "en"


def _tool(name: str) -> Any:
    # loaded by path: mkdocs loads this hook by path, not as part of a package
    spec = importlib.util.spec_from_file_location(
        f"cf_{name}", Path(__file__).with_name(f"{name}.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _catalogue() -> list[tuple[str, str, Any, dict[str, Any]]]:
    return _tool("pictures").catalogue()  # type: ignore[no-any-return]


@event_priority(-100)  # after mkdocs-static-i18n's, which cannot read generated files
def on_files(files: Files, config: Any, **kwargs: Any) -> Files:
    import chickenfoot as cf

    _drawn.clear()
    for stem, caption, state, options in _catalogue():
        picture = cf.svg(state, **options)
        call = ", ".join(["state", *(f"{k}={v!r}" for k, v in options.items())])
        _drawn.append((stem, caption, call, picture))
        files.append(File.generated(config, f"{GALLERY}/{stem}.svg", content=picture))
    _rules_drawn.clear()
    _words[:] = [_tool("rules_words")]
    languages = _words[0].LANGUAGES
    pictures = _tool("rules_pictures")
    _table.clear()
    for lang in languages:
        alt, picture, legend, _ = pictures.labelled_table(lang=lang)
        _table[lang] = (alt, legend)
    _table["svg"] = picture
    files.append(File.generated(config, f"{RULES_IMG}/{TABLE_STEM}.svg", content=picture))
    for stem, facts, state, options in pictures.picture_facts():
        picture = cf.svg(state, **options)
        captions = {lang: pictures.caption(stem, facts, lang=lang) for lang in languages}
        _rules_drawn[stem] = (captions, picture)
        files.append(File.generated(config, f"{RULES_IMG}/{stem}.svg", content=picture))
    return files


def _size(picture: str, name: str) -> str:
    match = re.search(rf'<svg [^>]*?{name}="(\d+)"', picture)
    assert match is not None, f"an SVG picture with no {name}"
    return match[1]


def _figures(page_url: str) -> str:
    out = []
    for stem, caption, call, picture in _drawn:
        src = html.escape(get_relative_url(f"{GALLERY}/{stem}.svg", page_url))
        width, height = _size(picture, "width"), _size(picture, "height")
        out.append(
            f'<figure id="{stem}">\n<a href="{src}" title="the picture at its natural size">'
            f'<img src="{src}" alt="{html.escape(caption)}" width="{width}" '
            f'height="{height}" loading="lazy"></a>\n'
            f"<figcaption>{html.escape(caption)} "
            f"<code>chickenfoot.svg({html.escape(call)})</code></figcaption>\n</figure>"
        )
    return "\n\n".join(out)


def _rules_figure(stem: str, page_url: str, lang: str) -> str:
    if stem not in _rules_drawn:
        raise PluginError(f"docs: no rules picture {stem!r} in tools/rules_pictures.py")
    captions, picture = _rules_drawn[stem]
    caption, words = captions[lang], _words[0].TABLE[lang]
    drawn = html.escape(words["drawn"]).replace("{renderer}", "<code>chickenfoot.svg</code>")
    src = html.escape(get_relative_url(f"{RULES_IMG}/{stem}.svg", page_url))
    width, height = _size(picture, "width"), _size(picture, "height")
    return (
        f'<figure class="rules-picture" id="picture-{stem}">\n'
        f'<a href="{src}" title="{html.escape(words["natural-size"])}">'
        f'<img src="{src}" alt="{html.escape(caption)}" width="{width}" height="{height}" '
        f'loading="lazy"></a>\n<figcaption>{html.escape(caption)} <em>{drawn}'
        f"</em></figcaption>\n</figure>"
    )


def _table_figure(page_url: str, lang: str) -> str:
    (alt, legend), picture = _table[lang], _table["svg"]
    natural = html.escape(_words[0].TABLE[lang]["natural-size"])
    src = html.escape(get_relative_url(f"{RULES_IMG}/{TABLE_STEM}.svg", page_url))
    width, height = _size(picture, "width"), _size(picture, "height")
    items = "".join(
        f"<li><strong>{html.escape(name)}</strong>: {html.escape(what)}</li>"
        for name, what in legend
    )
    return (
        f'<figure class="rules-picture rules-table" id="picture-{TABLE_STEM}">\n'
        f'<a href="{src}" title="{natural}">'
        f'<img src="{src}" alt="{html.escape(alt)}" width="{width}" height="{height}"></a>\n'
        f"<figcaption><ol>{items}</ol></figcaption>\n</figure>"
    )


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    lang = page_language(page.file.src_uri)
    if TABLE_MARKER in markdown:
        markdown = markdown.replace(TABLE_MARKER, _table_figure(page.url, lang), 1)
    if MARKER in markdown:
        markdown = markdown.replace(MARKER, _figures(page.url))
    stems = RULES_MARKER.findall(markdown)
    if stems:
        unplaced = sorted(set(_rules_drawn) - set(stems))
        if unplaced:
            raise PluginError(
                f"docs: rules pictures with no marker in {page.file.src_uri}: {unplaced}"
            )
        markdown = RULES_MARKER.sub(lambda m: _rules_figure(m[1], page.url, lang), markdown)
    return markdown


def on_page_content(html: str, **kwargs: Any) -> str:
    return TABLE.sub(lambda table: WORD.sub(r'<code class="word">\1</code>', table[0]), html)
