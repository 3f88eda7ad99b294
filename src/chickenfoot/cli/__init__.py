"""The ``chickenfoot`` command line.

Commands (``chickenfoot COMMAND --help`` for each; docs: Command line):

- ``play``: a person against built-in bots, a whole match or one round, in the terminal;
- ``simulate``: seeded matches among built-in agents, with a results table (or JSON);
- ``ladder``: agents rated on duplicate deals, with intervals (docs: Strength);
- ``show``, ``moves``, ``apply``, ``perft``, ``replay``, ``validate``: work on documents
  (positions, records, matches, views; ``-`` reads standard input);
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

import argparse
import contextlib
import os
import sys
from typing import TextIO

from chickenfoot import __version__
from chickenfoot.cli._common import (
    EXIT_FAILURE,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    PROG,
    Formatter,
    Parser,
    UsageError,
    rules_from_args,
    rules_options,
)
from chickenfoot.cli._streams import Output, OutputError, discard, write_error
from chickenfoot.cli.demo import demo_lines, play_demo
from chickenfoot.errors import ChickenFootError, brief
from chickenfoot.rules import PRESETS
from chickenfoot.specs import EXPECTED

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

AGENT_KINDS = EXPECTED.removeprefix("expected one of ")
"""Every kind of agent a spec may name, as the unknown-agent refusal lists them: the help of
each option that takes agents says the same (docs/cli.md)."""


def _examples(*lines: str) -> str:
    return "examples:\n" + "\n".join(f"  {line}" for line in lines)


def _build_parser() -> Parser:
    from chickenfoot.cli import dataset, ladder, serve

    parser = Parser(
        prog=PROG,
        description="The rules of the domino game Chicken Foot: play, simulate, inspect.",
        epilog=_examples(
            "chickenfoot play --players 3 --bots heuristic",
            "chickenfoot simulate --agents heuristic,greedy,random,random --games 200",
            "chickenfoot show game.json",
        )
        + "\n\nRun 'chickenfoot COMMAND --help' for the options of a command.",
        formatter_class=Formatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands.required = True

    def command(name: str, help: str, description: str, *examples: str) -> Parser:
        p: Parser = commands.add_parser(
            name,
            help=help,
            description=description,
            epilog=_examples(*examples),
            formatter_class=Formatter,
        )
        return p

    def file_argument(p: argparse.ArgumentParser, what: str) -> None:
        p.add_argument("file", metavar="FILE", help=f"{what} ('-' reads standard input)")

    # -- play --
    play = command(
        "play",
        "play against built-in bots in the terminal",
        "Play Chicken Foot against built-in bots: a whole match (the rules' match length: "
        "10 rounds with the house rules) or, with --round, one round. The table is drawn "
        "before each of your decisions, with your legal moves numbered; choose one by "
        "number or notation. At the prompt: help, moves, table, undo, save FILE, quit.",
        "chickenfoot play                           # 4 players, house rules, 3 heuristic bots",
        "chickenfoot play --players 2 --bots search --seed 7",
        "chickenfoot play --round --players 3 --bots greedy,random",
        "chickenfoot play game.json                 # resume a saved game",
        "chickenfoot play --bots mybot:Bot          # against your own agent (mybot.py)",
    )
    play.add_argument(
        "file",
        nargs="?",
        metavar="FILE",
        help="a saved game to resume (a save of play, or a match, record or position)",
    )
    play.add_argument("--resume", metavar="FILE", help="the same as giving FILE")
    length = play.add_mutually_exclusive_group()
    length.add_argument("--match", action="store_true", help="play a whole match (the default)")
    length.add_argument(
        "--round",
        nargs="?",
        const=0,
        type=int,
        metavar="K",
        help="play one round only: round K of a match (default 0, the highest double)",
    )
    rules_options(play, defaults=False)
    play.add_argument(
        "--seed", type=int, metavar="S", help="seed of the deals and the bots (default: random)"
    )
    play.add_argument(
        "--bots",
        metavar="NAMES",
        help=f"the bots, in seat order after yours: {AGENT_KINDS}; comma-separated, "
        "or one name for all (default: heuristic, or the saved game's)",
    )
    play.add_argument(
        "--trust-bots",
        action="store_true",
        help="run the engine:COMMAND and module:Class bots that the saved game FILE names "
        "(without it, a file can name built-in bots only: the others play heuristic)",
    )
    play.add_argument(
        "--seat",
        type=int,
        metavar="N",
        help="your seat, from 0 (default: 0, or the saved game's)",
    )
    play.add_argument(
        "--watch",
        action=argparse.BooleanOptionalAction,
        help="draw the table after every move, the bots' included (default: before each of "
        "your decisions, or as the saved game says)",
    )

    # -- simulate --
    sim = command(
        "simulate",
        "play seeded matches among built-in agents and summarize them",
        "Play whole matches (--games of them) among built-in agents, seats rotating from game "
        "to game, "
        "and print each agent's mean score and win rate with 95% intervals. The numbers "
        "depend only on the rules, the agents, --games and --seed (not on --workers).",
        "chickenfoot simulate --games 500 --workers 2",
        "chickenfoot simulate --agents search:16,heuristic --players 2 --games 50",
        "chickenfoot simulate --set 'match={\"rounds\": 1}' --json",
    )
    sim.add_argument(
        "--agents",
        metavar="NAMES",
        help=f"one agent per seat, comma-separated ({AGENT_KINDS}), or one name for all "
        "(default: heuristic,greedy, then random)",
    )
    sim.add_argument(
        "--games", type=int, default=100, metavar="N", help="matches to play (default: 100)"
    )
    sim.add_argument("--seed", type=int, default=1, metavar="S", help="seed (default: 1)")
    sim.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="processes to play on (default: 1, this process)",
    )
    sim.add_argument("--json", action="store_true", help="print the result as JSON")
    rules_options(sim, defaults=False)

    # -- engine --
    engine = command(
        "engine",
        "serve an agent as an engine on standard input and output",
        "Serve AGENT as an engine: read the engine protocol's JSON lines on standard input "
        "and answer on standard output, until quit or the end of the input (docs: Engine "
        "protocol). Any program can then play it, as this library plays programs with "
        "engine:COMMAND.",
        "chickenfoot engine heuristic",
        "chickenfoot simulate --agents 'engine:chickenfoot engine search:8',heuristic",
        "chickenfoot engine mybot:Bot               # your agent class (mybot.py)",
    )
    engine.add_argument(
        "agent",
        metavar="AGENT",
        help=f"the agent: {AGENT_KINDS}",
    )
    engine.add_argument("--name", metavar="NAME", help="the name in its hello (default: AGENT)")
    serve.add_options(command("serve", "tables in the browser", serve.DESCRIPTION, *serve.EXAMPLES))
    ladder.add_options(
        command("ladder", "rate agents on duplicate deals", ladder.DESCRIPTION, *ladder.EXAMPLES)
    )
    dataset.add_options(
        command(
            "dataset", "build and check data sets of rounds", dataset.DESCRIPTION, *dataset.EXAMPLES
        )
    )

    # -- documents --
    show = command(
        "show",
        "draw a position, record, match or view",
        "Draw the table of a document: a position (every hand), a record (its final "
        "position), a match (the score sheet and the round in play) or a view (what its "
        "seat sees).",
        "chickenfoot show game.json",
        "chickenfoot apply pos.json 9-4@9-9 | chickenfoot show -",
        "chickenfoot show pos.json --svg table.svg",
    )
    file_argument(show, "the document")
    show.add_argument(
        "--long",
        action="store_true",
        help="the detailed ASCII picture (every line with its anchor), not the compact one",
    )
    show.add_argument(
        "--svg", metavar="OUT", help="write an SVG picture to OUT instead ('-': stdout)"
    )
    show.add_argument(
        "--hands",
        default="all",
        metavar="WHICH",
        help="with --svg: the hands drawn below the table: none, all or a seat number "
        "(default: all; a view shows only its own tiles face up)",
    )
    show.add_argument(
        "--seat",
        type=int,
        metavar="N",
        help="with --svg: draw a position as seat N sees it (the other hands face down)",
    )
    show.add_argument("--size", type=int, metavar="PX", help="with --svg: the width in pixels")

    moves = command(
        "moves",
        "list the legal moves of a position",
        "Print the legal moves of a position (or a record's final position, a match's "
        "round, a view's seat), one per line in notation and in the library's order; "
        "nothing when the round is over.",
        "chickenfoot moves pos.json",
    )
    file_argument(moves, "a position, record, match or view")

    apply = command(
        "apply",
        "play moves on a position and print the result",
        "Play MOVEs one after another and print the resulting position document (a match "
        "document for a match), or its picture with --text.",
        "chickenfoot apply pos.json 9-4@9-9 draw",
        "chickenfoot apply pos.json 9-4@9-9 --text",
    )
    file_argument(apply, "a position, record or match")
    apply.add_argument("moves", nargs="+", metavar="MOVE", help="moves in notation")
    apply.add_argument("--text", action="store_true", help="print the picture, not JSON")

    perft = command(
        "perft",
        "count the leaves of the move tree",
        "Count the positions reached after exactly D moves (perft; draw takes the front "
        "tile), for comparing move generators.",
        "chickenfoot perft pos.json --depth 3",
        "chickenfoot perft pos.json --depth 2 --divide",
    )
    file_argument(perft, "a position, record or match")
    perft.add_argument("--depth", type=int, default=1, metavar="D", help="depth (default: 1)")
    perft.add_argument("--divide", action="store_true", help="one count per legal move")

    replay = command(
        "replay",
        "step through a record",
        "Show a record's start, then each move and the table after it; on a terminal, "
        "Enter steps to the next move and q quits. With --final, only the final table.",
        "chickenfoot replay round.json",
        "chickenfoot replay round.json --final",
    )
    file_argument(replay, "a record")
    replay.add_argument("--final", action="store_true", help="print only the final table")

    validate = command(
        "validate",
        "check any chickenfoot document",
        "Read and check a document (position, record, match, view, or a rules object) or a "
        "notation file (every game, every move) and say what it is; an invalid one gives "
        "the path (or line and column) of the bad part and exit status 2.",
        "chickenfoot validate game.json",
    )
    file_argument(validate, "the document, or a notation file")

    convert = command(
        "convert",
        "convert a record or match between JSON and the notation",
        "Convert a JSON record or match document to the notation (docs/notation.md) for an "
        "audience, a full notation file to another audience's copy, or a full notation file "
        "of one round or one match back to its JSON document.",
        "chickenfoot convert round.json round.cfn --to notation",
        "chickenfoot convert round.json - --to notation --audience seat:2",
        "chickenfoot convert round.cfn round.json --to json",
    )
    convert.add_argument("input", metavar="IN", help="a JSON record or match, or a notation file")
    convert.add_argument("output", metavar="OUT", help="where to write ('-': standard output)")
    convert.add_argument(
        "--to", choices=("notation", "json"), required=True, help="the form to write"
    )
    convert.add_argument(
        "--audience",
        default="full",
        metavar="WHO",
        help="with --to notation: full, spectator or seat:K (default: full)",
    )

    # -- rules and demo --
    rules = command(
        "rules",
        "list the presets, or print the rules JSON of one",
        "Without arguments, list the presets. With a preset (or any option), print its "
        "rules configuration as JSON.",
        "chickenfoot rules",
        "chickenfoot rules classic --players 7",
        "chickenfoot rules --set double_blank=25 --compact",
    )
    rules.add_argument("name", nargs="?", metavar="PRESET", help=f"one of {', '.join(PRESETS)}")
    rules_options(rules, defaults=False)
    rules.add_argument("--compact", action="store_true", help="print on one line")

    demo = command(
        "demo",
        "play one seeded round among random players",
        "Play one seeded round among random players and print every move, the table at the "
        "end, the outcome and the penalties. The same options always print the same game.",
        "chickenfoot demo --seed 3 --players 3",
        "chickenfoot demo --round 4",
    )
    demo.add_argument(
        "--seed",
        type=int,
        default=1,
        metavar="S",
        help="seed of the deal and of the players' choices (default: 1)",
    )
    demo.add_argument(
        "--round",
        type=int,
        default=0,
        metavar="K",
        help="round of the match to deal, 0-based: its centre is N-K (default: 0)",
    )
    rules_options(demo)

    # -- compile --
    command(
        "compile",
        "compile the numba kernels ahead (once per machine)",
        "Compile every numba kernel (the batch engine, the Gymnasium environments' "
        "opponents, the search agent) now, with progress, and cache them on disk, so that "
        "no later program pauses for the first compile. Needs the fast extra.",
        "chickenfoot compile",
    )
    return parser


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
    from chickenfoot.cli import compile as compile_
    from chickenfoot.cli import dataset, demo, engine, files, ladder, play, records, serve, sim

    try:
        args = _build_parser().parse_args(argv)
        command = {
            "demo": demo.cmd_demo,
            "rules": demo.cmd_rules,
            "play": play.cmd_play,
            "simulate": sim.cmd_simulate,
            "ladder": ladder.cmd_ladder,
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
