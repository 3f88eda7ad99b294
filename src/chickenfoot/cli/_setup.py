"""How ``chickenfoot play`` starts: a new game from the options, or a saved one with the
players and options it holds (which ``--seat``, ``--bots`` and ``--watch`` override, with a
line saying so). A file that holds no players (a match, a record or a position document)
says what it falls back to.

A saved game is data that people pass around: its bots are read with
:meth:`Trust.data <chickenfoot.specs.Trust.data>`, so one that would run a program or
import a module plays ``heuristic`` instead, with a line saying what it would have run,
unless the person opts in with ``--trust-bots``. The bots of ``--bots``, typed by the
person, run as they are.
"""

from __future__ import annotations

import argparse
import json
import random

import attrs

from chickenfoot._i18n import N_, ngettext
from chickenfoot._i18n import gettext as _
from chickenfoot.agents import Agent
from chickenfoot.cli._common import (
    MATCH_FORMAT,
    PLAY_FORMAT,
    POSITION,
    RECORD_FORMAT,
    UsageError,
    rules_from_args,
)
from chickenfoot.cli._documents import read_document
from chickenfoot.cli._game import Game, Snapshot, decisions
from chickenfoot.cli._save import PlaySave, round_moves
from chickenfoot.deal import deal
from chickenfoot.errors import brief
from chickenfoot.match import Match
from chickenfoot.record import Record
from chickenfoot.rules import Rounds, Rules
from chickenfoot.specs import SpecError, Trust, agents_of, parse_spec, rules_refusal
from chickenfoot.state import State

__all__ = ["DEFAULT_BOTS", "MAX_ROUND", "Resume", "Start", "start_of"]

MAX_ROUND = 1_000_000
"""The highest ``--round`` (rounds past the last double wrap around to the highest one)."""
DEFAULT_BOTS = "heuristic"


@attrs.frozen
class Resume:
    """A game resumed from a file: where it came from, and what ``undo`` can go back to."""

    file: str
    snapshots: tuple[Snapshot, ...]
    """The person's decisions in the round in play, oldest first."""
    moves: int | None
    """The moves of the round in play that are known (``None``: the file keeps none)."""
    stand_ins: dict[int, str] = attrs.field(factory=dict)
    """The seats whose bot the file names but may not run (no ``--trust-bots``), with the
    spec it names: a save writes that spec back, not the stand-in's."""


@attrs.frozen
class Start:
    """Everything a session needs, and the lines said before the game starts."""

    game: Game
    seat: int
    bots: dict[int, tuple[str, Agent]]
    seed: int
    watch: bool
    header: str
    resume: Resume | None = None


def _named(name: str) -> str:
    """A file's name for a message: as it is, or quoted and bounded when odd or long."""
    return name if len(name) <= 80 and name.isprintable() else brief(name, 80)


def _label(args: argparse.Namespace) -> str:
    preset = args.preset or "house"
    if args.changes:
        changes = " ".join(f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in args.changes)
        return _("{preset} rules with {changes}", preset=preset, changes=changes)
    return _("{preset} rules", preset=preset)


def _cast(seat: int, bots: dict[int, tuple[str, Agent]]) -> str:
    others = ", ".join(_("seat {seat}: {name}", seat=s, name=n) for s, (n, _agent) in bots.items())
    return _("You are seat {seat}; {others}", seat=seat, others=others)


def _seated(
    seat: int, players: int, named: list[tuple[str, Agent]]
) -> dict[int, tuple[str, Agent]]:
    others = [s for s in range(players) if s != seat]
    return dict(zip(others, named, strict=True))


def _check_fit(bots: dict[int, tuple[str, Agent]], rules: Rules) -> None:
    """Refuse, before the game starts, a bot that cannot play its rules (a policy trained
    for other rules stopped the game after the person's first move)."""
    why = rules_refusal(list(bots.values()), rules)
    if why is not None:
        raise UsageError(f"the bot {why}; choose another bot, or the rules it was trained for")


def _check_seat(seat: int, players: int) -> None:
    if not 0 <= seat < players:
        raise UsageError(f"--seat {brief(seat)} is invalid: seats are 0 to {players - 1}")


