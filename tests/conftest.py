"""Hypothesis settings profiles for the test suite, and the fixtures that test files share.

``default`` (local runs) keeps the whole property suite fast on a small machine; ``ci`` is
loaded when the environment variable ``CI`` is set (as GitHub Actions and most CI services
do): twice the examples, no example database (CI has nowhere to keep one) and the failure
blob printed so a CI failure can be replayed locally with ``@reproduce_failure``. Either
can be forced with ``pytest --hypothesis-profile=NAME``. Tests that are costly per example
scale their own ``max_examples`` from the loaded profile with ``strategies.examples``.

Fixtures used by more than one test file are defined here (``answers``, ``postgres_url``,
``store_where``, ``built_dataset``; ``no_lost_errors``, on every test); plain helpers and shared data are in
``helpers.py``.

The tests marked ``postgres`` need a PostgreSQL server, named by the environment variable
``CHICKENFOOT_TEST_POSTGRES`` (a ``postgresql://`` URL; ``.ci/run`` starts a throwaway
one). Without it they fail under ``CI``, and elsewhere are deselected, which the header
of pytest's report says in one line: never skipped.
"""

from __future__ import annotations

import gc
import logging
import os
import secrets
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

import pytest
from hypothesis import HealthCheck, settings

# The suite runs on every core (pytest-xdist) beside browsers and servers: how fast an
# example is made says nothing about the code under test, so neither the deadline nor the
# "too slow" health check may fail a property (the others stay on).
_SLOW = [HealthCheck.too_slow]
settings.register_profile("default", deadline=None, max_examples=100, suppress_health_check=_SLOW)
settings.register_profile(
    "ci",
    deadline=None,
    max_examples=200,
    database=None,
    print_blob=True,
    suppress_health_check=_SLOW,
)
settings.load_profile("ci" if os.environ.get("CI") else "default")

# pytest-xdist hands its workers the controller's terminal size as COLUMNS and LINES (80
# and 24 when there is no terminal). A program the tests start in a pseudo-terminal of
# another size would then wrap its lines at 80 columns, not at its terminal's width as it
# does for a person (rich and shutil read COLUMNS first), and the transcripts would not
# match. The workers forget them; a run without workers never had them.
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.pop("COLUMNS", None)
    os.environ.pop("LINES", None)

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


POSTGRES_VARIABLE = "CHICKENFOOT_TEST_POSTGRES"
"""The environment variable naming the PostgreSQL server of the ``postgres`` tests."""


def _postgres_left_out() -> bool:
    return not os.environ.get(POSTGRES_VARIABLE) and not os.environ.get("CI")


def pytest_report_header(config: pytest.Config) -> str | None:
    if _postgres_left_out():
        return (
            f"postgres: the tests marked postgres are deselected ({POSTGRES_VARIABLE} is not "
            "set: a postgresql:// URL runs them)"
        )
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if not _postgres_left_out():
        return
    left = [item for item in items if item.get_closest_marker("postgres")]
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = [item for item in items if not item.get_closest_marker("postgres")]


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection made (the modules, the test items, the strategies: most of the heap)
    goes to the garbage collector's permanent generation, so that the collection after every
    test (``no_lost_errors``) walks only what was made since: a collection of the whole heap
    took about a quarter of a second, four thousand times a run. Nothing a test makes is
    frozen, so every task a test leaves in a reference cycle is still collected and heard."""
    gc.collect()
    gc.freeze()


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A ``postgresql://`` URL of a schema of its own on the test server (dropped after)."""
    dsn = os.environ.get(POSTGRES_VARIABLE, "")
    if not dsn.startswith(("postgresql://", "postgres://")):
        pytest.fail(
            f"{POSTGRES_VARIABLE} must name a PostgreSQL server (postgresql://USER@HOST:PORT/DB)"
            f" for the tests marked postgres; it is {'not set' if not dsn else 'not a URL'}"
            " (CI: .ci/run starts one)"
        )
    try:
        import psycopg
    except ImportError:
        pytest.fail("the tests marked postgres need psycopg: pip install -e '.[postgres]'")
    schema = f"cf_test_{secrets.token_hex(6)}"
    with psycopg.connect(dsn, autocommit=True) as db:
        db.execute(f"CREATE SCHEMA {schema}")
    parts = urlsplit(dsn)
    option = "options=" + quote(f"-c search_path={schema}", safe="")
    query = f"{parts.query}&{option}" if parts.query else option
    try:
        yield urlunsplit(parts._replace(query=query))
    finally:
        with psycopg.connect(dsn, autocommit=True) as db:
            db.execute(f"DROP SCHEMA {schema} CASCADE")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def store_where(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a store is (``open_store``'s argument): a SQLite file, or a PostgreSQL
    schema of its own; a test using it runs on both."""
    if request.param == "sqlite":
        return str(tmp_path / "tables.db")
    url: str = request.getfixturevalue("postgres_url")
    return url


class _LostErrors(logging.Handler):
    """Records asyncio's word that a task or a future ended with an error nobody read."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.lost: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if "exception was never retrieved" in text:
            context = getattr(record, "exc_info", None)
            why = repr(context[1]) if context and context[1] is not None else ""
            self.lost.append(f"{text} {why}"[:500])


@pytest.fixture(autouse=True)
def no_lost_errors() -> Iterator[_LostErrors]:
    """Every test fails when asyncio logs "Task exception was never retrieved" (or a
    future's): a task that dies unobserved is a bug wherever it appears."""
    handler = _LostErrors()
    logger = logging.getLogger("asyncio")
    logger.addHandler(handler)
    try:
        yield handler
        gc.collect()  # a task in a reference cycle says so when collected
    finally:
        logger.removeHandler(handler)
    assert not handler.lost, f"errors nobody read: {handler.lost}"


@pytest.fixture(scope="session")
def built_dataset(tmp_path_factory: pytest.TempPathFactory) -> Callable[..., Path]:
    """``built_dataset(*ARGS)``: the directory of ``chickenfoot dataset build DIR *ARGS``
    (docs/dataset.md), built once a session for each list of arguments; a test that
    changes the data set copies it first."""
    from chickenfoot.cli import main

    made: dict[tuple[str, ...], Path] = {}

    def build(*args: str) -> Path:
        if args not in made:
            root = tmp_path_factory.mktemp("dataset") / "set"
            assert main(["dataset", "build", str(root), *args]) == 0
            made[args] = root
        return made[args]

    return build
