"""The docs site's review, hints and puzzles in a real browser (Playwright driving Debian's
Chromium, no browser download) on the built site (``PLAY_SITE``, or ``build/play_site``:
``nox -s play_browser`` builds it), served on the loopback with every other host
unreachable, at phone (390 px) and desktop (1280 px) widths.

On the Play page a person starts a four-seat round with hints, asks for a hint at a turn,
plays the round out by clicking, and at its end asks for the review of their decisions:
biggest loss first, each with the table as they saw it and the better move's place
glowing. The review's time in the page (the library's analysis in Pyodide, for one seat of
a four-seat round) is printed, never asserted. On the Puzzles page (plain JavaScript, no
Python) a person chooses a wrong move, then the answer, and the page says so and shows the
solver's values. Nothing scrolls sideways, axe-core finds nothing serious, no request
leaves the site; screenshots go to ``SCREENSHOTS`` (or ``build/play_screens``).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest
from playwright import sync_api

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_play_browser import (
    ARGS,
    CHROMIUM,
    FIRST_MOVE_MS,
    HEIGHT,
    SHOTS,
    SITE,
    no_sideways_scroll,
    serious_violations,
    site,  # noqa: F401 - the fixture, shared
    take_turn,
)

REVIEW_MS = 300_000  # the review's own time is measured and printed, never asserted


def _browser(p: sync_api.Playwright, root: str, width: int, left: list[str],
             locale: str = "en-GB") -> sync_api.BrowserContext:  # fmt: skip
    """A new browser's context at ``width``: requests elsewhere than the site blocked and
    listed in ``left`` (the browser closes with Playwright)."""
    browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    context = browser.new_context(viewport={"width": width, "height": HEIGHT[width]}, locale=locale)

    def only_the_site(route: sync_api.Route) -> None:
        if route.request.url.startswith(root + "/"):
            route.continue_()
        else:
            left.append(route.request.url)
            route.abort()

    context.route("**/*", only_the_site)
    return context


def _no_cut_buttons(where: sync_api.Frame | sync_api.Page, scope: str) -> None:
    cut = where.evaluate(
        "scope => [...document.querySelectorAll(scope + ' button, ' + scope + ' h2, ' + scope + ' h3')]"
        ".filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)"
        ".map(e => e.textContent)",
        scope,
    )
    assert cut == [], f"cut off: {cut}"


@pytest.mark.parametrize("width", [390, 1280])
def test_a_round_with_a_hint_then_the_review_of_your_decisions_on_the_play_page(
    site: str,  # noqa: F811 - the fixture
    width: int,
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    left: list[str] = []
    with sync_api.sync_playwright() as p:
        context = _browser(p, site, width, left)
        page = context.new_page()
        page.goto(site + "/play/")
        assert not page.locator("#play-settings input[name=hints]").is_checked()  # off by default
        page.select_option("#play-settings select[name=players]", "4")
        page.check("#play-settings input[name=hints]")
        chosen = "table.html?players=4&bot=heuristic&rounds=1&hints=1"
        with page.expect_event("framenavigated", lambda f: f.url.endswith(chosen)) as event:
            page.click("#play-settings button[type=submit]")
        frame = event.value
        frame.locator("#hand button.tile.playable, #actions button[data-move]").first.wait_for(
            timeout=FIRST_MOVE_MS
        )
        assert frame.locator(".hints-on").is_visible()  # the table says hints are on
        frame.click("button[data-hint]")
        said = frame.locator(".hint-said[data-move]")
        said.wait_for(timeout=60_000)
        assert said.inner_text().startswith("Hint: ")
        hinted = said.get_attribute("data-move")
        playable = frame.evaluate(
            "[...document.querySelectorAll('#hand button.tile.playable')].map(b => b.dataset.tile)"
        )
        assert hinted in ("draw", "pass") or hinted.split("@")[0] in playable
        page.screenshot(path=str(SHOTS / f"play-hint-{width}.png"), full_page=True)
        serious_violations(frame, f"the table with hints at {width} px")

        ended = frame.locator("#round-end[data-round-end]:not([hidden])")
        deadline = time.monotonic() + 600
        while not ended.is_visible():
            assert time.monotonic() < deadline, "the round did not end"
            if not take_turn(frame):
                time.sleep(0.05)
        offer = frame.locator("#play-review button[data-review]")
        offer.wait_for()
        offer.click()
        done = frame.locator("#play-review .review-list, #play-review p:not(.hint)")
        done.first.wait_for(timeout=REVIEW_MS)
        timing = frame.evaluate("window.playTimings.review[0]")
        load = Path("/proc/loadavg").read_text().split()[:3]
        print(f"review at {width} px: {json.dumps(timing)} (load {' '.join(load)})")
        items = frame.locator("#play-review .review-list li")
        count = items.count()
        assert count <= 5
        for k in range(count):
            item = items.nth(k)
            best = item.get_attribute("data-best")
            assert "better by" in item.locator("figcaption").inner_text()
            assert item.locator("svg[role=img]").count() == 1
            if best not in ("draw", "pass"):
                assert item.locator(f'svg g.target[data-move="{best}"]').count() == 1
        losses = frame.evaluate(
            "[...document.querySelectorAll('#play-review figcaption')]"
            ".map(c => Number(c.textContent.match(/better by ([0-9.]+)/)[1]))"
        )
        assert losses == sorted(losses, reverse=True)
        no_sideways_scroll(page, f"the Play page's review at {width} px")
        _no_cut_buttons(frame, "#play-review")
        if count:
            items.first.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"play-review-{width}.png"), full_page=True)
        frame.locator("#play-review").screenshot(path=str(SHOTS / f"play-review-{width}-box.png"))
        serious_violations(frame, f"the review at {width} px")
        context.close()
    assert not left, f"requests to other hosts: {sorted(set(left))[:5]}"


@pytest.mark.parametrize("width", [390, 1280])
def test_a_puzzle_played_in_the_puzzles_page_says_wrong_then_right(
    site: str,  # noqa: F811 - the fixture
    width: int,
) -> None:
    data = json.loads((SITE / "puzzles" / "puzzles.json").read_text(encoding="utf-8"))
    left: list[str] = []
    with sync_api.sync_playwright() as p:
        context = _browser(p, site, width, left)
        page = context.new_page()
        page.goto(site + "/puzzles/")
        board = page.locator("#puzzle-play")
        board.locator(".puzzle-moves button").first.wait_for()
        first = data["puzzles"][0]
        assert (
            board.locator(".puzzle-moves button").evaluate_all("bs => bs.map(b => b.dataset.move)")
            == first["legal"]
        )
        assert board.locator("svg g.target.shown").count() == 0  # no answer before a choice
        wrong = next(m for m in first["legal"] if m != first["answer"])
        board.locator(f'.puzzle-moves button[data-move="{wrong}"]').click()
        assert board.locator("[data-verdict]").get_attribute("data-verdict") == "wrong"
        assert board.locator("[data-verdict]").inner_text().startswith("Not this one")
        board.locator(f'.puzzle-moves button[data-move="{first["answer"]}"]').click()
        assert board.locator("[data-verdict]").get_attribute("data-verdict") == "right"
        rows = board.locator(".puzzle-values tbody tr")
        assert rows.count() == len(first["legal"])
        me = first["seat"]
        shown = [int(rows.nth(k).locator("td").first.inner_text()) for k in range(rows.count())]
        assert shown == [v[me] for v in first["values"]]
        assert board.locator(f'svg g.target.shown[data-move="{first["answer"]}"]').count() == 1
        no_sideways_scroll(page, f"the Puzzles page at {width} px")
        _no_cut_buttons(page, "#puzzle-play")
        board.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"puzzle-{width}.png"), full_page=True)
        board.screenshot(path=str(SHOTS / f"puzzle-{width}-board.png"))
        serious_violations(page, f"the Puzzles page at {width} px")
        page.click("#puzzle-play button[data-next]")  # the next one, unanswered
        assert board.locator("h3").inner_text().startswith(f"Puzzle {data['puzzles'][1]['id']}")
        assert board.locator("[data-verdict]").count() == 0
        context.close()
    assert not left, f"requests to other hosts: {sorted(set(left))[:5]}"
