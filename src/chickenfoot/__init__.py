"""chickenfoot: the rules of the domino game Chicken Foot, exactly, fast and typed.

>>> import chickenfoot as cf
>>> s = cf.deal(cf.Rules(), seed=42)
>>> while not s.is_over():
...     s = cf.apply(s, cf.legal_moves(s)[0])
>>> s.outcome() is not None and len(s.penalties()) == 4
True
"""

from chickenfoot.deal import deal, shuffled_tiles
from chickenfoot.errors import (
    ChickenFootError,
    FormatError,
    IllegalMoveError,
    InvalidMoveError,
    RulesError,
)
from chickenfoot.moves import DRAW, PASS, Draw, Move, Pass, Play, parse_move
from chickenfoot.outcome import Outcome, Termination
from chickenfoot.perft import perft
from chickenfoot.rules import PRESETS, MatchLength, Rounds, Rules, Threshold, half_match
from chickenfoot.state import LegalMoves, Phase, State, apply, legal_moves, outcome, penalties
from chickenfoot.tiles import MAX_PIP, Tile, set_size, tile_id, tiles_of_set

__version__ = "0.1.0"

__all__ = [
    "DRAW",
    "MAX_PIP",
    "PASS",
    "PRESETS",
    "ChickenFootError",
    "Draw",
    "FormatError",
    "IllegalMoveError",
    "InvalidMoveError",
    "LegalMoves",
    "MatchLength",
    "Move",
    "Outcome",
    "Pass",
    "Phase",
    "Play",
    "Rounds",
    "Rules",
    "RulesError",
    "State",
    "Termination",
    "Threshold",
    "Tile",
    "apply",
    "deal",
    "half_match",
    "legal_moves",
    "outcome",
    "parse_move",
    "penalties",
    "perft",
    "set_size",
    "shuffled_tiles",
    "tile_id",
    "tiles_of_set",
]
