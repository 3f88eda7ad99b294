"""Task runner: ``nox -s quick`` (a first check, under two minutes), ``nox -s tests``, ``nox -s lint``, ``nox -s typecheck``, ``nox -s bench``, ``nox -s docs``.

``nox -s cluster`` runs simulations on a real local Dask cluster; ``nox -s strength``
(not run by default) plays the agent tournaments.
"""

from __future__ import annotations

from pathlib import Path

import nox

nox.options.sessions = ["tests", "fast", "lint", "typecheck", "smoke", "docs", "cluster"]
nox.options.reuse_existing_virtualenvs = True

# numpy: chickenfoot.encoding; babel: the catalogs' test (tests/test_i18n_catalogs.py)
TEST_DEPS = ["pytest>=8", "hypothesis>=6.100", "numpy>=1.24", "babel>=2.12"]
SERVER_TEST_DEPS = ["httpx2", "websockets>=12"]  # the clients of the server's tests
DATA_TEST_DEPS = ["datasets>=2.14"]  # docs/dataset.md's example streams with Hugging Face's
# tests/test_dataset_export.py loads the Minari export with Minari (whose storage needs Pillow)
DATA_TEST_DEPS += ["minari>=0.5", "pillow"]


@nox.session
def tests(session: nox.Session) -> None:
    """Unit, scenario, property and conformance tests, plus every doctest.

    Editable install: the doctests are collected from ``src/``, so the package imported
    must be that same tree. The ``cli`` extra (rich) and pexpect are installed for the
    command line's tests, which play whole games in a real pseudo-terminal; the ``server``
    extra and its test clients (httpx2 for Starlette's TestClient, websockets) for the
    tests of ``chickenfoot serve`` (its browser test runs in ``serve_browser``); the
    ``fast`` extra (numba) so that the batch engine's tests run under both of its backends
    (its kernels compile once, on first use, into ``__pycache__`` beside them, where the
    later test processes of the run find them). Prints the package's line and branch
    coverage.

    The tests run on every core (pytest-xdist, at most four workers, each taking the next
    test when it is free); ``nox -s tests -- -n 0`` runs them in one process.

    With ``CHICKENFOOT_BATCH_BACKENDS=numpy`` (the sdist's run, and CI: see ``.ci/run``)
    numba is not installed, and what needs it is left out: the backends' comparison and
    the compiled kernels' modules, which import numba (CI runs those in ``fast``).

    The tests marked ``postgres`` (the server's stores, on PostgreSQL too) need a server:
    ``CHICKENFOOT_TEST_POSTGRES`` names it (a ``postgresql://`` URL; ``.ci/run`` starts a
    throwaway one). Without it they fail under ``CI`` and are deselected elsewhere
    (``tests/conftest.py``).
    """
    import os

    numpy_only = os.environ.get("CHICKENFOOT_BATCH_BACKENDS") == "numpy"
    extras = (
        "cli,server,postgres,ladder,gym,data"
        if numpy_only
        else "cli,server,postgres,ladder,gym,data,fast"
    )
    if not os.environ.get("CHICKENFOOT_TEST_POSTGRES") and not os.environ.get("CI"):
        session.log("CHICKENFOOT_TEST_POSTGRES is not set: the tests marked postgres are left out")
    session.install(
        "-e",
        f".[{extras}]",
        *TEST_DEPS,
        *SERVER_TEST_DEPS,
        "pytest-cov",
        "pexpect>=4.8",
        "pytest-xdist>=3.2",
        "mkdocs>=1.6",  # the docs' hooks, which tests/test_docs_rules_translations.py runs
    )
    session.install(*DATA_TEST_DEPS)  # tests/test_dataset.py reads a data set through it
    without_numba = (
        [
            "--ignore=tests/test_batch_backends.py",
            "--ignore=tests/test_search_compiled.py",
            "--ignore=tests/test_ismcts_compiled.py",
            "--ignore=tests/test_solve_compiled.py",
            "--ignore=tests/test_levels_compiled.py",
            "--ignore=tests/test_analysis_compiled.py",
            "--ignore=tests/test_replay_compiled.py",
            "--ignore=tests/test_dataset_compiled.py",
            "--ignore=tests/test_belief_compiled.py",
            "--ignore=tests/test_notation_compiled.py",
            "--ignore-glob=*/_jit/*.py",
        ]
        if numpy_only
        else []
    )
    session.log(COVERED_ELSEWHERE)
    session.run(
        "pytest",
        "--cov=chickenfoot",
        "--cov-branch",
        "--cov-report=term",
        # on every core the machine gives (at most 4 workers), each worker taking the next
        # test when it is free: the run is bounded by the slowest tests, not by one core
        "--numprocesses=auto",
        "--maxprocesses=4",
        "--dist=worksteal",
        "--ignore=tests/test_server_browser.py",  # a session of its own: serve_browser
        "--ignore=tests/test_play_browser.py",  # a session of its own: play_browser
        "--ignore=tests/test_play_review_browser.py",  # in play_browser too
        "--ignore=tests/test_docs_i18n_site.py",  # in play_browser: the built site in five languages
        "--ignore=tests/test_ladder_browser.py",  # in serve_browser too
        "--ignore=tests/test_i18n_browser.py",  # in serve_browser too
        "--ignore=tests/test_server_records_browser.py",  # in serve_browser too
        "--ignore=tests/test_server_coach_browser.py",  # in serve_browser too
        *without_numba,
        *session.posargs,
    )
    session.log(COVERED_ELSEWHERE)


