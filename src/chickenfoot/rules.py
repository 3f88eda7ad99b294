"""The rules configuration: every house-rule variant of the rules page (docs/rules.md), validated.

>>> r = Rules()
>>> r.players, r.max_pip, r.hand_size, r.opening_toes, r.match
(4, 9, 11, 6, Rounds(count=10))
>>> Rules(players=7).max_pip, Rules(players=7).hand_size
(12, 10)
>>> r.replace(double_blank=25).double_blank
25
>>> Rules.preset("four-toe").opening_toes
4
>>> Rules(players=4, max_pip=3)
Traceback (most recent call last):
...
chickenfoot.errors.RulesError: hand_size is required: (players=4, max_pip=3) is not in the R2 table (2-6 players with max_pip=9, 7-8 with max_pip=12)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, Final, Literal, TypeGuard

import attrs

from chickenfoot import _checks as checks
from chickenfoot.errors import RulesError, brief
from chickenfoot.tiles import MAX_PIP, set_size

__all__ = [
    "MAX_DOUBLE_BLANK",
    "MAX_THRESHOLD",
    "PRESETS",
    "CentreMode",
    "DrawMode",
    "DrawnTileMode",
    "MatchLength",
    "Rounds",
    "Rules",
    "Threshold",
    "TieBreak",
]

CentreMode = Literal["set_aside", "holder"]
DrawMode = Literal["one", "until_playable"]
DrawnTileMode = Literal["must_play", "may_play"]
TieBreak = Literal["shared", "zero_rounds"]

HAND_SIZES: Final[Mapping[tuple[int, int], int]] = {
    (2, 9): 20,
    (3, 9): 14,
    (4, 9): 11,
    (5, 9): 9,
    (6, 9): 7,
    (7, 12): 10,
    (8, 12): 9,
}
"""The R2 deal table: ``(players, max_pip) -> hand_size``."""


MAX_DOUBLE_BLANK: Final = 1_000
"""The most points ``double_blank`` may give the 0-0 (real tables use 0, 25 or 50).

With it, no seat ever holds more than 3,420 + 1,000 points (every tile of the double-18
set), and every penalty, score and match total of a :data:`MAX_THRESHOLD` match stays
below ``2**24``: exact as an int32, and even as a float32 reward (docs/rules.md, "Ranges")."""

MAX_THRESHOLD: Final = 1_000_000
"""The largest threshold of a ``Threshold`` match (real tables play to 100-500)."""


def _is_int(value: object) -> TypeGuard[int]:
    """An int, and not a bool (``True`` is an int to Python, not a count to us)."""
    return type(value) is int


def _check_count(instance: Rounds, attribute: attrs.Attribute[int], value: object) -> None:
    if not _is_int(value) or not 1 <= value <= MAX_PIP + 1:
        raise _fail("rounds", value, f"must be an integer from 1 to {MAX_PIP + 1}", "match")


def _check_points(instance: Threshold, attribute: attrs.Attribute[int], value: object) -> None:
    if not _is_int(value) or not 0 <= value <= MAX_THRESHOLD:
        raise _fail("threshold", value, f"must be an integer from 0 to {MAX_THRESHOLD:,}", "match")


def _check_inclusive(instance: Threshold, attribute: attrs.Attribute[bool], value: object) -> None:
    if type(value) is not bool:
        raise _fail("inclusive", value, "must be true or false", "match")


@attrs.frozen
class Rounds:
    """Play a fixed number of rounds (``{"rounds": k}``), 1 to N+1.

    It checks itself when built (``count`` from 1 to 19, the most any set has); the
    rules then check it against their set. Errors are :class:`RulesError` of field
    ``match``.

    >>> Rounds(5).to_dict()
    {'rounds': 5}
    >>> Rounds(0)
    Traceback (most recent call last):
    ...
    chickenfoot.errors.RulesError: rounds=0 is invalid: must be an integer from 1 to 19
    """

    count: int = attrs.field(validator=_check_count)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (the ``match`` field of the rules object, docs/formats.md)."""
        return {"rounds": self.count}


