"""The table page in a real browser: Playwright driving Debian's Chromium (no browser
download), against a real ``chickenfoot serve`` process.

The home page's form makes a table; two people in two browser contexts and two bots
play a whole round by clicking the page's
``data-move`` buttons; the server is then killed and restarted on the same port and
database, and the pages reconnect by themselves. Screenshots go to ``SCREENSHOTS`` (or
``build/serve_screens``) for a person to look at.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from playwright import sync_api

from server_helpers import Server

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
SHOTS = Path(
    os.environ.get("SCREENSHOTS", Path(__file__).parent.parent / "build" / "serve_screens")
)


def test_two_people_and_two_bots_play_a_round_in_the_browser(tmp_path: Path) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    db = tmp_path / "tables.db"
    server = Server(db)
    port = server.port
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            # the home page's form makes the table: two people, two bots, a short match
            home = browser.new_page(viewport={"width": 1000, "height": 800})
            home.goto(server.base + "/")
            home.screenshot(path=str(SHOTS / "home.png"))
            home.fill("input[name=players]", "4")
            home.dispatch_event("input[name=players]", "change")
            home.select_option("select[name=max_pip]", "6")
            home.fill("input[name=hand_size]", "5")
            home.fill("input[name=rounds]", "2")
            seats = home.locator("#seats .seat")
            for i, (kind, name) in enumerate(
                [("person", "Ann"), ("person", "Bo"), ("greedy", "Greedy"), ("random", "Rand")]
            ):
                seats.nth(i).locator("select").select_option(kind)
                seats.nth(i).locator("input").fill(name)
            home.click("button[type=submit]")
            home.wait_for_selector("#links a")
            home.screenshot(path=str(SHOTS / "invite_links.png"))
            hrefs = home.eval_on_selector_all("#links a", "as => as.map(a => a.href)")
            links = [h for h in hrefs if "#" in h]
            assert len(links) == 2  # one invite link per person, and a link to watch
            pages = []
            for link in links:
                context = browser.new_context(viewport={"width": 1200, "height": 900})
                page = context.new_page()
                page.goto(link)
                pages.append(page)
            for page in pages:
                page.wait_for_selector("#status:text('connected')", timeout=10_000)
            clicks = 0
            shot = False
            deadline = time.monotonic() + 90
            while time.monotonic() < deadline:
                sheet = pages[0].locator("#sheet tr").count()
                if sheet >= 3:  # a header, round 1's row, the totals: the round is over
                    break
                for page in pages:
                    button = page.locator("#moves button[data-move]").first
                    if button.count() and button.is_visible():
                        if not shot:
                            page.screenshot(path=str(SHOTS / "table.png"), full_page=True)
                            shot = True
                        n = int(page.evaluate("document.body.dataset.n"))
                        button.click()
                        clicks += 1
                        # the move is applied: the page hears of the next position
                        page.wait_for_function(
                            "n => Number(document.body.dataset.n) > n", arg=n, timeout=10_000
                        )
                time.sleep(0.05)
            assert pages[0].locator("#sheet tr").count() >= 3, "the round did not end"
            assert clicks >= 2
            pages[1].screenshot(path=str(SHOTS / "after_round.png"), full_page=True)
            assert "Round 1 ended" in pages[0].locator("#round-end").inner_text()
            # the server dies; a new one on the same port and database; the pages reconnect
            server.kill()
            pages[0].wait_for_selector("#status:text('reconnecting')", timeout=10_000)
            server = Server(db, port=port)
            for page in pages:
                page.wait_for_selector("#status:text('connected')", timeout=20_000)
            assert pages[0].locator("#sheet tr").count() >= 3  # the match sheet is back
            pages[0].screenshot(path=str(SHOTS / "reconnected.png"), full_page=True)
            browser.close()
    finally:
        server.stop()


def test_the_operator_makes_a_table_with_the_key_on_the_home_page(tmp_path: Path) -> None:
    server = Server(tmp_path / "tables.db", extra=("--table-key", "our-family-key"))
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            home = browser.new_page()
            home.goto(server.base + "/")
            home.wait_for_selector("#key", state="visible")  # the page asks for the key
            home.click("button[type=submit]")
            home.wait_for_function("document.getElementById('error').textContent.length > 0")
            assert "table key" in home.inner_text("#error")
            home.fill("#key", "our-family-key")
            home.click("button[type=submit]")
            home.wait_for_selector("#links a")
            assert home.inner_text("#error") == ""
            home.click("#quick")  # Play now sends the key too
            home.wait_for_url("**/t/**")
            browser.close()
    finally:
        server.stop()
