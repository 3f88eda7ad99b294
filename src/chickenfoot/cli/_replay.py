"""``chickenfoot replay``: a round shown move by move, forward and back, from a JSON record
or a save, or from a notation file for any audience (docs/notation.md).

The contract: a round becomes a list of :class:`Frame` (the start, then one per move,
each a heading and a picture) and an end line; :func:`step` shows them. On a terminal,
Enter shows the next frame, ``b`` the one before, ``q`` quits; elsewhere every frame is
printed in order. A notation file's round is shown as its audience saw it:

- ``full``: the record, every hand;
- ``seat K`` (a round from its deal): seat K's view after every move: its hand, the
  board, the others' tile counts (drawn from a twin of the round that seat K cannot tell
  apart from it, so nothing hidden is shown);
- ``spectator`` (or a seat's copy of a round that starts elsewhere): what is public, every
  move and the tiles each seat and the boneyard hold.

>>> from chickenfoot import Rules, deal
>>> frames, end = record_frames(Record(deal(Rules(players=2), 1), ["9-3@9-9"]))
>>> [f.heading for f in frames], end
(['Start (a position of 2 players, double-9):', 'Move 1/1: seat 0: 9-3@9-9'], 'End of the record: the round goes on.')
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Sequence
from typing import NamedTuple, TextIO

from chickenfoot._files import NotRegularError, open_regular, why_not
from chickenfoot.cli._common import POSITION, UsageError, write
from chickenfoot.cli._documents import describe_kind
from chickenfoot.cli._picture import picture
from chickenfoot.errors import FormatError, brief
from chickenfoot.moves import Draw
from chickenfoot.notation import Game, iter_games
from chickenfoot.record import Record
from chickenfoot.rules import Rules
from chickenfoot.state import State

__all__ = [
    "Frame",
    "game_frames",
    "is_notation_file",
    "notation_game",
    "record_frames",
    "rules_line",
    "step",
]


class Frame(NamedTuple):
    """One step of a replay: its heading line and its picture."""

    heading: str
    body: str


def rules_line(rules: Rules) -> str:
    """``2 players, double-9``: the rules in a replay's first heading."""
    return f"{rules.players} players, double-{rules.max_pip}"


def record_frames(rec: Record) -> tuple[list[Frame], str]:
    """The frames of a record (every hand) and its end line."""
    states = rec.states()
    n = len(rec.moves)
    kind = describe_kind(POSITION)
    frames = [Frame(f"Start ({kind} of {rules_line(rec.start.rules)}):", picture(states[0]))]
    for i, move in enumerate(rec.moves, 1):
        before, after = states[i - 1], states[i]
        text = str(move)
        if isinstance(move, Draw) and move.tile is None and after.drawn is not None:
            text = f"draw (drew {after.drawn})"
        frames.append(Frame(f"Move {i}/{n}: seat {before.turn}: {text}", picture(after)))
    return frames, _end(states[-1])


def _end(final: State) -> str:
    result = final.outcome()
    return f"End of the record: {'the round goes on' if result is None else result}."


def is_notation_file(path: str) -> bool:
    """Whether ``path`` is a regular file whose first non-blank character is ``[`` (a
    notation file). A named pipe, a device or a directory is refused here, never opened
    (reading one would wait)."""
    if path == "-":
        return False
    try:
        with os.fdopen(open_regular(path), "rb") as f:
            return f.read(4096).lstrip().startswith(b"[")
    except NotRegularError as err:
        raise UsageError(f"cannot read {brief(path)}: {why_not(err)}") from None
    except (OSError, ValueError):
        return False  # the JSON reader says why it cannot be read


