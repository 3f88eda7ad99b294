"""Issue 49: the catalogs. Every sentence is translated in every language, with the same
placeholders as its English; the compiled files (``.mo`` for the command line, JSON for the
pages) are those of their ``.po`` sources; the plural rules of the pages' script are the
catalogs' own (Plural-Forms); a template lists every sentence the source marks.
"""

from __future__ import annotations

import gettext
import json
import re
import string
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from chickenfoot import _i18n

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "src" / "chickenfoot" / "locale"
STATIC = ROOT / "src" / "chickenfoot" / "server" / "static"
TRANSLATED = [lang for lang in _i18n.LANGUAGES if lang != "en"]
DOMAINS = ("chickenfoot", "web")
# The plural forms per language (issue 49): Greek two; Croatian, Romanian, Latvian three.
FORMS = {"el": 2, "hr": 3, "ro": 3, "lv": 3}

sys.path.insert(0, str(ROOT))
from tools.i18n import web_catalog  # noqa: E402


def _names(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def _catalog(lang: str, domain: str):  # type: ignore[no-untyped-def]
    with (LOCALE / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
        return read_po(f, locale=lang)


def _template(domain: str):  # type: ignore[no-untyped-def]
    with (LOCALE / f"{domain}.pot").open("rb") as f:
        return read_po(f)


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_sentence_is_translated_with_its_placeholders(lang: str, domain: str) -> None:
    catalog = _catalog(lang, domain)
    assert catalog.num_plurals == FORMS[lang]
    ids = {m.id for m in _template(domain) if m.id}
    assert {m.id for m in catalog if m.id} == ids  # up to date with the template
    problems = []
    for m in catalog:
        if not m.id:
            continue
        if m.fuzzy:
            problems.append(f"fuzzy: {m.id!r}")
        if isinstance(m.id, tuple):
            english = _names(m.id[0]) | _names(m.id[1])
            if len(m.string) != FORMS[lang] or not all(m.string):
                problems.append(f"plural forms missing: {m.id[0]!r}")
            for form in m.string:
                # a form may leave {n} out ("one"), never name another placeholder
                if form and not (_names(form) <= english and english - _names(form) <= {"n"}):
                    problems.append(f"placeholders: {m.id[0]!r} -> {form!r}")
        elif not m.string:
            problems.append(f"untranslated: {m.id!r}")
        elif _names(m.string) != _names(m.id):
            problems.append(f"placeholders: {m.id!r} -> {m.string!r}")
    assert problems == []


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_compiled_catalogs_are_those_of_their_sources(lang: str) -> None:
    """``nox -s i18n_compile`` was run after the last change to a ``.po``."""
    catalog = _catalog(lang, "chickenfoot")
    with (LOCALE / lang / "LC_MESSAGES" / "chickenfoot.mo").open("rb") as f:
        mo = gettext.GNUTranslations(f)
    for m in catalog:
        if not m.id:
            continue
        if isinstance(m.id, tuple):
            rule = gettext.c2py(_plural(catalog))
            for n in range(112):
                i = rule(n)
                assert mo.ngettext(m.id[0], m.id[1], n) == m.string[i]
        else:
            assert mo.gettext(m.id) == m.string
    assert mo.info()["plural-forms"] == catalog.plural_forms
    page = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert page == web_catalog(LOCALE / lang / "LC_MESSAGES" / "web.po", lang)


def _plural(catalog) -> str:  # type: ignore[no-untyped-def]
    return catalog.plural_forms.split("plural=", 1)[1].rstrip(";")


def test_the_pages_plural_rules_are_the_catalogs() -> None:
    """i18n.js picks a plural form with its own rule per language: the same as Plural-Forms."""
    script = (STATIC / "i18n.js").read_text(encoding="utf-8")
    for lang in _i18n.LANGUAGES:
        found = re.search(rf"^\s+{lang}: n => (.+),$", script, re.M)
        assert found is not None, lang
        js = found.group(1).replace("!==", "!=").replace("===", "==")
        page = gettext.c2py(js)
        rule = gettext.c2py("n != 1" if lang == "en" else _plural(_catalog(lang, "web")))
        assert [page(n) for n in range(1000)] == [rule(n) for n in range(1000)], lang


def test_the_templates_hold_every_marked_sentence() -> None:
    """``nox -s i18n_extract`` was run after the last sentence was marked (spot checks on
    each kind of source: Python, the pages' JavaScript and their HTML)."""
    cli = {m.id for m in _template("chickenfoot") if m.id}
    web = {m.id for m in _template("web") if m.id}
    assert "You drew {tile}." in cli  # play.py
    assert "No such table" in cli  # the server's refusals
    assert "Your turn" in web and ("{n} tile", "{n} tiles") in web  # table.js
    assert "Your hand" in web and "Make the table" in web  # table.html, home.html
    assert "Copy link" in web  # home.js


def test_no_translation_reaches_the_page_as_markup() -> None:
    """The pages put translated words in with textContent (or as attribute values), never
    as markup: no line that assigns innerHTML calls t() or tn()."""
    for name in ("table.js", "home.js", "i18n.js"):
        for line in (STATIC / name).read_text(encoding="utf-8").splitlines():
            if "innerHTML" in line:
                assert not re.search(r"\btn?\(", line), (name, line)


def test_the_play_page_gets_the_words_too() -> None:
    """The docs' Play page is a static copy of the table page: it loads i18n.js and the
    catalogs beside it (no server: the browser's languages choose)."""
    from tools import play_site

    page = play_site.table_page()
    assert '<script src="i18n.js"></script>' in page
    assert page.index('src="i18n.js"') < page.index('src="table.js"')
    for lang in TRANSLATED:
        assert f"i18n/{lang}.json" in play_site.SERVER_STATIC
    for name in play_site.SERVER_STATIC:
        assert (STATIC / name).is_file(), name
