"""``chickenfoot play``: a person against built-in bots, in the terminal.

The person sees only their own seat's view of the table; each bot is handed its own view
through the agents API, as the drivers of :mod:`chickenfoot.agents` do (a forced move is
made without asking). The game is a :class:`~chickenfoot.Match` (a whole match) or a
:class:`~chickenfoot.record.Record` of a single round, so ``save`` writes the library's
own documents and ``undo`` restores an earlier, immutable game.
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Callable
from typing import TextIO

import attrs

from chickenfoot.agents import Agent, _ask
from chickenfoot.cli._agents import agents_of
from chickenfoot.cli._common import EXIT_FAILURE, EXIT_INTERRUPTED, UsageError, rules_from_args
from chickenfoot.cli._game import Game, game_from_file
from chickenfoot.cli._picture import picture
from chickenfoot.cli._prompt import HELP, ClosedInputError, prompt_reader, understand
from chickenfoot.cli._streams import write_file
from chickenfoot.cli.files import match_lines
from chickenfoot.deal import deal
from chickenfoot.errors import brief
from chickenfoot.match import Match
from chickenfoot.moves import Draw, Move, Pass, Play
from chickenfoot.outcome import Termination
from chickenfoot.record import Record
from chickenfoot.rules import Rounds
from chickenfoot.state import LegalMoves, Phase, State
from chickenfoot.view import View

MAX_ROUND = 1_000_000
"""The highest ``--round`` (rounds past the last double wrap around to the highest one)."""


@attrs.frozen
class _Snapshot:
    """Where ``undo`` goes back to: the game and the bots' generator before a decision."""

    game: Game
    rng: object
    moves: int
    chosen: str


class _QuitError(Exception):
    """Leave the game with this exit status."""

    def __init__(self, status: int) -> None:
        self.status = status


