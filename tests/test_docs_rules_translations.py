"""The rules page in Greek, Croatian, Romanian and Latvian keeps the English page's shape.

``docs/rules.md`` is normative; ``docs/rules.LANG.md`` is its translation (mkdocs-static-i18n's
suffix layout), read by players who do not read English. A translation that drifts from the
English page sends a link to nowhere or shows a rule without its picture, so each one must
have, against the English page:

- the note, right under the title, that the English page is the normative one, linking to it;
- every heading, at the same level and in the same order, with the English anchor given by
  hand (``<div id="r9-turn"></div>`` above it), so ``rules.md#r9-turn`` lands on R9 in every
  language (mkdocs's own anchors come from the heading's words, and Greek has no ASCII);
- the same pictures (their markers, drawn at build time by ``tools/docs_hooks.py``) in the same
  order, and the same images;
- the same links (relative links stay relative) and the same code blocks, character for
  character: the notation, the JSON and the examples (run as doctests) are not translated;
- the same tables, row for row, with the same code in their first column;
- the glossary's words (docs/glossary.md) for the game's things, and no English sentence left;
- at most 45,000 characters, as every page (tests/test_docs_pages.py).

The pictures' captions, the numbered table's legend and text alternative are written at build
time in the page's language from ``tools/rules_words.py``: every language has every sentence,
with the English one's placeholders, so each states the same facts of the same position.
"""

from __future__ import annotations

import re
import string
import sys
import unicodedata
from pathlib import Path

import pytest

from test_docs_links import CODE_SPAN, HEADING, LINK, _prose, slugify

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
sys.path.insert(0, str(ROOT / "tools"))
import rules_words  # noqa: E402  (tools/ is not a package)

ENGLISH = DOCS / "rules.md"
LANGUAGES = ("el", "hr", "ro", "lv")
NOTE_LINK = 'href="../../rules/"'
"""The English page from a translated one: ``el/rules/`` -> ``rules/``, as raw HTML (mkdocs
would turn a Markdown link to ``rules.md`` into this language's page)."""

MADE_ANCHOR = re.compile(r'^<div id="(?P<id>[\w-]+)"></div>\s*$')
PICTURE = re.compile(r"<!-- rules-(?:table|picture: [\w-]+) -->")
IMAGE = re.compile(r"!\[[^\]]*\]\((?P<target>[^)\s]+)")
FENCE = re.compile(r"^\s*(```|~~~)")
TABLE_ROW = re.compile(r"^\|.*\|\s*$")
GLOSSARY_TERMS = (
    "tile", "double", "centre", "foot", "toe", "hub", "line", "boneyard", "round", "match",
    "hand", "seat",
)  # fmt: skip
"""The game's things the rules page names; each translation must use the glossary's word."""


def _page(lang: str) -> Path:
    return DOCS / f"rules.{lang}.md"


def _text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def _english_headings() -> list[tuple[int, str]]:
    out = []
    for _, line in _prose(_text(ENGLISH)):
        m = HEADING.match(line)
        if m:
            title = LINK.sub(lambda link: link["text"], m["title"])
            title = CODE_SPAN.sub(lambda span: span[2], title)
            out.append((len(m[1]), slugify(title)))
    return out


def _translated_headings(text: str) -> list[tuple[int, str | None]]:
    """(level, the anchor on the line above it, blank lines aside, or None) of each heading."""
    out: list[tuple[int, str | None]] = []
    above: str | None = None
    for _, line in _prose(text):
        if not line.strip():
            continue
        m = HEADING.match(line)
        if m:
            out.append((len(m[1]), above))
        made = MADE_ANCHOR.match(line)
        above = made["id"] if made else None
    return out


def _heading_slugs(text: str) -> list[str]:
    """The ids mkdocs gives the headings themselves: a translated heading whose words are
    all dropped but for ASCII (``Έτοιμοι συνδυασμοί (presets)`` -> ``presets``) would repeat
    the anchor made by hand above it, and an id must be unique in a page."""
    titles = [m["title"] for _, line in _prose(text) if (m := HEADING.match(line))]
    return [slugify(CODE_SPAN.sub(lambda span: span[2], title)) for title in titles]


def _code_blocks(text: str) -> list[str]:
    blocks, current = [], None
    for line in text.splitlines():
        if FENCE.match(line):
            if current is None:
                current = [line]
            else:
                blocks.append("\n".join([*current, line]))
                current = None
        elif current is not None:
            current.append(line)
    return blocks


def _tables(text: str) -> list[list[str]]:
    """Each table's rows, given by the code spans of their first cell."""
    tables: list[list[str]] = []
    inside = False
    for _, line in _prose(text):
        if TABLE_ROW.match(line):
            if not inside:
                tables.append([])
            first = line.strip().strip("|").split("|")[0]
            tables[-1].append(" ".join(span[0] for span in CODE_SPAN.finditer(first)))
        inside = bool(TABLE_ROW.match(line))
    return tables


def _sentences(text: str) -> set[str]:
    """The prose lines of a page that are sentences (five words or more, outside tables)."""
    return {
        line.strip()
        for _, line in _prose(text)
        if len(line.split()) >= 5 and not TABLE_ROW.match(line)
    }


