"""What the served pages may do, said in every response's headers (docs: Serve, "Bounded").

:class:`PageHeaders` is an ASGI middleware that adds :data:`HEADERS` to every HTTP response
of the application (pages, scripts, the JSON API, refusals) that does not set them itself:

- ``Content-Security-Policy`` (:data:`POLICY`): scripts, style sheets, pictures and
  connections from this server's own origin only (``'self'``, which covers the table's
  ``ws:``/``wss:`` WebSocket to the same host and port), nothing inline (the pages keep
  their scripts and styles in ``/static``; the table's picture, put in the page as SVG
  markup, has no ``style`` attribute or handler), no plugin, no ``<base>``, forms posted
  here only, and never shown in another site's frame;
- ``X-Frame-Options: DENY``, the same for browsers without ``frame-ancestors``;
- ``X-Content-Type-Options: nosniff``: a file is only what its type says;
- ``Referrer-Policy: no-referrer``: a page never tells another site its address (a table's
  link holds its id; the seat's token is in the fragment, which is never sent anyway).

>>> POLICY.split("; ")[:3]
["default-src 'none'", "script-src 'self'", "style-src 'self'"]
>>> sorted(HEADERS)
['content-security-policy', 'referrer-policy', 'x-content-type-options', 'x-frame-options']
"""

from __future__ import annotations

from typing import Final

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["HEADERS", "POLICY", "PageHeaders"]

POLICY: Final = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
"""The Content-Security-Policy of every page: this origin's files only, nothing inline."""
HEADERS: Final = {
    "content-security-policy": POLICY,
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}
"""The headers every HTTP response carries."""
_RAW: Final = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in HEADERS.items()]


class PageHeaders:
    """An ASGI middleware adding :data:`HEADERS` to every HTTP response (a header the
    response sets itself is kept); WebSockets pass untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                present = {name.lower() for name, _ in headers}
                headers += [(k, v) for k, v in _RAW if k not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)