class Session:
    """One game at the terminal. ``ask`` reads a line (``input``), ``out`` is written to."""

    def __init__(
        self,
        game: Game,
        *,
        seat: int,
        bots: dict[int, tuple[str, Agent]],
        rng: random.Random,
        out: TextIO,
        ask: Callable[[str], str],
        header: str,
        watch: bool = False,
    ) -> None:
        self.game = game
        self.seat = seat
        self.bots = bots
        self.rng = rng
        self.out = out
        self.ask = ask
        self.header = header
        self.watch = watch  # draw the table after every move, not only before decisions
        self.undo: list[_Snapshot] = []
        self.moves = 0  # moves made since the session began
        self.shown = False  # the table has been drawn for the current decision
        self.saved: tuple[str, int] | None = None  # the last save: file, moves made then

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    # -- the loop --------------------------------------------------------------------------

    def run(self) -> int:
        self.say(self.header)
        self.say("Type help at the prompt for the commands.")
        try:
            self._round_start()
            return self._loop()
        except _QuitError as q:
            return q.status
        except KeyboardInterrupt:  # while a bot thinks: leave as at the prompt
            self.say()
            try:
                self._leave("Interrupted: you left the game.", EXIT_INTERRUPTED)
            except _QuitError as q:
                return q.status
            raise  # pragma: no cover - _leave always raises

    def _loop(self) -> int:
        while True:
            game = self.game
            state = game.state
            if state is None or state.is_over():
                self._game_over()
                return 0
            if state.turn != self.seat:
                self._bot_move(state)
                continue
            v = state.view(self.seat)
            legal = v.legal_moves
            if len(legal) == 1:
                self._forced(v, legal[0])
                continue
            move = self._decide(v, legal)
            if move is None:
                continue  # undone: start again from the restored game
            self.undo.append(_Snapshot(game, self.rng.getstate(), self.moves, str(move)))
            self._apply(move)
            if isinstance(move, Draw):
                after = self.game.state
                drawn = None if after is None else after.drawn
                if drawn is not None:
                    self.say(f"You drew {drawn}.")

    def _apply(self, move: Move) -> None:
        self.game, ended = self.game.apply(move)
        self.moves += 1
        self.shown = False
        if ended is not None:
            self._round_over(ended)
        elif self.watch:
            state = self.game.state
            assert state is not None
            self.say(picture(state.view(self.seat)))
            self.say()

    # -- bots and forced moves -------------------------------------------------------------

    def _bot_move(self, state: State) -> None:
        seat = state.turn
        name, agent = self.bots[seat]
        move = _ask(agent, state, self.rng)
        who = f"seat {seat} ({name})"
        if isinstance(move, Draw):
            why = "" if state.rules.may_draw_instead else " (nothing to play)"
            self.say(f"{who} draws a tile{why}")
        elif isinstance(move, Pass):
            if state.drawn is not None:
                why = " (the drawn tile did not fit)"
                if state.rules.drawn_tile == "may_play":
                    why = " (keeping the drawn tile)"
            else:
                why = " (nothing to play, and the boneyard is empty)"
            self.say(f"{who} passes{why}")
        elif isinstance(move, Play) and move.anchor is None:
            self.say(f"{who} lays the centre {move.tile}")
        else:
            self.say(f"{who} plays {move}")
        self._apply(move)

    def _forced(self, v: View, move: Move) -> None:
        if isinstance(move, Draw):
            self._apply(move)
            after = self.game.state
            drawn = None if after is None else after.drawn
            tile = f" {drawn}" if drawn is not None else ""
            self.say(f"You have no tile to play{_why_not(v)}: you draw{tile}.")
            return
        if isinstance(move, Pass):
            if v.drawn is not None and v.phase is Phase.SEEKING_CENTRE:
                self.say(f"The tile you drew, {v.drawn}, is not the centre {v.centre}: you pass.")
            elif v.drawn is not None:
                self.say(f"The tile you drew, {v.drawn}, fits nowhere: you pass.")
            else:
                self.say("You have no tile to play and the boneyard is empty: you pass.")
        elif isinstance(move, Play) and move.anchor is None:
            self.say(f"You hold the centre {move.tile}: you lay it.")
        elif v.drawn is not None:
            self.say(f"The tile you drew fits in one place: you play {move}.")
        else:
            self.say(f"Your only legal move: you play {move}.")
        self._apply(move)

    # -- the person's decision -------------------------------------------------------------

    def _show(self, v: View) -> None:
        state = self.game.state
        assert state is not None
        self.say()
        self.say(f"== {self._where(state)}: your turn (seat {self.seat}) ==")
        self.say(picture(v))
        self._list(v.legal_moves)
        self.shown = True

    def _round_start(self) -> None:
        """Announce the round in play and show the person their hand."""
        state = self.game.state
        if state is None or state.is_over():
            return
        first = "you play" if state.turn == self.seat else f"seat {state.turn} plays"
        self.say()
        self.say(f"== {self._where(state)}: {first} first ==")
        self.say(picture(state.view(self.seat)))
        legal = state.view(self.seat).legal_moves
        self.shown = len(legal) > 1  # the person's decision: the table is on the screen
        if self.shown:
            self._list(legal)

    def _where(self, state: State) -> str:
        centre = f"centre {state.centre}"
        m = self.game.match
        if m is None:
            return f"The round ({centre})"
        length = m.rules.match
        of = f" of {length.count}" if isinstance(length, Rounds) else ""
        return f"Round {m.rounds_played + 1}{of} ({centre})"

    def _list(self, legal: LegalMoves) -> None:
        cells = [f"{i}) {m}" for i, m in enumerate(legal, 1)]
        width = max(map(len, cells)) + 2
        per_line = max(1, 76 // width)
        self.say("Your moves:")
        for k in range(0, len(cells), per_line):
            self.say("  " + "".join(c.ljust(width) for c in cells[k : k + per_line]).rstrip())

    def _decide(self, v: View, legal: LegalMoves) -> Move | None:
        """Read lines until one is a legal move (or ``undo`` succeeds: ``None``)."""
        if not self.shown and self.watch:  # the table is on the screen already
            state = self.game.state
            assert state is not None
            self.say(f"== {self._where(state)}: your turn (seat {self.seat}) ==")
            self._list(legal)
            self.shown = True
        elif not self.shown:
            self._show(v)
        while True:
            line = self._read(f"move [1-{len(legal)}, help]> ")
            word, _, rest = line.strip().partition(" ")
            command = word.lower()
            if not command:
                self.say(f"Type a move number from 1 to {len(legal)}, a move, or help.")
            elif command in ("help", "?", "h"):
                self.say(HELP)
            elif command in ("moves", "m"):
                self._list(legal)
            elif command in ("table", "t", "show"):
                self._show(v)
            elif command == "undo":
                if self._undo():
                    return None
            elif command == "save":
                self._save(rest.strip())
            elif command in ("quit", "exit", "q"):
                self._leave("You left the game.", 0)
            else:
                state = self.game.state
                assert state is not None
                move = understand(line.strip(), v, state)
                if not isinstance(move, str):
                    return move
                self.say(move)  # why it is not a move

    def _read(self, prompt: str) -> str:
        """The next answer. Only the end of input, Ctrl-C and a failure to write standard
        output (:class:`~chickenfoot.cli._streams.OutputError`) leave the game from here:
        an answer that cannot be read as text is refused, and the question asked again."""
        while True:
            try:
                return self.ask(prompt)
            except EOFError as end:  # Ctrl-D, the end of a pipe, a closed standard input
                self.say()
                why = f" ({end})" if isinstance(end, ClosedInputError) else ""
                self._leave(f"End of input{why}: you left the game.", 0)
            except KeyboardInterrupt:
                self.say()
                self._leave("Interrupted: you left the game.", EXIT_INTERRUPTED)
            except UnicodeDecodeError:
                self.say()
                self.say("That answer is not text (UTF-8 expected); type it again, or help.")
            except (OSError, RuntimeError, ValueError) as err:  # the input itself failed
                self.say()
                reason = err.strerror if isinstance(err, OSError) else None
                reason = reason or type(err).__name__
                self._leave(f"Cannot read the input ({reason}): you left the game.", EXIT_FAILURE)

    def _leave(self, why: str, status: int) -> None:
        if self.saved is not None and self.saved[1] == self.moves:
            self.say(f"{why} The game is saved in {self.saved[0]}.")
        elif self.moves:
            self.say(f"{why} The game was not saved (save FILE keeps it).")
        else:
            self.say(why)
        raise _QuitError(status)

    # -- commands -------------------------------------------------------------------------

    def _undo(self) -> bool:
        if not self.undo:
            self.say("Nothing to undo: you have not chosen a move yet.")
            return False
        snap = self.undo.pop()
        back = self.moves - snap.moves
        self.game = snap.game
        self.rng.setstate(snap.rng)  # type: ignore[arg-type]
        self.moves = snap.moves
        self.shown = False
        others = back - 1
        tail = f" and the {others} move{'s' * (others != 1)} after it" if others else ""
        self.say(f"Undone: your move {snap.chosen}{tail}. Back to that decision.")
        return True

    def _save(self, path: str) -> None:
        if not path:
            self.say("save needs a file name: save game.json")
            return
        kind = "match" if self.game.match is not None else "record of the round"
        failed = write_file(path, self.game.to_json() + "\n")
        if failed is not None:
            self.say(f"Could not save to {brief(path, 60)}: {failed}. The game goes on.")
            return
        self.saved = (path, self.moves)
        self.say(f"Saved the {kind} to {path}. Resume it with: chickenfoot play {path}")

    # -- ends -----------------------------------------------------------------------------

    def _round_over(self, final: State) -> None:
        result = final.outcome()
        assert result is not None
        if result.termination is Termination.OUT:
            who = "you" if result.seat == self.seat else f"seat {result.seat}"
            how = f"{who} went out"
        else:
            how = "blocked: the boneyard is empty and nobody can play"
        self.say()
        self.say(f"== The round is over: {how} ==")
        self.say(picture(final))
        points = final.penalties()
        self.say(
            "Round scores: "
            + ", ".join(
                f"{'you' if s == self.seat else f'seat {s}'} {p}" for s, p in enumerate(points)
            )
        )
        m = self.game.match
        if m is not None:
            self.say()
            self.say("\n".join(match_lines(m)[:-1]))
            if m.round is not None:
                self.say()
                self._between_rounds(m)

    def _between_rounds(self, m: Match) -> None:
        assert m.round is not None
        nxt = m.rounds_played + 1
        while True:
            line = self._read(f"Enter: deal round {nxt} (or save FILE, undo, quit, help)> ")
            word, _, rest = line.strip().partition(" ")
            command = word.lower()
            if not command:
                self._round_start()
                return
            if command in ("help", "?", "h"):
                self.say("Enter deals the next round. " + HELP.split("\n", 2)[2])
            elif command == "save":
                self._save(rest.strip())
            elif command in ("quit", "exit", "q"):
                self._leave("You left the game.", 0)
            elif command == "undo":
                if self._undo():
                    return
            else:
                self.say(f"{brief(word, 20)}: press Enter for the next round, or type help.")

    def _game_over(self) -> None:
        m = self.game.match
        if m is not None:
            r = m.result()
            self.say()
            self.say(f"== The match is over: {r} ==")
            for st in r.standings:
                who = "you" if st.seat == self.seat else f"seat {st.seat}"
                self.say(f"  {st.rank}. {who}: {st.total}")
            return
        state = self.game.state
        assert state is not None
        mine = state.penalties()[self.seat]
        best = min(state.penalties())
        verdict = "the lowest: you win" if mine == best else f"the lowest is {best}"
        self.say(f"You score {mine}; {verdict}.")


def _why_not(v: View) -> str:
    """Why nothing in the hand can be played, in brackets (for a forced draw)."""
    hub = v.pending_hub
    if v.phase is Phase.SEEKING_CENTRE:
        return f" (the centre {v.centre} is not on the table, and you do not hold it)"
    if hub is not None:
        what = "centre" if hub is v.centre else "foot"
        return f" (the {what} {hub} needs toes, and you hold no {hub.high})"
    numbers = sorted({n for _, n in v.open_ends})
    if not numbers:
        return ""
    return f" (the open ends show {', '.join(map(str, numbers))})"


# -- the command ----------------------------------------------------------------------------


def _label(args: argparse.Namespace) -> str:
    label = f"{args.preset or 'house'} rules"
    if args.changes:
        label += " with " + " ".join(
            f"{k}={json.dumps(v, separators=(',', ':'))}" for k, v in args.changes
        )
    return label


def cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    if args.file is not None and args.resume is not None:
        raise UsageError("give the saved game once: play FILE or play --resume FILE")
    seed = args.seed
    if seed is not None and seed.bit_length() > 63:
        raise UsageError(f"--seed {brief(seed)} is invalid: at most 63 bits")
    if seed is None:
        seed = random.SystemRandom().randrange(1, 1_000_000)
    if args.file is not None or args.resume is not None:
        game, what = game_from_file(args)
        if game.match is not None:
            seed = game.match.seed
    else:
        rules = rules_from_args(args.preset or "house", args.players or 4, args.changes)
        if args.round is None:
            game = Game(match=Match.start(rules, seed=seed))
            length = rules.match
            size = (
                f"a match of {length.count} round{'s' * (length.count != 1)}"
                if isinstance(length, Rounds)
                else f"a match until {length}"
            )
        else:
            if not 0 <= args.round <= MAX_ROUND:
                raise UsageError(
                    f"--round {brief(args.round)} is invalid: must be from 0 to {MAX_ROUND:,}"
                )
            game = Game(record=Record(deal(rules, seed, args.round)))
            size = f"one round (round {args.round})"
        what = (
            f"Chicken Foot: {rules.players} players, double-{rules.max_pip}, {_label(args)}.\n"
            f"{size[0].upper()}{size[1:]}, seed {seed} (the same deals again: --seed {seed})"
        )
    rules = game.rules
    seat = args.seat
    if not 0 <= seat < rules.players:
        raise UsageError(f"--seat {brief(seat)} is invalid: seats are 0 to {rules.players - 1}")
    others = [s for s in range(rules.players) if s != seat]
    named = agents_of(args.bots, len(others), "--bots")
    bots = dict(zip(others, named, strict=True))
    cast = ", ".join(f"seat {s}: {bots[s][0]}" for s in others)
    header = f"{what}.\nYou are seat {seat}; {cast}."
    session = Session(
        game,
        seat=seat,
        bots=bots,
        rng=random.Random(f"play:{seed}"),
        out=out,
        ask=prompt_reader(out),
        header=header,
        watch=args.watch,
    )
    return session.run()


__all__ = ["HELP", "Game", "Session", "cmd_play"]
