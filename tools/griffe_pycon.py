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
_TITLED = re.compile(r"(.+?)\s*<([^<>]+)>", re.DOTALL)


def _short(match: re.Match[str]) -> str:
    """A role as a code span: its title when it has one (``:attr:`State.table
    <chickenfoot.State.table>```, even across a line break), else the name (the last part
    of it after ``~``)."""
    tilde, name = match.groups()
    titled = _TITLED.fullmatch(name.strip())
    if titled is not None:
        return f"`{' '.join(titled.group(1).split())}`"
    name = " ".join(name.split())
    return f"`{name.rsplit('.', 1)[-1] if tilde else name}`"


def fence_doctests(text: str) -> str:
    """``text`` with each doctest block fenced as ``pycon`` and Sphinx roles as code spans.

    Roles are rewritten in the prose between code blocks, a paragraph at a time, so a role
    broken over two lines is found too.

    >>> fence_doctests("See :attr:`State.table\n<chickenfoot.State.table>` and :func:`~a.b`.")
    'See `State.table` and `b`.'
    """
    out: list[str] = []
    prose: list[str] = []
    in_fence = False
    in_doctest = False
    indent = ""

    def flush() -> None:
        if prose:
            out.extend(_ROLE.sub(_short, "\n".join(prose)).split("\n"))
            prose.clear()

    for line in text.splitlines():
        stripped = line.strip()
        if in_doctest:
            if stripped:
                out.append(line)
                continue
            out.append(f"{indent}```")
            in_doctest = False
        if stripped.startswith("```"):
            flush()
            in_fence = not in_fence
            out.append(line)
        elif in_fence:
            out.append(line)
        elif stripped.startswith(">>>"):
            flush()
            indent = line[: len(line) - len(line.lstrip())]
            if out and out[-1].strip():
                out.append("")
            out.append(f"{indent}```pycon")
            out.append(line)
            in_doctest = True
        else:
            prose.append(line)
    flush()
    if in_doctest:
        out.append(f"{indent}```")
    return "\n".join(out)


class PyconFences(griffe.Extension):
    """Rewrite every docstring with :func:`fence_doctests` as objects are loaded."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)
