"""The words a person reads, in their language: choosing it, and finding each sentence in it.

The contract (for the front ends: ``chickenfoot play`` and ``demo``, the server's pages):

- :data:`LANGUAGES` are the languages spoken: English (the source text), Greek, Croatian,
  Romanian and Latvian. Their catalogs are gettext's, managed with Babel (``nox -s
  i18n_extract i18n_update i18n_compile``, docs/contributors/translations.md) and read
  here with the standard library's :mod:`gettext` only: the package needs no Babel to run.
- A message is one whole sentence with named placeholders (``"You drew {tile}."``), never
  glued from fragments. :func:`gettext` and :func:`ngettext` find it in the language in use
  (:func:`use`, a context variable: English unless a front end chose) and fill it in.
- Whatever goes wrong falls back to English, never to a message id or a crash: a missing
  or broken catalog, a missing translation, a translation whose placeholders do not match
  the English sentence's.
- :func:`from_environment` (``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as POSIX orders them)
  and :func:`negotiate` (an HTTP ``Accept-Language`` header, of any size or shape, read
  with bounded work) choose a language; :func:`choose` reads a ``--lang`` value.

Library exceptions, logs, the JSON documents, the move notation and the engine protocol
are never translated: only what a person reads at a front end is.

>>> with use("hr"):
...     print(gettext("You drew {tile}.", tile="6-3"))
...     print(ngettext("A match of {n} round", "A match of {n} rounds", 3, n=3))
Izvukao si 6-3.
Partija od 3 runde
>>> gettext("You drew {tile}.", tile="6-3")
'You drew 6-3.'
>>> negotiate("fr-CH, fr;q=0.9, lv;q=0.8, *;q=0.5")
'lv'
"""

from __future__ import annotations

import contextlib
import gettext as _gettext
import string
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Final

from chickenfoot.errors import brief

__all__ = [
    "DOMAIN",
    "N_",
    "LANGUAGES",
    "LOCALE_DIR",
    "NAMES",
    "Translator",
    "choose",
    "current",
    "from_environment",
    "gettext",
    "decimal",
    "negotiate",
    "ngettext",
    "number",
    "translator",
    "use",
]

LANGUAGES: Final = ("en", "el", "hr", "ro", "lv")
"""The languages spoken, English (the source text) first."""
NAMES: Final = {
    "en": "English",
    "el": "Ελληνικά",
    "hr": "Hrvatski",
    "ro": "Română",
    "lv": "Latviešu",
}
"""Each language by its own name (what a switcher lists)."""
DOMAIN: Final = "chickenfoot"
"""The gettext domain of the command line's catalogs (the pages' is ``web``)."""
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
"""Where the catalogs are: ``LOCALE_DIR/<lang>/LC_MESSAGES/<domain>.po`` and ``.mo``."""

_GROUP: Final = {"en": ",", "el": ".", "hr": ".", "ro": ".", "lv": "\N{NO-BREAK SPACE}"}
_HEADER_LIMIT: Final = 4096  # the characters of an Accept-Language header read
_RANGES_LIMIT: Final = 64  # the language ranges of a header weighed


def _names(text: str) -> set[str]:
    """The named placeholders of ``text`` (``{tile}``); a malformed format: ``{"{"}``."""
    try:
        return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}
    except ValueError:
        return {"{"}


class Translator:
    """The sentences of one language: a gettext catalog, or none (English).

    >>> Translator("en").gettext("Your turn")
    'Your turn'
    """

    def __init__(self, lang: str, catalog: _gettext.NullTranslations | None = None) -> None:
        self.lang = lang
        self._catalog = catalog or _gettext.NullTranslations()

    def _fill(self, said: str, english: str, values: Mapping[str, object]) -> str:
        if said != english and _names(said) != _names(english):
            said = english  # a translation that does not match: the English sentence
        try:
            return said.format(**values) if values else said
        except (KeyError, IndexError, ValueError, AttributeError):
            return english.format(**values) if said != english else english

    def gettext(self, message: str, /, **values: object) -> str:
        """``message`` in this language, its placeholders filled from ``values``."""
        try:
            said = self._catalog.gettext(message)
        except Exception:  # a catalog that breaks on use: English
            said = message
        return self._fill(said, message, values)

    def ngettext(self, singular: str, plural: str, n: int, /, **values: object) -> str:
        """The form of ``singular``/``plural`` for ``n`` in this language, filled in."""
        english = singular if n == 1 else plural
        try:
            said = self._catalog.ngettext(singular, plural, n)
        except Exception:
            said = english
        return self._fill(said, english, values)


@lru_cache(maxsize=16)  # bounded: any string may be asked for
def translator(lang: str, domain: str = DOMAIN) -> Translator:
    """The :class:`Translator` of ``lang`` (one of :data:`LANGUAGES`); English for any
    other, and when its catalog is missing or cannot be read.

    >>> translator("lv").ngettext("seat {seat}: {n} tile", "seat {seat}: {n} tiles", 21, seat=1, n=21)
    'vieta 1: 21 kauliņš'
    >>> translator("xx").gettext("Your turn")
    'Your turn'
    """
    if lang not in LANGUAGES or lang == "en":
        return Translator("en")
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{domain}.mo"
    try:
        with path.open("rb") as f:
            catalog = _gettext.GNUTranslations(f)
    except Exception:  # missing, truncated, a bad magic number or plural rule
        return Translator("en")
    return Translator(lang, catalog)