COVERED_ELSEWHERE = (
    "Coverage above: what this session covers. Left out of its total (pyproject.toml, "
    "[tool.coverage.run] omit) and covered elsewhere: the compiled kernels chickenfoot/_jit/ "
    "(nox -s fast: numba compiles them, so no line is traced), the OpenSpiel and PettingZoo "
    "adapters (nox -s adapters, under those projects' own suites)."
)
"""Printed before and after the tests session's coverage report, which is of the package
less what other sessions cover."""

QUICK_TESTS = (
    "tests/test_golden.py",
    "tests/test_conformance.py",
    "tests/test_layers.py",
    "tests/test_tiles_moves.py",
    "tests/test_table.py",
    "tests/test_scenarios.py",
    "tests/test_rules_config.py",
    "tests/test_newcomer.py",
    "tests/test_properties.py",
    "tests/test_state_machine.py",
    "tests/test_deprecation.py",
    "tests/test_names.py",
    "tests/test_match.py",
    "tests/test_record.py",
    "tests/test_position_format.py",
    "tests/test_playout.py",
    "README.md",
    "docs/tutorial.md",
    "docs/rules.md",
    "docs/formats.md",
)
"""The rules core: golden games, conformance vectors, the layers, tiles and moves, the
table, scenarios, rules, properties, the state machine, matches, records, the position
format, playouts, and the doctests of the README, the tutorial, the rules and formats."""


@nox.session
def quick(session: nox.Session) -> None:
    """A first check in under two minutes on two cores: the rules core (``QUICK_TESTS``),
    no coverage, no command line, server or batch engine. ``nox -s tests`` is the whole
    suite (about 25 minutes on two cores)."""
    session.install("-e", ".", *TEST_DEPS)
    session.run("pytest", "-q", "-p", "no:cacheprovider", *QUICK_TESTS, *session.posargs)


FAST_TESTS = (
    "tests/test_batch.py",
    "tests/test_batch_backends.py",
    "tests/test_batch_hardening.py",
    "tests/test_batch_checkpoints.py",
    "tests/test_batch_memory.py",
    "tests/test_agents.py",
    "tests/test_search_compiled.py",
    "tests/test_ismcts.py",
    "tests/test_ismcts_compiled.py",
    "tests/test_solve_compiled.py",
    "tests/test_levels_compiled.py",
    "tests/test_analysis_compiled.py",
    "tests/test_belief_compiled.py",
    "tests/test_gym.py",
    "tests/test_replay_compiled.py",
    "tests/test_dataset_compiled.py",
    "tests/test_notation_compiled.py",
)
"""What has a compiled path: the batch engine's tests, the agents' (with numba installed,
``SearchAgent`` samples and rolls out in the kernel) and the compiled search's exactness
tests."""


