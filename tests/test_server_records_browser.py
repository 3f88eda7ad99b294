"""The table page's records (issue 47, item 5) in a real browser: Debian's Chromium driven
by Playwright against a real ``chickenfoot serve``. The seat's button saves the seat's own
copy of the round (fetched with the seat's token, saved from a Blob); the full copy of a
round in play is refused with the server's sentence, under the page's policy."""

from __future__ import annotations

from pathlib import Path

from playwright import sync_api

from server_helpers import Server
from test_server_browser import ARGS, CHROMIUM, watch_policy


def test_a_seat_saves_its_own_copy_and_the_full_copy_waits(tmp_path: Path) -> None:
    server = Server(tmp_path / "tables.db")
    made = server.post("/api/play", {"players": 2, "bot": "greedy"})
    refused: list[str] = []
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = watch_policy(browser.new_page(accept_downloads=True), refused)
            page.goto(server.base + made["link"])
            page.wait_for_selector(".status:text('connected')")
            with page.expect_download() as info:
                page.click("button[data-record=own]")
            saved = Path(info.value.path()).read_text(encoding="utf-8")
            assert info.value.suggested_filename.endswith("-seat0.cfn")
            assert '[Audience "seat 0"]' in saved and '[Hand1 "??' in saved
            page.click("button[data-record=full]")
            error = page.locator("#error")
            error.wait_for(state="visible")
            assert "once a round is over" in error.inner_text()
            browser.close()
    finally:
        server.stop()
    assert not refused
