"""The adapters' tests: ``tests/`` on the path (for the shared fuzz registry,
``fuzz_targets``), and the fuzz modules left out of collection where their optional
dependency is missing (each imports it first, so that ``bench/fuzz.py`` skips it)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

TESTS = str(Path(__file__).resolve().parent.parent / "tests")
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)

collect_ignore = [
    name
    for name, needs in (("fuzz_openspiel.py", "pyspiel"), ("fuzz_pettingzoo.py", "pettingzoo"))
    if importlib.util.find_spec(needs) is None
]
