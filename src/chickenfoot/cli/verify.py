"""``chickenfoot verify FILE``: check every deal of a notation file (docs/notation.md,
"Checking a deal").

Every round is read with every move replayed; its deal is rebuilt from its ``DealSeed``
(or, for a round of a match written with the match's ``Seed``, from that) and compared
with the round written, and its ``Commitment`` checked against the seed. Offline, one game
at a time (a file of thousands of rounds in constant memory). Each failure is one line
``FILE:LINE:COLUMN: game N: what failed``; then a summary line. Exit status 0 when every
round is verified, 1 when one is not (2 for a file that cannot be read at all).

A JSON record or match document is read and replayed too, but carries no seed: it is
reported as a round whose deal cannot be checked.
"""

from __future__ import annotations

import argparse
from typing import IO, Any, TextIO

from chickenfoot.cli._common import EXIT_FAILURE, EXIT_OK, UsageError, write
from chickenfoot.cli._documents import read_document
from chickenfoot.errors import brief
from chickenfoot.match import Match
from chickenfoot.notation import GameBuilder, visit_game
from chickenfoot.record import Record

__all__ = ["DOCS", "cmd_verify", "verify_notation"]

DOCS = "https://chickenfoot.readthedocs.io/en/latest/notation/#checking-a-deal"
"""Where the check is explained (the serve and Play pages link there too)."""


def _open(path: str) -> IO[Any]:
    from chickenfoot.cli.records import is_notation

    if path == "-" or not is_notation(path):
        raise LookupError(path)  # a JSON document: read by the document reader
    try:
        return open(path, "rb")
    except OSError as err:
        raise UsageError(f"cannot read {brief(path)}: {err.strerror or err}") from None


def verify_notation(handle: IO[Any], name: str, out: TextIO) -> int:
    """Verify every game of ``handle``; write a line per failure and a summary line; the
    exit status."""
    rounds = failed = commitments = moves = 0
    number = 0
    while True:
        builder = GameBuilder(seeds=True)
        game = visit_game(handle, builder)
        if game is None:
            break
        number += 1
        if game.header("Match") is not None and not game.errors:
            continue  # a match's begin or end block: no deal
        rounds += 1
        problems = [f"{name}:{e.line}:{e.column}: game {number}: {e.reason}" for e in game.errors]
        if not problems:
            seeded = game.header("DealSeed") or game.header("Seed")
            if seeded is None:
                over = game.header("Result") not in (None, "*")
                why = (
                    "the round is over but its seed is not revealed (no DealSeed)"
                    if over
                    else "the seed is not revealed until the round is over (no DealSeed yet)"
                )
                at = builder.header_lines.get("Commitment") or builder.header_lines.get("Notation")
                problems.append(f"{name}:{at or 1}:1: game {number}: {why}")
        if problems:
            failed += 1
            for line in problems:
                write(out, line)
            continue
        moves += len(game.moves)
        commitments += game.header("Commitment") is not None and game.header("DealSeed") is not None
    plural = "s" * (rounds != 1)
    if not rounds:
        write(out, f"{name}: no round to verify")
        return EXIT_FAILURE
    if failed:
        write(
            out,
            f"{name}: {rounds} round{plural}, {failed} failed; {rounds - failed} verified "
            f"({commitments} commitment{'s' * (commitments != 1)}, {moves} moves)",
        )
        return EXIT_FAILURE
    write(
        out,
        f"{name}: {rounds} round{plural} verified: every deal rebuilt from its seed, "
        f"{commitments} commitment{'s' * (commitments != 1)} checked, {moves} moves replayed",
    )
    return EXIT_OK


def cmd_verify(args: argparse.Namespace, out: TextIO) -> int:
    path: str = args.file
    try:
        handle = _open(path)
    except LookupError:
        doc = read_document(path)
        value = doc.value
        if isinstance(value, (Record, Match)):
            kind = "record" if isinstance(value, Record) else "match document"
            write(
                out,
                f"{doc.name}: a JSON {kind} holds no seed and no commitment: its moves "
                "replay, but its deal cannot be checked (see " + DOCS + ")",
            )
            return EXIT_FAILURE
        raise UsageError(
            f"{doc.name}: a {doc.kind} document, not a round: verify reads notation files"
        ) from None
    with handle:
        return verify_notation(handle, path, out)