@nox.session
def fast(session: nox.Session) -> None:
    """The compiled paths (the ``fast`` extra, numba) from a clean cache: the batch
    engine's tests under both backends, the agents' and the compiled search's tests, and
    the doctests of the batch engine, the kernels and the agents.

    The tests session under ``CHICKENFOOT_BATCH_BACKENDS=numpy`` (CI) runs without numba;
    this one installs it, so CI passes through the package with numba and without. The
    kernels compile once, into this session's own cache directory (``NUMBA_CACHE_DIR``,
    under ``.nox/``: empty in a clean clone, so CI pays the first compile here).
    """
    session.install("-e", ".[fast,gym,data]", *TEST_DEPS)
    cache = Path(session.create_tmp()) / "numba-cache"
    session.run(
        "pytest", "-q", "-p", "no:cacheprovider", *FAST_TESTS,
        "--doctest-modules", "src/chickenfoot/batch", "src/chickenfoot/_jit",
        "src/chickenfoot/agents.py", "src/chickenfoot/_rollouts.py", "src/chickenfoot/ismcts.py",
        "src/chickenfoot/solve.py",
        *session.posargs,
        env={"CHICKENFOOT_BATCH_BACKENDS": "numpy,numba", "NUMBA_CACHE_DIR": str(cache)},
    )  # fmt: skip


@nox.session
def fuzz(session: nox.Session) -> None:
    """Hypothesis fuzzing of every loader, parser, entry point and the command line (not in
    CI; the suite runs a short fixed budget of the same targets).

    ``nox -s fuzz -- 600`` fuzzes for ten minutes (default: 60 seconds); further arguments
    go to ``bench/fuzz.py`` (e.g. ``-- 60 --target State.from_json``). The extras are
    installed so that the batch engine's, the adapters', the server's and the ladder's
    (its results files, beside policy files: ``tests/fuzz_files.py``) targets run too (the
    server's clients: Starlette's TestClient needs httpx2).
    """
    extras = "cli,batch,server,openspiel,pettingzoo,ladder"
    session.install(f".[{extras}]", *TEST_DEPS, *SERVER_TEST_DEPS)
    budget, *rest = session.posargs or ["60"]
    session.run("python", "bench/fuzz.py", "--seconds", budget, *rest)


@nox.session
def cluster(session: nox.Session) -> None:
    """``simulate`` on a real Dask cluster (two local worker processes) gives the serial numbers.

    The test lives outside the default test paths (``tests_cluster/``): Dask is an extra.
    """
    session.install("-e", ".[dask,ladder,data]", "pytest>=8")
    session.run("pytest", "tests_cluster", *session.posargs)


@nox.session
def smoke(session: nox.Session) -> None:
    """The README's main job from a built (non-editable) install: the wheel and the script.

    Without the ``cli`` extra: every command works in plain text without rich.
    """
    session.install(".")
    session.run("chickenfoot", "demo", "--seed", "1", silent=True)
    session.run("chickenfoot", "rules", "--preset", "classic", "--players", "7", silent=True)
    session.run("chickenfoot", "rules", "classic", silent=True)
    one_round = ["--players", "2", "--set", 'match={"rounds": 1}']
    session.run("chickenfoot", "simulate", "--games", "3", *one_round, "--json", silent=True)
    # play reads moves from standard input when it is not a terminal: quit at once
    session.run(
        "python",
        "-c",
        "import subprocess, sys; r = subprocess.run(['chickenfoot', 'play', '--round', "
        "'--players', '2', '--seed', '1'], input='1\\nquit\\n', text=True, "
        "capture_output=True); sys.exit(r.returncode or 'You left the game.' not in r.stdout)",
        silent=True,
    )
    # the engine protocol: the wheel serves an agent on stdio (docs: Engine protocol)
    session.run(
        "python",
        "-c",
        "import subprocess, sys; r = subprocess.run(['chickenfoot', 'engine', 'random'], "
        'input=\'{"type": "hello", "protocol": 1}\\n\', text=True, '
        "capture_output=True); sys.exit(r.returncode or '\"protocol\":1' not in r.stdout)",
        silent=True,
    )
    session.run("python", "-c", "import chickenfoot, sys; sys.exit(chickenfoot.__version__ == '')")


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check and ruff format --check."""
    session.install("ruff")
    paths = ["src", "tests", "tests_cluster", "tests_adapters", "examples", "bench", "tools"]
    session.run("ruff", "check", *paths, "noxfile.py")
    session.run("ruff", "format", "--check", *paths, "noxfile.py")


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy --strict on the package."""
    # numpy: encoding; gymnasium (the gym extra): chickenfoot.gym subclasses its classes
    session.install(".[cli,server,postgres,gym]", "mypy>=1.10", "attrs", "numpy>=1.24")
    session.run("mypy", "--strict", "src")


