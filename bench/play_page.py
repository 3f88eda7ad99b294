"""Measure the docs site's Play page in Chromium over the loopback: bytes cold and warm, the
time to the first legal move cold and warm, and a bot's move time.

    nox -s play_browser                       # builds build/play_site (or: mkdocs build -d ...)
    python bench/play_page.py [--site build/play_site] [--runs 3]

A fresh browser profile (its disk cache empty) loads the Play page ("cold"), then, after
``--settle`` seconds (a later visit: meanwhile the page keeps its memory snapshot of
Python, and Chromium its compiled WebAssembly), loads it again ("warm": every file
revalidated from the browser's cache, Python started from the snapshot). The
site is served as a plain static host serves it: no compression, ``Cache-Control:
no-cache`` (every file revalidated on the warm load). Every other host is unreachable
(``--host-resolver-rules``). Bytes are Resource Timing's ``transferSize`` summed over the
page, its frame and the worker; "first legal move" is from the start of navigation to the
first playable tile (or draw button) of the hand; a bot's move is the worker's time to
choose it, play it and make the messages (the page's pacing of bots left out). Figures
are printed, never asserted.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import tempfile
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
RESOURCES = (
    "performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))"
    ".map(e => e.transferSize).reduce((a, b) => a + b, 0)"
)


class Site(SimpleHTTPRequestHandler):
    extensions_map = {  # noqa: RUF012 - the base class's attribute, extended
        **SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
    }

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


def load(page: Any, url: str) -> dict[str, Any]:
    began = time.perf_counter()
    page.goto(url + "/play/?")
    frame = page.frame(url=lambda u: "table.html" in u)
    first = frame.locator("#hand button.tile.playable, #actions button[data-move]").first
    first.wait_for(timeout=120_000)
    seconds = time.perf_counter() - began
    timings = frame.evaluate("window.playTimings")
    page.wait_for_timeout(300)
    worker = sum(entry[1] for entry in timings["fetched"])
    total = page.evaluate(RESOURCES) + frame.evaluate(RESOURCES) + worker
    return {
        "seconds": seconds,
        "bytes": total,
        "worker": {k: round(v) for k, v in timings["boot"].items()},
        "restored": timings.get("restored"),
    }


def bot_moves(page: Any, count: int) -> list[float]:
    """Play the person's moves (the first playable tile, its first place) until the bots
    made ``count`` moves; the worker's time for each bot move."""
    frame = page.frame(url=lambda u: "table.html" in u)
    deadline = time.monotonic() + 120
    while frame.evaluate("window.playTimings.bot.length") < count and time.monotonic() < deadline:
        tiles = frame.locator("#hand button.tile.playable")
        buttons = frame.locator("#actions button[data-move]")
        if tiles.count():
            tiles.first.click()
            places = frame.locator("#picture svg g.target[data-move]")
            if places.count():
                places.first.click()
        elif buttons.count():
            buttons.first.click()
        if frame.locator("#round-end[data-round-end]:not([hidden])").is_visible():
            break
        page.wait_for_timeout(100)
    return list(frame.evaluate("window.playTimings.bot"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--site", default=str(ROOT / "build" / "play_site"))
    ap.add_argument("--runs", type=int, default=3, help="fresh profiles, each cold then warm")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--settle", type=float, default=25, help="seconds between cold and warm")
    ap.add_argument(
        "--width", type=int, default=1280, help="the window's width: 390 is a phone's (844 high)"
    )
    args = ap.parse_args()
    height = {390: 844}.get(args.width, 900)
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Site, directory=args.site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    cold: list[dict[str, Any]] = []
    warm: list[dict[str, Any]] = []
    bots: list[float] = []
    with sync_playwright() as p:
        for _ in range(args.runs):
            context = p.chromium.launch_persistent_context(
                tempfile.mkdtemp(prefix="play-bench-"),
                executable_path=args.chromium,
                args=["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"],
                viewport={"width": args.width, "height": height},
                is_mobile=args.width < 600,
                has_touch=args.width < 600,
            )
            page = context.new_page()
            cold.append(load(page, url))
            page.wait_for_timeout(args.settle * 1000)  # a later visit: the caches written
            frame = page.frame(url=lambda u: "table.html" in u)
            print("snapshot:", frame.evaluate("window.playTimings.snapshot"))
            warm.append(load(page, url))
            bots += bot_moves(page, 12)
            context.close()
    server.shutdown()
    print(f"at {args.width} px wide:")
    for name, runs in (("cold", cold), ("warm", warm)):
        each = ", ".join(f"{r['seconds']:.2f}" for r in runs)
        print(
            f"{name}: first legal move {statistics.median(r['seconds'] for r in runs):.2f} s "
            f"(runs: {each}), "
            f"{statistics.median(r['bytes'] for r in runs) / 1e6:.3f} MB transferred; "
            f"worker: {runs[-1]['worker']}, from a snapshot: {runs[-1]['restored']}"
        )
    print(
        f"bot move: median {statistics.median(bots):.0f} ms, max {max(bots):.0f} ms "
        f"({len(bots)} moves)"
    )


if __name__ == "__main__":
    main()