@attrs.frozen
class Threshold:
    """Play until some total exceeds ``points`` (or reaches it, if ``inclusive``).

    It checks itself when built: ``points`` from 0 to :data:`MAX_THRESHOLD`, ``inclusive``
    a bool; errors are :class:`RulesError` of field ``match``.

    >>> Threshold(200).to_dict()
    {'threshold': 200, 'inclusive': False}
    >>> Threshold(-1)
    Traceback (most recent call last):
    ...
    chickenfoot.errors.RulesError: threshold=-1 is invalid: must be an integer from 0 to 1,000,000
    """

    points: int = attrs.field(validator=_check_points)
    inclusive: bool = attrs.field(default=False, kw_only=True, validator=_check_inclusive)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (the ``match`` field of the rules object, docs/formats.md)."""
        return {"threshold": self.points, "inclusive": self.inclusive}


MatchLength = Rounds | Threshold
"""How long a match lasts: :class:`Rounds` or :class:`Threshold`."""


def _fail(field: str, value: object, valid: str, of: str = "") -> RulesError:
    """``FIELD=VALUE is invalid: VALID``, a :class:`RulesError` of field ``of`` (default:
    ``field`` itself)."""
    name = field if len(field) <= 40 else brief(field, 40)  # an unknown field may be long
    return RulesError(f"{name}={brief(value)} is invalid: {valid}", field=of or field)


def _check_players(value: object) -> int:
    if not _is_int(value) or value < 2:
        raise _fail("players", value, "must be an integer of at least 2")
    return value


def _check_max_pip(value: object) -> int:
    if not _is_int(value) or not 2 <= value <= MAX_PIP:
        raise _fail("max_pip", value, f"must be an integer from 2 to {MAX_PIP}")
    return value


@attrs.frozen(kw_only=True)
class Rules:
    """A validated, immutable rules configuration; defaults are the house rules.

    Every field is keyword-only; the fields and their ranges are the variants of the rules
    page (docs/rules.md, "Variants"). ``max_pip``, ``hand_size`` and ``match`` default from
    ``players`` as that table says; an impossible configuration raises :class:`RulesError`
    naming the field, the value and what would be valid. Nothing is silently adjusted.

    >>> Rules(players=2, max_pip=3, hand_size=3, opening_toes=2, foot_toes=1).match
    Rounds(count=4)
    >>> Rules(opening_toes=10)
    Traceback (most recent call last):
    ...
    chickenfoot.errors.RulesError: opening_toes=10 is invalid: must be an integer from 1 to max_pip (9)
    """

    players: int = 4
    max_pip: int = attrs.field()
    hand_size: int = attrs.field()
    opening_toes: int = 6
    foot_toes: int = 3
    double_blank: int = 50
    centre: CentreMode = "set_aside"
    draw: DrawMode = "one"
    drawn_tile: DrawnTileMode = "must_play"
    may_draw_instead: bool = False
    match: MatchLength = attrs.field()
    tie_break: TieBreak = "shared"
    first_leader: int = 0

    def __new__(cls, *args: Any, **fields: Any) -> Rules:
        # Runs before the attrs __init__, so an unknown field is a RulesError naming it
        # (not the TypeError of an unexpected keyword). Type checkers still see __init__.
        for name, value in fields.items():
            if name not in _FIELDS:
                raise _fail(name, value, f"not a rules field (fields: {', '.join(_FIELDS)})")
        return super().__new__(cls)

    @max_pip.default
    def _default_max_pip(self) -> int:
        return 9 if _check_players(self.players) <= 6 else 12

    @hand_size.default
    def _default_hand_size(self) -> int:
        key = (_check_players(self.players), _check_max_pip(self.max_pip))
        if key not in HAND_SIZES:
            raise RulesError(
                f"hand_size is required: (players={brief(key[0])}, max_pip={key[1]}) is not in the "
                "R2 table (2-6 players with max_pip=9, 7-8 with max_pip=12)",
                field="hand_size",
            )
        return HAND_SIZES[key]

    @match.default
    def _default_match(self) -> MatchLength:
        return Rounds(_check_max_pip(self.max_pip) + 1)

    def __attrs_post_init__(self) -> None:
        players = _check_players(self.players)
        n = _check_max_pip(self.max_pip)
        dealt = set_size(n) - (1 if self.centre == "set_aside" else 0)
        if self.centre not in ("set_aside", "holder"):
            raise _fail("centre", self.centre, "must be 'set_aside' or 'holder'")
        if players > dealt:
            raise _fail(
                "players",
                players,
                f"must be at most {dealt}: the double-{n} set deals {dealt} tiles "
                f"({self.centre} mode), one at least for each player",
            )
        hs = self.hand_size
        if not _is_int(hs) or hs < 1 or players * hs > dealt:
            raise _fail(
                "hand_size",
                hs,
                f"must be an integer from 1 to {dealt // players} "
                f"({players} players x hand_size <= {dealt} tiles dealt)",
            )
        if not _is_int(self.opening_toes) or not 1 <= self.opening_toes <= n:
            raise _fail(
                "opening_toes", self.opening_toes, f"must be an integer from 1 to max_pip ({n})"
            )
        if not _is_int(self.foot_toes) or not 1 <= self.foot_toes <= n - 1:
            raise _fail(
                "foot_toes", self.foot_toes, f"must be an integer from 1 to max_pip - 1 ({n - 1})"
            )
        if not _is_int(self.double_blank) or not 0 <= self.double_blank <= MAX_DOUBLE_BLANK:
            raise _fail(
                "double_blank",
                self.double_blank,
                f"must be an integer from 0 to {MAX_DOUBLE_BLANK:,}",
            )
        if self.draw not in ("one", "until_playable"):
            raise _fail("draw", self.draw, "must be 'one' or 'until_playable'")
        if self.drawn_tile not in ("must_play", "may_play"):
            raise _fail("drawn_tile", self.drawn_tile, "must be 'must_play' or 'may_play'")
        if type(self.may_draw_instead) is not bool:
            raise _fail("may_draw_instead", self.may_draw_instead, "must be true or false")
        m = self.match
        if isinstance(m, Rounds):
            if m.count > n + 1:
                raise _fail("match", m, f"rounds must be an integer from 1 to {n + 1}")
        elif not isinstance(m, Threshold):
            raise _fail("match", m, "must be Rounds(k) or Threshold(T, inclusive=...)")
        if self.tie_break not in ("shared", "zero_rounds"):
            raise _fail("tie_break", self.tie_break, "must be 'shared' or 'zero_rounds'")
        if not _is_int(self.first_leader) or not 0 <= self.first_leader < players:
            raise _fail(
                "first_leader", self.first_leader, f"must be a seat from 0 to {players - 1}"
            )

    # -- derived -------------------------------------------------------------------------

    @property
    def set_size(self) -> int:
        """Tiles in the double-``max_pip`` set.

        >>> Rules().set_size
        55
        """
        return set_size(self.max_pip)

    @property
    def max_penalty(self) -> int:
        """No seat ends a round with more penalty points (R11) than this: the values of the
        ``hand_size`` + boneyard most valuable tiles of the set (a seat that never plays and
        draws every tile), ``0-0`` counting ``double_blank``. Every score of a round is from
        0 to this, so it also bounds rewards; at most 4,420 (double-18, ``double_blank``
        1,000).

        >>> Rules().max_penalty, Rules(players=2, max_pip=18, hand_size=20).max_penalty
        (320, 3364)
        """
        n = self.max_pip
        dealt = set_size(n) - (1 if self.centre == "set_aside" else 0)
        held = dealt - self.players * self.hand_size + self.hand_size
        values = sorted(
            (
                self.double_blank if a == b == 0 else a + b
                for a in range(n + 1)
                for b in range(a + 1)
            ),
            reverse=True,
        )
        return sum(values[:held])

    @property
    def rounds_in_cycle(self) -> int:
        """``max_pip + 1``: one round per double, from N-N down to 0-0."""
        return self.max_pip + 1

    def centre_of_round(self, round: int) -> int:
        """The number of the centre double of round ``round`` (0-based, a non-negative
        integer of at most 4,000 digits, as for :func:`~chickenfoot.deal`), wrapping past 0-0.

        >>> [Rules().centre_of_round(k) for k in (0, 1, 9, 10)]
        [9, 8, 0, 9]
        """
        if type(round) is not int or not 0 <= round < checks.SEED_BOUND:
            checks.seed(round, "round", low=0)  # raises, naming what is wrong
        return self.max_pip - round % (self.max_pip + 1)

    def leader_of_round(self, round: int) -> int:
        """The R5 seat that starts round ``round``.

        >>> Rules(first_leader=3).leader_of_round(2)
        1
        """
        if type(round) is not int or not 0 <= round < checks.SEED_BOUND:
            checks.seed(round, "round", low=0)  # raises, naming what is wrong
        return (self.first_leader + round) % self.players

    def replace(self, **changes: Any) -> Rules:
        """A copy with ``changes`` applied and validated (like :func:`attrs.evolve`).

        Fields not named keep their values, derived ones included: to change ``players``
        across the R2 table, give ``max_pip`` and ``hand_size`` too or build a new ``Rules``.

        >>> Rules().replace(opening_toes=4).opening_toes
        4
        """
        return attrs.evolve(self, **changes)

    # -- presets -------------------------------------------------------------------------

    @classmethod
    def preset(cls, name: str, *, players: int = 4, **changes: Any) -> Rules:
        """The named preset (``house``, ``four-toe``, ``classic``) for ``players``.

        >>> c = Rules.preset("classic", players=8)
        >>> c.max_pip, c.hand_size, c.centre, c.opening_toes, c.tie_break
        (12, 7, 'holder', 4, 'zero_rounds')
        """
        try:
            extra = PRESETS[name] if isinstance(name, str) else None
            if extra is None:
                raise KeyError(name)
        except KeyError:
            raise _fail("preset", name, f"must be one of {', '.join(map(repr, PRESETS))}") from None
        return cls(players=players, **{**extra, **changes})

    # -- JSON ----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Every field, as the rules object of docs/formats.md.

        >>> Rules().to_dict()["match"]
        {'rounds': 10}
        """
        return {
            "players": self.players,
            "max_pip": self.max_pip,
            "hand_size": self.hand_size,
            "opening_toes": self.opening_toes,
            "foot_toes": self.foot_toes,
            "double_blank": self.double_blank,
            "centre": self.centre,
            "draw": self.draw,
            "drawn_tile": self.drawn_tile,
            "may_draw_instead": self.may_draw_instead,
            "match": self.match.to_dict(),
            "tie_break": self.tie_break,
            "first_leader": self.first_leader,
        }

    @classmethod
    def from_dict(cls, obj: Any) -> Rules:
        """Read the rules object of docs/formats.md; missing fields take their defaults.

        Unknown fields and wrong types raise :class:`RulesError` naming the field.

        >>> Rules.from_dict({"players": 3, "match": {"threshold": 100}}).match
        Threshold(points=100, inclusive=False)
        >>> Rules.from_dict({"player": 3})
        Traceback (most recent call last):
        ...
        chickenfoot.errors.RulesError: player=3 is invalid: not a rules field (fields: players, max_pip, hand_size, opening_toes, foot_toes, double_blank, centre, draw, drawn_tile, may_draw_instead, match, tie_break, first_leader)
        """
        if not isinstance(obj, Mapping):
            raise _fail("rules", obj, "must be a JSON object")
        for key, value in obj.items():
            if key not in _FIELDS:
                name = key if isinstance(key, str) else brief(key)
                raise _fail(name, value, f"not a rules field (fields: {', '.join(_FIELDS)})")
        kwargs = dict(obj)
        if "match" in kwargs:
            kwargs["match"] = _match_from_dict(kwargs["match"])
        return cls(**kwargs)