@nox.session
def bench(session: nox.Session) -> None:
    """Speed figures beside the shared reference engine, as medians and ratios."""
    session.install(".[fast]")  # numpy and numba: the batched engine's figures, both backends
    session.run("python", "bench/run.py", *session.posargs)
    session.run("python", "bench/notation.py")  # the notation: docs/notation.md


@nox.session
def strength(session: nox.Session) -> None:
    """One agent against copies of another on duplicate deals, with 95% intervals (not in
    CI): by default ``ismcts:50ms`` against three ``heuristic`` over 100 deals.

    ``nox -s strength -- versus ismcts:50ms heuristic --deals 2000 --workers 8`` for the
    Strength page's full run; ``nox -s strength -- speed`` for iterations a second.
    """
    session.install(".[fast,ladder]")
    session.run("python", "bench/strength.py", *(session.posargs or ["versus"]))


def _apt_tool(session: nox.Session, command: str, package: str, why: str) -> None:
    """``command`` on the PATH: installed with apt-get when missing and this runs as root
    (the package lists may be stale on a new machine: updated once), else an error."""
    import os
    import shutil

    if shutil.which(command) is None and shutil.which("apt-get") and os.geteuid() == 0:
        session.run("bash", "-c", f"apt-get install -y -q {package} || "
                    f"(apt-get update -q && apt-get install -y -q {package})", external=True)  # fmt: skip
    if shutil.which(command) is None:
        session.error(f"{command} is needed for {why} (Debian: apt-get install {package})")


@nox.session
def docs(session: nox.Session) -> None:
    """Build the documentation site (mkdocs-material + mkdocstrings), the Play page included:
    its hook installs Pyodide with npm (into ``build/play``, once) and downloads the wheels
    the page installs (micropip, packaging, attrs) with pip."""
    session.install(".", "-r", "docs/requirements.txt")  # what Read the Docs installs
    _apt_tool(session, "npm", "npm", "the Play page's Pyodide (npm package pyodide)")
    session.run("mkdocs", "build", "--strict", env={"NO_MKDOCS_2_WARNING": "1"})


