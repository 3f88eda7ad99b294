"""The Play page's Python, without a browser: the wheel the site serves imports where
Pyodide would (no Starlette, sqlite3, multiprocessing, numpy or numba), and the worker's
table (``docs/play/tableplay.py``) plays whole matches through the server's messages.

The page itself, in Chromium, is ``tests/test_play_browser.py`` (``nox -s play_browser``).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import play_site

ROOT = Path(__file__).resolve().parent.parent
PLAY = ROOT / "docs" / "play"

ABSENT_IN_PYODIDE = ("starlette", "uvicorn", "sqlite3", "_multiprocessing", "numpy", "numba")
"""What the browser's Python lacks (Pyodide leaves sqlite3 and _multiprocessing out of its
standard library; the others are extras the page does not install)."""


def _messages(texts: str) -> list[dict[str, Any]]:
    return [json.loads(t) for t in json.loads(texts)]


@pytest.fixture(scope="module")
def browser_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    name, data = play_site.chickenfoot_wheel()
    where = tmp_path_factory.mktemp("wheel")
    (where / name).write_bytes(data)
    with zipfile.ZipFile(where / name) as whl:
        whl.extractall(where / "site-packages")
    return where / "site-packages"


def test_the_wheel_is_the_pure_library_with_its_metadata(browser_wheel: Path) -> None:
    name, data = play_site.chickenfoot_wheel()
    assert name.startswith("chickenfoot-") and name.endswith("-py3-none-any.whl")
    package = browser_wheel / "chickenfoot"
    assert (package / "state.py").is_file() and (package / "server" / "_table.py").is_file()
    assert not (package / "_jit").exists() and not (package / "cli").exists()
    assert not (package / "server" / "static").exists()
    (info,) = browser_wheel.glob("chickenfoot-*.dist-info")
    assert "Requires-Dist: attrs" in (info / "METADATA").read_text()
    record = (info / "RECORD").read_text().splitlines()
    assert len(record) == len(zipfile.ZipFile(__import__("io").BytesIO(data)).namelist())


def test_a_whole_match_plays_where_pyodide_would(browser_wheel: Path) -> None:
    """In a fresh Python with only the wheel's files and attrs, and the modules Pyodide
    lacks made unimportable: the worker's table plays a two-round match to its end."""
    script = f"""
import sys, json
for name in {ABSENT_IN_PYODIDE!r}:
    sys.modules[name] = None
sys.path[:0] = [{str(browser_wheel)!r}, {str(PLAY)!r}]
from tableplay import Game
game = Game(players=2, bot="greedy", rounds=2, seed=3, round_pause=0)
texts = [json.loads(t) for t in json.loads(game.hello())]
moves = 0
while game.table.round is not None:
    if game.bot_due():
        texts += [json.loads(t) for t in json.loads(game.bot_move())]
        continue
    go = game.table.go_message(0)
    texts += [json.loads(t) for t in json.loads(game.receive(json.dumps({{"type": "move", "move": go["legal"][0], "id": go["id"]}})))]
    moves += 1
import chickenfoot
print(json.dumps({{"file": chickenfoot.__file__, "moves": moves, "types": sorted({{m["type"] for m in texts}}), "over": texts[-1]["over"]}}))
"""
    out = subprocess.run(
        [sys.executable, "-W", "ignore::DeprecationWarning", "-c", script],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads(out.stdout)
    assert result["file"].startswith(str(browser_wheel))  # the wheel's, not the checkout's
    assert result["moves"] > 0 and result["over"] is True
    assert result["types"] == ["go", "hello", "moved", "table"]


def test_the_page_is_told_only_what_seat_0_may_know() -> None:
    sys.path.insert(0, str(PLAY))
    from tableplay import Game

    game = Game(players=3, bot="random", rounds=1, seed=5)
    seen = _messages(game.hello())
    while game.table.round is not None:
        if game.bot_due():
            seen += _messages(game.bot_move())
        else:
            go = game.table.go_message(0)
            assert go is not None
            move = {"type": "move", "move": go["legal"][-1], "id": go["id"]}
            seen += _messages(game.receive(json.dumps(move)))
    end = game.table.match.last_round
    assert end is not None
    assert {m["type"] for m in seen} == {"hello", "table", "moved", "go"}
    for m in seen:
        if m["type"] == "table" and m["view"] is not None:
            assert m["view"]["seat"] == 0 and m["you"] == 0
            hidden = {str(t) for s in (1, 2) for t in game.table.match.last_round.hand(s)}
            assert not hidden & set(m["view"]["hand"])
        if m["type"] == "moved" and "hand" in m:
            assert not {str(t) for s in (1, 2) for t in end.hand(s)} & set(m["hand"])
        if m["type"] == "go":
            assert m["view"]["seat"] == 0


@pytest.mark.parametrize(
    ("message", "says"),
    [
        ("not json", "not JSON"),
        ("[1]", "a JSON object"),
        ('{"type": "move", "move": "pass", "id": 99}', "does not answer the current go"),
        ('{"type": "move", "move": "1-1@9-9"}', "must carry the id"),
        ('{"type": "next"}', "no round is waiting"),
        ('{"type": "rematch"}', "when the match is over"),
        ('{"type": "launch"}', "unknown message type"),
    ],
)
def test_a_bad_message_is_answered_with_an_error_and_changes_nothing(
    message: str, says: str
) -> None:
    sys.path.insert(0, str(PLAY))
    from tableplay import Game

    game = Game(players=2, bot="greedy", rounds=1, seed=1)
    before = game.table.n
    (answer,) = _messages(game.receive(message))
    assert answer["type"] == "error" and says in answer["message"]
    assert game.table.n == before


def test_the_served_lock_file_keeps_what_the_worker_loads(tmp_path: Path) -> None:
    lock = {
        "info": {"python": "3.12.1"},
        "packages": {
            "micropip": {"package_type": "package"},
            "packaging": {"package_type": "package"},
            "numpy": {"package_type": "package"},
            "ssl": {"package_type": "cpython_module"},
        },
    }
    (tmp_path / "pyodide-lock.json").write_text(json.dumps(lock))
    kept = json.loads(play_site.lock_file(tmp_path))
    assert sorted(kept["packages"]) == ["ssl"]  # the worker loads no package of Pyodide's
    assert kept["info"] == lock["info"]


def test_the_table_page_is_the_servers_with_the_worker_transport_first() -> None:
    page = play_site.table_page()
    server = (play_site.STATIC / "table.html").read_text()
    assert "/static/" not in page and 'href="/"' not in page
    assert page.index('<script src="socket.js">') < page.index('<script src="table.js">')
    for hook in ("data-round-end", 'id="hand"', 'id="picture"'):
        assert hook in server and hook in page


def test_a_match_waits_between_rounds_until_you_ask_and_a_rematch_starts_again() -> None:
    sys.path.insert(0, str(PLAY))
    from tableplay import Game

    game = Game(players=2, bot="greedy", rounds=2, seed=9, round_pause=60)
    _messages(game.hello())
    waited = False
    while game.table.round is not None:
        if game.table.paused:
            assert not game.bot_due() and 0 < game.pause_left() <= 60
            assert _messages(game.end_pause()) == []  # the countdown is not over
            (table, *_) = _messages(game.receive('{"type": "next"}'))
            assert table["type"] == "table" and table["pause"] is None
            waited = True
        elif game.bot_due():
            _messages(game.bot_move())
        else:
            go = game.table.go_message(0)
            assert go is not None
            _messages(
                game.receive(json.dumps({"type": "move", "move": go["legal"][0], "id": go["id"]}))
            )
    assert waited and game.table.match.rounds_played == 2
    (table, *_) = _messages(game.receive('{"type": "rematch"}'))
    assert table["type"] == "table" and table["round"] == 0 and not table["over"]


# -- what the Play site's pages may do ------------------------------------------------------------

INLINE = re.compile(r"<script\b(?![^>]*\bsrc=)[^>]*>|\sstyle=|\son[a-z]+=", re.I)


def test_the_play_pages_own_scripts_are_files() -> None:
    """The Play page, its template and its table run no inline script or style of their
    own: only the theme's inline scripts remain, allowed by their hashes."""
    for text in (
        (PLAY / "index.md").read_text(encoding="utf-8"),
        (ROOT / "docs_overrides" / "play.html").read_text(encoding="utf-8"),
        play_site.table_page(),
    ):
        assert INLINE.findall(text) == []
    for name in ("page.js", "no-search.js"):
        assert (PLAY / name).is_file()


def test_the_sites_headers_allow_the_pages_inline_scripts_by_hash_and_nothing_else() -> None:
    page = (
        "<head><script>var a = 1;</script><script src='x.js'></script>"
        '<script id="__config" type="application/json">{"b": 2}</script></head>'
        "<body><script>\nvar c = 3;\n</script><script>var a = 1;</script></body>"
    )
    written = play_site.headers_file(page)
    blocks = written.split("\n/")
    assert [b.splitlines()[0].lstrip("/") for b in blocks] == ["play/*", "pyodide/*"]
    headers = dict(
        line.strip().split(": ", 1) for line in blocks[0].splitlines()[1:] if line.strip()
    )
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "SAMEORIGIN"
    assert headers["Referrer-Policy"] == "no-referrer"
    policy = dict(
        (d.split()[0], d.split()[1:]) for d in headers["Content-Security-Policy"].split("; ")
    )

    def digest(script: str) -> str:
        return f"'sha256-{base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()}'"

    assert policy["script-src"] == [
        "'self'", "'wasm-unsafe-eval'", digest("var a = 1;"), digest("\nvar c = 3;\n")
    ]  # fmt: skip
    assert policy["default-src"] == ["'none'"] and policy["base-uri"] == ["'none'"]
    for source in ("connect-src", "worker-src", "style-src", "frame-src", "frame-ancestors"):
        assert policy[source] == ["'self'"]
    assert "unsafe-inline" not in written and "'unsafe-eval'" not in written


def test_the_documented_headers_are_the_ones_the_build_writes() -> None:
    """docs/play/index.md, "Serving the site", shows the policy the build writes (its
    hashes elided), in the _headers example and the nginx one."""
    docs = (PLAY / "index.md").read_text(encoding="utf-8")
    shown = play_site.play_policy("".join(f"<script>{n}</script>" for n in range(3)))
    shown = re.sub(r"'sha256-[^']+'", "'sha256-…'", shown)
    assert docs.count(shown) == 2, shown
    for name, value in play_site.PLAY_HEADERS:
        assert f"{name}: {value}" in docs and f"add_header {name} {value} always;" in docs
