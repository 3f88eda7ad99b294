"""The table page in a real browser: Playwright driving Debian's Chromium (no browser
download), against a real ``chickenfoot serve`` process.

Two people in two browser contexts play whole rounds by tapping only what a person taps:
a tile of the hand (``data-tile``), then a glowing place on the board (``data-move``
inside the table's ``<svg>``), or the draw and pass buttons; at phone, tablet and desktop
widths, the page never scrolling sideways. The round's end shows every hand
(``data-round-end``) and a rematch (``data-rematch``) starts a new match at the same
table. axe-core (from npm: ``AXE_JS``, or ``build/axe``, where ``nox -s serve_browser``
installs it) checks the home page, a table mid-round and the round's end. A second test
makes a table with the home page's form and kills the server mid-match: the pages
reconnect by themselves. Screenshots go to ``SCREENSHOTS`` (or ``build/serve_screens``)
for a person to look at.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from playwright import sync_api

from chickenfoot import Rules
from chickenfoot.commitment import commitment, round_seed
from chickenfoot.server._store import open_store
from server_helpers import Server, round_ends

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip
AXE = Path(os.environ.get("AXE_JS") or ROOT / "build/axe/node_modules/axe-core/axe.min.js")
SHOTS = Path(os.environ.get("SCREENSHOTS", ROOT / "build" / "serve_screens"))
HEIGHT = {390: 844, 768: 1024, 1280: 900}


def no_sideways_scroll(page: sync_api.Page, where: str) -> None:
    widths = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], f"{where}: the page is {widths[0]} px wide in {widths[1]}"


def watch_policy(page: sync_api.Page, refused: list[str]) -> sync_api.Page:
    """Collect in ``refused`` what the page's Content-Security-Policy refuses (Chromium says
    so on the console, "Refused to ..."; the page gets a ``securitypolicyviolation`` event):
    the served pages must run under their policy with nothing refused."""

    def console(message: sync_api.ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or message.text.startswith("Refused to"):
            refused.append(f"{page.url}: {message.text}")

    page.on("console", console)
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => console.error("
        "'Refused to ... (Content Security Policy: ' + e.effectiveDirective + ' ' + e.blockedURI + ')'))"
    )
    return page


def serious_violations(page: sync_api.Page, where: str, counts: dict[str, Any]) -> None:
    """Run axe-core on the page; no serious or critical violation may remain. axe-core is
    evaluated by the browser's devtools, which the page's policy does not govern (a
    ``<script>`` the test added would be inline, and refused)."""
    page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    found = page.evaluate(
        "async () => (await axe.run(document)).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.length,"
        " where: v.nodes.slice(0, 2).map(n => n.target.join(' '))}))"
    )
    counts[where] = found
    bad = [v for v in found if v["impact"] in ("serious", "critical")]
    assert not bad, f"{where}: {bad}"


def moves_made(page: sync_api.Page) -> int:
    return int(page.evaluate("Number(document.body.dataset.n || -1)"))


def take_turn(page: sync_api.Page) -> int:
    """If this page's seat is to choose, play by tapping as a person does: a playable tile
    and, when it goes to several places, the first glowing place on the board; or the
    draw or pass button. Returns the taps made (0: not this seat's turn)."""
    tiles = page.locator("#hand button.tile.playable")
    buttons = page.locator("#actions button[data-move]")
    if not page.locator("#hand-box").is_visible() or tiles.count() + buttons.count() == 0:
        return 0
    n = moves_made(page)
    if tiles.count():
        tiles.first.click()
        taps = 1
        places = page.locator("#picture svg g.target[data-move]")
        if moves_made(page) == n and places.count():
            tile = page.locator("#hand button.tile.selected").get_attribute("data-tile")
            assert all(
                m.startswith(f"{tile}@")
                for m in places.evaluate_all("gs => gs.map(g => g.dataset.move)")
            )  # only the chosen tile's places glow
            places.first.click()
            taps = 2
    else:
        buttons.first.click()
        taps = 1
    page.wait_for_function("n => Number(document.body.dataset.n) !== n", arg=n, timeout=10_000)
    return taps


def play_until(pages: list[sync_api.Page], done: Any, limit: float = 120) -> int:
    """Take turns on the pages until ``done()``; returns the taps made."""
    taps = 0
    deadline = time.monotonic() + limit
    while not done():
        assert time.monotonic() < deadline, "the round did not end"
        moved = 0
        for page in pages:
            moved += take_turn(page)
            no_sideways_scroll(page, f"a table at {page.viewport_size}")
        taps += moved
        if not moved:
            time.sleep(0.05)
    return taps


def can_drag(page: sync_api.Page) -> bool:
    return bool(page.locator("#hand button.tile.playable").count())


def drag_a_tile(page: sync_api.Page) -> None:
    """Drag the first playable tile with the mouse and drop it on its first place."""
    n = moves_made(page)
    box = page.locator("#hand button.tile.playable").first.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] - 30, steps=4)  # the places glow
    place = page.locator("#picture svg g.target[data-move]").first.bounding_box()
    assert place is not None
    page.mouse.move(place["x"] + place["width"] / 2, place["y"] + place["height"] / 2, steps=8)
    page.mouse.up()
    page.wait_for_function("n => Number(document.body.dataset.n) > n", arg=n, timeout=10_000)


