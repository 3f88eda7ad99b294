"""chickenfoot: the rules of the domino game Chicken Foot, exactly, fast and typed.

>>> import chickenfoot as cf
>>> s = cf.deal(cf.Rules(), seed=42)
>>> while not s.is_over():
...     s = cf.apply(s, cf.legal_moves(s)[0])
>>> s.outcome() is not None and len(s.penalties()) == 4
True
"""

from chickenfoot.agents import (
    Agent,
    GreedyAgent,
    HeuristicAgent,
    RandomAgent,
    SearchAgent,
    play_match,
    play_round,
)
from chickenfoot.deal import deal, shuffled_tiles
from chickenfoot.errors import (
    AgentError,
    ArgumentError,
    BudgetError,
    ChickenFootError,
    FormatError,
    IllegalMoveError,
    InvalidMoveError,
    LadderError,
    RulesError,
    SeatError,
)
from chickenfoot.ismcts import ISMCTSAgent
from chickenfoot.match import (
    MATCH_FORMAT,
    Match,
    MatchResult,
    Standing,
    match_apply,
    match_legal_moves,
)
from chickenfoot.moves import DRAW, PASS, Draw, Event, Move, Pass, Play, parse_move
from chickenfoot.outcome import Outcome, Termination
from chickenfoot.perft import perft
from chickenfoot.picture import svg
from chickenfoot.playout import Policy, playout
from chickenfoot.record import RECORD_FORMAT, Record, RecordMoveError
from chickenfoot.render import render, render_compact
from chickenfoot.rules import PRESETS, MatchLength, Rounds, Rules, Threshold, half_match
from chickenfoot.simulation import AgentStats, SimulationResult, simulate
from chickenfoot.solve import Solution, solve
from chickenfoot.state import (
    LegalMoves,
    Phase,
    State,
    apply,
    is_legal,
    legal_moves,
    outcome,
    penalties,
)
from chickenfoot.table import Hub, Line, Placed, Table
from chickenfoot.tiles import MAX_PIP, Tile, set_size, tile_id, tiles_of_set
from chickenfoot.view import VIEW_FORMAT, View, view

__version__ = "0.1.0"

__all__ = [
    "DRAW",
    "MATCH_FORMAT",
    "MAX_PIP",
    "PASS",
    "PRESETS",
    "RECORD_FORMAT",
    "VIEW_FORMAT",
    "Agent",
    "AgentError",
    "AgentStats",
    "ArgumentError",
    "BudgetError",
    "ChickenFootError",
    "Draw",
    "Event",
    "FormatError",
    "GreedyAgent",
    "HeuristicAgent",
    "ISMCTSAgent",
    "Hub",
    "IllegalMoveError",
    "InvalidMoveError",
    "LadderError",
    "LegalMoves",
    "Line",
    "Match",
    "MatchLength",
    "MatchResult",
    "Move",
    "Outcome",
    "Pass",
    "Phase",
    "Placed",
    "Play",
    "Policy",
    "RandomAgent",
    "Record",
    "RecordMoveError",
    "Rounds",
    "Rules",
    "RulesError",
    "SearchAgent",
    "SeatError",
    "SimulationResult",
    "Solution",
    "Standing",
    "State",
    "Table",
    "Termination",
    "Threshold",
    "Tile",
    "View",
    "apply",
    "deal",
    "half_match",
    "is_legal",
    "legal_moves",
    "match_apply",
    "match_legal_moves",
    "outcome",
    "parse_move",
    "penalties",
    "perft",
    "play_match",
    "play_round",
    "playout",
    "render",
    "render_compact",
    "set_size",
    "shuffled_tiles",
    "simulate",
    "solve",
    "svg",
    "tile_id",
    "tiles_of_set",
    "view",
]
