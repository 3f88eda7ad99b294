"""``chickenfoot convert`` and the notation side of ``chickenfoot validate`` (docs/notation.md).

``convert IN OUT --to notation|json [--audience full|spectator|seat:K]`` turns a JSON record
or match document into the notation for an audience, a notation file into another
audience's copy, or a ``full`` notation file (one round, or one match) back into its JSON
document. ``validate`` reads a notation file game by game, every move checked, and names
the line and column of the first problem.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import IO, Any, TextIO

from chickenfoot._files import writable, write_file
from chickenfoot.cli._common import MATCH_FORMAT, RECORD_FORMAT, UsageError, write
from chickenfoot.cli._documents import read_document
from chickenfoot.errors import FormatError, brief
from chickenfoot.match import Match
from chickenfoot.notation import (
    Audience,
    Game,
    MatchGames,
    NotationError,
    iter_games,
    write_game,
    write_match,
)
from chickenfoot.record import Record

__all__ = ["cmd_convert", "is_notation", "validate_notation"]


def is_notation(path: str) -> bool:
    """Whether ``path`` holds the notation (its first non-blank character is ``[``)."""
    if path == "-":
        return False  # standard input is read as JSON
    try:
        with open(path, "rb") as f:
            head = f.read(4096).lstrip()
    except OSError:
        return False  # the JSON reader says why it cannot be read
    return head.startswith(b"[")


def _open(path: str) -> tuple[IO[Any], str]:
    try:
        return open(path, "rb"), path
    except OSError as err:
        raise UsageError(f"cannot read {brief(path)}: {err.strerror or err}") from None


def _games(handle: IO[Any], name: str) -> Iterator[Game]:
    try:
        yield from iter_games(handle, strict=True)
    except NotationError as err:
        raise UsageError(f"{name}: {err}") from None


def validate_notation(path: str, out: TextIO) -> int:
    """Read every game of a notation file strictly; one line saying what it holds."""
    handle, name = _open(path)
    counts = {"full": 0, "seat": 0, "spectator": 0}
    matches = 0
    with handle:
        for game in _games(handle, name):
            if game.header("Match") == "begin":
                matches += 1
            elif game.header("Match") is None:
                counts[game.audience.kind] += 1
    rounds = sum(counts.values())
    kinds = ", ".join(f"{n} {k}" for k, n in counts.items() if n)
    text = f"{rounds} round{'s' * (rounds != 1)}" + (f": {kinds}" if kinds else "")
    if matches:
        text += f"; {matches} match{'es' * (matches != 1)}"
    write(out, f"{name}: a valid notation file ({text})")
    return 0


def _audience(text: str) -> Audience:
    try:
        return Audience.parse(text.replace(":", " ", 1) if text.startswith("seat:") else text)
    except FormatError:
        raise UsageError(f"--audience {brief(text)}: expected full, spectator or seat:K") from None


def _from_notation(path: str, to: str, audience: Audience) -> str:
    handle, name = _open(path)
    with handle:
        blocks = list(_blocks(handle, name)) if to == "notation" else None
    if blocks is not None:
        if not blocks:
            raise UsageError(f"{name}: no game in the file")
        return "".join(_written(block, name, audience) for block in blocks)
    handle, name = _open(path)
    with handle:
        games = _blocks(handle, name)
        first = next(games, None)
        if first is None:
            raise UsageError(f"{name}: no game in the file")
        if next(games, None) is not None:
            what = "match" if isinstance(first, MatchGames) else "round"
            raise UsageError(
                f"{name}: the file holds more than one {what}; a JSON document holds one"
            )
    if isinstance(first, MatchGames):
        try:
            return first.to_match().to_json()
        except FormatError as err:
            raise UsageError(f"{name}: {err}") from None
    if first.record is None:
        raise UsageError(
            f"{name}: only a full copy converts to JSON (this is for {first.audience})"
        )
    return first.record.to_json()


def _blocks(handle: IO[Any], name: str) -> Iterator[Game | MatchGames]:
    """The file's rounds and matches in order (a match: its begin block, its rounds, its
    end block), read strictly."""
    games = _games(handle, name)
    for game in games:
        if game.header("Match") != "begin":
            yield game
            continue
        rounds: list[Game] = []
        end = None
        for inner in games:
            if inner.header("Match") == "end":
                end = inner
                break
            rounds.append(inner)
        yield MatchGames(game, tuple(rounds), end)


def _written(block: Game | MatchGames, name: str, audience: Audience) -> str:
    if isinstance(block, Game):
        return _rewrite(block, name, audience)
    if any(game.record is None for game in block.rounds):
        raise UsageError(f"{name}: only a full copy can be written for another audience")
    try:
        return block.write(audience=audience)
    except FormatError as err:
        raise UsageError(f"{name}: {err}") from None


def _rewrite(game: Game, name: str, audience: Audience) -> str:
    if game.record is None:
        raise UsageError(f"{name}: only a full copy can be written for another audience")
    return write_game(game, audience=audience)


def cmd_convert(args: argparse.Namespace, out: TextIO) -> int:
    """``chickenfoot convert IN OUT --to notation|json [--audience ...]``."""
    audience = _audience(args.audience)
    if audience.kind != "full" and args.to == "json":
        raise UsageError("--to json writes the full record: --audience is for the notation")
    if args.output != "-" and (why := writable(args.output)) is not None:
        raise UsageError(f"cannot write {brief(args.output)}: {why}")  # before the work
    if is_notation(args.input):
        text = _from_notation(args.input, args.to, audience)
    else:
        doc = read_document(args.input, kinds=(RECORD_FORMAT, MATCH_FORMAT))
        value = doc.value
        try:
            if args.to == "json":
                text = value.to_json()  # type: ignore[union-attr]
            elif isinstance(value, Match):
                text = write_match(value, audience=audience)
            else:
                assert isinstance(value, Record)
                text = write_game(value, audience=audience)
        except FormatError as err:
            raise UsageError(f"{doc.name}: {err}") from None
    if args.to == "json" and not text.endswith("\n"):
        text += "\n"
    if args.output == "-":
        out.write(text)
        return 0
    failed = write_file(args.output, text)  # whole or not at all; never a pipe or a device
    if failed is not None:
        raise UsageError(f"cannot write {brief(args.output)}: {failed}")
    return 0
