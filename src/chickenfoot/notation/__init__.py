"""The notation of rounds and matches (docs/notation.md): text to read, mail and diff.

>>> from chickenfoot import Rules, deal
>>> from chickenfoot.record import Record
>>> from chickenfoot.notation import read_game, write_game
>>> import io
>>> rec = Record(deal(Rules(), seed=1), ["9-3@9-9", "draw", "pass"])
>>> game = read_game(io.StringIO(write_game(rec, headers={"Event": "club"})))
>>> game.record == rec, game.header("Event"), game.errors
(True, 'club', ())
"""

from chickenfoot.notation._commands import (
    Evaluation,
    comment_clock,
    comment_eval,
    set_clock,
    set_eval,
)
from chickenfoot.notation._commit import CommitmentError
from chickenfoot.notation._match import MatchGames, read_match, write_match, write_match_rounds
from chickenfoot.notation._model import (
    GLYPHS,
    NOTATION_VERSION,
    Audience,
    Game,
    Node,
    NotationError,
)
from chickenfoot.notation._reader import (
    MAX_COMMENT,
    MAX_DEPTH,
    MAX_LINE,
    iter_games,
    read_game,
    read_headers,
    scan_offsets,
    skip_game,
    visit_game,
)
from chickenfoot.notation._visitor import GameBuilder, HeadersBuilder, Visitor
from chickenfoot.notation._writer import game_of, write_game

__all__ = [
    "CommitmentError",
    "Evaluation",
    "MatchGames",
    "comment_clock",
    "comment_eval",
    "read_match",
    "set_clock",
    "set_eval",
    "write_match",
    "write_match_rounds",
    "GLYPHS",
    "MAX_COMMENT",
    "MAX_DEPTH",
    "MAX_LINE",
    "GameBuilder",
    "HeadersBuilder",
    "Visitor",
    "iter_games",
    "read_game",
    "read_headers",
    "scan_offsets",
    "skip_game",
    "visit_game",
    "NOTATION_VERSION",
    "Audience",
    "Game",
    "Node",
    "NotationError",
    "game_of",
    "write_game",
]
