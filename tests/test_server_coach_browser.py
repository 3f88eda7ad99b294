"""Hints and the review after a round on the table page, in a real browser (Playwright
driving Debian's Chromium, no browser download) against a real ``chickenfoot serve``.

At a table made with hints on, every seat and the spectator read that hints are on; the
seat to act asks for one and reads it, the other seat's page shows none. At the round's
end each seat opens the review of its own decisions from the round-end view (the
spectator has no such button): biggest loss first, each with the picture of that moment.
At phone and desktop widths nothing scrolls sideways or is cut off, and axe-core finds no
serious or critical violation. Screenshots of the review go to ``SCREENSHOTS`` (or
``build/serve_screens``) for a person to look at.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from playwright import sync_api

from server_helpers import Server
from test_server_browser import (
    ARGS,
    CHROMIUM,
    HEIGHT,
    SHOTS,
    no_sideways_scroll,
    play_until,
    serious_violations,
    watch_policy,
)

TABLE = {
    "players": 2, "preset": "house", "hints": True,
    "rules": {"max_pip": 6, "hand_size": 7, "match": {"rounds": 1}},
    "seats": [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}],
}  # fmt: skip


def nothing_cut_off(page: sync_api.Page, selector: str) -> None:
    """Every element of ``selector`` lies within the page's width."""
    overflowing = page.locator(selector).evaluate_all(
        "es => es.filter(e => { const r = e.getBoundingClientRect();"
        " return r.left < -1 || r.right > document.documentElement.clientWidth + 1; }).length"
    )
    assert overflowing == 0, f"{overflowing} of {selector} cut off"


@pytest.mark.parametrize("width", [390, 1280])
def test_a_hint_at_your_turn_and_the_review_of_your_decisions(tmp_path: Path, width: int) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    server = Server(tmp_path / "tables.db")
    axe: dict[str, Any] = {}
    refused: list[str] = []
    size = {"width": width, "height": HEIGHT[width]}
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            made = server.post("/api/tables", TABLE)
            pages = []
            for link in [s["link"] for s in made["seats"]] + [made["watch"]]:
                page = watch_policy(browser.new_context(viewport=size).new_page(), refused)
                page.goto(server.base + link)
                page.wait_for_selector(".status:text('connected')", timeout=10_000)
                pages.append(page)
            watcher = pages.pop()
            for page in [*pages, watcher]:  # everyone is told, spectators too
                page.wait_for_selector("#coach-on:visible", timeout=10_000)
                assert "Hints are on" in page.locator("#coach-on").inner_text()
            assert not watcher.locator("#coach-ask").is_visible()
            # the seat to act asks; the other's button waits for its turn
            deadline = time.monotonic() + 20
            while all(p.locator("#coach-ask").is_disabled() for p in pages):
                assert time.monotonic() < deadline, "no seat may ask for a hint"
                time.sleep(0.05)
            mine = next(p for p in pages if not p.locator("#coach-ask").is_disabled())
            other = next(p for p in pages if p is not mine)
            start = time.monotonic()
            mine.click("#coach-ask")
            mine.wait_for_function(
                "() => document.getElementById('coach-answer').textContent.startsWith('Hint: ')",
                timeout=120_000,
            )
            print(f"\n{width} px: a hint in {time.monotonic() - start:.1f} s")
            assert other.locator("#coach-ask").is_disabled()
            assert other.locator("#coach-answer").inner_text() == ""
            no_sideways_scroll(mine, "a hint")
            nothing_cut_off(mine, "#coach-box, #coach-on")
            serious_violations(mine, "a hint", axe)
            mine.screenshot(path=str(SHOTS / f"serve-hint-{width}.png"), full_page=True)
            # the round to its end; each seat may open its review, the spectator may not
            ann = pages[0]
            ended = ann.locator("[data-round-end]")
            play_until(pages, ended.is_visible)
            ann.wait_for_selector("[data-round-end] [data-review]")
            watcher.wait_for_selector("[data-round-end]:visible")
            assert watcher.locator("[data-review]").count() == 0
            shown = {}
            for page in pages:  # each seat its own review
                page.wait_for_selector("[data-round-end] [data-review]")
                start = time.monotonic()
                page.click("[data-review]")
                page.wait_for_selector(
                    "#review-box ol.review, #review-box p:not(.hint)", timeout=180_000
                )
                print(f"{width} px: a review in {time.monotonic() - start:.1f} s")
                box = page.locator("#review-box")
                said = box.inner_text()
                assert "Your decisions in this round, biggest loss first" in said
                pictures = box.locator(".review-picture svg").count()
                assert pictures == said.count("was better by")
                box.scroll_into_view_if_needed()
                no_sideways_scroll(page, "the review")
                nothing_cut_off(page, "#review-box, #review-box .review-picture svg, #review-box p")
                serious_violations(page, "the review", axe)
                shown[pictures] = page
            assert max(shown) >= 1, "neither seat's review shows a decision that lost points"
            page = shown[max(shown)]  # the review with the most pictures, to look at
            page.locator("#review-box").screenshot(path=str(SHOTS / f"serve-review-{width}.png"))
            page.screenshot(path=str(SHOTS / f"serve-review-page-{width}.png"), full_page=True)
            page.click("#review-box button")  # closed
            assert not page.locator("#review-box").is_visible()
            assert refused == []
            browser.close()
    finally:
        server.stop()
    print(
        f"axe-core at {width} px:",
        {k: [(v["id"], v["impact"]) for v in vs] for k, vs in axe.items()},
    )
