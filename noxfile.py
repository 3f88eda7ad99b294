"""Task runner: ``nox -s tests``, ``nox -s lint``, ``nox -s typecheck``, ``nox -s bench``, ``nox -s docs``.

``nox -s cluster`` runs simulations on a real local Dask cluster; ``nox -s strength``
(not run by default) plays the agent tournaments.
"""

from __future__ import annotations

import nox

nox.options.sessions = ["tests", "lint", "typecheck", "smoke", "docs", "cluster"]
nox.options.reuse_existing_virtualenvs = True

TEST_DEPS = ["pytest>=8", "hypothesis>=6.100"]


@nox.session
def tests(session: nox.Session) -> None:
    """Unit, scenario, property and conformance tests, plus every doctest.

    Editable install: the doctests are collected from ``src/``, so the package imported
    must be that same tree.
    """
    session.install("-e", ".", *TEST_DEPS)
    session.run("pytest", *session.posargs)


@nox.session
def cluster(session: nox.Session) -> None:
    """``simulate`` on a real Dask cluster (two local worker processes) gives the serial numbers.

    The test lives outside the default test paths (``tests_cluster/``): Dask is an extra.
    """
    session.install("-e", ".[dask]", "pytest>=8")
    session.run("pytest", "tests_cluster", *session.posargs)


@nox.session
def smoke(session: nox.Session) -> None:
    """The README's main job from a built (non-editable) install: the wheel and the script."""
    session.install(".")
    session.run("chickenfoot", "demo", "--seed", "1", silent=True)
    session.run("chickenfoot", "rules", "--preset", "classic", "--players", "7", silent=True)
    session.run("python", "-c", "import chickenfoot, sys; sys.exit(chickenfoot.__version__ == '')")


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check and ruff format --check."""
    session.install("ruff")
    session.run("ruff", "check", "src", "tests", "tests_cluster", "noxfile.py", "bench")
    session.run("ruff", "format", "--check", "src", "tests", "tests_cluster", "noxfile.py", "bench")


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy --strict on the package."""
    session.install(".", "mypy>=1.10", "attrs")
    session.run("mypy", "--strict", "src")


@nox.session
def bench(session: nox.Session) -> None:
    """Speed figures beside the shared reference engine, as medians and ratios."""
    session.install(".")
    session.run("python", "bench/run.py", *session.posargs)


@nox.session
def strength(session: nox.Session) -> None:
    """Agent tournaments on two processes: win rates with 95% intervals (not in CI).

    ``nox -s strength -- --games 1000 --search-iterations 64`` for tighter intervals.
    """
    session.install(".")
    session.run("python", "bench/strength.py", *session.posargs)


@nox.session
def docs(session: nox.Session) -> None:
    """Build the documentation site (mkdocs-material + mkdocstrings)."""
    session.install(".", "mkdocs-material", "mkdocstrings[python]")
    session.run("mkdocs", "build", "--strict", env={"NO_MKDOCS_2_WARNING": "1"})
