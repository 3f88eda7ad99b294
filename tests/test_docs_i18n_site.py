"""The built docs site in five languages (``PLAY_SITE``, or ``build/play_site``: ``nox -s
play_browser`` builds it; mkdocs-static-i18n builds each language into its folder).

- Every language's pages say their language in ``<html lang>`` and carry mkdocs-material's
  language switcher, each language's link to the same page in that language.
- A page left in English in a translated build says so at its top, in the reader's language
  (the API reference and the contributors' pages say that they stay English), and its text
  is marked English (``lang="en"``); a translated page has no such line.
- The navigation's titles are translated; the search index holds every language's pages.
- In Chromium, the Greek home page and the Greek Play page at 390 px: no sideways scroll,
  axe-core with no serious or critical finding, screenshots (``SCREENSHOTS``); the Play
  page's table opens in Greek, plays, and a new game stays Greek, with nothing refused by
  the page's own Content-Security-Policy (``/el/play/*`` in ``_headers``).
"""

from __future__ import annotations

import json
import re

import pytest
from playwright import sync_api

from test_play_browser import (
    ARGS,
    CHROMIUM,
    FIRST_MOVE_MS,
    SHOTS,
    SITE,
    no_sideways_scroll,
    serious_violations,
    site,
    take_turn,
)

__all__ = ["site"]  # the fixture, shared with the Play page's test

LANGUAGES = ("en", "el", "hr", "ro", "lv")
TRANSLATED = ("", "play/", "playing-online/")
LEFT_IN_ENGLISH = ("tutorial/", "formats/", "api/rules/", "contributors/translations/")
NAV = {"en": "Playing online", "el": "Παιχνίδι σε διακομιστή", "hr": "Igra na poslužitelju",
       "ro": "Jocul pe un server", "lv": "Spēle serverī"}  # fmt: skip
ENGLISH_ONLY = {"el": "μόνο στα αγγλικά", "hr": "samo na engleskom",
                "ro": "doar în limba engleză", "lv": "tikai angļu valodā"}  # fmt: skip
REFERENCE = {"el": "μένουν στα αγγλικά", "hr": "ostaju na engleskom",
             "ro": "rămân în limba engleză", "lv": "paliek angļu valodā"}  # fmt: skip


def built(lang: str, url: str) -> str:
    prefix = "" if lang == "en" else f"{lang}/"
    path = SITE / prefix / url / "index.html"
    assert path.is_file(), f"the site has no {prefix}{url}: build it (nox -s play_browser)"
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_says_its_language_and_offers_the_others(lang: str) -> None:
    for url in TRANSLATED + LEFT_IN_ENGLISH:
        page = built(lang, url)
        assert f'<html lang="{lang}"' in page, url
        switcher = re.findall(r'hreflang="(\w+)" class="md-select__link"', page)
        assert switcher == list(LANGUAGES), (url, switcher)
        assert f">{NAV[lang]}<" in re.sub(r"\s+", " ", page).replace("> ", ">").replace(" <", "<")
        note = re.search(r'<p class="english-only" lang="(\w+)"><em>([^<]*)</em></p>', page)
        article = '<article class="md-content__inner md-typeset" lang="en">' in page
        if lang == "en" or url in TRANSLATED:
            assert note is None and not article, url
        else:
            assert note is not None and note[1] == lang and article, url
            said = REFERENCE if url.startswith(("api/", "contributors/")) else ENGLISH_ONLY
            assert said[lang] in note[2], (url, note[2])


def test_the_translated_play_pages_have_their_own_policy() -> None:
    rules = (SITE / "_headers").read_text(encoding="utf-8")
    for lang in LANGUAGES[1:]:
        assert f"\n/{lang}/play/*\n  Content-Security-Policy: default-src 'none';" in rules


