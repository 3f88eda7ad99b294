"""How a table deals: each round from its own seed, so each can be checked when it ends.

A table has a secret of 128 bits (:func:`~chickenfoot.commitment.fresh_seed`); round ``k``
is ``deal(rules, round_seed(secret, k), k)`` (docs/formats.md, "Deal commitments"). The
round's commitment is public from its deal on; its seed once it is over, which says
nothing of the secret or of another round (docs/serve.md, "Deals anyone can check").
"""

from __future__ import annotations

from chickenfoot.commitment import commitment, round_seed
from chickenfoot.deal import deal
from chickenfoot.match import Match
from chickenfoot.rules import Rules

__all__ = ["deal_headers", "deal_round"]


def deal_round(match: Match, secret: int) -> Match:
    """``match`` with its round in play, just dealt, dealt again from that round's own
    seed: ``deal(rules, round_seed(secret, k), k)``.

    >>> from chickenfoot import Rules
    >>> m = deal_round(Match.start(Rules(players=2), seed=5), 5)
    >>> m.round == deal(Rules(players=2), round_seed(5, 0), 0)
    True
    """
    k = match.rounds_played
    if match.round is None:
        return match
    fresh = deal(match.rules, round_seed(secret, k), k)
    return Match(match.rules, match.seed, match.scores, fresh, last_round=match.last_round)


def deal_headers(rules: Rules, secret: int, k: int, *, over: bool) -> dict[str, str]:
    """The notation headers of round ``k``'s deal (docs/notation.md, "Checking a deal"):
    ``Round`` and ``Commitment``, and ``DealSeed`` once the round is ``over`` (never
    before: it deals every hand of that round).

    >>> from chickenfoot import Rules
    >>> sorted(deal_headers(Rules(), 5, 0, over=False)), sorted(deal_headers(Rules(), 5, 0, over=True))
    (['Commitment', 'Round'], ['Commitment', 'DealSeed', 'Round'])
    """
    seed = round_seed(secret, k)
    out = {"Round": str(k), "Commitment": commitment(rules, seed, round=k)}
    if over:
        out["DealSeed"] = str(seed)
    return out