def _match_from_dict(obj: Any) -> MatchLength:
    valid = '{"rounds": k} or {"threshold": T, "inclusive": false}'
    if isinstance(obj, Mapping):
        keys = set(obj)
        if keys == {"rounds"}:
            return Rounds(obj["rounds"])
        if keys in ({"threshold"}, {"threshold", "inclusive"}):
            return Threshold(obj["threshold"], inclusive=obj.get("inclusive", False))
    raise _fail("match", obj, f"must be {valid}")


_FIELDS: Final = tuple(a.name for a in attrs.fields(Rules))

PRESETS: Final[Mapping[str, Mapping[str, Any]]] = {
    "house": {},
    "four-toe": {"opening_toes": 4},
    "classic": {"hand_size": 7, "centre": "holder", "opening_toes": 4, "tie_break": "zero_rounds"},
}
"""Preset name -> the fields it sets over the house rules (``players`` is chosen by the caller)."""


def half_match(max_pip: int) -> Rounds:
    """The half match of a double-``max_pip`` set: ``ceil((N+1)/2)`` rounds.

    >>> half_match(9), half_match(12)
    (Rounds(count=5), Rounds(count=7))
    """
    checks.integer(max_pip, "max_pip", low=2, high=MAX_PIP, error=RulesError)
    return Rounds(math.ceil((max_pip + 1) / 2))
