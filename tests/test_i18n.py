"""Issue 49: the words a person reads, in their language. Choosing it (``--lang``, the
locale variables, Accept-Language of any size or shape, the switcher's cookie), English
whenever anything is missing or wrong (never a message id, never a crash), ``chickenfoot
play`` in a pseudo-terminal under each ``LANG``, and the server's pages.
"""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chickenfoot import _i18n
from chickenfoot.cli import main

SRC = Path(__file__).resolve().parent.parent / "src"

if sys.platform != "win32":
    import pexpect

# What each language says at the start of a game, and a word of its help.
SAYS = {
    "en": ("Type help at the prompt for the commands.", "Commands:"),
    "el": ("Γράψε help στην προτροπή για τις εντολές.", "Εντολές:"),  # noqa: RUF001
    "hr": ("Upiši help za popis naredbi.", "Naredbe:"),
    "ro": ("Scrie help la prompt pentru comenzi.", "Comenzi:"),
    "lv": ("Ieraksti help, lai redzētu komandas.", "Komandas:"),
}


@pytest.fixture
def fresh_catalogs() -> Any:
    _i18n.translator.cache_clear()
    yield
    _i18n.translator.cache_clear()


# -- choosing the language ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({"LANG": "el_GR.UTF-8"}, "el"),
        ({"LANG": "hr_HR.UTF-8", "LC_MESSAGES": "ro_RO"}, "ro"),
        ({"LANG": "hr_HR", "LC_MESSAGES": "ro_RO", "LC_ALL": "lv_LV.UTF-8"}, "lv"),
        ({"LC_ALL": "", "LANG": "lv"}, "lv"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "POSIX"}, "en"),
        ({}, "en"),
    ],
)
def test_the_locale_variables_choose_in_posix_order(environ: dict[str, str], lang: str) -> None:
    assert _i18n.from_environment(environ) == (lang, None)


@pytest.mark.parametrize("value", ["de", "xx_YY.UTF-8", "", "\udcff", "é" * 1000, "../../etc"])
def test_an_unknown_language_is_english_with_one_clear_line(value: str) -> None:
    lang, note = _i18n.choose(value)
    assert lang == "en"
    assert note is not None and "\n" not in note and len(note) < 120
    assert note.startswith("chickenfoot speaks en, el, hr, ro, lv;")


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        ("el-GR,el;q=0.9,en;q=0.8", "el"),
        ("de-DE, hr;q=0.5, ro;q=0.7", "ro"),
        ("LV", "lv"),
        ("en;q=0.1, el;q=0", "en"),
        ("*", "en"),
        ("ro;q=2", "en"),
        ("ro;q=nan, hr;q=-1, el;q=", "en"),
        (";;;,,,", "en"),
        ("", "en"),
        (None, "en"),
        ("de, " * 10_000 + "el", "en"),  # past the bound: not weighed
    ],
)
def test_accept_language(header: str | None, lang: str) -> None:
    assert _i18n.negotiate(header) == lang


@settings(max_examples=300, deadline=None)
@given(
    st.text(max_size=300)
    | st.lists(
        st.sampled_from(["el", "hr;q=0.3", "ro-RO", ";q=", ",", " ", "lv;q=1.0", "*;q=0.9"])
    ).map("".join)
)
def test_accept_language_of_any_shape_is_a_language_spoken(header: str) -> None:
    assert _i18n.negotiate(header) in _i18n.LANGUAGES
    assert _i18n.negotiate(header + "," * 5000 + "el") == _i18n.negotiate(header + "," * 5000)


