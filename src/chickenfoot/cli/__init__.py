"""The ``chickenfoot`` command line.

Commands (``chickenfoot COMMAND --help`` for each; docs: Command line):

- ``play``: a person against built-in bots, a whole match or one round, in the terminal;
- ``simulate``: seeded matches among built-in agents, with a results table (or JSON);
- ``ladder``: agents rated on duplicate deals, with intervals (docs: Strength);
- ``puzzles``: puzzles cut from seeded rounds, proven by the exact solver (docs: Puzzles);
- ``show``, ``moves``, ``apply``, ``perft``, ``replay``, ``validate``: work on documents
  (positions, records, matches, views; ``-`` reads standard input);
- ``verify``: rebuild every deal of a notation file from its seed and check its commitment;
- ``rules``: the presets, or the rules JSON of one;
- ``engine``: serve an agent as an engine on standard input and output (docs: Engine
  protocol);
- ``serve``: tables in the browser for people and bots (the ``server`` extra; docs: Serve);
- ``demo``: one seeded round among random players, every move printed;
- ``compile``: compile every numba kernel ahead, with progress (the ``fast`` extra).

Bad input (an unknown preset, an impossible rules configuration, a malformed option, a
bad document) prints one line, ``chickenfoot: error: ...``, on stderr and returns 2; never
a traceback. Standard output that cannot be written (closed, full, a pipe closed by its
reader) returns 1, with one line on stderr (none for a broken pipe). The ``rich`` package
(``pip install "chickenfoot[cli]"``) adds a progress bar and coloured tables; everything
works in plain text without it.

>>> main(["rules", "--players", "1"])  # prints the error line on stderr
2
"""

from __future__ import annotations

import contextlib
import os
import sys
from typing import TextIO

from chickenfoot.cli._common import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    PROG,
    UsageError,
    rules_from_args,
)
from chickenfoot.cli._parser import build_parser
from chickenfoot.cli._streams import Output, OutputError, discard, write_error
from chickenfoot.cli.demo import demo_lines, play_demo
from chickenfoot.errors import ChickenFootError, brief

__all__ = [
    "EXIT_FAILURE",
    "EXIT_OK",
    "EXIT_USAGE",
    "UsageError",
    "demo_lines",
    "main",
    "play_demo",
    "rules_from_args",
]


def main(argv: list[str] | None = None) -> int:
    """Run the command line with ``argv`` (default: ``sys.argv[1:]``); return the exit status.

    ``main`` owns the standard streams: every command writes through an
    :class:`~chickenfoot.cli._streams.Output`, flushed here before returning, so a failure
    to write standard output (closed, full, a pipe closed by its reader) ends the command
    with :data:`EXIT_FAILURE`: silently for a broken pipe, else with one line on stderr.
    After such a failure the descriptor of standard output is pointed at ``os.devnull``,
    so that nothing fails again at interpreter exit.

    >>> main(["rules", "four-toe", "--players", "3", "--compact"])
    {"players": 3, "max_pip": 9, "hand_size": 14, "opening_toes": 4, "foot_toes": 3, "double_blank": 50, "centre": "set_aside", "draw": "one", "drawn_tile": "must_play", "may_draw_instead": false, "match": {"rounds": 10}, "tie_break": "shared", "first_leader": 0}
    0
    """
    with contextlib.ExitStack() as stack:
        if sys.stderr is None:  # ``2>&-``: input() needs a stderr; what goes there is lost
            devnull = stack.enter_context(open(os.devnull, "w", encoding="utf-8"))
            stack.enter_context(contextlib.redirect_stderr(devnull))
        return _main(argv)


def _main(argv: list[str] | None) -> int:
    stdout = sys.stdout
    if stdout is None:  # ``>&-``: Python has no sys.stdout at all
        _error("cannot write standard output: it is closed")
        return EXIT_FAILURE
    out = Output(stdout).as_text_io()
    try:
        with contextlib.redirect_stdout(out):  # what argparse prints (--help) goes through it too
            status = _run(argv, out)
        out.flush()  # the last buffered write fails here, not at interpreter exit
    except OutputError as err:
        if not err.broken:  # e.g. ``chickenfoot demo | head``: stop quietly, as Unix tools do
            _error(str(err))
        discard(stdout)
        return EXIT_FAILURE
    return status


def _run(argv: list[str] | None, out: TextIO) -> int:
    """Parse ``argv`` and run the command; every error but :class:`OutputError` is mapped to
    its exit status here."""
    from chickenfoot.cli import analyse as analyse_cli
    from chickenfoot.cli import compile as compile_
    from chickenfoot.cli import (
        dataset,
        demo,
        engine,
        files,
        ladder,
        play,
        puzzles,
        records,
        serve,
        sim,
        verify,
    )

    try:
        args = build_parser().parse_args(argv)
        command = {
            "demo": demo.cmd_demo,
            "rules": demo.cmd_rules,
            "play": play.cmd_play,
            "simulate": sim.cmd_simulate,
            "ladder": ladder.cmd_ladder,
            "puzzles": puzzles.cmd_puzzles,
            "dataset": dataset.cmd_dataset,
            "engine": engine.cmd_engine,
            "serve": serve.cmd_serve,
            "show": files.cmd_show,
            "moves": files.cmd_moves,
            "apply": files.cmd_apply,
            "perft": files.cmd_perft,
            "replay": files.cmd_replay,
            "validate": files.cmd_validate,
            "convert": records.cmd_convert,
            "verify": verify.cmd_verify,
            "analyse": analyse_cli.cmd_analyse,
            "compile": compile_.cmd_compile,
        }[args.command]
        return command(args, out)
    except (UsageError, ChickenFootError) as err:
        _error(str(err))
        return EXIT_USAGE
    except SystemExit as exit:  # --help and --version print, then exit through here
        return exit.code if isinstance(exit.code, int) else EXIT_OK
    except KeyboardInterrupt:
        write_error(f"\n{PROG}: interrupted")
        return EXIT_INTERRUPTED
    except OSError as err:  # the system refused something (not standard output: OutputError)
        _error(f"{err.strerror or type(err).__name__}")
        return EXIT_FAILURE
    except (RecursionError, MemoryError, OverflowError, ValueError, TypeError) as err:
        # Never a traceback: an input too big or too deep for Python itself.
        _error(f"{type(err).__name__}: {brief(str(err), 200)}")
        return EXIT_USAGE


def _error(message: str) -> None:
    line = " ".join(message.split())  # one line, whatever the message holds
    if len(line) > 400:  # e.g. argparse quoting a 5,000-digit number in full
        line = f"{line[:400]}... ({len(line):,} characters)"
    write_error(f"{PROG}: error: {line}")
