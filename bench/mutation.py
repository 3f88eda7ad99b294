"""Mutation testing of the core modules with mutmut 3 (issue 8; ``nox -s mutation``).

    nox -s mutation                          # every core module (hours)
    nox -s mutation -- tiles moves           # only these modules
    nox -s mutation -- _kernel state         # the kernel's three modules, and state
    nox -s mutation -- rules --max-children 1 --no-confirm
    python bench/mutation.py tiles           # the same, in an environment with mutmut

A module is named by its path under ``src/chickenfoot`` with dots: ``state``,
``_kernel.legal`` (``src/chickenfoot/_kernel/legal.py``); ``_kernel`` stands for the kernel's
three modules ``_kernel.position``, ``_kernel.legal`` and ``_kernel.transitions``. Mutant
names follow it (``chickenfoot._kernel.legal.x_generate__mutmut_3``).

The mutmut configuration is ``[tool.mutmut]`` in ``pyproject.toml``: the core modules to
mutate, the fast test selection run against each mutant, the Hypothesis profile of
``bench/mutation_plugin.py`` and the fork-server isolation described below. This script

1. copies ``src``, ``tests``, ``pyproject.toml``, ``bench``, ``tools``, ``README.md`` and ``docs`` into a
   work directory (default ``build/mutation``, ignored by git), so the run neither writes a
   ``mutants/`` tree into the checkout nor sees edits made while it runs;
2. runs ``mutmut run`` there on the mutants of the chosen modules (its log:
   ``WORK/mutmut.log``);
3. reruns every mutant that survived the fast selection, each in a fresh process, first
   against a few quick files that kill most of them (``--first``), then those still alive
   against the whole suite (``tests`` but the fuzz tests, ``README.md``, ``docs``, less the
   quick files they have passed; ``--no-confirm`` skips this step);
4. prints, per module, the mutants, killed, timeouts and survivors, writes every survivor's
   diff to ``WORK/survivors.md`` and prints the score: killed (timeouts included) over the
   mutants that are not listed as equivalent in ``bench/mutation.md``. The exit status is 1
   if the score is under ``--fail-under`` (default 95).

Import-time code. mutmut 3 swaps a function for its mutant at call time, through a
trampoline that reads the name of the active mutant. With its default ``fork`` isolation the
mutant processes are forked from a parent that has already imported the package and run the
tests, so code that runs at import (``tiles._BY_ID`` built by ``Tile._create``, the
``WITH`` and ``DOUBLE_ID`` tables, ``moves._DRAWS`` built by ``Draw._create``, ``deal._BIT``)
is never run under a mutant, and memo tables filled by the parent (the interned plays of
``moves._PLAY_ROWS``, the kernel's ``_GROUPS``/``_TOES``/``_UNION``) hide mutants of the code that
fills them. The configuration therefore uses ``process_isolation = "forkserver"`` with
``forkserver_warmup = "none"``: mutants are forked from a server that has imported pytest but
not chickenfoot, so each one imports the package afresh with the mutant already active.
Two consequences are handled here: mutmut attributes the calls made while the test modules
are imported to the first test only, so a mutant of a function called only at import is
first tried against that one test (step 3 gives it the whole suite); and a fresh import per
mutant needs bytecode caching, which ``PYTHONDONTWRITEBYTECODE`` would switch off (the
mutated modules are tens of thousands of lines), so it is removed from mutmut's environment.
``--continue-on-collection-errors`` makes a mutant that breaks the import a failed run
(exit 1, killed) rather than pytest's "interrupted" (exit 2, which mutmut does not count).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE = (
    "tiles",
    "moves",
    "rules",
    "_kernel.position",
    "_kernel.legal",
    "_kernel.transitions",
    "state",
    "deal",
    "playout",
)
# names on the command line that stand for several modules
GROUPS = {"_kernel": ("_kernel.position", "_kernel.legal", "_kernel.transitions")}
COPIED = ("src", "tests", "bench", "docs", "tools", "pyproject.toml", "README.md")
NOTES = ROOT / "bench" / "mutation.md"
# The fuzz tests are left out: they search rather than check fixed behaviour, and their
# bound of a second per call is not meant for trampolined code (when this was written they
# failed in the snapshot without any mutant, so every survivor would have looked killed).
FULL_SUITE = ("tests", "README.md", "docs", "--ignore=tests/test_fuzz.py")
# The files that kill most survivors of the fast selection, and quickly (about 17 s in all
# unmutated): each survivor is first run against them, and only those still alive against the
# whole suite (about 110 s unmutated, without these files, which they have passed already).
FIRST = (
    "tests/test_mutation_state.py",
    "tests/test_mutation_kernel.py",
    "tests/test_mutation_core.py",
    "tests/test_mutation_tiles_moves.py",
    "tests/test_messages.py",
    "tests/test_hardening.py",
    "tests/test_position_format.py",
    "tests/test_record.py",
    "tests/test_state_pickle.py",
    "tests/test_setup.py",
    "tests/test_golden.py",
)
PYTEST_ARGS = (
    "-p",
    "no:cacheprovider",
    "-p",
    "bench.mutation_plugin",
    "--hypothesis-profile=mutation",
)
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis")
# mutmut's exit codes (mutmut.stats.status_by_exit_code)
KILLED = {1, 3}
TIMEOUT = {36, -24, 24, 152, 255}
SURVIVED = {0}
NO_TESTS = {5, 33}


def snapshot(work: Path) -> None:
    """Copy the project into ``work``, keeping modification times (mutmut's cache key)."""
    work.mkdir(parents=True, exist_ok=True)
    for name in COPIED:
        src, dst = ROOT / name, work / name
        if dst.is_dir():
            shutil.rmtree(dst)
        if src.is_dir():
            shutil.copytree(src, dst, ignore=IGNORED)
        elif src.exists():
            shutil.copy2(src, dst)
    # tests/ is copied into mutants/ on every run: drop files deleted since the last one
    shutil.rmtree(work / "mutants" / "tests", ignore_errors=True)
    # the whole-suite rerun runs in mutants/ as mutmut does: give it the Markdown doctests,
    # and tools/ (tests/test_docs_pictures.py imports tools/pictures.py)
    (work / "mutants").mkdir(exist_ok=True)
    for name in ("README.md", "docs", "tools"):
        src, dst = work / name, work / "mutants" / name
        if dst.is_dir():
            shutil.rmtree(dst)
        if src.is_dir():
            shutil.copytree(src, dst)
        elif src.exists():
            shutil.copy2(src, dst)


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.pop("MUTANT_UNDER_TEST", None)
    env.update(extra)
    return env


def mutmut_exe() -> str:
    exe = Path(sys.executable).with_name("mutmut")
    return str(exe) if exe.exists() else "mutmut"


def run_mutmut(work: Path, modules: list[str], max_children: int) -> None:
    names = [f"chickenfoot.{m}.*" for m in modules]
    cmd = [mutmut_exe(), "run", "--max-children", str(max_children), *names]
    log = work / "mutmut.log"
    print(f"$ (cd {work} && {' '.join(cmd)})  > {log}", flush=True)
    start = time.monotonic()
    with log.open("w") as out:
        rc = subprocess.call(cmd, cwd=work, env=clean_env(), stdout=out, stderr=subprocess.STDOUT)
    print(f"mutmut finished in {time.monotonic() - start:.0f} s (exit {rc})", flush=True)
    if rc != 0:
        tail = log.read_text(errors="replace").replace("\r", "\n").splitlines()[-30:]
        print("\n".join(tail))
        raise SystemExit(f"mutmut run failed (exit {rc}); see {log}")


def results(work: Path, module: str) -> dict[str, int | None]:
    meta = work / "mutants" / "src" / "chickenfoot" / f"{module.replace('.', '/')}.py.meta"
    data = json.loads(meta.read_text())
    codes: dict[str, int | None] = data["exit_code_by_key"]
    return codes


def full_suite_run(work: Path, mutant: str, suite: list[str], timeout: float) -> tuple[str, str]:
    """Run the whole suite against ``mutant`` in a fresh process: (verdict, detail)."""
    mutants = work / "mutants"
    env = clean_env(
        MUTANT_UNDER_TEST=mutant,
        PYTHONPATH=os.pathsep.join([str(mutants / "src"), str(mutants)]),
        PY_IGNORE_IMPORTMISMATCH="1",
    )
    cmd = [sys.executable, "-m", "pytest", "-x", "-q", "-rf", "--tb=no", *PYTEST_ARGS]
    cmd += ["--continue-on-collection-errors", *suite]
    try:
        proc = subprocess.run(
            cmd, check=False, cwd=mutants, env=env, capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return "timeout", f"over {timeout:.0f} s"
    failed = re.findall(r"^(?:FAILED|ERROR) (\S+)", proc.stdout, re.MULTILINE)
    if proc.returncode == 0:
        return "survived", ""
    if proc.returncode == 1:
        return "killed", failed[0] if failed else ""
    return "error", f"pytest exit {proc.returncode}: {proc.stdout.strip()[-300:]}"


def confirm(
    work: Path, survivors: list[str], suite: list[str], first: list[str], jobs: int
) -> dict[str, tuple[str, str]]:
    """Rerun the survivors of the fast selection against ``first``, then the whole suite."""
    if not survivors:
        return {}
    verdicts: dict[str, tuple[str, str]] = {}
    alive = survivors
    if first:
        verdicts = run_each(work, alive, first, jobs, "the quick files first")
        alive = [m for m in alive if verdicts[m][0] == "survived"]
        # the whole suite without the files the survivors have just passed
        suite = [*suite, *(f"--ignore={f}" for f in first if (work / "mutants" / f).is_file())]
    verdicts.update(run_each(work, alive, suite, jobs, "the whole suite"))
    return verdicts


def run_each(
    work: Path, mutants: list[str], suite: list[str], jobs: int, what: str
) -> dict[str, tuple[str, str]]:
    """Run ``suite`` against each of ``mutants``, ``jobs`` at a time, after a run without."""
    if not mutants:
        return {}
    start = time.monotonic()
    verdict, detail = full_suite_run(work, "", suite, timeout=3600)
    baseline = time.monotonic() - start
    if verdict != "survived":
        print(f"{what} fails without a mutant ({detail}); survivors not rerun.")
        return {m: ("not rerun", "") for m in mutants}
    timeout = 3 * baseline + 60
    print(
        f"Rerunning {len(mutants)} survivors against {what} "
        f"({baseline:.0f} s unmutated, timeout {timeout:.0f} s, {jobs} at a time)",
        flush=True,
    )
    start = time.monotonic()
    with ThreadPoolExecutor(jobs) as pool:
        found = dict(
            zip(
                mutants,
                pool.map(lambda m: full_suite_run(work, m, suite, timeout), mutants),
                strict=True,
            )
        )
    killed = sum(v in ("killed", "timeout") for v, _ in found.values())
    print(f"  {killed} of {len(mutants)} killed in {time.monotonic() - start:.0f} s", flush=True)
    return found


def equivalents() -> dict[str, str]:
    """The mutants listed as equivalent in the notes: ``- `NAME` equivalent: why``."""
    if not NOTES.exists():
        return {}
    pattern = re.compile(r"`(chickenfoot\.\S+__mutmut_\d+)`\s*[:\-\u2014]*\s*equivalent[:\s]*(.*)")
    return {m[1]: m[2].strip() for m in pattern.finditer(NOTES.read_text())}


def diff(work: Path, mutant: str) -> str:
    proc = subprocess.run(
        [mutmut_exe(), "show", mutant],
        check=False,
        cwd=work,
        env=clean_env(),
        capture_output=True,
        text=True,
    )
    lines = proc.stdout.splitlines()
    return "\n".join(line for line in lines if line.startswith(("-", "+", "@")))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "modules",
        nargs="*",
        metavar="MODULE",
        help=f"of {', '.join(CORE)}; {', '.join(GROUPS)} for {', '.join(map(' '.join, GROUPS.values()))}",
    )
    parser.add_argument("--max-children", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "mutation")
    parser.add_argument("--no-confirm", action="store_true", help="skip the whole-suite rerun")
    parser.add_argument(
        "--report-only",
        action="store_true",
        help="no mutmut run: rerun the last run's survivors against the current tests",
    )
    parser.add_argument("--fail-under", type=float, default=95.0)
    parser.add_argument(
        "--suite",
        action="append",
        metavar="ARG",
        help=f"pytest argument for the whole-suite rerun, repeatable (default: {' '.join(FULL_SUITE)})",
    )
    parser.add_argument(
        "--first",
        action="append",
        metavar="ARG",
        help="pytest argument run against the survivors before the whole suite, repeatable "
        f"(default: the quick files {', '.join(Path(f).name for f in FIRST)}; "
        "--first= for none)",
    )
    args = parser.parse_args(argv)
    chosen = {n for m in args.modules for n in GROUPS.get(m, (m,))}
    if unknown := sorted(chosen - set(CORE)):
        choices = ", ".join((*CORE, *GROUPS))
        parser.error(f"not a core module: {', '.join(unknown)} (choose from {choices})")
    modules = [m for m in CORE if m in chosen] or list(CORE)
    work: Path = args.work.resolve()

    if not args.report_only:
        snapshot(work)
        run_mutmut(work, modules, args.max_children)
    else:  # the last run's mutants, against the current tests
        shutil.rmtree(work / "mutants" / "tests", ignore_errors=True)
        shutil.copytree(ROOT / "tests", work / "mutants" / "tests", ignore=IGNORED)

    by_module = {m: results(work, m) for m in modules}
    fast_survivors = [
        key
        for codes in by_module.values()
        for key, code in codes.items()
        if code in SURVIVED or code in NO_TESTS
    ]
    suite = args.suite or list(FULL_SUITE)
    first = [f for f in (args.first if args.first is not None else FIRST) if f]
    rerun = (
        {} if args.no_confirm else confirm(work, fast_survivors, suite, first, args.max_children)
    )
    listed = equivalents()

    header = ("module", "mutants", "killed", "timeout", "survived", "no tests", "+suite", "left")
    header += ("equiv",)
    print("\n" + "".join(f"{h:>10}" for h in header))
    totals: Counter[str] = Counter()
    left: list[str] = []
    for module, codes in by_module.items():
        row: Counter[str] = Counter(mutants=len(codes))
        for key, code in codes.items():
            if code in KILLED:
                row["killed"] += 1
            elif code in TIMEOUT:
                row["timeout"] += 1
            elif code in SURVIVED or code in NO_TESTS:
                row["survived" if code in SURVIVED else "no tests"] += 1
                verdict = rerun.get(key, ("survived", ""))[0]
                if verdict in ("killed", "timeout"):
                    row["+suite"] += 1
                else:
                    row["left"] += 1
                    left.append(key)
                    row["equiv"] += key in listed
            else:
                row["other"] += 1
                left.append(key)
        totals.update(row)
        cells = [row[h] for h in header[1:]]
        print(f"{module:>10}" + "".join(f"{c:>10}" for c in cells), flush=True)
        if row["other"]:
            others = Counter(
                c for k, c in codes.items() if k in left and c not in SURVIVED | NO_TESTS
            )
            print(f"{'':>10}  not run or not classified (mutmut exit codes): {dict(others)}")
    print(f"{'total':>10}" + "".join(f"{totals[h]:>10}" for h in header[1:]))

    killed = totals["killed"] + totals["timeout"] + totals["+suite"]
    counted = totals["mutants"] - totals["equiv"]
    score = 100.0 * killed / counted if counted else 100.0
    print(
        f"\nMutation score: {killed} of {counted} non-equivalent mutants killed = {score:.1f}% "
        f"({totals['equiv']} survivors listed as equivalent in bench/mutation.md; "
        f"raw {100.0 * killed / max(totals['mutants'], 1):.1f}% of {totals['mutants']})"
    )

    report = work / "survivors.md"
    with report.open("w") as out:
        out.write("# Mutants not killed\n\n")
        for key in left:
            verdict, detail = rerun.get(key, ("not rerun", ""))
            note = listed.get(key)
            status = f"equivalent: {note}" if note is not None else "NOT JUDGED"
            out.write(f"## `{key}`\n\n{status} (whole suite: {verdict} {detail})\n\n")
            out.write(f"```diff\n{diff(work, key)}\n```\n\n")
    print(f"\nSurvivors ({len(left)}), their diffs in {report}:")
    for key in left:
        print(f"  {key}: {'equivalent' if key in listed else 'NOT JUDGED'}")
    for key, (verdict, detail) in rerun.items():
        if verdict != "survived":
            print(f"  (fast selection missed {key}; whole suite: {verdict} {detail})")
    return 0 if score >= args.fail_under else 1


if __name__ == "__main__":
    sys.exit(main())