def after_a_move(page: sync_api.Page, ended: sync_api.Locator) -> Any:
    """A test that holds once a move more is made (or the round has ended)."""
    n = moves_made(page)
    return lambda: moves_made(page) > n or ended.is_visible()


@pytest.mark.parametrize("width", [390, 768, 1280])
def test_two_people_play_a_round_by_tapping_then_see_every_hand_and_rematch(
    tmp_path: Path, width: int
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    db = tmp_path / "tables.db"
    server = Server(db)
    axe: dict[str, Any] = {}
    refused: list[str] = []
    size = {"width": width, "height": HEIGHT[width]}
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            # a new player: the home page, one click to a table against bots, a first move
            home = watch_policy(browser.new_page(viewport=size), refused)
            home.goto(server.base + "/")
            home.wait_for_selector("#seats .seat")
            no_sideways_scroll(home, "the home page")
            serious_violations(home, "home", axe)
            home.screenshot(path=str(SHOTS / f"home-{width}.png"), full_page=True)
            start = time.monotonic()
            home.click("#quick")
            home.wait_for_selector("#hand button.tile.playable, #actions button[data-move]")
            clicks = 1 + take_turn(home)
            print(
                f"\n{width} px: {clicks} clicks, {time.monotonic() - start:.1f} s to a first move"
            )
            assert clicks <= 3
            home.close()
            # two people at one table: one round, to the match's end
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
                page = watch_policy(browser.new_context(viewport=size).new_page(), refused)
                page.goto(server.base + seat["link"])
                page.wait_for_selector(".status:text('connected')", timeout=10_000)
                pages.append(page)
            ann = pages[0]
            assert "Playing as Ann" in ann.locator("header").inner_text()
            stored = next(t for t in open_store(db).tables() if t.id == made["table"])
            secret = stored.seed
            committed = commitment(Rules.from_dict(json.loads(stored.rules)), round_seed(secret, 0))
            assert committed in ann.locator("#commitment").inner_text()  # from the deal on
            ended = ann.locator("[data-round-end]")
            play_until(pages, lambda: moves_made(ann) >= 3 or ended.is_visible())
            # mid-round: the page of the seat to act, a tile chosen and its places glowing
            for _ in range(40):
                several = [
                    page
                    for page in pages
                    if page.locator("#hand button.tile.playable[aria-label*=places]").count()
                ]
                if several or ended.is_visible():
                    break
                play_until(pages, after_a_move(ann, ended))
            assert several, "no tile with several places all round"
            for page in several[:1]:
                page.locator("#hand button.tile.playable[aria-label*=places]").first.click()
                assert page.locator("#picture svg g.target[data-move]").count() >= 2
                page.screenshot(path=str(SHOTS / f"table-{width}.png"), full_page=True)
                serious_violations(page, "table", axe)
                page.keyboard.press("Escape")  # the choice undone from the keyboard
                assert page.locator("#picture svg g.target").count() == 0
                # a move by keyboard alone: a tile focused, Enter; its first place, Enter
                n = moves_made(page)
                page.locator("#hand button.tile.playable[aria-label*=places]").first.focus()
                page.keyboard.press("Enter")
                focused = page.evaluate("document.activeElement.dataset.move || ''")
                assert "@" in focused, focused  # the focus went to a place on the board
                page.keyboard.press("Enter")
                page.wait_for_function(
                    "n => Number(document.body.dataset.n) > n", arg=n, timeout=10_000
                )
            if width == 1280:  # a move by drag and drop, with a mouse
                play_until(
                    pages, lambda: any(can_drag(page) for page in pages) or ended.is_visible()
                )
                for page in [page for page in pages if can_drag(page)][:1]:
                    drag_a_tile(page)
            play_until(pages, ended.is_visible)
            for page in pages:
                page.wait_for_selector("[data-round-end] [data-rematch]")
                no_sideways_scroll(page, "the round's end")
            # every hand revealed, as the server's record has them
            ((hands, _board),) = round_ends(open_store(db), made["table"])
            shown = [
                ann.locator(f"[data-round-end] li[data-seat='{s}'] [data-revealed]").evaluate_all(
                    "ds => ds.map(d => d.dataset.revealed)"
                )
                for s in range(2)
            ]
            assert shown == hands and sum(map(len, hands)) > 0
            # the deal to check: its commitment, its seed, the command and the docs page
            check = ann.locator("[data-round-end] .deal-check")
            said = check.inner_text()
            assert committed in said and str(round_seed(secret, 0)) in said
            assert "chickenfoot verify" in said
            assert "checking-a-deal" in (check.locator("a").get_attribute("href") or "")
            ann.screenshot(path=str(SHOTS / f"round-end-{width}.png"), full_page=True)
            serious_violations(ann, "round end", axe)
            # the rematch: both press it; a new match at the same table, same links
            for page in pages:
                page.click("[data-rematch]")
            for page in pages:
                page.wait_for_selector("#hand [data-tile]", timeout=10_000)
                assert not page.locator("[data-round-end]").is_visible()
            assert ann.locator("#sheet tr").count() == 2  # a new match: no round on its sheet
            assert refused == []  # the pages' Content-Security-Policy refused nothing
            browser.close()
    finally:
        server.stop()
    print(
        f"axe-core at {width} px:",
        {k: [(v["id"], v["impact"]) for v in vs] for k, vs in axe.items()},
    )


def offered_moves(page: sync_api.Page) -> set[str]:
    """The moves the page lets a person make now, read from what is on the screen: the
    draw and pass buttons, each playable tile's places (tapped, the glowing places read,
    then Escape), and a tile that plays in one place, by its label. A tile's single move
    is named from the legal moves the page received, since the screen shows no place."""
    offered = set(page.locator("#actions button[data-move]").evaluate_all(
        "bs => bs.map(b => b.dataset.move)"
    ))  # fmt: skip
    legal = page.evaluate("go ? go.legal : []")
    for tile in page.locator("#hand button.tile.playable").evaluate_all(
        "bs => bs.map(b => b.dataset.tile)"
    ):
        label = page.locator(f"#hand button.tile[data-tile='{tile}']").get_attribute("aria-label")
        if label and label.endswith(": plays in 1 place"):
            (move,) = [m for m in legal if m == tile or m.startswith(f"{tile}@")]
            offered.add(move)
            continue
        page.locator(f"#hand button.tile[data-tile='{tile}']").click()
        places = page.locator("#picture svg g.target[data-move]")
        offered.update(places.evaluate_all("gs => gs.map(g => g.dataset.move)"))
        page.keyboard.press("Escape")
    return offered


RULE_SETS = [
    ("house", {}),
    ("four-toe", {}),
    ("classic", {}),  # the centre held in hand: its holder lays it by tapping it
    ("classic", {"draw": "until_playable", "drawn_tile": "may_play", "may_draw_instead": True}),
    ("house", {"centre": "holder", "draw": "until_playable", "tie_break": "zero_rounds"}),
]


@pytest.mark.parametrize(("preset", "variant"), RULE_SETS)
def test_every_legal_move_can_be_tapped_under_every_preset(
    tmp_path: Path, preset: str, variant: dict[str, Any]
) -> None:
    """Two people play a whole round of each preset (and of variants on them) by tapping;
    at every turn the moves the screen offers are exactly the legal moves, and the move
    tapped is drawn at random from them, so the centre laid from the hand, drawing instead
    of playing, keeping a drawn tile and passing are all tapped somewhere in these rounds."""
    server = Server(tmp_path / "tables.db")
    played: list[str] = []
    try:
        made = server.post(
            "/api/tables",
            {
                "players": 2, "preset": preset,
                "rules": {"max_pip": 6, "hand_size": 7, "match": {"rounds": 1}, **variant},
                "seats": [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}],
            },
        )  # fmt: skip
        rng = random.Random(f"{preset} {sorted(variant.items())}")
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            pages = []
            for seat in made["seats"]:
                page = browser.new_context(viewport={"width": 768, "height": 1024}).new_page()
                page.goto(server.base + seat["link"])
                page.wait_for_selector(".status:text('connected')", timeout=10_000)
                pages.append(page)
            ended = pages[0].locator("[data-round-end]")
            deadline = time.monotonic() + 240
            while not ended.is_visible():
                assert time.monotonic() < deadline, f"the round did not end: {played[-5:]}"
                page = next((q for q in pages if q.evaluate("go !== null")), None)
                if page is None:
                    time.sleep(0.05)
                    continue
                legal = set(page.evaluate("go.legal"))
                assert offered_moves(page) == legal, f"after {played[-3:]}"
                move = rng.choice(sorted(legal))
                n = moves_made(page)
                tile = page.evaluate("m => tileOf(m)", move)
                if tile is None:
                    page.click(f"#actions button[data-move='{move}']")
                else:
                    page.click(f"#hand button.tile[data-tile='{tile}']")
                    places = [m for m in legal if m == tile or m.startswith(f"{tile}@")]
                    if len(places) > 1:  # one place: the tap has played it
                        page.click(f"#picture svg g.target[data-move='{move}']")
                page.wait_for_function(
                    "n => Number(document.body.dataset.n) !== n", arg=n, timeout=10_000
                )
                played.append(move)
            browser.close()
    finally:
        server.stop()
    if Rules.preset(preset, players=2, max_pip=6, hand_size=7, **variant).centre == "holder":
        laid = [m for m in played if "@" not in m and m not in ("draw", "pass")]
        assert len(laid) == 1, played  # the centre, laid by tapping it in the hand


