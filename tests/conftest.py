"""Hypothesis settings profiles for the test suite, and the fixtures that test files share.

``default`` (local runs) keeps the whole property suite fast on a small machine; ``ci`` is
loaded when the environment variable ``CI`` is set (as GitHub Actions and most CI services
do): twice the examples, no example database (CI has nowhere to keep one) and the failure
blob printed so a CI failure can be replayed locally with ``@reproduce_failure``. Either
can be forced with ``pytest --hypothesis-profile=NAME``. Tests that are costly per example
scale their own ``max_examples`` from the loaded profile with ``strategies.examples``.

Fixtures used by more than one test file are defined here (``answers``); plain helpers and
shared data are in ``helpers.py``.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator

import pytest
from hypothesis import settings

settings.register_profile("default", deadline=None, max_examples=100)
settings.register_profile("ci", deadline=None, max_examples=200, database=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")

# Hypothesis imports libcst to write its failure patches. With some mypy_extensions
# releases that import warns (DeprecationWarning), and under ``filterwarnings = error`` a
# failing property would then be reported as a pytest INTERNALERROR instead of its
# counterexample. Import it once here, with that warning silenced.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    try:
        import libcst
        import libcst.codemod  # noqa: F401
    except ImportError:  # pragma: no cover - libcst is optional
        pass


@pytest.fixture
def answers(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Lines for ``input()``; an empty list then means end of input (Ctrl-D)."""
    lines: list[str] = []

    def fake_input(prompt: str = "") -> str:
        print(prompt)
        if not lines:
            raise EOFError
        return lines.pop(0)

    monkeypatch.setattr("builtins.input", fake_input)
    yield lines
