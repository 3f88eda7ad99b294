"""The ``chickenfoot`` command line's parser: every command, its help and its options.

The contract (for :mod:`chickenfoot.cli`, and the doctests of its modules): :func:`build_parser`
returns a fresh :class:`~chickenfoot.cli._common.Parser` whose parsed arguments name the
command in ``command``; a command's options are added here or by its own module's
``add_options``/``add_command``, so the parser imports no command's heavy dependencies.

>>> build_parser().parse_args(["rules", "house"]).command
'rules'
"""

from __future__ import annotations

import argparse

from chickenfoot import __version__
from chickenfoot.cli._common import PROG, Formatter, Parser, rules_options
from chickenfoot.rules import PRESETS
from chickenfoot.specs import EXPECTED

__all__ = ["AGENT_KINDS", "build_parser"]

AGENT_KINDS = EXPECTED.removeprefix("expected one of ")
"""Every kind of agent a spec may name, as the unknown-agent refusal lists them: the help of
each option that takes agents says the same (docs/cli.md)."""


def _examples(*lines: str) -> str:
    return "examples:\n" + "\n".join(f"  {line}" for line in lines)


def build_parser() -> Parser:
    """The command line's parser, every command with its options."""
    from chickenfoot.cli import dataset, ladder, puzzles, serve

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

    from chickenfoot.cli import analyse as analyse_cli

    def command(name: str, help: str, description: str, *examples: str) -> Parser:
        p: Parser = commands.add_parser(
            name,
            help=help,
            description=description,
            epilog=_examples(*examples),
            formatter_class=Formatter,
        )
        return p

    def lang_option(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--lang",
            metavar="LANG",
            help="the language to speak: en, el, hr, ro or lv (default: LC_ALL, "
            "LC_MESSAGES or LANG; English for any other)",
        )

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
        "chickenfoot play --bots level:novice       # a level: 1 (beginner) to 5 (expert)",
        "chickenfoot play game.json                 # resume a saved game",
        "chickenfoot play --record games.cfn        # keep the match in the notation",
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
    analyse_cli.add_play_options(play)  # --hints, --review
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
    lang_option(play)
    play.add_argument(
        "--watch",
        action=argparse.BooleanOptionalAction,
        help="draw the table after every move, the bots' included (default: before each of "
        "your decisions, or as the saved game says)",
    )
    play.add_argument(
        "--record",
        metavar="FILE",
        help="keep the game in FILE in the notation (docs: Notation), written after every "
        "round and when you leave",
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
        "chickenfoot simulate --games 20 --records games.cfn",
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
    sim.add_argument(
        "--records",
        metavar="FILE",
        help="write every game to FILE in the notation (docs: Notation), in game order",
    )
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
    puzzles.add_options(
        command("puzzles", "cut puzzles from rounds", puzzles.DESCRIPTION, *puzzles.EXAMPLES)
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
        "Enter steps to the next move, b steps back and q quits. With --final, only the "
        "final table. A notation file is shown as its audience saw it (full, a seat's "
        "copy, or the spectator's).",
        "chickenfoot replay round.json",
        "chickenfoot replay round.json --final",
        "chickenfoot replay games.cfn --game 3      # the fourth round of a notation file",
    )
    file_argument(replay, "a record, a save of play, or a notation file")
    replay.add_argument("--final", action="store_true", help="print only the final table")
    replay.add_argument(
        "--game", type=int, default=0, metavar="N",
        help="in a notation file: the round to show, from 0 (default: 0)",
    )  # fmt: skip

    validate = command(
        "validate",
        "check any chickenfoot document",
        "Read and check a document (position, record, match, view, or a rules object) or a "
        "notation file (every game, every move) and say what it is; an invalid one gives "
        "the path (or line and column) of the bad part and exit status 2.",
        "chickenfoot validate game.json",
    )
    file_argument(validate, "the document, or a notation file")

    verify = command(
        "verify",
        "check every deal of a notation file against its seed and commitment",
        "Rebuild every round's deal from its revealed seed (DealSeed), check it against the "
        "round written and its Commitment, and replay every move, offline. One line per "
        "failure (file, line, column, game number, what failed), then a summary; exit status "
        "0 when every round is verified, 1 otherwise (docs/notation.md, Checking a deal).",
        "chickenfoot verify round.cfn",
    )
    verify.add_argument("file", metavar="FILE", help="a notation file (or a JSON record)")

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

    analyse_cli.add_command(command)  # its help and options live with it

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
    lang_option(demo)

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