def notation_game(path: str, number: int) -> Game:
    """Round ``number`` (from 0; a match's begin and end blocks are not rounds) of the
    notation file ``path``, read strictly, one game at a time."""
    try:
        handle = os.fdopen(open_regular(path), "rb")
    except (OSError, ValueError) as err:
        raise UsageError(f"cannot read {brief(path)}: {why_not(err)}") from None
    name = brief(path, 80)
    held = 0
    with handle:
        try:
            for game in iter_games(handle, strict=True):
                if game.header("Match") is not None:
                    continue  # a match's begin or end block
                if held == number:
                    return game
                held += 1
        except FormatError as err:  # a NotationError, with its line and column
            raise UsageError(f"{name}: {err}") from None
    raise UsageError(f"{name}: --game {number} is not in the file: it holds {held} round(s)")


def game_frames(game: Game) -> tuple[list[Frame], str]:
    """The frames of a round read from the notation, as its audience saw it."""
    if game.record is not None:
        return record_frames(game.record)
    audience = game.audience
    view = game.view
    copy = f"{audience}'s copy" if audience.seat is not None else "the spectator's copy"
    n = len(game.moves)
    if audience.seat is not None and view is not None:
        twin = view.sample_record(random.Random(0))
        states = twin.states()
        rules = twin.start.rules
        frames = [
            Frame(f"Start ({copy} of {rules_line(rules)}):", picture(states[0].view(audience.seat)))
        ]
        for i, node in enumerate(game.moves, 1):
            heading = f"Move {i}/{n}: seat {node.seat}: {node.move}"
            frames.append(Frame(heading, picture(states[i].view(audience.seat))))
        return frames, _end_public(game)
    return _public_frames(game, copy), _end_public(game)


def _counts(game: Game) -> tuple[list[int], int]:
    hands: list[int] = []
    while (text := game.header(f"Hand{len(hands)}")) is not None:
        hands.append(len(text.split()))
    return hands, len((game.header("Boneyard") or "").split())


def _public_frames(game: Game, copy: str) -> list[Frame]:
    hands, bone = _counts(game)
    board = game.header("Board") or ""
    laid = len(board.split())

    def body() -> str:
        held = ", ".join(f"seat {k}: {h}" for k, h in enumerate(hands))
        return f"Tiles laid: {laid}. In hand: {held}. Boneyard: {bone}."

    frames = [Frame(f"Start ({copy}, centre {game.header('Centre')}):", body())]
    n = len(game.moves)
    for i, node in enumerate(game.moves, 1):
        if node.move.startswith("draw"):
            hands[node.seat] += 1
            bone -= 1
        elif node.move != "pass":
            hands[node.seat] -= 1
            laid += 1
        frames.append(Frame(f"Move {i}/{n}: seat {node.seat}: {node.move}", body()))
    return frames


def _end_public(game: Game) -> str:
    termination = game.header("Termination")
    if termination in (None, "*"):
        return "End of the record: the round goes on."
    return (
        f"End of the record: {termination}; penalties {game.header('Result')}, "
        f"winner {game.header('Winner')}."
    )


def step(
    frames: Sequence[Frame],
    end: str,
    out: TextIO,
    ask: Callable[[str], str] | None,
) -> int:
    """Show ``frames`` then ``end``: all of them without ``ask``; else one at a time,
    Enter forward, ``b`` back, ``q`` quits (Ctrl-D too)."""
    last = len(frames) - 1

    def show(i: int) -> None:
        if i:
            write(out, "")
        write(out, frames[i].heading)
        write(out, frames[i].body)
        if i == last:
            write(out, "")
            write(out, end)

    if ask is None:
        for i in range(len(frames)):
            show(i)
        return 0
    i = 0
    show(0)
    while True:
        prompt = "-- Enter or q: quit, b: back -- " if i == last else _PROMPT
        try:
            answer = ask(prompt).strip().lower()
        except (EOFError, OSError, ValueError):  # Ctrl-D, or the terminal went away
            write(out, "")
            return 0
        back = answer in ("b", "back")
        if answer in ("q", "quit") or (not back and i == last):
            return 0
        if back and i == 0:
            write(out, "At the start: nothing before it.")
            continue
        i += -1 if back else 1
        show(i)


_PROMPT = "-- Enter: next move, b: back, q: quit -- "