def test_nothing_scrolls_sideways_at_320_px(tmp_path: Path) -> None:
    server = Server(tmp_path / "tables.db")
    refused: list[str] = []
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = watch_policy(browser.new_page(viewport={"width": 320, "height": 640}), refused)
            page.goto(server.base + "/")
            page.wait_for_selector("#seats .seat")
            no_sideways_scroll(page, "the home page at 320 px")
            page.click("button[type=submit]")  # the invites: long links, copy buttons
            page.wait_for_selector("#links button[data-copy]")
            no_sideways_scroll(page, "the invites at 320 px")
            page.screenshot(path=str(SHOTS / "invites-320.png"), full_page=True)
            page.click("#quick")  # four seats: the widest sheet and seat list
            page.wait_for_selector("#hand button.tile.playable, #actions button[data-move]")
            no_sideways_scroll(page, "a table at 320 px")
            assert refused == []
            browser.close()
    finally:
        server.stop()


def test_the_home_pages_form_makes_a_table_and_pages_reconnect_after_a_restart(
    tmp_path: Path,
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    db = tmp_path / "tables.db"
    server = Server(db)
    port = server.port
    refused: list[str] = []
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            home = watch_policy(browser.new_page(viewport={"width": 1000, "height": 800}), refused)
            home.goto(server.base + "/")
            home.fill("input[name=players]", "4")
            home.dispatch_event("input[name=players]", "change")
            home.click("summary:text('Rules')")
            home.select_option("select[name=max_pip]", "6")
            home.fill("input[name=hand_size]", "5")
            home.fill("input[name=rounds]", "2")
            seats = home.locator("#seats .seat")
            for i, (kind, name) in enumerate(
                [("person", "Ann"), ("person", "Bo"), ("greedy", ""), ("greedy", "")]
            ):
                seats.nth(i).locator("select").select_option(kind)
                seats.nth(i).locator("input").fill(name)
            home.click("button[type=submit]")
            home.wait_for_selector("#links a")
            home.screenshot(path=str(SHOTS / "invite_links.png"))
            assert home.locator("#links button[data-copy]").count() == 3  # two people, watch
            hrefs = home.eval_on_selector_all("#links a", "as => as.map(a => a.href)")
            links = [h for h in hrefs if "#" in h]
            assert len(links) == 2  # one invite link per person, and a link to watch
            pages = []
            for link in links:
                context = browser.new_context(viewport={"width": 1200, "height": 900})
                page = watch_policy(context.new_page(), refused)
                page.goto(link)
                pages.append(page)
            for page in pages:
                page.wait_for_selector(".status:text('connected')", timeout=10_000)
            names = pages[0].locator("#seats .name").all_inner_texts()
            assert len(set(names)) == 4  # the two greedy bots are told apart
            play_until(pages, pages[0].locator("[data-round-end]").is_visible)
            assert pages[0].locator("#sheet tr").count() >= 3  # round 1's row is in
            assert pages[0].locator("[data-round-end] [data-next]").is_visible()
            # the pause between rounds shows the round that ended, not the next deal (its
            # fresh hands and a seat to play): issue 50, item 7
            revealed = [
                pages[0].locator(f"[data-round-end] li[data-seat='{s}'] [data-revealed]").count()
                for s in range(4)
            ]
            metas = pages[0].locator("#seats li .meta").all_inner_texts()
            assert [int(m.split(" · ")[1].split()[0]) for m in metas] == revealed, metas
            assert pages[0].locator("#seats .tag").count() == 0
            assert pages[0].locator("#seats .bone").count() == 0
            pages[1].screenshot(path=str(SHOTS / "after_round.png"), full_page=True)
            # the server dies; a new one on the same port and database; the pages reconnect
            server.kill()
            pages[0].wait_for_selector(".status:text('reconnecting')", timeout=10_000)
            server = Server(db, port=port)
            for page in pages:
                page.wait_for_selector(".status:text('connected')", timeout=20_000)
            assert pages[0].locator("#sheet tr").count() >= 3  # the match sheet is back
            pages[0].screenshot(path=str(SHOTS / "reconnected.png"), full_page=True)
            assert refused == []
            browser.close()
    finally:
        server.stop()


def test_typing_the_number_of_players_then_clicking_a_name_keeps_the_name(tmp_path: Path) -> None:
    # Type a number into Players, then click a name box and type: the click and the typing
    # went nowhere (leaving Players remade every seat's row), and "Ann" became "Player 1"
    # (issue 50, item 2).
    server = Server(tmp_path / "tables.db")
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            home = browser.new_page(viewport={"width": 390, "height": 844})
            home.goto(server.base + "/")
            home.wait_for_selector("#seats .seat")
            players = home.locator("input[name=players]")
            players.click()
            players.press("Control+a")
            players.type("3")  # typed, as a person does: no change event until it is left
            assert home.locator("#seats .seat").count() == 3  # the rows follow the typing
            first = home.locator("#seats .seat input").nth(0)
            first.click()  # leaves Players: its change event
            home.keyboard.type("Ann")
            home.locator("#seats .seat input").nth(1).click()
            home.keyboard.type("Bo")
            assert home.locator("#seats .seat input").nth(0).input_value() == "Ann"
            players.click()
            players.press("Control+a")
            players.type("2")  # a row taken away...
            players.press("Control+a")
            players.type("3")  # ... comes back as it was
            assert home.locator("#seats .seat").count() == 3
            home.locator("#seats .seat select").nth(2).select_option("greedy")
            home.click("button[type=submit]")
            home.wait_for_selector("#links a")
            titles = home.locator("#links .who").all_inner_texts()
            assert titles[:2] == ["Ann", "Bo"], titles
            browser.close()
    finally:
        server.stop()


@pytest.mark.parametrize("invite", [None, "http://192.0.2.10:8123"])
def test_invite_links_say_where_they_work(tmp_path: Path, invite: str | None) -> None:
    # A host who opened the page as 127.0.0.1 sent links that cannot work from a friend's
    # phone (issue 50, item 8): the links use the address the network reaches the server
    # at, and the page says so; a server on the loopback says its links work here only.
    # (192.0.2.10 is a documentation address: nothing here connects to it.)
    extra = () if invite is None else ("--invite-url", invite)
    server = Server(tmp_path / "tables.db", extra=extra)
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            home = browser.new_page(viewport={"width": 390, "height": 844})
            home.goto(server.base + "/")
            home.wait_for_selector("#seats .seat")
            home.wait_for_function("() => inviteUrls !== null")  # the options are in
            home.click("button[type=submit]")
            home.wait_for_selector("#links a")
            boxes = home.locator("#links input").evaluate_all("bs => bs.map(b => b.value)")
            note = home.locator("#invite-note")
            assert note.is_visible()
            if invite is None:
                assert all(b.startswith(server.base + "/t/") for b in boxes), boxes
                assert "this computer only" in note.inner_text()
                assert "--host 0.0.0.0" in note.inner_text()
            else:
                assert all(b.startswith(invite + "/t/") for b in boxes), boxes
                assert "You opened this page as 127.0.0.1" in note.inner_text()
                assert invite in note.inner_text()
            browser.close()
    finally:
        server.stop()


def _only_move_position() -> tuple[dict[str, Any], dict[str, Any]]:
    """A table message and a go for seat 0 with one legal move, from a real table."""
    import random

    from chickenfoot import Rounds, Rules
    from chickenfoot._protocol import go
    from chickenfoot.server._store import SeatRow
    from chickenfoot.server._table import NO_CLOCK_MS, Table

    seats = (SeatRow(0, "person", "", "t0", "Ann"), SeatRow(1, "bot", "random", None, "Bot"))
    rng = random.Random(5)
    for seed in range(200):
        table = Table("t1", Rules(players=2, max_pip=6, hand_size=7, match=Rounds(1)), seed, seats)
        while table.round is not None:
            legal = list(table.legal)
            if table.turn == 0 and len(legal) == 1:
                state = table.round
                message = go(state.view(0), state.view(0).legal_moves, NO_CLOCK_MS, None)
                return table.state_message(0, [True, True]), {**message, "id": table.n}
            table.play(rng.choice(legal), forced=len(legal) == 1)
    raise AssertionError("no position with one legal move")


def test_an_only_move_is_the_persons_unless_they_turn_on_auto_play(tmp_path: Path) -> None:
    """The page's side of a forced move (the server sends a go even for one legal move):
    the person plays it, unless they ticked auto-play; then the page plays it and says so.
    The WebSocket is the test's own (Playwright's routing), answering as the server does."""
    import json
    import re

    table, only = _only_move_position()
    server = Server(tmp_path / "tables.db")
    made = server.post("/api/play", {"players": 2})
    sent: list[dict[str, Any]] = []

    def fake_server(ws: Any) -> None:
        def answer(text: str | bytes) -> None:
            message = json.loads(text)
            sent.append(message)
            if message["type"] == "hello":
                ws.send(json.dumps({"type": "hello", "seat": 0, "role": "player"}))
                ws.send(json.dumps(table))
                ws.send(json.dumps(only))

        ws.on_message(answer)

    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.route_web_socket(re.compile(r"/ws/"), fake_server)
            page.goto(server.base + made["link"])
            page.wait_for_selector(".status:text('connected')")
            page.wait_for_timeout(1000)  # longer than the page's auto-play would wait
            assert [m["type"] for m in sent] == ["hello"]  # not played for the person
            assert "Your only move" in page.locator("#hint").inner_text()
            # auto-play on (kept in the browser): the next time, the page plays it and says so
            page.check("#autoplay")
            page.reload()
            page.wait_for_function("() => document.querySelector('#auto-note').textContent")
            moves = [m for m in sent if m["type"] == "move"]
            assert moves == [{"type": "move", "move": only["legal"][0], "id": only["id"]}]
            assert "Auto-play: you " in page.locator("#auto-note").inner_text()
            browser.close()
    finally:
        server.stop()


def test_the_operator_makes_a_table_with_the_key_on_the_home_page(tmp_path: Path) -> None:
    """A key in any script, spaces and a percent sign in it (a browser cannot put its
    characters in a header as they are: the page sends it percent-encoded)."""
    key = "ключ нашей семьи: 100%"
    server = Server(tmp_path / "tables.db", extra=("--table-key", key))
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            home = browser.new_page()
            home.goto(server.base + "/")
            home.wait_for_selector("#key", state="visible")  # the page asks for the key
            home.click("button[type=submit]")
            home.wait_for_function("() => document.getElementById('error').textContent.length > 0")
            assert "table key" in home.inner_text("#error")
            home.fill("#key", key[:-1])
            home.click("button[type=submit]")
            home.wait_for_function("() => document.getElementById('error').textContent.length > 0")
            assert "table key" in home.inner_text("#error")
            home.fill("#key", key)
            home.click("button[type=submit]")
            home.wait_for_selector("#links a")
            assert home.inner_text("#error") == ""
            home.click("#quick")  # Play now sends the key too
            home.wait_for_url("**/t/**")
            browser.close()
    finally:
        server.stop()


def test_the_pages_run_under_their_policy_and_it_refuses_what_they_may_not_do(
    tmp_path: Path,
) -> None:
    """The served pages' Content-Security-Policy in Chromium: the home page and a table
    (its WebSocket to the same origin, its picture) run with nothing refused; an inline
    script, an inline style, a connection to another origin and a frame are refused."""
    server = Server(tmp_path / "tables.db")
    refused: list[str] = []
    try:
        with sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = watch_policy(browser.new_page(viewport={"width": 1000, "height": 800}), refused)
            page.goto(server.base + "/")
            page.wait_for_selector("#seats .seat")
            page.click("#quick")
            page.wait_for_selector("#hand button.tile.playable, #actions button[data-move]")
            take_turn(page)
            assert page.locator("#picture svg").count() == 1
            assert refused == []
            # what a page may not do: each is refused, and the refusal is seen
            page.evaluate(
                """() => {
                const s = document.createElement("script");
                s.textContent = "window.ranInline = true";
                document.body.appendChild(s);
                const box = document.createElement("div");
                box.innerHTML = '<p id="styled" style="color: rgb(255, 0, 0)">x</p>';
                document.body.appendChild(box);
                try { new WebSocket("ws://127.0.0.2:9/"); } catch (e) {}
            }"""
            )
            assert page.evaluate("window.ranInline === undefined")
            colour = page.evaluate("getComputedStyle(document.getElementById('styled')).color")
            assert colour != "rgb(255, 0, 0)"
            deadline = time.monotonic() + 5
            while len(refused) < 3 and time.monotonic() < deadline:
                page.wait_for_timeout(50)
            said = " ".join(refused)
            assert "script-src" in said and "style-src" in said and "connect-src" in said, said
            # another page cannot show a table in a frame: Chromium refuses it by the policy
            framer = browser.new_page()
            said_there: list[str] = []
            framer.on("console", lambda message: said_there.append(message.text))
            framer.set_content(f'<iframe src="{page.url}"></iframe>')
            frame = framer.frames[-1]
            deadline = time.monotonic() + 10
            while not frame.url.startswith("chrome-error:") and time.monotonic() < deadline:
                framer.wait_for_timeout(50)
            assert frame.url.startswith("chrome-error:"), frame.url
            assert any("frame-ancestors 'none'" in text for text in said_there), said_there
            browser.close()
    finally:
        server.stop()
