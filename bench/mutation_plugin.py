"""pytest plugin for ``nox -s mutation``: a small, deterministic Hypothesis profile.

mutmut runs the tests once per mutant, so ``[tool.mutmut] pytest_add_cli_args`` in
``pyproject.toml`` loads this module (``-p bench.mutation_plugin``) and selects its profile
(``--hypothesis-profile=mutation``). It is registered when the plugin is imported, before
``tests/conftest.py`` loads ``default``; Hypothesis's own plugin then loads the profile named
on the command line, so every test module (and ``strategies.examples``) sees it. Fixed
examples (``derandomize``) and no example database make a mutant's verdict reproducible and
independent of the mutants run before it. ``CHICKENFOOT_MUTATION_EXAMPLES`` sets the number of
examples (default 25, a quarter of the local ``default`` profile).
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile(
    "mutation",
    deadline=None,
    database=None,
    derandomize=True,
    max_examples=int(os.environ.get("CHICKENFOOT_MUTATION_EXAMPLES", "25")),
)