@nox.session
def play_browser(session: nox.Session) -> None:
    """The docs site's Play page in Debian's Chromium (Playwright, never a browser
    download): the site built into ``build/play_site`` and served on the loopback with
    every other host unreachable and the headers of its ``_headers`` (the Play page's
    Content-Security-Policy: nothing may be refused), a whole round played by clicking at
    390 and 1280 px, no request leaving the loopback, axe-core (from npm, into
    ``build/axe``) on the Play page, its table and the rules page; screenshots in
    ``build/play_screens/`` (look at them). The same site in its five languages
    (``tests/test_docs_i18n_site.py``): ``<html lang>`` and the switcher on every page, the
    Greek home and Play pages in Chromium (the table in Greek, axe-core). Chromium and npm
    are installed with apt-get when missing and this runs as root. ``python
    bench/play_page.py`` measures the page (bytes, times) on the same site."""
    import os
    import shutil

    session.install(".", "-r", "docs/requirements.txt", *TEST_DEPS, "playwright>=1.40")
    browsers = ("chromium", "chromium-browser", "google-chrome")
    if not any(shutil.which(n) for n in browsers) and os.environ.get("CHROMIUM") is None:
        _apt_tool(session, "chromium", "chromium", "the Play page's browser test")
    _apt_tool(session, "npm", "npm", "Pyodide and axe-core")
    axe = Path("build/axe")
    session.run("npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(axe),
                "axe-core@4", external=True)  # fmt: skip
    site = Path("build/play_site")
    session.run("mkdocs", "build", "--strict", "--quiet", "-d", str(site),
                env={"NO_MKDOCS_2_WARNING": "1"})  # fmt: skip
    session.run("pytest", "-q", "-p", "no:cacheprovider", "tests/test_play_browser.py",
                "tests/test_play_review_browser.py", "tests/test_docs_i18n_site.py",
                "--no-header", *session.posargs,
                env={"AXE_JS": str(axe.resolve() / "node_modules/axe-core/axe.min.js"),
                     "PLAY_SITE": str(site.resolve())})  # fmt: skip


@nox.session
def rl(session: nox.Session) -> None:
    """sb3-contrib's MaskablePPO on ChickenFootEnv (examples/sb3_maskable.py), a small
    budget that must raise the win share against three random players (not in CI: torch).

    torch from the package index brings gigabytes of CUDA libraries: give pip a CPU
    wheel (``PIP_EXTRA_INDEX_URL=https://download.pytorch.org/whl/cpu``, or a local one).
    ``nox -s rl -- --timesteps 60000`` for a longer run.
    """
    session.install("-e", ".[gym,fast]", "torch==2.13.0", "sb3-contrib>=2.3")
    session.run("chickenfoot", "compile")
    session.run(
        "python", "examples/sb3_maskable.py", "--timesteps", "20000", "--chunk", "20000",
        "--episodes", "1000", "--min-gain", "0.06", "--out", str(Path(session.create_tmp()) / "sb3.json"),
        *session.posargs,
    )  # fmt: skip


@nox.session
def mutation(session: nox.Session) -> None:
    """mutmut on the core modules, with the score and the survivors (not in CI; hours).

    ``nox -s mutation -- tiles moves`` mutates only those modules; further options go to
    ``bench/mutation.py`` (``--max-children 1``, ``--no-confirm``). Configuration:
    ``[tool.mutmut]`` in ``pyproject.toml``; figures and survivors: ``bench/mutation.md``.
    """
    session.install(".", "mutmut>=3.8,<4", *TEST_DEPS)
    session.run("python", "bench/mutation.py", *session.posargs)


@nox.session
def pictures(session: nox.Session) -> None:
    """Draw the picture catalogue to SVG and PNG (headless Chromium) and check every picture.

    Writes ``build/pictures/*.svg`` and ``*.png`` (look at them); ``tools/pictures.py``
    holds the positions. Chromium is installed with apt-get when it is missing and this
    runs as root; elsewhere install it first (Debian: ``apt-get install chromium``) or set
    ``CHROMIUM`` to its path.
    """
    import os
    import shutil

    session.install("-e", ".", *TEST_DEPS)
    browsers = ("chromium", "chromium-browser", "google-chrome")
    missing = not any(shutil.which(n) for n in browsers) and os.environ.get("CHROMIUM") is None
    if missing and shutil.which("apt-get") and os.geteuid() == 0:
        session.run("apt-get", "install", "-y", "-q", "chromium", external=True)
    session.run("python", "tools/pictures.py", "--png", "--out", "build/pictures")
    session.run("pytest", "-q", "tests/test_picture.py", *session.posargs)


