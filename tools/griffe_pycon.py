"""A Griffe extension for the documentation site: docstring doctests as ``pycon`` code blocks.

The library's docstrings carry runnable ``>>>`` examples (pytest runs them) and Sphinx-style
roles (``:class:`~chickenfoot.State```). Markdown would render the prompts as nested
blockquotes and the roles as stray text, so before mkdocstrings renders a docstring this
extension fences every doctest block (from a ``>>>`` line to the next blank line, as doctest
reads it) in a ``pycon`` code block, and turns each role into a code span of the name.
Loaded by ``mkdocs.yml`` (``extensions: [tools/griffe_pycon.py]``); only the docs build uses it.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:class|func|meth|attr|data|mod|exc|obj):`(~?)([^`]+)`")


def _short(match: re.Match[str]) -> str:
    tilde, name = match.groups()
    return f"`{name.rsplit('.', 1)[-1] if tilde else name}`"


def fence_doctests(text: str) -> str:
    """``text`` with each doctest block fenced as ``pycon`` and Sphinx roles as code spans."""
    out: list[str] = []
    in_fence = False
    in_doctest = False
    indent = ""
    for line in text.splitlines():
        stripped = line.strip()
        if in_doctest:
            if stripped:
                out.append(line)
                continue
            out.append(f"{indent}```")
            in_doctest = False
        if stripped.startswith("```"):
            in_fence = not in_fence
        elif not in_fence and stripped.startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            if out and out[-1].strip():
                out.append("")
            out.append(f"{indent}```pycon")
            out.append(line)
            in_doctest = True
            continue
        out.append(line if in_fence else _ROLE.sub(_short, line))
    if in_doctest:
        out.append(f"{indent}```")
    return "\n".join(out)


class PyconFences(griffe.Extension):
    """Rewrite every docstring with :func:`fence_doctests` as objects are loaded."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)
