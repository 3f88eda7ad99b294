"""Commands on documents: ``show``, ``moves``, ``apply``, ``perft``, ``replay``, ``validate``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from chickenfoot._files import write_file
from chickenfoot.cli._common import (
    MATCH_FORMAT,
    PLAY_FORMAT,
    POSITION,
    RECORD_FORMAT,
    RULES,
    VIEW_FORMAT,
    UsageError,
    ascii_number,
    write,
)
from chickenfoot.cli._documents import Document, read_document
from chickenfoot.cli._picture import picture
from chickenfoot.cli._prompt import prompt_reader
from chickenfoot.cli._save import PlaySave
from chickenfoot.cli._streams import is_terminal
from chickenfoot.errors import ChickenFootError, brief
from chickenfoot.match import Match
from chickenfoot.moves import parse_move
from chickenfoot.perft import perft
from chickenfoot.record import Record
from chickenfoot.rules import MatchLength, Rounds, Rules
from chickenfoot.state import State
from chickenfoot.view import View

MAX_DEPTH = 200
"""The deepest ``perft`` accepted: deeper than any round is long (the count is 0 there)."""


def _rules_line(rules: Rules) -> str:
    return f"{rules.players} players, double-{rules.max_pip}"


def length_text(length: MatchLength) -> str:
    """``10 rounds``, ``until a total exceeds 150``."""
    if isinstance(length, Rounds):
        return _plural(length.count, "round")
    verb = "reaches" if length.inclusive else "exceeds"
    return f"until a total {verb} {length.points}"


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _state_line(s: State | View) -> str:
    result = s.outcome()
    where = f"centre {s.centre}"
    if result is not None:
        return f"{where}, over: {result}"
    drawn = ", has drawn" if isinstance(s, State) and s.drawn is not None else ""
    return f"{where}, seat {s.turn} to play{drawn}"


def match_lines(m: Match) -> list[str]:
    """The score sheet of a match: one row per finished round, then the totals."""
    rules = m.rules
    length = rules.match
    of = f" of {length.count}" if isinstance(length, Rounds) else ""
    lines = [f"Match: seed {m.seed}, {m.rounds_played}{of} rounds played"]
    if not isinstance(length, Rounds):
        lines[0] += f" (the match lasts {length_text(length)})"
    if m.scores:
        seats = [f"seat {s}" for s in range(rules.players)]
        width = max(6, *(len(str(t)) for t in m.totals))
        lines.append("round  centre  " + "  ".join(f"{s:>{width}}" for s in seats))
        for k, row in enumerate(m.scores):
            d = rules.centre_of_round(k)
            cells = "  ".join(f"{x:>{width}}" for x in row)
            lines.append(f"{k + 1:>5}  {f'{d}-{d}':>6}  {cells}")
        cells = "  ".join(f"{x:>{width}}" for x in m.totals)
        lines.append(f"{'total':>5}  {'':>6}  {cells}")
    lines.append(f"Result: {m.result()}")
    return lines


def _what(v: State | Record | Match | View) -> str:
    """What a document holds, for :func:`describe`."""
    if isinstance(v, State):
        return f"{_rules_line(v.rules)}, {_state_line(v)}"
    if isinstance(v, Record):
        n = len(v.moves)
        return (
            f"{_rules_line(v.start.rules)}, {_plural(n, 'move')}, final: {_state_line(v.final())}"
        )
    if isinstance(v, Match):
        now = "over" if v.round is None else f"round {v.rounds_played + 1}: {_state_line(v.round)}"
        return f"{_rules_line(v.rules)}, seed {v.seed}, {_plural(v.rounds_played, 'round')} scored, {now}"
    return f"seat {v.seat} of {_rules_line(v.rules)}, {_state_line(v)}"


def players_line(save: PlaySave) -> str:
    """``seat 0 against random, greedy; seed 9`` (and ``--watch``): a save's players.

    >>> from chickenfoot import Match, Rules
    >>> players_line(PlaySave(Match.start(Rules(players=2), seed=4), seat=1, bots=("greedy",),
    ...                       seed=4, watch=True))
    'seat 1 against greedy; seed 4; --watch'
    """
    line = f"seat {save.seat} against {', '.join(save.bots)}; seed {save.seed}"
    return line + ("; --watch" if save.watch else "")


def describe(doc: Document) -> str:
    """One line saying what a valid document holds."""
    v = doc.value
    head = f"{doc.name}: a valid {doc.kind} document"
    if isinstance(v, Rules):
        return f"{doc.name}: a valid rules object ({_rules_line(v)}, {length_text(v.match)})"
    if isinstance(v, PlaySave):
        kind = "the match" if isinstance(v.game, Match) else "the round"
        rec = v.round_record() if isinstance(v.game, Match) else None
        kept = "" if rec is None else f"; {_plural(len(rec.moves), 'move')} of the round kept"
        return f"{head} ({players_line(v)}; {kind}: {_what(v.game)}{kept})"
    return f"{head} ({_what(v)})"


# -- the commands -----------------------------------------------------------------------------


def cmd_validate(args: argparse.Namespace, out: TextIO) -> int:
    from chickenfoot.cli.records import is_notation, validate_notation

    if is_notation(args.file):
        return validate_notation(args.file, out)
    write(out, describe(read_document(args.file)))
    return 0


def cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    doc = read_document(args.file)
    v = doc.value
    if args.svg is not None:
        _write_svg(doc, args, out)
        return 0
    lines: list[str] = []
    if isinstance(v, PlaySave):
        lines.append(f"A saved game of chickenfoot play: {players_line(v)}.")
        v = v.game
    if isinstance(v, Rules):
        lines.append(json.dumps(v.to_dict(), indent=2))
    elif isinstance(v, Record):
        n = len(v.moves)
        lines.append(f"Record: {n} move{'s' * (n != 1)}; the final position:")
        lines.append(picture(v.final(), long=args.long))
    elif isinstance(v, Match):
        lines.extend(match_lines(v))
        if v.round is not None:
            lines.append("")
            lines.append(f"Round {v.rounds_played + 1} in play:")
            lines.append(picture(v.round, long=args.long))
    else:
        lines.append(picture(v, long=args.long))
    write(out, "\n".join(lines))
    return 0


def _write_svg(doc: Document, args: argparse.Namespace, out: TextIO) -> None:
    """``show --svg OUT``: the picture of :func:`chickenfoot.svg`."""
    from chickenfoot.picture import svg

    v = doc.value
    if isinstance(v, Rules):
        raise UsageError(f"{doc.name}: a rules object has no table to draw")
    obj = v if isinstance(v, (State, View)) else doc.position("there is no table to draw")
    text_hands: str = args.hands
    hands: str | int = text_hands
    if text_hands not in ("none", "all"):
        seat = ascii_number(text_hands, 3)
        if seat is None:
            raise UsageError(f"--hands {brief(text_hands)} is invalid: none, all or a seat number")
        hands = seat
    size = args.size
    if size is not None and not 1 <= size <= 100_000:
        raise UsageError(f"--size {brief(size)} is invalid: must be from 1 to 100,000 pixels")
    text = svg(obj, size=size, hands=hands, seat=args.seat)  # type: ignore[arg-type]
    target = args.svg
    if target == "-":
        write(out, text)
        return
    failed = write_file(target, text)
    if failed is not None:
        raise UsageError(f"cannot write {brief(target)}: {failed}")


def cmd_moves(args: argparse.Namespace, out: TextIO) -> int:
    kinds = (POSITION, RECORD_FORMAT, MATCH_FORMAT, VIEW_FORMAT, PLAY_FORMAT)
    doc = read_document(args.file, kinds=kinds)
    v = doc.value
    if isinstance(v, View):
        legal = v.legal_moves
    else:
        legal = doc.position("it has no legal moves").legal_moves
    for m in legal:
        write(out, str(m))
    return 0


def cmd_apply(args: argparse.Namespace, out: TextIO) -> int:
    doc = read_document(args.file, kinds=(POSITION, RECORD_FORMAT, MATCH_FORMAT, PLAY_FORMAT))
    v = doc.value
    game: State | Match | PlaySave
    game = v if isinstance(v, (Match, PlaySave)) else doc.position("no move can be applied")
    for i, text in enumerate(args.moves, 1):
        inner = game.game if isinstance(game, PlaySave) else game
        state = (
            inner.round
            if isinstance(inner, Match)
            else inner.final()
            if isinstance(inner, Record)
            else inner
        )
        if state is None:
            raise UsageError(f"move {i} ({brief(text)}): the match is over")
        try:
            move = parse_move(text, max_pip=state.rules.max_pip)
            game = game.apply(move)
        except ChickenFootError as err:
            raise UsageError(f"move {i} ({brief(text)}): {err}") from None
    if isinstance(game, PlaySave) and not args.text:
        write(out, json.dumps(game.to_dict()))
        return 0
    if isinstance(game, PlaySave):
        game = game.game if isinstance(game.game, Match) else game.game.final()
    if args.text:
        if isinstance(game, Match):
            lines = match_lines(game)
            if game.round is not None:
                lines += ["", picture(game.round)]
            write(out, "\n".join(lines))
        else:
            write(out, picture(game))
    else:
        write(out, game.to_json())
    return 0


def cmd_perft(args: argparse.Namespace, out: TextIO) -> int:
    depth = args.depth
    if not 0 <= depth <= MAX_DEPTH:
        raise UsageError(f"--depth {brief(depth)} is invalid: must be from 0 to {MAX_DEPTH}")
    doc = read_document(args.file, kinds=(POSITION, RECORD_FORMAT, MATCH_FORMAT, PLAY_FORMAT))
    state = doc.position("there is nothing to count")
    if args.divide and depth > 0:
        total = 0
        for m in state.legal_moves:
            n = perft(state.apply(m), depth - 1)
            total += n
            write(out, f"{m}: {n}")
        write(out, f"total: {total}")
    else:
        write(out, str(perft(state, depth)))
    return 0


def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    from chickenfoot.cli._replay import (
        game_frames,
        is_notation_file,
        notation_game,
        record_frames,
        step,
    )

    number = getattr(args, "game", 0)
    if number < 0:
        raise UsageError(f"--game {brief(number)} is invalid: rounds are counted from 0")
    if is_notation_file(args.file):
        frames, end = game_frames(notation_game(args.file, number))
    else:
        if number:
            raise UsageError("--game is for a notation file (a JSON record holds one round)")
        doc = read_document(args.file, kinds=(RECORD_FORMAT, PLAY_FORMAT))
        value = doc.value
        rec = value.round_record() if isinstance(value, PlaySave) else value  # a save: its round
        if rec is None:
            raise UsageError(
                f"{doc.name}: the save keeps the round's position but not its moves: there is "
                "nothing to replay"
            )
        assert isinstance(rec, Record)
        frames, end = record_frames(rec)
    if args.final:
        n = len(frames) - 1
        write(out, f"Record: {n} move{'s' * (n != 1)}; the final position:")
        write(out, frames[-1].body)
        return 0
    interactive = is_terminal(sys.stdin) and is_terminal(out)  # sys.stdin is None after <&-
    return step(frames, end, out, prompt_reader(out) if interactive else None)


__all__ = [
    "MAX_DEPTH",
    "RULES",
    "VIEW_FORMAT",
    "cmd_apply",
    "cmd_moves",
    "cmd_perft",
    "cmd_replay",
    "cmd_show",
    "cmd_validate",
    "describe",
    "match_lines",
]