def _fold(text: str) -> str:
    """Lowercase with no accents or diacritics, so inflected and stressed forms compare."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _stem(word: str) -> str:
    word = _fold(word)
    cut = 1 if len(word) <= 5 else 2
    return word[: max(3, len(word) - cut)]


def _glossary(lang: str) -> dict[str, str]:
    """English term -> this language's word, from docs/glossary.md's table."""
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in _text(DOCS / "glossary.md").split("\n\n## ")[0].splitlines()
        if TABLE_ROW.match(line)
    ]  # the words' table: the page's first, before its next section (plural forms)
    column = next(i for i, cell in enumerate(rows[0]) if f"(`{lang}`)" in cell)
    words = {}
    for row in rows[2:]:
        term = re.sub(r"\s*\(.*\)", "", row[0])
        words[term] = re.sub(r"\s*\(.*\)", "", row[column]).split()[0]
    return words


def check(text: str, lang: str) -> list[str]:
    """What is wrong with ``text`` as the ``lang`` translation of the rules page."""
    english = _text(ENGLISH)
    problems = []
    if len(text) > 45_000:
        problems.append(f"{len(text):,} characters, over 45,000")
    lines = [line for line in text.splitlines() if line.strip()]
    title = next(i for i, line in enumerate(lines) if line.startswith("# "))
    if len(lines) <= title + 1 or NOTE_LINK not in lines[title + 1]:
        problems.append(f"no note under the title linking to the English page ({NOTE_LINK})")
    translated = _translated_headings(text)
    if translated != _english_headings():
        problems.append(f"headings (level, anchor): {translated} != {_english_headings()}")
    clashes = sorted(set(_heading_slugs(text)) & {anchor for _, anchor in translated if anchor})
    if clashes:
        problems.append(f"headings whose own ids repeat an anchor made by hand: {clashes}")
    for name, find in (("pictures", PICTURE.findall), ("images", IMAGE.findall)):
        if find(text) != find(english):
            problems.append(f"{name}: {find(text)} != {find(english)}")
    ours = sorted(_links_of(text))
    theirs = sorted(_links_of(english))
    if ours != theirs:
        problems.append(f"links: {ours} != {theirs}")
    if _code_blocks(text) != _code_blocks(english):
        problems.append("code blocks differ from the English page's")
    if _tables(text) != _tables(english):
        problems.append(f"tables: {_tables(text)} != {_tables(english)}")
    left = sorted(_sentences(text) & _sentences(english))
    if left:
        problems.append(f"English sentences left untranslated: {left[:3]}")
    folded = _fold(text)
    words = _glossary(lang)
    unused = [f"{t}: {words[t]}" for t in GLOSSARY_TERMS if _stem(words[t]) not in folded]
    if unused:
        problems.append(f"the glossary's words are not used: {unused}")
    return problems


def _links_of(text: str) -> list[str]:
    """The relative link targets of the prose, a link's words running over lines or not."""
    prose = "\n".join(CODE_SPAN.sub("", line) for _, line in _prose(text))
    return [
        m["target"]
        for m in LINK.finditer(prose)
        if not re.match(r"^[a-z][a-z0-9+.-]*:", m["target"])
    ]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_translation_keeps_the_english_pages_shape(lang: str) -> None:
    problems = check(_text(_page(lang)), lang)
    assert not problems, f"docs/rules.{lang}.md:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_check_catches_a_broken_copy(lang: str) -> None:
    good = _text(_page(lang))
    note = next(line for line in good.splitlines() if NOTE_LINK in line)
    anchor = next(line for line in good.splitlines() if MADE_ANCHOR.match(line))
    picture = PICTURE.findall(good)[-1]
    link = next(m[0] for m in LINK.finditer(good) if "#" in m["target"])
    broken = {
        "no note": good.replace(note, "", 1),
        "an anchor lost": good.replace(anchor, "", 1),
        "a picture lost": good.replace(picture, "", 1),
        "a link changed": good.replace(link, link.replace("#", "#x", 1), 1),
        "a code block changed": good.replace(">>> import chickenfoot as cf", ">>> import cf", 1),
        "the English page itself": _text(ENGLISH).replace("# Rules", f"# Rules\n\n{note}", 1),
    }
    for what, text in broken.items():
        assert check(text, lang), f"{what}: not caught"


# -- the words around the pictures, in each language (tools/rules_words.py) ---------------------


def _placeholders(template: str) -> list[str]:
    return sorted(name for _, name, _, _ in string.Formatter().parse(template) if name)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pictures_words_are_all_there_with_the_english_placeholders(lang: str) -> None:
    assert set(rules_words.LANGUAGES) == {"en", *LANGUAGES}
    for table in (rules_words.CAPTIONS, rules_words.TABLE):
        english, ours = table["en"], table[lang]
        assert set(ours) == set(english), lang
        differ = [k for k in english if _placeholders(ours[k]) != _placeholders(english[k])]
        assert not differ, f"{lang}: placeholders differ from the English in {differ}"
        same = [k for k in english if len(english[k].split()) > 3 and ours[k] == english[k]]
        assert not same, f"{lang}: left in English: {same}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_numbered_tables_words_in_each_language(lang: str) -> None:
    from rules_pictures import labelled_table

    alt, svg, legend, centre = labelled_table(lang=lang)
    english_alt, english_svg, english_legend, _ = labelled_table()
    assert svg == english_svg  # one picture for every language: only the words around it differ
    assert len(legend) == len(english_legend) and alt != english_alt
    # the alt text numbers the parts as the badges do, and each part names the same tiles
    assert [int(n) for n in re.findall(r"(\d) ", alt)] == list(range(1, len(legend) + 1))
    for (_, ours), (_, theirs) in zip(legend, english_legend, strict=True):
        assert re.findall(r"\d+", ours) == re.findall(r"\d+", theirs), (ours, theirs)
    assert centre in legend[0][1]
