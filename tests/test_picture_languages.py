"""The words inside an SVG picture in each language (``chickenfoot.svg(..., lang=)``).

A picture's words (whose turn, what happened last, the hands' labels, the glowing places'
titles, its ``<title>``) are a person's reading, so they come in the language asked for:
English by default, and byte for byte the picture English always drew; in Greek,
Croatian, Romanian and Latvian no English word of the game is left, the tiles are the
same, and nothing written runs out of the frame.
"""

from __future__ import annotations

import hashlib
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

import chickenfoot as cf
from chickenfoot.errors import ArgumentError

LANGUAGES = ("el", "hr", "ro", "lv")
SVG = "{http://www.w3.org/2000/svg}"
ENGLISH_WORDS = re.compile(
    r"\b(seat|to play|boneyard|needs|more toes?|last|played|drew|passed|over|went out|"
    r"blocked|you|view|centre|laid|on)\b"
)
"""The English words a picture's text may hold (its tiles' notation aside)."""


def _samples() -> Iterator[tuple[str, cf.State | cf.View, dict[str, Any]]]:
    """Pictures that say every thing a picture says: whose turn, a drawn tile, a pending
    double, a play, a draw, a pass, a round gone out and one blocked, a seat's view, an
    empty table, glowing places."""
    holder = cf.deal(cf.Rules.preset("classic"), seed=3)
    yield "holder", holder, {"targets": holder.legal_moves, "hands": "all"}
    first = cf.deal(cf.Rules(), seed=1)
    yield "empty", first, {"targets": first.legal_moves, "hands": 0}
    s = cf.deal(cf.Rules(), seed=1).apply("9-3@9-9")
    yield "pending", s, {"hands": "all", "targets": s.legal_moves}
    drawn = s.apply("draw")
    yield "drawn", drawn, {"hands": 1}
    yield "drawn-view", drawn.view(0), {"hands": "all"}
    yield "drawn-seat", drawn, {"seat": 1, "targets": drawn.legal_moves}
    rng = random.Random(7)
    wanted = {"pass", "out", "blocked"}
    for seed in range(60):
        s = cf.deal(cf.Rules(players=3), seed=seed)
        while s.outcome() is None:
            move = rng.choice(sorted(m.notation() for m in s.legal_moves))
            s = s.apply(move)
            if move == "pass" and "pass" in wanted:
                wanted.discard("pass")
                yield "pass", s, {"hands": "all"}
        result = s.outcome()
        assert result is not None
        kind = "out" if result.termination is cf.Termination.OUT else "blocked"
        if kind in wanted:
            wanted.discard(kind)
            yield kind, s, {"hands": "all"}
        if not wanted:
            return
    raise AssertionError(f"no round found with {wanted}")


SAMPLES = list(_samples())

ENGLISH = {
    "holder": "d7fb9b7817fe0ccd4451ee03e7d3b25fca99e5d369e1a504d5dc35995e53e654",
    "empty": "56cbe1656302045c0f99debc4bcd06527c74e281487b39065afcd3da2e57ba0d",
    "pending": "7ad0f6ba9c1ee0a44f72f2bc87494ec21668c4b7e8c53263860c97a91ca58fdd",
    "drawn": "f3529bdf6fa1ce7ddccfb22e98192450e598c8d3b39ce162b61d09a3e9d7a698",
    "drawn-view": "93fda5455760c582ef27fa90e2bd5f17b6fc74f5834e764dabb7454beddb7747",
    "drawn-seat": "f605f1b78a279ab7a57e07d1c9bc6b40752b3958e5af74a1931d287ea499d223",
    "pass": "fb07f387df886c574eedc19ca6590602b310172114937644e41ce9e8e56fc409",
    "out": "93265418e7a8f03aece960479d87bd3d8b269a2ad782157af5269b794b9962fa",
    "blocked": "45635441d28de895b80680304429e5eb5b0e71bf939a08e970f8fb0baa6e8777",
}
"""The SHA-256 of each sample's English picture, as drawn before pictures had languages."""


