"""Issue 49: the table page in each language, in Chromium (Playwright, Debian's browser;
``nox -s serve_browser`` runs it). The browser's own language (its ``Accept-Language``)
chooses the page's; two people play a round at 390 and 1280 px: the page's ``lang`` is
right, its words are the catalog's, nothing scrolls sideways and no button or heading cuts
its text, axe-core finds nothing serious or critical, and the switcher's choice is
remembered. Screenshots of the table and the round's end go to ``I18N_SCREENSHOTS`` (or
``build/i18n_screens``).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from playwright import sync_api

from chickenfoot import _i18n
from server_helpers import Server
from test_server_browser import (
    ARGS,
    CHROMIUM,
    HEIGHT,
    no_sideways_scroll,
    play_until,
    serious_violations,
    watch_policy,
)

ROOT = Path(__file__).resolve().parent.parent
SHOTS = Path(os.environ.get("I18N_SCREENSHOTS", ROOT / "build" / "i18n_screens"))
STATIC = ROOT / "src" / "chickenfoot" / "server" / "static"
LOCALES = {"en": "en-GB", "el": "el-GR", "hr": "hr-HR", "ro": "ro-RO", "lv": "lv-LV"}


def words(lang: str) -> dict[str, Any]:
    if lang == "en":
        return {}
    page = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    return dict(page["messages"])


def said(lang: str, english: str) -> str:
    return str(words(lang).get(english, english))


def nothing_cut(page: sync_api.Page, where: str) -> None:
    """No button, heading or label cuts its text (long Greek words): each is as wide as
    what it holds."""
    cut = page.evaluate(
        "[...document.querySelectorAll('button, h1, h2, .turn, label, summary')]"
        ".filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)"
        ".map(e => e.tagName + ': ' + e.textContent.trim().slice(0, 40))"
    )
    assert cut == [], f"{where}: {cut}"


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_table_in_each_language(tmp_path: Path, lang: str, width: int) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    server = Server(tmp_path / "tables.db")
    axe: dict[str, Any] = {}
    refused: list[str] = []
    size = {"width": width, "height": HEIGHT[width]}
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            made = server.post(
                "/api/tables",
                {
                    "players": 2, "preset": "house",
                    "rules": {"max_pip": 6, "hand_size": 6, "match": {"rounds": 1}},
                    "seats": [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}],
                },
            )  # fmt: skip
            pages = []
            for seat in made["seats"]:
                context = browser.new_context(viewport=size, locale=LOCALES[lang])
                page = watch_policy(context.new_page(), refused)
                page.goto(server.base + seat["link"])
                page.wait_for_selector("#hand [data-tile], #turn:not(:empty)", timeout=15_000)
                pages.append(page)
            ann = pages[0]
            assert ann.evaluate("document.documentElement.lang") == lang
            assert ann.locator("#hand-title").inner_text() == said(lang, "Your hand")
            assert ann.locator("#lang").input_value() == lang  # the switcher says which
            no_sideways_scroll(ann, f"{lang} table")
            nothing_cut(ann, f"{lang} table")
            serious_violations(ann, f"{lang} table", axe)
            if width == 390:
                ann.screenshot(path=str(SHOTS / f"table-{lang}-{width}.png"), full_page=True)
            ended = ann.locator("[data-round-end]")
            play_until(pages, ended.is_visible)
            ann.wait_for_selector("[data-round-end] [data-rematch]")
            assert ann.locator("[data-rematch]").inner_text() == said(
                lang, "Rematch: a new match, same seats"
            )
            # Words made by table.js after the catalog arrived, not before it (they were
            # English on every page once: the record buttons were made at load).
            assert ann.locator("button[data-record=own]").inner_text() == said(
                lang, "Download my copy of this round"
            )
            assert ann.locator("#deal-box h2").inner_text() == said(lang, "Deal commitment")
            no_sideways_scroll(ann, f"{lang} round end")
            nothing_cut(ann, f"{lang} round end")
            serious_violations(ann, f"{lang} round end", axe)
            if width == 390:
                ann.screenshot(path=str(SHOTS / f"round-end-{lang}-{width}.png"), full_page=True)
            assert refused == []
            browser.close()
    finally:
        server.stop()


def test_the_switcher_chooses_and_remembers(tmp_path: Path) -> None:
    """A Romanian browser opens the home page in Romanian; the switcher changes it to
    Latvian, and the choice outlives a reload and the next page (the cookie)."""
    server = Server(tmp_path / "tables.db")
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_context(locale="ro-RO").new_page()
            page.goto(server.base + "/")
            page.wait_for_selector("#lang")
            assert page.evaluate("document.documentElement.lang") == "ro"
            assert page.locator("#quick").inner_text() == said("ro", "Play against bots")
            # a sentence no catalog has yet (a new one): English, filled in, as text
            english = page.evaluate("t('A new sentence for {name}.', {name: '<b>Ann</b>'})")
            assert english == "A new sentence for <b>Ann</b>."
            assert page.evaluate("tn('{n} tile', '{n} tiles', 20, {n: 20})") == "20 de piese"
            with page.expect_navigation():
                page.select_option("#lang", "lv")
            page.wait_for_selector("#lang")
            assert page.evaluate("document.documentElement.lang") == "lv"
            assert page.locator("#quick").inner_text() == said("lv", "Play against bots")
            page.goto(server.base + "/t/nothing-here")
            assert page.evaluate("document.documentElement.lang") == "lv"
            assert _i18n.translator("lv").gettext("No such table") in page.inner_text("h1")
            browser.close()
    finally:
        server.stop()


@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_home_page_and_its_invites_in_each_language(tmp_path: Path, lang: str) -> None:
    """The home page at 390 px in each language: its words, the table made with its form
    and the invites shown, nothing sideways, nothing cut, nothing serious for axe-core."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    server = Server(tmp_path / "tables.db")
    axe: dict[str, Any] = {}
    refused: list[str] = []
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            context = browser.new_context(
                viewport={"width": 390, "height": 844}, locale=LOCALES[lang]
            )
            page = watch_policy(context.new_page(), refused)
            page.goto(server.base + "/")
            page.wait_for_selector("#seats .seat")
            assert page.evaluate("document.documentElement.lang") == lang
            assert page.locator("#friends-title").inner_text() == said(lang, "Play with friends")
            assert (
                page.locator("#seats .seat label")
                .first.inner_text()
                .startswith(said(lang, "Seat {seat}").format(seat=1))
            )
            page.click("#make button[type=submit]")
            page.wait_for_selector("#made:not([hidden]) #links li")
            assert page.locator("#links [data-copy]").first.inner_text() == said(lang, "Copy link")
            no_sideways_scroll(page, f"{lang} home")
            nothing_cut(page, f"{lang} home")
            serious_violations(page, f"{lang} home", axe)
            page.screenshot(path=str(SHOTS / f"home-{lang}-390.png"), full_page=True)
            assert refused == []
            browser.close()
    finally:
        server.stop()