_ENGLISH: Final = Translator("en")
_current: ContextVar[Translator] = ContextVar("chickenfoot_language", default=_ENGLISH)


def current() -> Translator:
    """The translator in use (English unless :func:`use` chose another)."""
    return _current.get()


@contextlib.contextmanager
def use(lang: str) -> Iterator[Translator]:
    """Speak ``lang`` within the block (a context variable: threads and tasks keep theirs)."""
    token = _current.set(translator(lang))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def gettext(message: str, /, **values: object) -> str:
    """``message`` in the language in use, filled from ``values`` (Babel extracts it)."""
    return _current.get().gettext(message, **values)


def ngettext(singular: str, plural: str, n: int, /, **values: object) -> str:
    """The plural form for ``n`` in the language in use, filled in (Babel extracts it)."""
    return _current.get().ngettext(singular, plural, n, **values)


def N_(message: str, /) -> str:  # noqa: N802 - gettext's name for a marker
    """``message`` itself: marks an English sentence kept in a constant for extraction
    (it is translated where it is shown, with :func:`gettext`)."""
    return message


def number(n: int, lang: str | None = None) -> str:
    """The whole number ``n`` written as ``lang`` (default: the language in use) writes it.

    >>> number(12345, "en"), number(12345, "el"), number(12345, "lv"), number(-7, "hr")
    ('12,345', '12.345', '12\\xa0345', '-7')
    """
    sep = _GROUP.get(lang or _current.get().lang, ",")
    return f"{n:,}".replace(",", sep)


def decimal(x: float, places: int = 1, lang: str | None = None) -> str:
    """The number ``x`` with ``places`` decimals, written as ``lang`` (default: the
    language in use) writes it: English's decimal point, the others' decimal comma.

    >>> decimal(1234.56, 1, "en"), decimal(1234.56, 1, "el"), decimal(-0.25, 2, "lv")
    ('1,234.6', '1.234,6', '-0,25')
    """
    lang = lang or _current.get().lang
    whole, _point, part = f"{x:,.{places}f}".partition(".")
    whole = whole.replace(",", _GROUP.get(lang, ","))
    if not part:
        return whole
    return whole + ("." if lang == "en" or lang not in _GROUP else ",") + part


def _primary(tag: str) -> str:
    """The language of a locale name or language tag: ``el_GR.UTF-8`` and ``el-GR`` are
    ``el``; ``C`` and ``POSIX`` are English."""
    base = tag.strip().split(".", 1)[0].split("@", 1)[0]
    base = base.replace("_", "-").split("-", 1)[0].lower()
    return "en" if base in ("c", "posix") else base


def choose(value: str) -> tuple[str, str | None]:
    """The language a ``--lang`` value (or a locale name) names, and a line to show when it
    names none spoken here (then English).

    >>> choose("el_GR.UTF-8")
    ('el', None)
    >>> choose("de")[1]
    "chickenfoot speaks en, el, hr, ro, lv; 'de' is not one of them: English it is."
    """
    lang = _primary(value[:40])
    if lang in LANGUAGES:
        return lang, None
    return "en", (
        f"chickenfoot speaks {', '.join(LANGUAGES)}; {brief(value, 16)} is not one of them: "
        "English it is."
    )


def from_environment(environ: Mapping[str, str]) -> tuple[str, str | None]:
    """The language of the first of ``LC_ALL``, ``LC_MESSAGES``, ``LANG`` that is set (as
    POSIX orders them), and a line when it is not spoken here (then English).

    >>> from_environment({"LANG": "ro_RO.UTF-8", "LC_MESSAGES": "lv_LV.UTF-8"})
    ('lv', None)
    >>> from_environment({})
    ('en', None)
    """
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            return choose(value)
    return "en", None


def negotiate(header: str | None) -> str:
    """The language an HTTP ``Accept-Language`` header prefers among :data:`LANGUAGES`;
    English when it names none of them, or cannot be read. Only its first 4096
    characters and first 64 ranges are weighed: a header of any size costs bounded work.

    >>> negotiate("el-GR,el;q=0.9,en;q=0.8"), negotiate("de, *;q=0.1"), negotiate("xx;q=zz")
    ('el', 'en', 'en')
    """
    if not header:
        return "en"
    best, best_q = "en", 0.0
    for i, item in enumerate(header[:_HEADER_LIMIT].split(",")):
        if i >= _RANGES_LIMIT:
            break
        tag, _, params = item.partition(";")
        q = 1.0
        params = params.strip()
        if params:
            name, _, value = params.partition("=")
            if name.strip().lower() != "q":
                continue
            try:
                q = float(value.strip()[:8])
            except ValueError:
                continue
            if not 0.0 <= q <= 1.0:  # also NaN
                continue
        lang = tag.strip().split("-", 1)[0].lower()
        if lang in LANGUAGES and q > best_q:
            best, best_q = lang, q
    return best