def start_of(args: argparse.Namespace) -> Start:
    """The game that ``play`` starts with these options (``args`` of its parser).

    >>> from chickenfoot.cli._parser import build_parser
    >>> start = start_of(build_parser().parse_args(["play", "--players", "3", "--seed", "2"]))
    >>> print(start.header)
    Chicken Foot: 3 players, double-9, house rules.
    A match of 10 rounds, seed 2 (the same deals again: --seed 2).
    You are seat 0; seat 1: heuristic, seat 2: heuristic.
    """
    if args.file is not None and args.resume is not None:
        raise UsageError("give the saved game once: play FILE or play --resume FILE")
    seed = args.seed
    if seed is not None and seed.bit_length() > 63:
        raise UsageError(f"--seed {brief(seed)} is invalid: at most 63 bits")
    if args.file is not None or args.resume is not None:
        return _resumed(args, args.file or args.resume)
    if args.trust_bots:
        raise UsageError(
            "--trust-bots is for the bots of a saved game (play FILE --trust-bots): the bots "
            "of --bots run as you name them"
        )
    if seed is None:
        seed = random.SystemRandom().randrange(1, 1_000_000)
    rules = rules_from_args(args.preset or "house", args.players or 4, args.changes)
    if args.round is None:
        game = Game(match=Match.start(rules, seed=seed))
        length = rules.match
        size = (
            ngettext("A match of {n} round", "A match of {n} rounds", length.count, n=length.count)
            if isinstance(length, Rounds)
            else _("A match until {end}", end=length)
        )
    else:
        if not 0 <= args.round <= MAX_ROUND:
            raise UsageError(
                f"--round {brief(args.round)} is invalid: must be from 0 to {MAX_ROUND:,}"
            )
        game = Game(record=Record(deal(rules, seed, args.round)))
        size = _("One round (round {round})", round=args.round)
    seat = 0 if args.seat is None else args.seat
    _check_seat(seat, rules.players)
    bots = _seated(
        seat,
        rules.players,
        agents_of(args.bots or DEFAULT_BOTS, rules.players - 1, "--bots", trust=Trust.user()),
    )
    _check_fit(bots, rules)
    what = (
        _(
            "Chicken Foot: {players} players, double-{max_pip}, {rules}.",
            players=rules.players,
            max_pip=rules.max_pip,
            rules=_label(args),
        )
        + "\n"
        + _("{size}, seed {seed} (the same deals again: --seed {seed}).", size=size, seed=seed)
    )
    header = f"{what}\n{_cast(seat, bots)}."
    return Start(game, seat, bots, seed, bool(args.watch), header)


def _resumed(args: argparse.Namespace, path: str) -> Start:
    if args.preset is not None or args.players is not None or args.changes:
        raise UsageError(
            "--preset, --players and --set cannot be used with a saved game: its rules are in "
            "the file"
        )
    if args.round is not None or args.match:
        raise UsageError("--round and --match cannot be used with a saved game")
    doc = read_document(path, kinds=(PLAY_FORMAT, MATCH_FORMAT, RECORD_FORMAT, POSITION))
    name, v = doc.name, doc.value
    save = v if isinstance(v, PlaySave) else None
    inner = save.game if save is not None else v
    if isinstance(inner, Match):
        if inner.round is None:
            raise UsageError(f"{name}: the match is over ({inner.result()}): nothing to play")
        game = Game(match=inner)
    else:
        assert isinstance(inner, (Record, State))
        record = inner if isinstance(inner, Record) else Record(inner)
        result = record.final().outcome()
        if result is not None:
            raise UsageError(f"{name}: the round is over ({result}): nothing to play")
        game = Game(record=record)
    rules = game.rules
    notes: list[str] = []
    # the seed: of the deals (a match's own) and of the bots' choices
    held = save.seed if save is not None else game.match.seed if game.match is not None else None
    if args.seed is not None and held is not None:
        raise UsageError(
            f"--seed cannot be used with {_named(name)}: its seed ({brief(held)}) is in the file"
        )
    seed = held if held is not None else args.seed
    if seed is None:
        seed = random.SystemRandom().randrange(1, 1_000_000)
        notes.append(
            _("The bots' seed is {seed} (--seed {seed} gives the same choices again).", seed=seed)
        )
    # the seat and the bots: the file's, unless the options say otherwise
    seat = args.seat if args.seat is not None else save.seat if save is not None else 0
    _check_seat(seat, rules.players)
    withheld: dict[int, str] = {}
    if args.bots is not None:
        named = agents_of(args.bots, rules.players - 1, "--bots", trust=Trust.user())
    elif save is not None:
        named, withheld = _saved_bots(name, save, trusted=bool(args.trust_bots))
        if withheld:
            notes.append(_withheld_note(name, list(withheld.values())))
    else:
        named = agents_of(DEFAULT_BOTS, rules.players - 1, "--bots", trust=Trust.user())
    bots = _seated(seat, rules.players, named)
    _check_fit(bots, rules)
    watch = args.watch if args.watch is not None else save.watch if save is not None else False
    if save is None:
        notes.append(_fallback(name, doc.kind, args, seat))
    else:
        notes += _overrides(args, save, seat, [n for n, _ in named], watch)
    known = _known_moves(game)
    values = {"file": _named(name), "players": rules.players, "max_pip": rules.max_pip}
    if game.match is not None and held is not None:
        head = _(
            "Resumed the match in {file}: {players} players, double-{max_pip}, seed {seed}.",
            seed=seed,
            **values,
        )
    elif game.match is not None:
        head = _("Resumed the match in {file}: {players} players, double-{max_pip}.", **values)
    elif held is not None:
        head = _(
            "Resumed the round in {file}: {players} players, double-{max_pip}, seed {seed}.",
            seed=seed,
            **values,
        )
    else:
        head = _("Resumed the round in {file}: {players} players, double-{max_pip}.", **values)
    header = "\n".join([head, *notes, _cast(seat, bots) + "."])
    others = [s for s in range(rules.players) if s != seat]
    stand_ins = {others[i]: text for i, text in withheld.items()}
    resume = Resume(name, tuple(decisions(game, seat)), known, stand_ins)
    return Start(game, seat, bots, seed, bool(watch), header, resume)


