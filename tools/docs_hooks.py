"""mkdocs hooks: draw the pictures page from real positions when the site is built.

``docs/pictures.md`` holds the marker ``<!-- pictures -->``; at build time it is replaced by
every picture of the catalogue in ``tools/pictures.py``, each drawn by ``chickenfoot.svg``
and inlined as a figure with its caption. Nothing is hand-drawn and nothing is committed:
change the renderer and the next build shows it.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

MARKER = "<!-- pictures -->"


def _figures() -> str:
    import chickenfoot as cf

    # loaded by path: mkdocs loads this hook by path, not as part of a package
    spec = importlib.util.spec_from_file_location(
        "cf_pictures", Path(__file__).with_name("pictures.py")
    )
    assert spec is not None and spec.loader is not None
    pictures = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pictures)
    catalogue = pictures.catalogue

    out = []
    for stem, caption, state, options in catalogue():
        picture = cf.svg(state, **options)
        picture = picture.replace("<svg ", '<svg style="max-width: 100%; height: auto" ', 1)
        call = ", ".join(["state", *(f"{k}={v!r}" for k, v in options.items())])
        out.append(
            f'<figure id="{stem}">\n{picture}\n<figcaption>{caption} '
            f"<code>chickenfoot.svg({call})</code></figcaption>\n</figure>"
        )
    return "\n\n".join(out)


def on_page_markdown(markdown: str, page: Any, **kwargs: Any) -> str:
    if MARKER in markdown:
        return markdown.replace(MARKER, _figures())
    return markdown
