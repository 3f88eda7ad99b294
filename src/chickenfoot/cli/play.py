"""``chickenfoot play``: a person against built-in bots, in the terminal.

The person sees only their own seat's view of the table; each bot is handed its own view
through the agents API, as the drivers of :mod:`chickenfoot.agents` do (a forced move is
made without asking). The game is a :class:`~chickenfoot.Match` (a whole match) or a
:class:`~chickenfoot.record.Record` of a single round, so ``undo`` restores an earlier,
immutable game; ``save`` writes it in a ``chickenfoot/play`` document with the players
(:mod:`chickenfoot.cli._save`). A bot's random choices are a function of the position: its
generator is seeded from the seed, the round and the number of moves made in it, so an
``undo``, or a save resumed later, gets the same answers. What is drawn goes through a
:class:`~chickenfoot.cli._screen.Screen`, plain or rich.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable
from typing import TextIO

from chickenfoot._files import write_file
from chickenfoot._i18n import gettext as _
from chickenfoot._i18n import ngettext, use
from chickenfoot.agents import Agent, ask
from chickenfoot.cli._common import EXIT_FAILURE, EXIT_INTERRUPTED, UsageError, language
from chickenfoot.cli._game import Game, Snapshot, chosen, match_winners, round_winners
from chickenfoot.cli._play_record import RecordKeeper, keeper_for
from chickenfoot.cli._prompt import (
    HELP,
    ClosedInputError,
    help_commands,
    help_text,
    prompt_reader,
    understand,
)
from chickenfoot.cli._review import HINTS_ON, hint, offer_review, show_review
from chickenfoot.cli._save import PlaySave
from chickenfoot.cli._screen import Screen, screen_for
from chickenfoot.cli._setup import MAX_ROUND, Resume, start_of
from chickenfoot.cli._streams import OutputError
from chickenfoot.cli._words import (
    bot_words,
    forced_draw,
    forced_move,
    round_over_heading,
    round_scores,
    start_heading,
    where_words,
)
from chickenfoot.errors import ChickenFootError, brief
from chickenfoot.match import Match
from chickenfoot.moves import Draw, Move
from chickenfoot.record import Record
from chickenfoot.specs import said
from chickenfoot.state import LegalMoves, State
from chickenfoot.view import View


class _QuitError(Exception):
    """Leave the game with this exit status."""

    def __init__(self, status: int) -> None:
        self.status = status


class Session:
    """One game at the terminal. ``ask`` reads a line (``input``), ``out`` is written to.

    ``seed`` seeds the bots' choices (default: a match's own seed, else one drawn from
    ``rng``); ``screen`` draws (default: plain text on ``out``); ``resume`` is the file
    the game came from, with the decisions ``undo`` can go back to.
    """

    def __init__(
        self,
        game: Game,
        *,
        seat: int,
        bots: dict[int, tuple[str, Agent]],
        out: TextIO,
        ask: Callable[[str], str],
        header: str,
        rng: random.Random | None = None,
        seed: int | None = None,
        watch: bool = False,
        screen: Screen | None = None,
        resume: Resume | None = None,
        hints: bool = False,
        review: bool = False,
    ) -> None:
        self.game = game
        self.hints, self.review = hints, review  # play --hints, play --review
        self.finished: Record | None = None  # the round just over, for the review
        self.seat = seat
        self.bots = bots
        if seed is None:
            seed = (
                game.match.seed
                if game.match is not None
                else (rng or random.Random(0)).getrandbits(63)
            )
        self.seed = seed
        self.out = out
        self.screen = screen or Screen(out)
        self.ask = ask
        self.header = header
        self.watch = watch  # draw the table after every move, not only before decisions
        self.resume = resume
        self.undo: list[Snapshot] = list(resume.snapshots) if resume is not None else []
        self.moves = (resume.moves or 0) if resume is not None else 0  # moves made (known)
        self.shown = False  # the table has been drawn for the current decision
        self.unknown = resume is not None and resume.moves is None  # the round's past moves
        # the last save: file, moves made then (a resumed game is saved in its file)
        self.saved = (resume.file, self.moves) if resume is not None else None
        # the file's bots that a stand-in plays (it may not run them): saved back as named
        self.stand_ins = dict(resume.stand_ins) if resume is not None else {}
        self.keeper: RecordKeeper | None = None  # play --record FILE

    def say(self, text: str = "") -> None:
        self.screen.say(text)

    def dice(self, state: State) -> random.Random:
        """The bots' generator at ``state``: seeded from the seed, the round and the number
        of moves made in it, so the same position always gets the same choices.

        >>> import io
        >>> from chickenfoot import Match, Rules
        >>> s = Session(Game(match=Match.start(Rules(players=2), seed=3)), seat=0, bots={},
        ...             out=io.StringIO(), ask=input, header="")
        >>> state = s.game.state
        >>> s.dice(state).random() == s.dice(state).random()
        True
        """
        m = self.game.match
        where = "record" if m is None else f"round {m.rounds_played}"
        return random.Random(f"chickenfoot play:{self.seed}:{where}:{len(state.history)}")

    # -- the loop --------------------------------------------------------------------------

    def run(self) -> int:
        self.say(self.header)
        self.say(_("Type help at the prompt for the commands."))
        try:
            self._round_start()
            return self._loop()
        except _QuitError as q:
            return q.status
        except KeyboardInterrupt:  # while a bot thinks: leave as at the prompt
            self.say()
            try:
                self._leave(_("Interrupted: you left the game."), EXIT_INTERRUPTED)
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
            self.undo.append(Snapshot(game, self.moves, chosen(move)))
            self._apply(move)
            if isinstance(move, Draw):
                after = self.game.state
                drawn = None if after is None else after.drawn
                if drawn is not None:
                    self.say(_("You drew {tile}.", tile=drawn))

    def _apply(self, move: Move) -> None:
        self.game, ended = self.game.apply(move)
        self.moves += 1
        self.shown = False
        if ended is not None:
            self._round_over(ended)
        elif self.watch:
            state = self.game.state
            assert state is not None
            self.screen.board(state.view(self.seat))
            self.say()

    # -- bots and forced moves -------------------------------------------------------------

    def _bot_move(self, state: State) -> None:
        seat = state.turn
        name, agent = self.bots[seat]
        try:
            move = ask(agent, state, self.dice(state))
        except (KeyboardInterrupt, OutputError):
            raise
        except Exception as err:  # an agent of the person's own that fails, or cheats
            why = str(err) if isinstance(err, ChickenFootError) else said(err)
            saved = "" if self.saved and self.saved[1] == self.moves else " (it was not saved)"
            raise UsageError(
                f"the bot at seat {seat} ({name}) failed: {why[:300]}; the game stops{saved}"
            ) from None
        self.screen.bot(_("seat {seat} ({name})", seat=seat, name=name), *bot_words(state, move))
        self._apply(move)

    def _forced(self, v: View, move: Move) -> None:
        if isinstance(move, Draw):
            self._apply(move)
            after = self.game.state
            drawn = None if after is None else after.drawn
            self.say(forced_draw(v, drawn))
            return
        self.say(forced_move(v, move))
        self._apply(move)

    # -- the person's decision -------------------------------------------------------------

    def _show(self, v: View) -> None:
        state = self.game.state
        assert state is not None
        self.say()
        self.screen.board(
            v,
            heading=_("{where}: your turn (seat {seat})", where=self._where(state), seat=self.seat),
            legal=v.legal_moves,
        )
        self.screen.moves(v)
        self.shown = True

    def _round_start(self) -> None:
        """Announce the round in play (where a resumed game stands) and show the hand."""
        if self.keeper is not None:
            self.keeper.begin(self.game)
        state = self.game.state
        if state is None or state.is_over():
            return
        v = state.view(self.seat)
        resume, self.resume = self.resume, None  # said once: the next rounds start afresh
        self.unknown = self.unknown and resume is not None
        now = start_heading(self._where(state), state.turn, state.turn == self.seat, resume)
        self.say()
        legal = v.legal_moves
        mine = state.turn == self.seat and len(legal) > 1  # the person's decision
        self.screen.board(v, heading=now, legal=legal if mine else ())
        self.shown = mine  # the table is on the screen
        if mine:
            self.screen.moves(v)

    def _where(self, state: State) -> str:
        return where_words(state, self.game.match)

    def _decide(self, v: View, legal: LegalMoves) -> Move | None:
        """Read lines until one is a legal move (or ``undo`` succeeds: ``None``)."""
        if not self.shown and self.watch:  # the table is on the screen already
            state = self.game.state
            assert state is not None
            self.screen.heading(
                _("{where}: your turn (seat {seat})", where=self._where(state), seat=self.seat)
            )
            self.screen.moves(v)
            self.shown = True
        elif not self.shown:
            self._show(v)
        while True:
            line = self._read(_("move [1-{n}, help]> ", n=len(legal)))
            word, _sep, rest = line.strip().partition(" ")
            command = word.lower()
            if not command:
                self.screen.refuse(
                    _("Type a move number from 1 to {n}, a move, or help.", n=len(legal))
                )
            elif command in ("help", "?", "h"):
                self.screen.help(help_text())
            elif command in ("moves", "m"):
                self.screen.moves(v)
            elif command == "hint":
                hint(self.screen, v, allowed=self.hints, seed=len(v.history))
            elif command in ("table", "t", "show"):
                self._show(v)
            elif command == "undo":
                if self._undo():
                    return None
            elif command == "save":
                self._save(rest.strip())
            elif command in ("quit", "exit", "q"):
                self._leave(_("You left the game."), 0)
            else:
                state = self.game.state
                assert state is not None
                move = understand(line.strip(), v, state)
                if not isinstance(move, str):
                    return move
                self.screen.refuse(move)  # why it is not a move

    def _read(self, prompt: str) -> str:
        """The next answer. Only the end of input, Ctrl-C and a failure to write standard
        output (:class:`~chickenfoot.cli._streams.OutputError`) leave the game from here:
        an answer that cannot be read as text is refused, and the question asked again."""
        while True:
            try:
                return self.ask(prompt)
            except EOFError as end:  # Ctrl-D, the end of a pipe, a closed standard input
                self.say()
                if isinstance(end, ClosedInputError):
                    why = _("End of input ({reason}): you left the game.", reason=end)
                else:
                    why = _("End of input: you left the game.")
                self._leave(why, 0)
            except KeyboardInterrupt:
                self.say()
                self._leave(_("Interrupted: you left the game."), EXIT_INTERRUPTED)
            except UnicodeDecodeError:
                self.say()
                self.screen.refuse(
                    _("That answer is not text (UTF-8 expected); type it again, or help.")
                )
            except (OSError, RuntimeError, ValueError) as err:  # the input itself failed
                self.say()
                reason = err.strerror if isinstance(err, OSError) else None
                reason = reason or type(err).__name__
                self._leave(
                    _("Cannot read the input ({reason}): you left the game.", reason=reason),
                    EXIT_FAILURE,
                )

    def _keep(self, final: State | None = None) -> None:
        """Write the ``--record`` file (after round ``final``); a failure is said only."""
        failed = None if self.keeper is None else self.keeper.keep(self.game, final)
        if failed is not None:
            self.say(failed)

    def _leave(self, why: str, status: int) -> None:
        self._keep()
        if self.saved is not None and self.saved[1] == self.moves:
            self.say(why + " " + _("The game is saved in {file}.", file=self.saved[0]))
        elif self.moves:
            self.say(why + " " + _("The game was not saved (save FILE keeps it)."))
        else:
            self.say(why)
        raise _QuitError(status)

    # -- commands -------------------------------------------------------------------------

    def _undo(self) -> bool:
        if not self.undo:
            if self.unknown:
                self.say(
                    _(
                        "Nothing to undo: the file kept this round's position, not the moves "
                        "that led to it (a save of chickenfoot play keeps them)."
                    )
                )
            else:
                self.say(_("Nothing to undo: you have not chosen a move yet."))
            return False
        snap = self.undo.pop()
        back = self.moves - snap.moves
        self.game = snap.game
        self.moves = snap.moves
        self.shown = False
        others = back - 1
        if others:
            self.say(
                ngettext(
                    "Undone: your move {move} and the {n} move after it. Back to that decision.",
                    "Undone: your move {move} and the {n} moves after it. Back to that decision.",
                    others,
                    move=snap.chosen,
                    n=others,
                )
            )
        else:
            self.say(_("Undone: your move {move}. Back to that decision.", move=snap.chosen))
        return True

    def _save(self, path: str) -> None:
        if not path:
            self.say(_("save needs a file name: save game.json"))
            return
        kind = "match" if self.game.match is not None else "round"
        game = self.game.match if self.game.match is not None else self.game.record
        assert game is not None
        names = tuple(self.stand_ins.get(s, self.bots[s][0]) for s in sorted(self.bots))
        save = PlaySave(game, seat=self.seat, bots=names, seed=self.seed, watch=self.watch)
        failed = write_file(path, save.to_json() + "\n")
        if failed is not None:
            self.say(
                _(
                    "Could not save to {file}: {reason}. The game goes on.",
                    file=brief(path, 60),
                    reason=failed,
                )
            )
            return
        self.saved = (path, self.moves)
        if kind == "match":
            self.say(_("Saved the match, your seat and the bots to {file}.", file=path))
        else:
            self.say(_("Saved the round, your seat and the bots to {file}.", file=path))
        self.say(_("Resume it with: chickenfoot play {file}", file=path))

    # -- ends -----------------------------------------------------------------------------

    def _round_over(self, final: State) -> None:
        result = final.outcome()
        assert result is not None
        self._keep(final)
        names = {s: name for s, (name, _) in self.bots.items()}
        self.say()
        self.screen.board(final, heading=round_over_heading(result, self.seat, names))
        self.say(round_scores(final.penalties(), self.seat))
        self.screen.winner(round_winners(final, self.seat, names))
        self.finished = offer_review(self.screen, self.game, final, self.seat, now=self.review)
        m = self.game.match
        if m is not None:
            self.say()
            self.screen.score_sheet(m, self.seat)
            if m.round is not None:
                self.say()
                self._between_rounds(m)

    def _between_rounds(self, m: Match) -> None:
        assert m.round is not None
        nxt = m.rounds_played + 1
        while True:
            line = self._read(
                _("Enter: deal round {round} (or review, save FILE, undo, quit, help)> ", round=nxt)
            )
            word, _sep, rest = line.strip().partition(" ")
            command = word.lower()
            if not command:
                self._round_start()
                return
            if command in ("help", "?", "h"):
                self.screen.help(_("Enter deals the next round.") + "\n" + help_commands())
            elif command == "save":
                self._save(rest.strip())
            elif command == "review":
                show_review(self.screen, self.finished, self.seat)
            elif command in ("quit", "exit", "q"):
                self._leave(_("You left the game."), 0)
            elif command == "undo":
                if self._undo():
                    return
            else:
                self.screen.refuse(
                    _(
                        "{answer}: press Enter for the next round, or type help.",
                        answer=brief(word, 20),
                    )
                )

    def _game_over(self) -> None:
        self._keep()
        m = self.game.match
        if m is not None:  # (a round alone ends with its winner, named by _round_over)
            r = m.result()
            names = {s: name for s, (name, _) in self.bots.items()}
            best = r.totals[r.winners[0]]
            self.say()
            self.screen.heading(match_winners(r.winners, best, self.seat, names))
            self.screen.standings(r, self.seat, names)


# -- the command ----------------------------------------------------------------------------


def cmd_play(args: argparse.Namespace, out: TextIO) -> int:
    with use(language(args)):
        return _play(args, out)


def _play(args: argparse.Namespace, out: TextIO) -> int:
    start = start_of(args)
    session = Session(
        start.game,
        seat=start.seat,
        bots=start.bots,
        seed=start.seed,
        out=out,
        ask=prompt_reader(out),
        header=start.header + ("\n" + _(HINTS_ON) if getattr(args, "hints", False) else ""),
        watch=start.watch,
        screen=screen_for(out),
        resume=start.resume,
        hints=bool(getattr(args, "hints", False)),
        review=bool(getattr(args, "review", False)),
    )
    session.keeper = keeper_for(args, start)
    return session.run()


__all__ = ["HELP", "MAX_ROUND", "Game", "Session", "cmd_play"]