@nox.session
def serve_browser(session: nox.Session) -> None:
    """The table page of ``chickenfoot serve`` in a real browser: Playwright driving Debian's
    Chromium (never a browser download), two people playing whole rounds by tapping tiles
    and glowing places at 390, 768 and 1280 px under the pages' Content-Security-Policy
    (nothing refused), the round's end and a rematch, axe-core on
    every page (from npm, into ``build/axe``: no CDN), a restart the pages reconnect from;
    screenshots in ``build/serve_screens/`` (look at them). Chromium and npm are installed
    with apt-get when missing and this runs as root."""
    import os
    import shutil

    session.install("-e", ".[server]", *TEST_DEPS, *SERVER_TEST_DEPS, "playwright>=1.40")
    browsers = ("chromium", "chromium-browser", "google-chrome")
    missing = not any(shutil.which(n) for n in browsers) and os.environ.get("CHROMIUM") is None
    root = shutil.which("apt-get") and os.geteuid() == 0
    if missing and root:  # the package lists may be stale on a new machine: update once
        session.run("bash", "-c", "apt-get install -y -q chromium || "
                    "(apt-get update -q && apt-get install -y -q chromium)", external=True)  # fmt: skip
    if not any(shutil.which(n) for n in browsers) and os.environ.get("CHROMIUM") is None:
        session.error("Chromium is needed (Debian: apt-get install chromium) or set CHROMIUM")
    if shutil.which("npm") is None and root:
        session.run("bash", "-c", "apt-get install -y -q npm || "
                    "(apt-get update -q && apt-get install -y -q npm)", external=True)  # fmt: skip
    if shutil.which("npm") is None:
        session.error("npm is needed for axe-core (Debian: apt-get install npm)")
    axe = Path("build/axe")
    session.run("npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(axe),
                "axe-core@4", external=True)  # fmt: skip
    session.run("pytest", "-q", "-p", "no:cacheprovider", "tests/test_server_browser.py",
                "tests/test_ladder_browser.py", "tests/test_i18n_browser.py",
                "tests/test_server_records_browser.py", "tests/test_server_coach_browser.py",
                "-rs", "--no-header", *session.posargs,
                env={"AXE_JS": str(axe.resolve() / "node_modules/axe-core/axe.min.js")})  # fmt: skip


@nox.session
def serve_load(session: nox.Session) -> None:
    """The load benchmark of ``chickenfoot serve`` on the loopback (figures, not in CI):
    two-person and bot tables (1, 50, 200), 2,000 idle connections, two processes on one
    PostgreSQL (when the server takes it), a SIGKILL loop; moves/s, latency p50/p99, CPU ms
    per move and memory, beside the baseline (``--baseline``, 1667614) measured in the same
    run, and every announced move checked in the database. A few minutes by default; the
    full matrix: ``nox -s serve_load -- --tables 1,50,200,500 --seconds 30 --kill-loop 30
    --db postgres`` (bench/serve_load.py, docs: Performance)."""
    session.install("-e", ".[cli,server,postgres]", "websockets>=13")
    session.run("python", "bench/serve_load.py", *session.posargs)


@nox.session
def adapters(session: nox.Session) -> None:
    """The OpenSpiel game and the PettingZoo environment under those projects' own test suites.

    Installs the ``openspiel`` and ``pettingzoo`` extras; the tests live in
    ``tests_adapters/`` (outside the default test paths: the extras are optional).
    """
    # data: tests_adapters/test_dataset_openspiel.py replays an export's arrays through pyspiel
    session.install("-e", ".[openspiel,pettingzoo,data]", *TEST_DEPS)
    session.run("pytest", "-q", "tests_adapters", *session.posargs)


# -- translations (docs/contributors/translations.md): Babel here, never in the package --------


@nox.session(name="i18n_extract")
def i18n_extract(session: nox.Session) -> None:
    """The English sentences marked in the source into the templates
    ``src/chickenfoot/locale/chickenfoot.pot`` (the command line) and ``web.pot`` (the pages)."""
    session.install("babel>=2.12")
    session.run("python", "tools/i18n.py", "extract")


@nox.session(name="i18n_update")
def i18n_update(session: nox.Session) -> None:
    """Each language's ``.po`` brought up to the templates: new sentences empty (the catalogs'
    test lists them until they are translated), changed ones fuzzy."""
    session.install("babel>=2.12")
    session.run("python", "tools/i18n.py", "update")


