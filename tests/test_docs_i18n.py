"""The players' pages in every language say all that the English page says.

The site is built in English, Greek, Croatian, Romanian and Latvian (mkdocs-static-i18n,
``mkdocs.yml``): a page's translation sits beside it (``docs/index.el.md``). A translation
that dropped a section, a link, a picture or an example would still build; these tests
compare each translation with its English page, from the files, without building:

- every page translated into one language is translated into all four, and the players'
  pages (home, Play, playing online) are;
- a players' page's translation has the English page's headings, level for level, with the
  English anchors
  (``## Πώς λειτουργεί {#how-it-works}``), so that a link into the page lands in every
  language (a Greek title's own anchor would be empty, and the strict build fails on it);
  the rules page has its own test (``tests/test_docs_rules_translations.py``);
- the same links (targets, in order), the same pictures, the same code blocks, byte for byte;
- a translated Play page loads the English page's table and script, asking the table for
  its own language (``table.html?...&lang=el``).

The built site (``<html lang>``, the switcher, the notes on pages left in English) is
checked in ``tests/test_docs_i18n_site.py`` (``nox -s play_browser`` builds it).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
LANGUAGES = ("el", "hr", "ro", "lv")
PLAYERS_PAGES = ("index.md", "play/index.md", "playing-online.md")
"""Translated into every language, their anchors the English page's."""

FENCE = re.compile(r"^(```|~~~).*?^\1\s*$", re.MULTILINE | re.DOTALL)
FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)
HEADING = re.compile(r"^(?P<level>#{1,6}) (?P<title>.+?)\s*$", re.MULTILINE)
EXPLICIT_ID = re.compile(r"\s*\{#(?P<id>[\w-]+)\}$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
LINK = re.compile(r"(?<!!)\[[^\]]*\]\((?P<target>[^)\s]+)\)")
IMAGE = re.compile(r"!\[[^\]]*\]\((?P<target>[^)\s]+)\)")


def translated_pages() -> list[str]:
    """Every English page that has a translation beside it."""
    pages = set()
    for path in DOCS.rglob("*.md"):
        m = re.search(r"\.(el|hr|ro|lv)\.md$", path.name)
        if m:
            pages.add(path.relative_to(DOCS).as_posix()[: -len(m[0])] + ".md")
    return sorted(pages)


@pytest.mark.parametrize("page", sorted({*PLAYERS_PAGES, *translated_pages()}))
def test_a_page_translated_at_all_is_translated_into_every_language(page: str) -> None:
    missing = [lang for lang in LANGUAGES if not translated(page, lang).is_file()]
    assert not missing, f"{page} has no translation into {missing}"


def translated(page: str, lang: str) -> Path:
    return DOCS / f"{page[:-3]}.{lang}.md"


def slug(title: str) -> str:
    """Python-Markdown's ``toc`` anchor of an English title (ASCII, lowercase, hyphens)."""
    title = CODE_SPAN.sub(lambda m: m[2], title)
    title = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", title)
    title = re.sub(r"[^\w\s-]", "", title.encode("ascii", "ignore").decode()).strip().lower()
    return re.sub(r"[-\s]+", "-", title)


def parts(text: str) -> dict[str, list[str]]:
    """What a page says, apart from its words: headings (level and anchor), links, pictures,
    code blocks."""
    text = FRONT_MATTER.sub("", text)
    code = [m[0] for m in FENCE.finditer(text)]
    prose = CODE_SPAN.sub("", FENCE.sub("", text))
    headings = []
    for m in HEADING.finditer(prose):
        explicit = EXPLICIT_ID.search(m["title"])
        anchor = explicit["id"] if explicit else slug(m["title"])
        headings.append(f"{m['level']} {anchor}")
    return {
        "headings": headings,
        "links": [m["target"] for m in LINK.finditer(prose)],
        "pictures": [m["target"] for m in IMAGE.finditer(prose)],
        "code": code,
    }


def test_the_comparison_sees_a_dropped_section() -> None:
    english = (DOCS / "playing-online.md").read_text(encoding="utf-8")
    greek = translated("playing-online.md", "el").read_text(encoding="utf-8")
    cut = greek[: greek.index("## Υποδείξεις")] + greek[greek.index("## Καταγραφές") :]
    assert parts(cut)["headings"] != parts(english)["headings"]
    assert parts(cut)["links"] != parts(english)["links"]
    assert parts("## Πώς {#how-it-works}\n[a](b.md)\n![c](d.png)")["headings"] == [
        "## how-it-works"
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("page", PLAYERS_PAGES)
def test_a_translation_says_all_the_english_page_says(page: str, lang: str) -> None:
    # the rules page has its own, stricter test: tests/test_docs_rules_translations.py
    path = translated(page, lang)
    assert path.is_file(), f"{page} has no {lang} translation: docs/{path.relative_to(DOCS)}"
    english = parts((DOCS / page).read_text(encoding="utf-8"))
    theirs = parts(path.read_text(encoding="utf-8"))
    # the same sections, with the English anchors (## Πώς λειτουργεί {#how-it-works}): in a
    # translated build a link into the page lands on the translation, where a Greek title's
    # own anchor would be empty (the strict build fails on such a link)
    assert theirs["headings"] == english["headings"], "the English page's sections and anchors"
    assert theirs["links"] == english["links"]
    assert theirs["pictures"] == english["pictures"]
    assert theirs["code"] == english["code"], "the examples are the English page's, unchanged"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_translated_play_page_asks_the_table_for_its_language(lang: str) -> None:
    text = translated("play/index.md", lang).read_text(encoding="utf-8")
    assert text.startswith("---\ntemplate: play.html\n")  # the page without the site search
    assert (
        f'src="../../play/table.html?players=3&amp;bot=heuristic&amp;rounds=1&amp;lang={lang}"'
        in text
    )
    assert '<script src="../../play/page.js"></script>' in text
    english = (DOCS / "play/index.md").read_text(encoding="utf-8")
    for name in ("players", "bot", "rounds"):  # the same settings, the same values
        values = re.findall(rf'<select name="{name}">(.*?)</select>', english)[0]
        assert re.findall(r'value="([^"]*)"', values) == re.findall(
            r'value="([^"]*)"', re.findall(rf'<select name="{name}">(.*?)</select>', text)[0]
        )
