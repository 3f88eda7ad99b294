"""What ``chickenfoot serve``'s pages may do, said in every response (a Content-Security-Policy
that lets a page run only this server's scripts and styles and talk only to this server,
no framing, no sniffing, no referrer), and a table key in any script (docs: Serve)."""

from __future__ import annotations

import argparse
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote_to_bytes

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from chickenfoot.server import KEY_HEADER, Limits, create_app
from chickenfoot.server._limits import key_matches
from server_helpers import ORIGIN, hello, make_table

STATIC = Path(__file__).resolve().parent.parent / "src" / "chickenfoot" / "server" / "static"
PEOPLE = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}]


def directives(policy: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            assert words[0] not in out, f"{words[0]} twice in {policy!r}"
            out[words[0]] = words[1:]
    return out


def assert_says_what_it_may_do(response: Any, where: str) -> None:
    headers = response.headers
    policy = directives(headers.get("content-security-policy", ""))
    assert policy.get("default-src") == ["'none'"], where
    for source in ("script-src", "style-src", "connect-src", "img-src"):
        assert policy.get(source) == ["'self'"], (where, source, policy.get(source))
    assert policy.get("frame-ancestors") == ["'none'"], where
    assert policy.get("base-uri") == ["'none'"], where
    assert headers.get("x-content-type-options") == "nosniff", where
    assert headers.get("x-frame-options") == "DENY", where
    assert headers.get("referrer-policy") == "no-referrer", where


def test_every_response_says_what_the_page_may_do(tmp_path: Path) -> None:
    with TestClient(create_app(tmp_path / "t.db")) as client:
        made = make_table(client, PEOPLE, preset="house")
        answers = {
            "home": client.get("/"),
            "table page": client.get(made["watch"]),
            "no such table": client.get("/t/nothere"),
            "script": client.get("/static/table.js"),
            "style sheet": client.get("/static/style.css"),
            "picture": client.get("/static/foot.svg"),
            "missing file": client.get("/static/nothere.js"),
            "options": client.get("/api/options"),
            "a table made": client.post("/api/play", json={"players": 2}),
            "a bad request": client.post("/api/tables", content=b"[", headers={"origin": ORIGIN}),
            "cross-origin": client.post("/api/play", headers={"origin": "http://evil.example"}),
            "wrong method": client.get("/api/tables"),
        }
        for where, response in answers.items():
            assert_says_what_it_may_do(response, where)
        assert answers["home"].status_code == answers["table page"].status_code == 200
        assert answers["no such table"].status_code == 404
        assert answers["a bad request"].status_code == 400
    app = create_app(tmp_path / "t.db", limits=Limits(hosts=("localhost",)))
    with TestClient(app, base_url="http://evil.example") as client:
        refused = client.get("/")
        assert refused.status_code == 400
        assert_says_what_it_may_do(refused, "a refused Host")


class _Inline(HTMLParser):
    """What of a page a Content-Security-Policy without 'unsafe-inline' would block."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "script" and "src" not in named:
            self._script = True
        if tag == "style":
            self.found.append("<style>")
        for name, value in attrs:
            if name == "style" or name.startswith("on"):
                self.found.append(f"<{tag} {name}={value!r}>")
            if value and value.strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}={value!r}>")

    def handle_data(self, data: str) -> None:
        if self._script and data.strip():
            self.found.append(f"<script>{data.strip()[:40]}...")

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = False


def inline(html: str) -> list[str]:
    parser = _Inline()
    parser.feed(html)
    return parser.found


@pytest.mark.parametrize("name", ["home.html", "table.html", "foot.svg", "favicon.svg"])
def test_the_pages_have_no_inline_script_or_style(name: str) -> None:
    assert inline((STATIC / name).read_text(encoding="utf-8")) == []


def test_the_pictures_the_server_sends_have_no_inline_style_or_script(tmp_path: Path) -> None:
    """The table's picture is put in the page with innerHTML: a style attribute there would
    be refused by the page's style-src (and a handler by its script-src)."""
    with TestClient(create_app(tmp_path / "t.db")) as client:
        made = make_table(client, PEOPLE, preset="house")
        token = made["seats"][0]["link"].split("#", 1)[1]
        with client.websocket_connect(f"/ws/{made['table']}") as ws:
            hello(ws, token)
            table = ws.receive_json()
            while table["type"] != "table":
                table = ws.receive_json()
    picture = table["svg"]
    assert picture and picture.startswith("<svg")
    assert inline(picture) == []
    assert not re.search(r"<(script|style|foreignObject)\b", picture)
    targets = [t for t in re.findall(r'<g class="target".*?</g>', picture, re.S)]
    assert all(inline(t) == [] for t in targets)


# -- the table key in any script ---------------------------------------------------------------

KEYS = ["ключ-нашей-семьи", "clé-de-la-famille", "50%off-our-family", "plain-ascii-key"]


@pytest.mark.parametrize("key", KEYS)
def test_a_table_key_in_any_script_is_taken_as_clients_send_it(tmp_path: Path, key: str) -> None:
    """As curl and byte-minded libraries send it (the key's UTF-8 bytes), as the home page
    sends it (percent-encoded UTF-8: a browser cannot put other characters in a header),
    and as browsers and Python's http.client send a Latin-1 key (its Latin-1 bytes)."""
    sent: list[bytes] = [key.encode(), quote(key, safe="").encode()]
    if all(ord(c) < 256 for c in key):
        sent.append(key.encode("latin-1"))
    app = create_app(tmp_path / "t.db", limits=Limits(table_key=key, tables_burst=100))
    with TestClient(app) as client:
        for value in sent:
            r = client.post("/api/play", json={"players": 2}, headers={KEY_HEADER: value})
            assert r.status_code == 200, (value, r.text)
        for wrong in (key[:-1], key + "x", key.upper(), quote(key[:-1], safe=""), "%", "%zz"):
            r = client.post("/api/play", json={"players": 2}, headers={KEY_HEADER: wrong.encode()})
            assert r.status_code == 403, wrong
            assert "table key" in r.json()["error"]


def test_key_matches_never_raises() -> None:
    for sent in ("ключ", "\udce9", "é", "%C3%A9", "", "%"):
        for key in ("ключ", "é", "\udce9abc", "a"):
            assert isinstance(key_matches(sent, key), bool)
    assert key_matches("%C3%A9", "é") and key_matches("é".encode().decode("latin-1"), "é")
    assert key_matches("é", "é") and not key_matches("e", "é")


@given(
    key=st.text(min_size=1, max_size=30),
    sent=st.binary(max_size=60),
)
@settings(max_examples=300, deadline=None)
def test_a_key_matches_its_own_forms_and_nothing_else(key: str, sent: bytes) -> None:
    """Any header's bytes (as a server hands them over: read as Latin-1) against any key:
    a bool, never an error; true exactly for the key's UTF-8, its Latin-1 and their
    percent-encodings."""
    want = key.encode("utf-8", "surrogatepass")
    forms = {want, unquote_to_bytes(quote(want, safe=""))}
    if all(ord(c) < 256 for c in key):
        forms.add(key.encode("latin-1"))
    accepted = sent in forms or unquote_to_bytes(sent) == want
    assert key_matches(sent.decode("latin-1"), key) is accepted
    for form in forms:
        assert key_matches(form.decode("latin-1"), key) is True
    assert key_matches(quote(want, safe=""), key) is True


def _serve(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> Any:
    import chickenfoot.server
    from chickenfoot.cli import serve

    def never_serve(db: str, **options: Any) -> Any:  # a test never starts a server
        raise RuntimeError("stop here")

    monkeypatch.setattr(chickenfoot.server, "create_app", never_serve)
    parser = argparse.ArgumentParser()
    serve.add_options(parser)
    monkeypatch.delenv("CHICKENFOOT_TABLE_KEY", raising=False)
    return serve.cmd_serve(parser.parse_args(argv), sys.stdout)


@pytest.mark.parametrize(
    "key, why",
    [
        ("short", "8 to 200 characters"),
        ("bad\udcffbytes-in-the-key", "UTF-8"),
        ("tab\tin-the-key", "control character"),
        ("new\nline-in-the-key", "control character"),
        (" spaced-family-key", "space"),
        ("spaced-family-key ", "space"),
    ],
)
def test_a_key_no_header_can_carry_is_refused_at_start(
    key: str, why: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chickenfoot.cli._common import UsageError

    with pytest.raises(UsageError, match=why) as refused:
        _serve(["--table-key", key, "--db", ":memory:"], monkeypatch)
    assert key.strip() not in str(refused.value)  # the key itself is never repeated


@pytest.mark.parametrize("value", ["0", "-1", "10001", "nan", "inf"])
def test_tables_per_minute_refusal_says_its_range(
    value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from chickenfoot.cli._common import UsageError

    with pytest.raises(UsageError, match=r"above 0 and at most 10,000"):
        _serve(["--tables-per-minute", value, "--db", ":memory:"], monkeypatch)


def test_the_guards_own_refusal_says_what_a_page_may_do_too() -> None:
    """The 503 uvicorn's protocol sends itself to an address over its share of requests
    (``chickenfoot.server._guard``) never reaches the application's middleware."""
    from chickenfoot.server._guard import _busy
    from chickenfoot.server._headers import HEADERS

    head = _busy(3).split(b"\r\n\r\n", 1)[0].decode("latin-1").lower()
    for name, value in HEADERS.items():
        assert f"\r\n{name}: {value.lower()}\r\n" in head + "\r\n", name
