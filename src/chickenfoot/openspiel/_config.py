"""The OpenSpiel game's parameters and the configuration its states share (private).

:mod:`chickenfoot.openspiel` builds the game on these: :func:`parameters` and
:func:`rules_from_parameters` translate between :class:`~chickenfoot.Rules` and OpenSpiel's
flat parameters, and :func:`config` gives the one :class:`Config` (encodings, game length,
utility bounds) that every state of a game shares. OpenSpiel itself is optional: it is
imported here, once, as :data:`pyspiel` (``None`` without it).
"""

from __future__ import annotations

import importlib
from functools import lru_cache
from typing import Any

from chickenfoot._checks import choice, instance
from chickenfoot.encoding import Encoding
from chickenfoot.errors import ArgumentError, RulesError, brief
from chickenfoot.rules import Rounds, Rules, Threshold
from chickenfoot.tiles import DOUBLE_ID, Tile, set_size

__all__ = [
    "pyspiel",
    "DEFAULTS",
    "GAME_NAME",
    "INFO_HISTORY",
    "INT_MAX",
    "MAX_PLAYERS",
    "SCOPES",
    "UTILITIES",
    "Config",
    "config",
    "parameters",
    "rules_from_parameters",
]

# OpenSpiel is optional and has no type information: the package type-checks the same with
# or without it.
pyspiel: Any
"""The ``pyspiel`` module, or ``None`` when OpenSpiel is not installed."""
try:
    pyspiel = importlib.import_module("pyspiel")
except ImportError:  # pragma: no cover - depends on the environment
    pyspiel = None

GAME_NAME = "python_chickenfoot"
"""The short name the game is registered under."""

INFO_HISTORY = 64
"""How many recent public events the information-state tensor carries (the most the
encoding holds); the information-state *string* carries the whole history."""

SCOPES = ("round", "match")
UTILITIES = ("auto", "penalty", "zero_sum", "win")

DEFAULTS: dict[str, Any] = {
    "players": 4,
    "max_pip": -1,
    "hand_size": -1,
    "opening_toes": 6,
    "foot_toes": 3,
    "double_blank": 50,
    "centre": "set_aside",
    "draw": "one",
    "drawn_tile": "must_play",
    "may_draw_instead": False,
    "tie_break": "shared",
    "first_leader": 0,
    "match_rounds": -1,
    "match_threshold": -1,
    "match_inclusive": False,
    "scope": "round",
    "utility": "auto",
}
"""The parameter specification: every field of :class:`~chickenfoot.Rules` (``-1``: the
rules' own default), the match length flattened, the scope and the utility model."""

MAX_PLAYERS = set_size(18)  # the largest set: one tile each
INT_MAX = 2**31 - 1
"""OpenSpiel keeps a game's lengths in C++ ints."""


# -- parameters ---------------------------------------------------------------------------------


def rules_from_parameters(params: dict[str, Any]) -> tuple[Rules, str, str]:
    """The rules, scope and utility model named by game parameters (the library's checks).

    Raises :class:`~chickenfoot.RulesError` for a bad rules value and
    :class:`~chickenfoot.ArgumentError` for a bad scope or utility.
    """
    p = {**DEFAULTS, **instance(params, dict, "the game's parameters")}
    unknown = [name for name in p if name not in DEFAULTS]
    if unknown:
        raise ArgumentError(
            f"unknown parameter {brief(unknown[0])} (parameters: {', '.join(DEFAULTS)})"
        )
    scope, utility = choice(p["scope"], "scope", SCOPES), choice(p["utility"], "utility", UTILITIES)
    fields: dict[str, Any] = {
        name: p[name]
        for name in (
            "players",
            "opening_toes",
            "foot_toes",
            "double_blank",
            "centre",
            "draw",
            "drawn_tile",
            "may_draw_instead",
            "tie_break",
            "first_leader",
        )
    }
    for name in ("max_pip", "hand_size"):
        if p[name] != -1:
            fields[name] = p[name]
    rounds, threshold, inclusive = p["match_rounds"], p["match_threshold"], p["match_inclusive"]
    if rounds != -1 and threshold != -1:
        raise RulesError(
            f"match_rounds={brief(rounds)} and match_threshold={brief(threshold)}: "
            "give one match length, not both",
            field="match",
        )
    if threshold != -1:
        if type(inclusive) is not bool:
            raise RulesError(f"match_inclusive={brief(inclusive)} is invalid: must be a bool")
        fields["match"] = _length("match_threshold", threshold, Threshold, inclusive=inclusive)
    else:
        if inclusive is not False:
            raise RulesError(
                f"match_inclusive={brief(inclusive)} is invalid: it applies only with "
                "match_threshold",
                field="match",
            )
        if rounds != -1:
            fields["match"] = _length("match_rounds", rounds, Rounds)
    rules = Rules(**fields)
    if utility == "auto":
        utility = "penalty" if scope == "round" else "win"
    return rules, scope, utility