@nox.session(name="i18n_compile")
def i18n_compile(session: nox.Session) -> None:
    """Each ``.po`` compiled: the ``.mo`` the command line reads with the standard library's
    gettext, and the JSON the pages load (``server/static/i18n/<lang>.json``). Committed
    with their sources, so a checkout and the wheel need no Babel."""
    session.install("babel>=2.12")
    session.run("python", "tools/i18n.py", "compile")


@nox.session
def build(session: nox.Session) -> None:
    """Build the sdist and wheel into ``dist/`` and check them as a user would get them.

    ``twine check --strict``; the workflow files against their schema; the wheel installed
    into a fresh virtual environment with no source tree around, running the smoke
    commands and the README's examples; and the sdist alone, unpacked: every file git tracks
    in its folders there, and ``nox -s tests`` passing on a quick part of the suite.
    """
    import glob
    import os
    import shutil
    import tarfile

    root = Path.cwd()
    session.install("build", "twine", "check-jsonschema", "nox")
    dist = root / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    session.run("python", "-m", "build", "--outdir", str(dist))
    files = sorted(glob.glob(str(dist / "*")))
    session.run("twine", "check", "--strict", *files)
    workflows = sorted(glob.glob(".github/workflows/*.yml"))
    session.run("check-jsonschema", "--builtin-schema", "vendor.github-workflows", *workflows)

    tmp = Path(session.create_tmp()).resolve()
    away = tmp / "away"  # a directory with no source tree in it
    shutil.rmtree(away, ignore_errors=True)
    away.mkdir()
    session.run("python", "-m", "venv", str(away / "venv"))
    bindir = away / "venv" / ("Scripts" if os.name == "nt" else "bin")
    python = str(bindir / "python")
    wheel = next(f for f in files if f.endswith(".whl"))
    session.run(python, "-m", "pip", "install", "--quiet", wheel, external=True)
    shutil.copy(root / "README.md", away / "README.md")
    with session.chdir(away):
        code = "import chickenfoot, sys; sys.exit('site-packages' not in chickenfoot.__file__)"
        session.run(python, "-c", code, external=True)
        script = str(bindir / "chickenfoot")
        session.run(script, "demo", "--seed", "1", external=True, silent=True)
        session.run(
            script, "rules", "--preset", "classic", "--players", "7", external=True, silent=True
        )
        session.run(python, "-m", "doctest", "-o", "ELLIPSIS", "README.md", external=True)

    sdist = next(f for f in files if f.endswith(".tar.gz"))
    unpacked = tmp / "sdist"
    shutil.rmtree(unpacked, ignore_errors=True)
    with tarfile.open(sdist) as tar:
        tar.extractall(unpacked, filter="data")
    (tree,) = unpacked.iterdir()
    # The sdist alone holds what its tests need: every file git tracks in the folders it
    # ships (checked by name, which says more than a second run of the whole suite, in a
    # second), and its test session runs from it with no checkout around, on a quick part
    # of the suite (the checkout's own `tests` run is the whole of it).
    shipped = ("src/", "tests/", "tests_cluster/", "tests_adapters/", "examples/", "docs/")
    listed = session.run("git", "ls-files", external=True, silent=True)
    tracked = [p for p in str(listed).splitlines() if p.startswith(shipped)]
    missing = [p for p in tracked if not (tree / p).is_file()]
    if not tracked or missing:
        session.error(f"the sdist lacks {len(missing)} tracked files: {missing[:10]}")
    quick = ["tests/test_golden.py", "tests/test_conformance.py", "tests/test_layers.py"]
    with session.chdir(tree):
        session.run(
            "python", "-m", "nox", "--non-interactive", "-s", "tests", "--",
            "--no-cov", "--hypothesis-profile=default", *quick, "README.md", "docs/tutorial.md",
            env={"CHICKENFOOT_BATCH_BACKENDS": "numpy"},
        )  # fmt: skip
