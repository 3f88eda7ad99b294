"""Deals anyone can check: a commitment to a round's deal (docs/formats.md, "Deal commitments").

Before the first move of a round, the dealer publishes :func:`commitment`: SHA-256 over the
rules, a secret seed and the round's number, in lowercase hex. Once the round is over it
reveals the seed; anyone then deals ``deal(rules, seed, round)`` again, checks that it is
the round that was played, and checks the commitment with :func:`check_commitment`. A seed
of :data:`SEED_BITS` random bits (:func:`fresh_seed`) makes the commitment say nothing of
the deal; a small seed could be found by trying them all.

>>> from chickenfoot import Rules
>>> c = commitment(Rules(), 1000)
>>> c[:16], len(c)
('2eb6b1e78998c644', 64)
>>> check_commitment(c, Rules(), 1000), check_commitment(c, Rules(), 1001)
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from typing import Final

from chickenfoot import _checks as checks
from chickenfoot.rules import Rules

__all__ = [
    "COMMITMENT_TAG",
    "ROUND_SEED_TAG",
    "SEED_BITS",
    "check_commitment",
    "commitment",
    "commitment_bytes",
    "fresh_seed",
    "round_seed",
]

COMMITMENT_TAG: Final = b"chickenfoot/deal-commitment/1"
"""The first line of the bytes a commitment hashes (its domain and version)."""
ROUND_SEED_TAG: Final = b"chickenfoot/round-seed/1"
"""The first line of the bytes :func:`round_seed` hashes."""
SEED_BITS: Final = 128
"""The random bits of a secure seed (:func:`fresh_seed`)."""


def _rules(rules: object) -> Rules:
    if not isinstance(rules, Rules):
        raise checks.invalid("rules", rules, "must be a Rules object")
    return rules


def commitment_bytes(rules: Rules, seed: int, *, round: int = 0) -> bytes:
    """The bytes a commitment hashes: four lines joined by ``\\n`` (no newline at the end),
    all ASCII: :data:`COMMITMENT_TAG`; the rules as canonical JSON (``rules.to_dict()``
    with sorted keys, no spaces, ASCII escapes); the seed in decimal; the round in decimal.

    >>> from chickenfoot import Rules
    >>> commitment_bytes(Rules(players=2), 5, round=1).split(b"\\n")[2:]
    [b'5', b'1']
    """
    fields = json.dumps(_rules(rules).to_dict(), sort_keys=True, separators=(",", ":"))
    seed = checks.seed(seed)
    round = checks.seed(round, "round", low=0)
    return b"\n".join((COMMITMENT_TAG, fields.encode("ascii"), b"%d" % seed, b"%d" % round))


def commitment(rules: Rules, seed: int, *, round: int = 0) -> str:
    """The commitment to round ``round`` dealt by ``deal(rules, seed, round)``: the
    SHA-256 of :func:`commitment_bytes`, 64 lowercase hex digits.

    >>> from chickenfoot import Rules
    >>> commitment(Rules(), 1000) != commitment(Rules(), 1000, round=1)
    True
    """
    return hashlib.sha256(commitment_bytes(rules, seed, round=round)).hexdigest()


def check_commitment(value: str, rules: Rules, seed: int, *, round: int = 0) -> bool:
    """Whether ``value`` is the commitment of ``seed`` to round ``round`` under ``rules``
    (exactly the 64 lowercase hex digits :func:`commitment` writes; compared in constant
    time).

    >>> from chickenfoot import Rules
    >>> check_commitment(commitment(Rules(), 7), Rules(), 7), check_commitment("7", Rules(), 7)
    (True, False)
    """
    if not isinstance(value, str):
        raise checks.invalid("commitment", value, "must be text (64 lowercase hex digits)")
    expected = commitment(rules, seed, round=round)
    return hmac.compare_digest(value.encode("utf-8", "replace"), expected.encode("ascii"))


def fresh_seed() -> int:
    """A secure seed: :data:`SEED_BITS` bits from the operating system's generator
    (:mod:`secrets`), a non-negative integer below ``2**128``.

    >>> 0 <= fresh_seed() < 2**SEED_BITS
    True
    """
    return secrets.randbits(SEED_BITS)


def round_seed(secret: int, round: int) -> int:
    """The seed of round ``round`` of a match whose secret is ``secret``: the first 16
    bytes, big-endian, of the SHA-256 of :data:`ROUND_SEED_TAG`, the secret and the round
    in decimal, joined by ``\\n``. Revealing one round's seed says nothing of the secret
    or of another round's seed, so each round's seed can be revealed when it ends.

    >>> round_seed(12345, 0) != round_seed(12345, 1), round_seed(1, 0) < 2**128
    (True, True)
    """
    secret = checks.seed(secret, "secret", low=0)
    round = checks.seed(round, "round", low=0)
    text = b"\n".join((ROUND_SEED_TAG, b"%d" % secret, b"%d" % round))
    return int.from_bytes(hashlib.sha256(text).digest()[:16], "big")
