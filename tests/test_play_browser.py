"""The docs site's Play page in a real browser: Playwright driving Debian's Chromium (no
browser download) on the built site (``PLAY_SITE``, or ``build/play_site``: ``nox -s
play_browser`` builds it), served on the loopback with every other host unreachable.

At phone (390 px) and desktop (1280 px) widths a person plays a whole round against the
bots by clicking only what a person clicks: a playable tile of the hand (``data-tile``),
then a glowing place on the board (``data-move`` inside the table's ``<svg>``), or the draw
and pass buttons, until the round's end shows every hand (``data-round-end``); the page,
visited again, starts from the memory snapshot the first visit left, and plays. Every
request goes to the loopback (requests elsewhere are blocked, and none is made); the
worker runs the site's own wheel of the library. The site is served with the headers its
build writes in ``_headers`` (the Play page's Content-Security-Policy among them, as the
page's "Serving the site" shows), and the policy refuses nothing. axe-core (``AXE_JS``, or
``build/axe``) checks the Play page, the table in it and the rules page; screenshots go to
``SCREENSHOTS`` (or ``build/play_screens``) for a person to look at.
"""

from __future__ import annotations

import functools
import os
import shutil
import threading
import time
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from playwright import sync_api

import chickenfoot

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(os.environ.get("PLAY_SITE") or ROOT / "build" / "play_site")
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]  # fmt: skip
AXE = Path(os.environ.get("AXE_JS") or ROOT / "build/axe/node_modules/axe-core/axe.min.js")
SHOTS = Path(os.environ.get("SCREENSHOTS", ROOT / "build" / "play_screens"))
HEIGHT = {390: 844, 1280: 900}
FIRST_MOVE_MS = 120_000  # a cold start on a busy CI machine: Pyodide is 14 MB to compile


