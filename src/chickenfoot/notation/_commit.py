"""Deals anyone can check, in the notation (docs/notation.md, "Checking a deal").

A round dealt from a secret seed carries ``Commitment`` (:func:`chickenfoot.commitment.
commitment` of its rules, the seed and its ``Round``) in every audience's copy from its
deal on, and ``DealSeed`` once it is over (in the ``full`` copy always). The writer
computes the commitment from a ``DealSeed`` it is given (:func:`seal`); the reader
(:func:`check_deal`) deals ``deal(rules, DealSeed, Round)`` again, checks that it is the
round written (the deal headers an audience sees, and for a seat's or a spectator's copy
every move replayed from it, ``draw:??`` as ``draw``) and that the commitment is its own.

>>> from chickenfoot import Rules, deal
>>> from chickenfoot.record import Record
>>> sealed = seal(Record(deal(Rules(), 9)), {"DealSeed": "9"})
>>> sealed["Commitment"][:12]
'd9c1987a201c'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Final

from chickenfoot.commitment import check_commitment, commitment
from chickenfoot.deal import deal
from chickenfoot.errors import ChickenFootError, FormatError, brief, within_digits
from chickenfoot.moves import DRAW, Move
from chickenfoot.notation._headers import deal_headers, result_headers, rules_from_text
from chickenfoot.notation._hidden import Context, move_of
from chickenfoot.notation._model import Audience, NotationError
from chickenfoot.record import Record, RecordMoveError

if TYPE_CHECKING:
    from chickenfoot.notation._visitor import _Open
    from chickenfoot.state import State

__all__ = ["CommitmentError", "check_deal", "seal"]

_DEAL_PARTS: Final = ("Centre", "Board", "Boneyard", "Turn", "Drawn")


class CommitmentError(NotationError):
    """A revealed seed that does not deal the round written, or a commitment that is not
    its seed's; ``line`` and ``column`` say where (the ``DealSeed`` or ``Commitment``
    header, or the move where the deal stops playing out as written).

    >>> err = CommitmentError(4, 1, "Commitment: does not match DealSeed")
    >>> isinstance(err, NotationError), err.line
    (True, 4)
    """

    def __reduce__(self) -> tuple[object, ...]:
        return (CommitmentError, (self.line, self.column, self.reason))


def _integer(text: str, *, low: int | None = None) -> int | None:
    """The integer ``text`` writes in decimal (a ``-`` allowed), or ``None``."""
    digits = text[1:] if text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 4000:
        return None
    value = int(text)
    if not within_digits(value) or (low is not None and value < low):
        return None
    return value


def _seed_and_round(seed_text: str, round_text: str | None) -> tuple[int | None, int | None]:
    return _integer(seed_text), (0 if round_text is None else _integer(round_text, low=0))


def seal(record: Record, given: dict[str, str]) -> dict[str, str]:
    """``given`` with the ``Commitment`` of its ``DealSeed`` (when it has one), after
    checking that the seed deals ``record``'s start and agrees with a ``Commitment``
    given too; a :class:`~chickenfoot.FormatError` otherwise."""
    text = given.get("DealSeed")
    if text is None:
        return given
    seed, round = _seed_and_round(text, given.get("Round"))
    if seed is None:
        raise FormatError("headers.DealSeed", f"{brief(text, 40)} is not an integer seed")
    if round is None:
        raise FormatError("headers.Round", f"{brief(given['Round'], 40)} is not a round number")
    rules = record.start.rules
    if deal(rules, seed, round) != record.start:
        raise FormatError(
            "headers.DealSeed", f"deal(rules, {brief(seed, 40)}, {round}) is not the round's start"
        )
    sealed = commitment(rules, seed, round=round)
    if given.get("Commitment", sealed) != sealed:
        raise FormatError("headers.Commitment", f"is not the commitment of DealSeed ({sealed})")
    return {**given, "Commitment": sealed}


def check_deal(ctx: Context, main: Sequence[_Open], *, name: str = "DealSeed") -> None:
    """Check the seed header ``name`` of a game that read without a problem: its deal is
    the round written, and the ``Commitment`` (if any) is its own. Problems go to
    ``ctx.report`` as :class:`CommitmentError`."""
    h = ctx.headers
    text = h.get(name)
    if text is None or "Match" in h:
        return
    at = ctx.at.get(name, 1)

    def fail(line: int, message: str, column: int = 1) -> None:
        ctx.report(CommitmentError(line, column, message[:240]))

    try:
        rules = rules_from_text(h.get("Rules", ""))
        audience = Audience.parse(h.get("Audience", "full"))
    except FormatError:
        return  # reported by the reader already
    seed, round = _seed_and_round(text, h.get("Round"))
    if seed is None:
        fail(at, f"{name}: {brief(text, 40)} is not an integer seed")
        return
    if round is None:
        fail(ctx.at.get("Round", 1), f"Round: {brief(h['Round'], 40)} is not a round number")
        return
    over = h.get("Result", "*") != "*"
    if name == "DealSeed" and audience.kind != "full" and not over:
        fail(at, f"{name}: the seed is in a copy for {audience} before the round is over")
        return
    dealt = deal(rules, seed, round)
    expected = dict(deal_headers(dealt, audience))
    parts = [f"Hand{k}" for k in range(rules.players)]
    for part in (*_DEAL_PARTS[:2], *parts, *_DEAL_PARTS[2:]):
        if h.get(part) != expected.get(part):
            fail(
                at,
                f"{name}: the deal of this seed (round {round}) is not the round's: {part} differs",
            )
            return
    sealed = h.get("Commitment") if name == "DealSeed" else None
    honest = sealed is None or check_commitment(sealed, rules, seed, round=round)
    # A seed that does not play out as written is the seed's fault when it is not the
    # commitment's either (a changed seed); else the move's (a changed move).
    if audience.kind != "full" and not _replay_hidden(ctx, dealt, main, name, fail, honest, at):
        return
    if not honest:
        real = commitment(rules, seed, round=round)
        fail(
            ctx.at.get("Commitment", 1),
            f"Commitment: does not match DealSeed (the rules, the seed and round {round} "
            f"commit to {real})",
        )


_Fail = Callable[[int, str, int], None]


def _replay_hidden(
    ctx: Context,
    dealt: State,
    main: Sequence[_Open],
    name: str,
    fail: _Fail,
    honest: bool,
    at: int,
) -> bool:
    """Replay a seat's or a spectator's copy from its deal (``draw:??`` is ``draw``, the
    front tile, as a seeded deal is drawn) and check the result headers; whether all is
    well. A move that cannot be played is reported at its place when the seed is
    ``honest`` (its commitment's), else at the seed's line ``at``."""
    max_pip = dealt.rules.max_pip
    moves: list[Move] = []
    for node in main:
        try:
            moves.append(DRAW if node.move == "draw:??" else move_of(node.move, max_pip))
        except ChickenFootError:
            return False  # reported by the reader already
    try:
        final = Record(dealt, moves).final()
    except RecordMoveError as err:
        line, column = main[err.index].at
        why = f"{err.text} cannot be played: {err.reason}"
        if honest:
            fail(line, f"the deal of {name} does not play out as written: {why}", column)
        else:
            fail(at, f"{name}: its deal does not play out as written: line {line}: {why}", 1)
        return False
    for header, value in result_headers(final):
        if ctx.headers.get(header) != value:
            fail(
                ctx.at.get(header, 1),
                f"{header}: the deal of {name} plays out to {value!r}, not "
                f"{brief(ctx.headers.get(header), 40)}",
                1,
            )
            return False
    return True
