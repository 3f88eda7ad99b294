"""mkdocs hook: the site in five languages (mkdocs-static-i18n builds each; see mkdocs.yml).

The players' pages are translated beside the English ones (``docs/index.el.md``,
``docs/play/index.hr.md``, ...); every other page of a translated build is the English one
(the plugin's fallback). Such a page says so at its top, in the reader's language, and its
text is marked English (``lang="en"`` on the article) while the theme around it (menus,
search) speaks the build's language, which ``<html lang>`` names. The API reference and
the contributors' pages say that they stay English.
"""

from __future__ import annotations

from typing import Any

LANGUAGES = ("en", "el", "hr", "ro", "lv")
"""The site's languages, English first (the default, at the site's root)."""

TRANSLATED = ("index.md", "play/index.md", "playing-online.md", "rules.md")
"""The players' pages, translated into every language of ``LANGUAGES`` (the rules page
falls back to English in a language whose translation is not there yet)."""

ENGLISH_ONLY = {
    "el": "Αυτή η σελίδα υπάρχει μόνο στα αγγλικά.",
    "hr": "Ova stranica postoji samo na engleskom.",
    "ro": "Această pagină există doar în limba engleză.",
    "lv": "Šī lapa ir tikai angļu valodā.",
}
"""The line at the top of a page not translated, in the build's language."""

REFERENCE_ENGLISH = {
    "el": "Η αναφορά API και οι σελίδες για όσους συνεισφέρουν στο έργο μένουν στα αγγλικά.",  # noqa: RUF001
    "hr": "API referenca i stranice za suradnike ostaju na engleskom.",
    "ro": "Referința API și paginile pentru contribuitori rămân în limba engleză.",
    "lv": "API apraksts un lapas līdzstrādniekiem paliek angļu valodā.",
}
"""The line at the top of the API reference's and the contributors' pages."""

ARTICLE = '<article class="md-content__inner md-typeset">'


def _language(config: Any) -> str:
    return str(config.theme["language"])


def _english_fallback(page: Any, config: Any) -> bool:
    """A page of a translated build that is the English page (no translation of it)."""
    return _language(config) != "en" and getattr(page.file, "localization", None) is None


def reference_page(src_uri: str) -> bool:
    """The API reference's and the contributors' pages, which stay English.

    >>> reference_page("api/rules.md"), reference_page("api.md"), reference_page("rules.md")
    (True, True, False)
    """
    return src_uri == "api.md" or src_uri.startswith(("api/", "contributors/"))


def on_config(config: Any, **kwargs: Any) -> Any:
    # the Greek pages' search: mkdocs's list of lunr languages lacks Greek, so the search
    # plugin's configuration drops it, yet the theme ships lunr's Greek (without it, the
    # index trims Greek words to nothing)
    search = config.plugins.get("material/search")
    if search is not None and "el" not in search.config.lang:
        search.config.lang.append("el")
    return config


def on_post_page(output: str, page: Any, config: Any, **kwargs: Any) -> str:
    # after the search plugin has read the page: the English page's text, indexed once
    if not _english_fallback(page, config) or ARTICLE not in output:
        return output
    lang = _language(config)
    said = REFERENCE_ENGLISH if reference_page(page.file.src_uri) else ENGLISH_ONLY
    note = f'\n<p class="english-only" lang="{lang}"><em>{said[lang]}</em></p>'
    start = output.index(ARTICLE)
    title = output.find("</h1>", start)
    at = title + len("</h1>") if title != -1 else start + len(ARTICLE)
    output = output[:at] + note + output[at:]
    return output.replace(ARTICLE, ARTICLE[:-1] + ' lang="en">', 1)