def site_headers(text: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """The rules of a ``_headers`` file (Netlify's and Cloudflare Pages' format): a path,
    ``*`` at its end matching the rest, then its headers, indented, ``Name: value``.

    >>> site_headers("/play/*\\n  X-Frame-Options: SAMEORIGIN\\n")
    [('/play/*', [('X-Frame-Options', 'SAMEORIGIN')])]
    """
    rules: list[tuple[str, list[tuple[str, str]]]] = []
    for line in text.splitlines():
        if line.strip() and not line[0].isspace():
            rules.append((line.strip(), []))
        elif line.strip():
            name, _, value = line.strip().partition(":")
            rules[-1][1].append((name.strip(), value.strip()))
    return rules


def headers_for(path: str, rules: list[tuple[str, list[tuple[str, str]]]]) -> list[tuple[str, str]]:
    path = path.split("?", 1)[0]
    return [
        header
        for pattern, headers in rules
        if (path.startswith(pattern[:-1]) if pattern.endswith("*") else path == pattern)
        for header in headers
    ]


class _Site(SimpleHTTPRequestHandler):
    """The built site, as a static host serves it (no compression, revalidated caching),
    with the headers its ``_headers`` file gives each path."""

    rules: list[tuple[str, list[tuple[str, str]]]] = []  # noqa: RUF012 - set once, read only

    extensions_map = {  # noqa: RUF012 - the base class's attribute, extended
        **SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
    }

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        for name, value in headers_for(self.path, self.rules):
            self.send_header(name, value)
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    assert (SITE / "play" / "table.html").is_file(), (
        f"no built site at {SITE}: nox -s play_browser builds it (mkdocs build -d {SITE})"
    )
    assert (SITE / "_headers").is_file(), f"the build wrote no {SITE / '_headers'}"
    _Site.rules = site_headers((SITE / "_headers").read_text(encoding="utf-8"))
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Site, directory=str(SITE)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def serious_violations(where: sync_api.Page | sync_api.Frame, name: str) -> list[Any]:
    """axe-core's violations in ``where``; no serious or critical one may remain. axe-core
    is evaluated by devtools, which the page's policy does not govern (a ``<script>`` the
    test added would be inline, and refused)."""
    where.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    found: list[Any] = where.evaluate(
        "async () => (await axe.run(document)).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.length,"
        " where: v.nodes.slice(0, 2).map(n => n.target.join(' '))}))"
    )
    bad = [v for v in found if v["impact"] in ("serious", "critical")]
    assert not bad, f"{name}: {bad}"
    return found


def moves_made(frame: sync_api.Frame) -> int:
    return int(frame.evaluate("Number(document.body.dataset.n || -1)"))


def take_turn(frame: sync_api.Frame) -> bool:
    """If it is the person's turn, play by clicking as a person does: a playable tile and,
    when it goes to several places, the first glowing place; or the draw or pass button."""
    tiles = frame.locator("#hand button.tile.playable")
    buttons = frame.locator("#actions button[data-move]")
    if not frame.locator("#hand-box").is_visible() or tiles.count() + buttons.count() == 0:
        return False
    n = moves_made(frame)
    if tiles.count():
        tiles.first.click()
        places = frame.locator("#picture svg g.target[data-move]")
        if moves_made(frame) == n and places.count():
            tile = frame.locator("#hand button.tile.selected").get_attribute("data-tile")
            glowing = places.evaluate_all("gs => gs.map(g => g.dataset.move)")
            assert glowing and all(m.startswith(f"{tile}@") for m in glowing)
            places.first.click()
    else:
        buttons.first.click()
    frame.wait_for_function("n => Number(document.body.dataset.n) !== n", arg=n, timeout=10_000)
    return True


def no_sideways_scroll(page: sync_api.Page, where: str) -> None:
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"{where}: the page is {widths[0]} px wide in {widths[1]}"


@pytest.mark.parametrize("width", [390, 1280])
def test_a_whole_round_on_the_play_page_by_clicking_with_no_other_host(
    site: str, width: int
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    left: list[str] = []
    requested: list[str] = []
    refused: list[str] = []

    def console(message: sync_api.ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or message.text.startswith("Refused to"):
            refused.append(message.text)

    def only_the_site(route: sync_api.Route) -> None:
        if route.request.url.startswith(site + "/"):
            route.continue_()
        else:
            left.append(route.request.url)
            route.abort()

    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": width, "height": HEIGHT[width]})
        context.route("**/*", only_the_site)
        context.add_init_script(
            "document.addEventListener('securitypolicyviolation', e => console.error("
            "'Refused to ... (Content Security Policy: ' + e.effectiveDirective + ' ' + e.blockedURI + ')'))"
        )
        page = context.new_page()
        page.on("request", lambda r: requested.append(r.url))
        page.on("console", console)
        response = page.goto(site + "/play/")
        assert response is not None
        policy = response.headers["content-security-policy"]
        assert "'wasm-unsafe-eval'" in policy and "'unsafe-inline'" not in policy
        assert "'unsafe-eval'" not in policy.replace("'wasm-unsafe-eval'", "")
        page.select_option("#play-settings select[name=players]", "2")
        chosen = "table.html?players=2&bot=heuristic&rounds=1"
        with page.expect_event("framenavigated", lambda f: f.url.endswith(chosen)) as event:
            page.click("#play-settings button[type=submit]")
        frame = event.value
        first = frame.locator("#hand button.tile.playable, #actions button[data-move]").first
        first.wait_for(timeout=FIRST_MOVE_MS)
        assert frame.evaluate("window.playTimings.version") == chickenfoot.__version__
        # where the game sits (issue 50, item 4): on a phone the frame was shifted left with
        # a 32 px gap on the right and the game began about 950 px down; at 1280 px the frame
        # was 686 px wide. The hand is on the first screen, the frame fills the phone's
        # width, and on a desktop the page gives the game its width (no side bars).
        box = page.evaluate(
            "() => { const r = document.getElementById('play-table').getBoundingClientRect();"
            " return [r.left, innerWidth - r.right, r.width, r.top + scrollY]; }"
        )
        hand = frame.evaluate(
            "() => document.getElementById('hand-box').getBoundingClientRect().top"
        )
        assert box[3] + hand < HEIGHT[width], (box, hand)
        if width < 600:
            assert abs(box[0]) < 1 and abs(box[1]) < 1, box
        else:
            assert box[2] >= 1000, box
        # the picture's caption is text of the page, wrapping, not cut at the picture's edge
        caption = frame.locator("#board-caption")
        assert caption.inner_text().endswith("to play") or "to play ·" in caption.inner_text()
        assert frame.evaluate(
            "() => { const c = document.getElementById('board-caption');"
            " return c.scrollWidth <= c.clientWidth; }"
        )
        page.screenshot(path=str(SHOTS / f"play-{width}.png"), full_page=True)
        serious_violations(page, f"the Play page at {width} px")
        serious_violations(frame, f"the table at {width} px")

        ended = frame.locator("#round-end[data-round-end]:not([hidden])")
        deadline = time.monotonic() + 300
        while not ended.is_visible():
            assert time.monotonic() < deadline, "the round did not end"
            if not take_turn(frame):
                time.sleep(0.05)
            no_sideways_scroll(page, f"the Play page at {width} px")
        assert frame.locator("#round-end .reveal li").count() == 2  # every hand, shown
        assert frame.evaluate("window.playTimings.bot.length") > 0
        page.screenshot(path=str(SHOTS / f"play-{width}-round-end.png"), full_page=True)
        serious_violations(frame, f"the round's end at {width} px")

        # the first visit left a memory snapshot of Python; the next visit starts from it
        frame.wait_for_function("window.playTimings.snapshot", timeout=FIRST_MOVE_MS)
        assert frame.evaluate("window.playTimings.snapshot").startswith("kept")
        page.reload()
        frame = page.frame(url=lambda url: "table.html" in url)
        assert frame is not None
        frame.locator("#hand button.tile.playable, #actions button[data-move]").first.wait_for(
            timeout=FIRST_MOVE_MS
        )
        assert frame.evaluate("window.playTimings.restored") is True
        while not take_turn(frame):  # and it plays
            time.sleep(0.05)

        assert refused == [], refused  # the Play page, its table and workers: nothing refused
        page.goto(site + "/rules/")
        page.locator("figure.rules-picture img").first.wait_for()
        # the game in brief and its numbered table open the page, on the first screen
        # (the first picture was 2,766 px down at 1280 px, 3,815 px on a phone: issue 50)
        top = page.evaluate(
            "document.querySelector('figure.rules-table img').getBoundingClientRect().top"
        )
        assert 0 < top < HEIGHT[width], top
        assert page.locator("figure.rules-table figcaption li").count() == 7
        page.screenshot(path=str(SHOTS / f"rules-{width}.png"), full_page=True)
        serious_violations(page, f"the rules page at {width} px")
        no_sideways_scroll(page, f"the rules page at {width} px")
        browser.close()
    assert not left, f"requests to other hosts: {sorted(set(left))[:5]}"
    assert requested and all(url.startswith(site + "/") for url in requested)
    assert any(url.endswith(".wasm") for url in requested)  # the worker's, seen too