def _texts(picture: str) -> list[str]:
    root = ET.fromstring(picture)
    said = [t.text or "" for t in root.iter(f"{SVG}text")]
    return said + [t.text or "" for t in root.iter(f"{SVG}title")]


def _words(text: str) -> str:
    """``text`` without its tiles, moves and numbers (the notation is never translated)."""
    return re.sub(r"[\d@-]+", " ", text.removeprefix("Chicken Foot:"))


def _tiles(picture: str) -> list[tuple[str | None, str | None, str | None]]:
    """Each domino and glowing place: its class, its tile or move, and its box on the
    table (a hand's tiles move along when their label is longer)."""
    root = ET.fromstring(picture)
    return [
        (
            g.get("class"),
            g.get("data-tile") or g.get("data-move"),
            None if "hand" in (g.get("class") or "") else g.get("data-box"),
        )
        for g in root.iter(f"{SVG}g")
    ]


@pytest.mark.parametrize(("name", "position", "options"), SAMPLES, ids=[n for n, _, _ in SAMPLES])
def test_english_is_the_picture_english_always_drew(
    name: str, position: cf.State | cf.View, options: dict[str, Any]
) -> None:
    picture = cf.svg(position, **options)
    assert cf.svg(position, lang="en", **options) == picture
    assert hashlib.sha256(picture.encode()).hexdigest() == ENGLISH[name]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("name", "position", "options"), SAMPLES, ids=[n for n, _, _ in SAMPLES])
def test_each_language_says_it_all_in_its_words_with_the_same_tiles(
    name: str, position: cf.State | cf.View, options: dict[str, Any], lang: str
) -> None:
    english = cf.svg(position, **options)
    picture = cf.svg(position, lang=lang, **options)
    assert _tiles(picture) == _tiles(english)
    texts = _texts(picture)
    assert len(texts) == len(_texts(english))
    for text in texts:
        assert not ENGLISH_WORDS.search(_words(text)), (lang, text)
    assert f'lang="{lang}"' in picture.split(">", 1)[0]


def test_a_greek_picture_reads_as_greek() -> None:
    s = cf.deal(cf.Rules(), seed=1).apply("9-3@9-9").apply("draw")
    texts = _texts(cf.svg(s, lang="el", hands="all"))
    assert "η θέση 1 τράβηξε το 6-3" in " ".join(texts)
    assert "στοίβα 9" in " ".join(texts)


def test_the_frame_holds_the_longest_words() -> None:
    """Greek and Latvian sentences are longer than English: the frame grows with them."""
    s = cf.deal(cf.Rules(), seed=1).apply("9-3@9-9").apply("draw")
    view = s.view(1)
    for lang in LANGUAGES:
        picture = cf.svg(view, lang=lang, hands="all")
        x0, _, width, _ = map(float, re.findall(r'viewBox="([^"]+)"', picture)[0].split())
        for x, size, text in re.findall(
            r'<text x="([-\d.]+)" y="[-\d.]+" font-size="([\d.]+)" text-anchor="start"[^>]*>'
            r"([^<]*)</text>",
            picture,
        ):
            assert float(x) + 0.56 * float(size) * len(text) <= x0 + width, (lang, text)


def test_a_picture_speaks_the_language_asked_for_never_the_one_in_use() -> None:
    """A library call draws the same picture whatever the process's language (a front end's
    ``_i18n.use``, or the locale): only ``lang=`` changes its words."""
    from chickenfoot._i18n import use

    s = cf.deal(cf.Rules(), seed=1).apply("9-3@9-9")
    english, greek = cf.svg(s, hands="all"), cf.svg(s, hands="all", lang="el")
    with use("lv"):
        assert cf.svg(s, hands="all") == english
        assert cf.svg(s, hands="all", lang="el") == greek


@pytest.mark.parametrize("lang", ["xx", "EL", "", "el_GR", 3, None])
def test_a_language_not_spoken_is_refused(lang: object) -> None:
    s = cf.deal(cf.Rules(), seed=1)
    with pytest.raises(ArgumentError, match=r"lang=.* is invalid: must be one of en, el"):
        cf.svg(s, lang=lang)  # type: ignore[arg-type]