def _known_moves(game: Game) -> int | None:
    if game.match is not None:
        moves = round_moves(game.match)
        return None if moves is None else len(moves)
    rec = game.record
    assert rec is not None
    if not rec.moves and len(rec.start.board) > 1:  # a position from the middle of a round
        return None
    return len(rec.moves)


def _saved_bots(
    name: str, save: PlaySave, *, trusted: bool
) -> tuple[list[tuple[str, Agent]], dict[int, str]]:
    """The save's bots, and those that would run code that the file may not start (without
    ``--trust-bots``) by their index in ``bots``: each plays :data:`DEFAULT_BOTS` instead,
    and nothing of theirs runs."""
    trust = Trust.user() if trusted else Trust.data()
    try:
        specs = [parse_spec(text) for text in save.bots]
    except SpecError as err:  # PlaySave checked them: only a save made in code lands here
        raise UsageError(f"{name}: {err}") from None
    fallback = parse_spec(DEFAULT_BOTS)
    named = []
    for i, spec in enumerate(specs):
        played = spec if trust.allows(spec) else fallback
        try:
            named.append((played.name, played.build(trust=trust)))
        except SpecError as err:
            raise UsageError(f"{name}: bots[{i}]: {err}") from None
    return named, {i: s.name for i, s in enumerate(specs) if not trust.allows(s)}


def _withheld_note(name: str, specs: list[str]) -> str:
    """What a file's bots would have run, what plays instead, and how to run them."""
    what = "; ".join(f"{brief(s, 40)} {parse_spec(s).runs()}" for s in specs)
    return ngettext(
        "{file} names a bot that runs code of its own, which a file cannot start by itself "
        "({what}): it plays {fallback} instead, and nothing was run. If you trust this file, "
        "play it with --trust-bots.",
        "{file} names bots that run code of their own, which a file cannot start by itself "
        "({what}): they play {fallback} instead, and nothing was run. If you trust this file, "
        "play it with --trust-bots.",
        len(specs),
        file=_named(name),
        what=what,
        fallback=DEFAULT_BOTS,
    )


_NO_PLAYERS = {
    POSITION: N_(
        "{file} is a position document, which holds no players: you are seat {seat}, and the "
        "bots play the other seats."
    ),
    RECORD_FORMAT: N_(
        "{file} is a record document, which holds no players: you are seat {seat}, and the bots "
        "play the other seats."
    ),
    MATCH_FORMAT: N_(
        "{file} is a match document, which holds no players: you are seat {seat}, and the bots "
        "play the other seats."
    ),
}
"""What a file without players falls back to, by the file's kind (whole sentences)."""

_FREE = {
    ("--seat", "--bots"): N_("--seat and --bots choose others."),
    ("--seat",): N_("--seat chooses another."),
    ("--bots",): N_("--bots chooses others."),
}
"""Which options choose otherwise, by the options not given."""


def _fallback(name: str, kind: str, args: argparse.Namespace, seat: int) -> str:
    """What a file without players falls back to, and which options choose otherwise."""
    free = tuple(
        opt for opt, given in (("--seat", args.seat), ("--bots", args.bots)) if given is None
    )
    said = _(_NO_PLAYERS[kind], file=_named(name), seat=seat)
    return f"{said} {_(_FREE[free])}" if free else said


def _overrides(
    args: argparse.Namespace, save: PlaySave, seat: int, names: list[str], watch: bool
) -> list[str]:
    """A line for each option that overrides what the save holds."""
    notes = []
    if args.seat is not None and seat != save.seat:
        notes.append(
            _(
                "--seat {seat}: you play seat {seat} (the file has seat {saved}).",
                seat=seat,
                saved=save.seat,
            )
        )
    if args.bots is not None and names != list(save.bots):
        notes.append(
            _(
                "--bots: the bots are {bots} (the file has {saved}).",
                bots=", ".join(names),
                saved=", ".join(save.bots),
            )
        )
    if args.watch is not None and watch != save.watch:
        notes.append(
            _("--watch: the table is drawn after every move (the file has --no-watch).")
            if watch
            else _("--no-watch: the table is drawn before your decisions (the file has --watch).")
        )
    return notes