def test_the_search_index_holds_every_language() -> None:
    index = json.loads((SITE / "search" / "search_index.json").read_text(encoding="utf-8"))
    locations = {doc["location"].split("/")[0] for doc in index["docs"]}
    assert {"el", "hr", "ro", "lv"} <= locations
    assert {"en", "el", "ro"} <= set(index["config"]["lang"])  # lunr has these three
    titles = {doc["title"] for doc in index["docs"] if doc["location"].startswith("lv/")}
    assert "Spēle serverī" in titles
    # a page left in English is indexed once, at the English site's address
    assert not [doc for doc in index["docs"] if doc["location"].startswith("el/tutorial/")]
    assert [doc for doc in index["docs"] if doc["location"].startswith("tutorial/")]


def test_the_greek_home_and_play_pages_in_chromium_at_390_px(site: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    refused: list[str] = []
    left: list[str] = []

    def only_the_site(route: sync_api.Route) -> None:
        if route.request.url.startswith(site + "/"):
            route.continue_()
        else:
            left.append(route.request.url)
            route.abort()

    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 390, "height": 844})
        context.route("**/*", only_the_site)
        context.add_init_script(
            "document.addEventListener('securitypolicyviolation', e => console.error("
            "'Refused to ... (Content Security Policy: ' + e.effectiveDirective + ' ' + e.blockedURI + ')'))"
        )
        page = context.new_page()
        page.on("console", lambda m: refused.append(m.text) if "Refused to" in m.text else None)
        page.goto(site + "/el/")
        assert page.evaluate("document.documentElement.lang") == "el"
        assert page.locator("h2#where-to-go-next").inner_text().startswith("Πού να πας")  # noqa: RUF001
        page.evaluate("document.getElementById('__search').click()")  # the search, in Greek
        search = page.locator("input.md-search__input")
        search.focus()
        # typed as a person types, before axe-core is loaded into the page (evaluated there,
        # it left the theme's search answering nothing)
        search.press_sequentially("διακομιστή")
        found = page.locator(".md-search-result__item a[href*='/el/playing-online/']")
        found.first.wait_for(timeout=FIRST_MOVE_MS)
        page.keyboard.press("Escape")
        no_sideways_scroll(page, "the Greek home page")
        page.screenshot(path=str(SHOTS / "docs-home-el-390.png"), full_page=True)
        serious_violations(page, "the Greek home page at 390 px")

        response = page.goto(site + "/el/play/")
        assert (
            response is not None
            and "'wasm-unsafe-eval'" in response.headers["content-security-policy"]
        )
        frame = page.frame_locator("#play-table")
        first = frame.locator("#hand button.tile.playable, #actions button[data-move]").first
        first.wait_for(timeout=FIRST_MOVE_MS)
        table = page.frame(url=lambda url: "table.html" in url)
        assert table is not None and "/play/table.html?" in table.url and "lang=el" in table.url
        assert table.evaluate("document.documentElement.lang") == "el"
        assert "Αυτόματα η μόνη μου κίνηση" in table.locator("body").inner_text()
        assert take_turn(table) or table.locator("#hand-box").is_visible()
        no_sideways_scroll(page, "the Greek Play page")
        page.screenshot(path=str(SHOTS / "docs-play-el-390.png"), full_page=True)
        serious_violations(page, "the Greek Play page at 390 px")
        serious_violations(table, "its table at 390 px")

        page.select_option("#play-settings select[name=players]", "2")  # a new game: still Greek
        chosen = "/play/table.html?players=2&bot=heuristic&rounds=1&lang=el"
        with page.expect_event(
            "framenavigated", lambda f: f.url.endswith(chosen), timeout=FIRST_MOVE_MS
        ) as event:
            page.click("#play-settings button[type=submit]")
        again = event.value  # its language is set as its words' script runs, before the game
        again.wait_for_load_state("domcontentloaded", timeout=FIRST_MOVE_MS)
        assert again.evaluate("document.documentElement.lang") == "el"
        browser.close()
    assert refused == [], refused
    assert not left, left