@pytest.mark.parametrize("lang", ["el", "lv"])
def test_the_servers_refusals_in_the_readers_language(tmp_path: Path, lang: str) -> None:
    """What the server refuses, a person reads in the page's language: a seat's link with a
    wrong token (the WebSocket's fatal 4401; the page stops reconnecting) and a table key
    the home page lacks (HTTP 403), each the catalog's sentence, not the server's English."""
    server = Server(tmp_path / "tables.db", extra=("--table-key", "sesame-open"))
    refused: list[str] = []
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            context = browser.new_context(
                viewport={"width": 390, "height": HEIGHT[390]}, locale=LOCALES[lang]
            )
            page = watch_policy(context.new_page(), refused)
            page.goto(server.base + "/")
            page.locator("#make button[type=submit]").click()
            expected = said(
                lang,
                "Making tables on this server needs its table key: ask the person who runs it.",
            )
            page.wait_for_function(
                "t => document.getElementById('error').textContent === t",
                arg=expected,
                timeout=15_000,
            )
            page.fill("#key", "sesame-open")
            page.locator("#make button[type=submit]").click()
            link = page.locator("#links input").first
            link.wait_for(timeout=15_000)
            url = link.input_value()
            page.goto(url[: url.index("#") + 1] + "wrong-token" if "#" in url else url + "x")
            expected = said(lang, "This link is not a seat of this table: ask for the link again.")
            page.wait_for_function(
                "t => document.getElementById('error').textContent === t",
                arg=expected,
                timeout=15_000,
            )
            assert expected != "This link is not a seat of this table: ask for the link again."
            assert refused == []
            browser.close()
    finally:
        server.stop()
