"""The language of a served page (docs/serve.md, "Languages"): the one chosen with the
page's switcher (remembered in the cookie ``chickenfoot_lang``), else the browser's
``Accept-Language`` (:func:`chickenfoot._i18n.negotiate`: any size or shape, bounded
work), else English. The page is sent with it in ``<html lang>``; its script then loads
that language's words (``static/i18n.js``).

>>> from starlette.requests import Request
>>> page_language(Request({"type": "http", "headers": [(b"accept-language", b"ro-RO,ro;q=0.9")]}))
'ro'
>>> page_language(Request({"type": "http", "headers": [(b"cookie", b"chickenfoot_lang=hr"),
...                                                    (b"accept-language", b"ro")]}))
'hr'
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from starlette.requests import Request
from starlette.responses import HTMLResponse

from chickenfoot._i18n import LANGUAGES, N_, negotiate, translator

__all__ = ["COOKIE", "localized_page", "page_language", "refusal", "said"]

COOKIE: Final = "chickenfoot_lang"
"""The cookie that remembers the language chosen with a page's switcher."""


def page_language(request: Request) -> str:
    """The language to serve ``request`` in: the remembered choice, else Accept-Language."""
    try:
        chosen = request.cookies.get(COOKIE, "")
    except Exception:  # a cookie header that cannot be read: as if none
        chosen = ""
    if chosen in LANGUAGES:
        return chosen
    return negotiate(request.headers.get("accept-language"))


def said(request: Request, message: str, /, **values: object) -> str:
    """``message`` in the language of ``request`` (a page's error, said to a person)."""
    return translator(page_language(request)).gettext(message, **values)


def localized_page(path: Path, request: Request, status_code: int = 200) -> HTMLResponse:
    """The page at ``path`` with ``<html lang>`` set to the request's language (one of
    :data:`~chickenfoot._i18n.LANGUAGES`: nothing from the request is written in it)."""
    lang = page_language(request)
    served = f'<html lang="{lang}" data-lang="server">'
    text = path.read_text(encoding="utf-8").replace('<html lang="en">', served, 1)
    headers = {"Vary": "Accept-Language, Cookie", "Content-Language": lang}
    return HTMLResponse(text, status_code, headers=headers)


TITLES: Final = (N_("Too many requests"), N_("No such table"), N_("Home"))
"""The titles of :func:`refusal`'s pages (marked here for extraction)."""


def refusal(
    request: Request,
    status_code: int,
    title: str,
    detail: str = "",
    *,
    headers: Mapping[str, str] | None = None,
) -> HTMLResponse:
    """A page refusing ``request``: ``title`` (one of :data:`TITLES`) in its language, ``detail`` as it is, and a link home; everything escaped."""
    lang = page_language(request)
    words = translator(lang)
    body = (
        f'<!doctype html><html lang="{lang}"><meta charset="utf-8">'
        f"<title>{html.escape(words.gettext(title))}</title>"
        f"<h1>{html.escape(words.gettext(title))}</h1>"
        + (f"<p>{html.escape(detail)}</p>" if detail else "")
        + f"<p><a href='/'>{html.escape(words.gettext('Home'))}</a></p>"
    )
    return HTMLResponse(body, status_code, headers=dict(headers or {}))