def _length(name: str, value: Any, kind: Any, **options: Any) -> Any:
    """``kind(value, **options)`` (a match length), its error naming the game parameter."""
    try:
        return kind(value, **options)
    except RulesError as err:
        raise RulesError(f"{name}={brief(value)}: {err}", field="match") from None


def parameters(
    rules: Rules | None = None, *, scope: str = "round", utility: str = "auto"
) -> dict[str, Any]:
    """The game parameters of ``rules`` (default: the house rules), for ``pyspiel.load_game``.

    >>> from chickenfoot import Rules
    >>> p = parameters(Rules(players=2, draw="until_playable"), scope="match")
    >>> p["players"], p["max_pip"], p["hand_size"], p["draw"], p["match_rounds"], p["scope"]
    (2, 9, 20, 'until_playable', 10, 'match')
    """
    if rules is None:
        rules = Rules()
    if not isinstance(rules, Rules):
        raise RulesError(f"rules={brief(rules)} is invalid: must be a Rules object", field="rules")
    d = rules.to_dict()
    match = d.pop("match")
    out: dict[str, Any] = {**d, "scope": scope, "utility": utility}
    out["match_rounds"] = match.get("rounds", -1)
    out["match_threshold"] = match.get("threshold", -1)
    out["match_inclusive"] = match.get("inclusive", False)
    rules_from_parameters(out)  # checks scope and utility
    return out


# -- the configuration shared by a game's states --------------------------------------------------


class Config:
    """Everything fixed by the parameters; shared by every state (never copied)."""

    def __init__(self, rules: Rules, scope: str, utility: str) -> None:
        self.rules = rules
        self.scope = scope
        self.utility = utility
        self.players = p = rules.players
        self.hand_size = hs = rules.hand_size
        self.enc = Encoding(rules)
        self.enc_info = Encoding(rules, history=INFO_HISTORY)
        n = rules.set_size
        dealt = n - 1 if rules.centre == "set_aside" else n
        self.dealt = p * hs
        bone = dealt - p * hs
        # The worst hand: the hand_size + boneyard most costly tiles of the set.
        values = sorted(
            (rules.double_blank if t == 0 else _pips(t) for t in range(n)), reverse=True
        )
        worst = sum(values[: hs + bone])
        h = p * hs
        # A round's decisions (docs/openspiel.md, "Game length"): plays, draws, passes after
        # a draw, and passes with nothing drawn in runs of at most p - 1 between the others.
        moves = (h + bone) + bone + (bone + 1) + (p - 1) * (h + bone + 2)
        m = rules.match
        if scope == "round":
            rounds, total = 1, worst
        elif isinstance(m, Rounds):
            rounds, total = m.count, m.count * worst
        else:
            if p == 2 and rules.double_blank == 0:
                raise ArgumentError(
                    "a threshold match of 2 players with double_blank=0 can last forever "
                    "(each round may score 0 for both), so it has no maximum game length: "
                    "use match_rounds, or a double_blank above 0"
                )
            # every round adds at least 1 to the sum of the totals (see the docs page)
            rounds, total = p * m.points + 1, m.points + worst
            # OpenSpiel adds as many chance nodes for max_history_length, a C++ int too (the
            # longest game of any other scope, double-18 with 189 players, is 689,491).
            if 2 * rounds * moves > INT_MAX:
                most = ((INT_MAX // 2) // moves - 1) // p
                raise ArgumentError(
                    f"a match of {p} players to {m.points:,} points may last "
                    f"{rounds * moves:,} decisions, and OpenSpiel counts a game's history "
                    f"(decisions and chance nodes, twice that) in a C++ int of at most "
                    f"{INT_MAX:,}: use match_threshold={most:,} or less with {p} players, "
                    "or match_rounds"
                )
        # OpenSpiel's game length counts decisions; its history bound adds as many chance
        # nodes (it takes max_game_length for their bound), and a round's deal and draws,
        # h + bone, are fewer than its decisions.
        self.max_game_length = rounds * moves
        self.max_chance_nodes = rounds * (h + bone)
        if utility == "penalty":
            self.min_utility, self.max_utility = -float(total), 0.0
        elif utility == "zero_sum":
            self.min_utility, self.max_utility = -float((p - 1) * total), float((p - 1) * total)
        else:
            self.min_utility, self.max_utility = -float(p - 1), float(p - 1)
        self.match_size = 1 + p if scope == "match" else 0

    def __deepcopy__(self, memo: Any) -> Config:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (config, (self.rules, self.scope, self.utility))

    def pool(self, round: int) -> tuple[int, ...]:
        """The tile ids dealt in round ``round``, in id order."""
        ids = range(self.rules.set_size)
        if self.rules.centre == "set_aside":
            centre = DOUBLE_ID[self.rules.centre_of_round(round)]
            return tuple(t for t in ids if t != centre)
        return tuple(ids)


def _pips(t: int) -> int:
    return Tile.from_id(t).pips


@lru_cache(maxsize=64)
def config(rules: Rules, scope: str, utility: str) -> Config:
    return Config(rules, scope, utility)