def test_a_huge_accept_language_is_read_with_bounded_work() -> None:
    import time

    for size in (10**3, 10**7):
        header = "x-" * (size // 2)
        start = time.perf_counter()
        assert _i18n.negotiate(header) == "en"
        print(f"Accept-Language of {size:,} characters: {time.perf_counter() - start:.6f} s")


# -- English whenever something is wrong -------------------------------------------------------


def test_a_missing_catalog_is_english(
    tmp_path: Path, monkeypatch: Any, fresh_catalogs: Any
) -> None:
    monkeypatch.setattr(_i18n, "LOCALE_DIR", tmp_path)
    with _i18n.use("el"):
        assert _i18n.gettext("You drew {tile}.", tile="6-3") == "You drew 6-3."


@pytest.mark.parametrize(
    "data", [b"", b"\x00" * 7, b"not a catalog at all", b"\xde\x12\x04\x95" + b"\xff" * 40]
)
def test_a_broken_catalog_is_english(
    tmp_path: Path, monkeypatch: Any, fresh_catalogs: Any, data: bytes
) -> None:
    (tmp_path / "hr" / "LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "hr" / "LC_MESSAGES" / "chickenfoot.mo").write_bytes(data)
    monkeypatch.setattr(_i18n, "LOCALE_DIR", tmp_path)
    with _i18n.use("hr"):
        assert _i18n.ngettext("{n} tile", "{n} tiles", 3, n=3) == "3 tiles"


def test_a_translation_with_other_placeholders_is_english() -> None:
    import gettext

    class Wrong(gettext.NullTranslations):
        def gettext(self, message: str) -> str:
            return {"You drew {tile}.": "Izvukao si {pločica}.", "Hi {x}": "{x"}.get(
                message, message
            )

    words = _i18n.Translator("hr", Wrong())
    assert words.gettext("You drew {tile}.", tile="6-3") == "You drew 6-3."
    assert words.gettext("Hi {x}", x=1) == "Hi 1"
    assert words.gettext("Not translated {x}.", x=2) == "Not translated 2."


def test_every_language_answers_every_sentence_in_words_never_an_id() -> None:
    for lang in _i18n.LANGUAGES:
        words = _i18n.translator(lang)
        assert words.lang == lang
        said = words.gettext("You drew {tile}.", tile="6-3")
        assert "6-3" in said and "{" not in said
        assert words.gettext("A sentence no catalog has.") == "A sentence no catalog has."


@pytest.mark.parametrize(
    ("lang", "forms"),
    [
        ("el", {1: "1 πλακίδιο", 2: "2 πλακίδια", 11: "11 πλακίδια"}),
        (
            "hr",
            {1: "1 pločica", 3: "3 pločice", 5: "5 pločica", 21: "21 pločica", 12: "12 pločica"},
        ),
        ("ro", {1: "1 piesă", 2: "2 piese", 19: "19 piese", 20: "20 de piese", 101: "101 piese"}),
        (
            "lv",
            {0: "0 kauliņu", 1: "1 kauliņš", 21: "21 kauliņš", 11: "11 kauliņu", 2: "2 kauliņi"},
        ),
    ],
)
def test_plural_forms_follow_each_languages_rule(lang: str, forms: dict[int, str]) -> None:
    import gettext
    import json

    page = json.loads(
        (SRC / "chickenfoot" / "server" / "static" / "i18n" / f"{lang}.json").read_text("utf-8")
    )
    rule = gettext.c2py(page["plural_forms"].split("plural=", 1)[1].rstrip(";"))
    for n, text in forms.items():
        assert page["messages"]["{n} tile"][rule(n)].format(n=n) == text


# -- the command line --------------------------------------------------------------------------


@pytest.mark.parametrize("lang", list(SAYS))
def test_demo_speaks_the_language_and_keeps_the_notation(lang: str, capsys: Any) -> None:
    assert main(["demo", "--players", "2", "--lang", lang]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert ("Penalties:" in lines) == (lang == "en")
    assert any(line.endswith(": 9-0@9-9") for line in lines)  # the move notation stays


def test_an_unknown_lang_plays_in_english_and_says_so(capsys: Any) -> None:
    assert main(["demo", "--players", "2", "--lang", "tlh"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("Chicken Foot demo: house rules, 2 players")
    assert (
        captured.err
        == "chickenfoot speaks en, el, hr, ro, lv; 'tlh' is not one of them: English it is.\n"
    )


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pty")
@pytest.mark.parametrize("lang", list(SAYS))
def test_play_in_a_pty_under_each_lang(lang: str) -> None:
    """A person plays a one-round match in a real terminal with LANG set: the game speaks
    their language from the first line to the standings, and never shows a traceback."""
    env = {
        **os.environ,
        "PYTHONPATH": str(SRC),
        "PYTHONUNBUFFERED": "1",
        "LANG": f"{lang}_XX.UTF-8",
    }
    for name in ("LC_ALL", "LC_MESSAGES", "NO_COLOR"):
        env.pop(name, None)
    argv = [
        "-m",
        "chickenfoot",
        "play",
        "--players",
        "2",
        "--set",
        'match={"rounds": 1}',
        "--bots",
        "greedy",
        "--seed",
        "3",
    ]
    child = pexpect.spawn(
        sys.executable, argv, env=env, encoding="utf-8", timeout=30, dimensions=(50, 100)
    )
    log = io.StringIO()
    child.logfile_read = log
    started, help_word = SAYS[lang]
    child.expect_exact(started)
    prompt = r"\[1-\d+, help\]> "
    child.expect(prompt)
    child.sendline("help")
    child.expect_exact(help_word)
    child.expect(prompt)
    child.sendline("zz")  # refused, in the language
    decisions = 0
    while child.expect([prompt, pexpect.EOF]) == 0:
        child.sendline("1")
        decisions += 1
        assert decisions < 200
    child.close()
    seen = log.getvalue()
    assert child.exitstatus == 0
    assert "Traceback" not in seen
    assert "'zz'" in seen
    if lang != "en":
        for english in (
            "is not a move",
            "Your moves",
            "The round is over",
            "The match is over",
            "Round scores",
        ):
            assert english not in seen, english


# -- the server's pages ------------------------------------------------------------------------


@pytest.fixture
def client(tmp_path: Path) -> Any:
    from starlette.testclient import TestClient

    from chickenfoot.server import create_app

    with TestClient(create_app(tmp_path / "t.db")) as c:
        yield c


@pytest.mark.parametrize(
    ("headers", "lang"),
    [
        ({"Accept-Language": "el-GR,el;q=0.9"}, "el"),
        ({"Accept-Language": "fr, lv;q=0.5"}, "lv"),
        ({"Accept-Language": "x" * 100_000}, "en"),
        ({"Accept-Language": "ro", "Cookie": "chickenfoot_lang=hr"}, "hr"),
        ({"Accept-Language": "ro", "Cookie": "chickenfoot_lang=<script>"}, "ro"),
        ({"Cookie": "chickenfoot_lang=ell; other=\x7f"}, "en"),
        ({}, "en"),
    ],
)
def test_the_home_page_is_served_in_the_chosen_language(
    client: Any, headers: dict[str, str], lang: str
) -> None:
    r = client.get("/", headers=headers)
    assert r.status_code == 200
    assert f'<html lang="{lang}" data-lang="server">' in r.text
    assert r.headers["content-language"] == lang
    assert "Accept-Language" in r.headers["vary"] and "Cookie" in r.headers["vary"]
    assert '<script src="/static/i18n.js"></script>' in r.text


def test_a_missing_table_is_refused_in_the_language_and_escaped(client: Any) -> None:
    r = client.get("/t/nothing-here", headers={"Accept-Language": "hr"})
    assert r.status_code == 404
    assert "<h1>Takav stol ne postoji</h1>" in r.text and '<html lang="hr">' in r.text
    r = client.get("/t/nothing-here")
    assert "<h1>No such table</h1>" in r.text


@pytest.mark.parametrize("lang", [lang for lang in _i18n.LANGUAGES if lang != "en"])
def test_each_pages_catalog_is_served(client: Any, lang: str) -> None:
    r = client.get(f"/static/i18n/{lang}.json")
    assert r.status_code == 200
    data = r.json()
    assert data["lang"] == lang and data["messages"]["Your turn"]
