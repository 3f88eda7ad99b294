"""What ``chickenfoot play`` draws, behind one small interface: :class:`Screen`.

:class:`Screen` is plain text. Off a terminal (a pipe, a file) it prints exactly what
``play`` has always printed; on a terminal it also wraps long lines to the terminal's
width, at the spaces between words (a move such as ``9-4@9-9`` is never cut, at its
hyphens or anywhere else). :class:`RichScreen` draws with ``rich`` (the ``cli`` extra):
the table in a panel, the last tile laid and whose turn it is emphasised, the open ends
and the tiles of your legal moves highlighted, the moves numbered in colour, the score
sheet and the standings as tables. :func:`screen_for` chooses: rich only on a terminal
that is not ``TERM=dumb``, when rich can be imported; rich itself leaves the colours out
under ``NO_COLOR``.

>>> import io
>>> out = io.StringIO()
>>> Screen(out).bot("seat 1 (greedy)", "plays", "9-4@9-9")
>>> out.getvalue()
'seat 1 (greedy) plays 9-4@9-9\\n'
>>> print(fit("9-6: you do not hold 9-6. Your moves: 1-0@0-0, 6-0@0-0, 8-0@0-0.", 30))
9-6: you do not hold 9-6. Your
  moves: 1-0@0-0, 6-0@0-0,
  8-0@0-0.
"""

from __future__ import annotations

import os
import re
import shutil
import textwrap
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from chickenfoot._i18n import N_
from chickenfoot._i18n import gettext as _
from chickenfoot.cli._board_words import said_board, sheet_lines
from chickenfoot.cli._game import who
from chickenfoot.cli._places import OTHERS, laid, places
from chickenfoot.cli._streams import is_terminal
from chickenfoot.match import Match, MatchResult
from chickenfoot.moves import Move, Play
from chickenfoot.render import render_compact
from chickenfoot.state import State
from chickenfoot.tiles import Tile
from chickenfoot.view import View

__all__ = ["RichScreen", "Screen", "fit", "screen_for"]

_MIN_WIDTH = 20  # render_compact's narrowest
_PANEL = 84  # the widest panel: a table of the default 80 columns, and its frame
_HELP_ROW = re.compile(r" +\S.*?\S? {2,}(?=\S)")  # "  save FILE   save the game": hang under it
_HELP_WIDTH = 78  # help is wrapped at most this wide, even on a wide terminal or a pipe


def fit(text: str, width: int | None) -> str:
    """Each line of ``text`` wrapped to ``width`` columns at the spaces between words, never
    inside a word (hyphens do not break: ``9-4@9-9`` stays whole); continuation rows are
    indented by two, or under the description of a help row. ``None``: ``text`` as it is.

    >>> print(fit("  undo        take back your last move and the bots' moves", 40))
      undo        take back your last move
                  and the bots' moves
    """
    if width is None:
        return text
    rows = []
    for line in text.split("\n"):
        if len(line) <= width:
            rows.append(line)
            continue
        kept = _NUMBERED.sub("\\1\N{NO-BREAK SPACE}", line)  # "3) 9|8" stays on one row
        indent = len(line) - len(line.lstrip(" "))
        row = _HELP_ROW.match(line) if indent else None
        hang = len(row.group(0)) if row is not None else indent + 2
        rows.extend(
            textwrap.wrap(
                kept,
                max(width, hang + 10),
                subsequent_indent=" " * hang,
                break_on_hyphens=False,
                break_long_words=False,
            )
        )
    return "\n".join(rows).replace("\N{NO-BREAK SPACE}", " ")


_NUMBERED = re.compile(r"(\b\d{1,3}\)) (?=\S)")
"""A move's number and the space after it, in a list of moves (``3) 9|8``): never parted."""

MOVES_TITLE = N_("Your moves, by where they go on the table:")


def _rows(position: State | View, width: int) -> list[tuple[str, list[tuple[str, str]]]]:
    """The rows of the moves: each place's label (padded) and its cells, ``("n)", "tile")``,
    numbered in the order listed; a place whose cells overflow ``width`` goes on over
    rows with a blank label."""
    found = places(position.table, position.legal_moves)
    labels = [_("or") if p.label == OTHERS else p.label for p in found]  # draw, pass: "or"
    pad = max(map(len, labels))
    digits = len(str(sum(len(p.moves) for p in found)))
    rows: list[tuple[str, list[tuple[str, str]]]] = []
    n = 0
    for place, shown in zip(found, labels, strict=True):
        label = shown.ljust(pad)
        used = 2 + pad
        row: list[tuple[str, str]] = []
        for move in place.moves:
            n += 1
            cell = (f"{n})".rjust(digits + 1), laid(move, position.table))
            size = 2 + len(cell[0]) + 1 + len(cell[1])
            if row and used + size > width:
                rows.append((label, row))
                label, used, row = " " * pad, 2 + pad, []
            row.append(cell)
            used += size
        rows.append((label, row))
    return rows


class Screen:
    """Plain text on ``out``; ``terminal``: wrap to the terminal's width (re-read at every
    line, so a resized window is followed)."""

    def __init__(self, out: TextIO, *, terminal: bool = False) -> None:
        self.out = out
        self.terminal = terminal

    def width(self) -> int | None:
        """The terminal's columns (``None`` off a terminal: nothing is wrapped)."""
        if not self.terminal:
            return None
        return max(_MIN_WIDTH, shutil.get_terminal_size().columns)

    def _write(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def say(self, text: str = "") -> None:
        """A line (or lines) of the story: what happened, what you may do."""
        self._write(fit(text, self.width()))

    def refuse(self, text: str) -> None:
        """The reply to an answer that is not a move."""
        self.say(text)

    def help(self, text: str) -> None:
        """A help text: wrapped to the terminal, and never wider than 78 columns."""
        width = self.width()
        self.say(fit(text, _HELP_WIDTH if width is None else min(width, _HELP_WIDTH)))

    def bot(self, who: str, verb: str, what: str = "", why: str = "") -> None:
        """A bot's move: ``seat 1 (greedy) plays 9-4@9-9`` (``why`` in brackets after it)."""
        self.say(" ".join(part for part in (who, verb, what, why) if part))

    def heading(self, text: str) -> None:
        """``== text ==``: a round starts or ends, your turn comes."""
        self.say(f"== {text} ==")

    def picture(self, position: State | View, legal: Sequence[Move] = ()) -> str:
        """The table as text (:func:`~chickenfoot.render.render_compact`), as wide as the
        terminal."""
        width = self.width()
        return said_board(render_compact(position, width=80 if width is None else width))

    def board(
        self, position: State | View, *, heading: str | None = None, legal: Sequence[Move] = ()
    ) -> None:
        """The table (``legal``: the person's moves, to highlight), under ``heading``."""
        if heading is not None:
            self.heading(heading)
        self._write(self.picture(position, legal))

    def moves(self, position: State | View) -> None:
        """The legal moves of ``position`` (the person's view), numbered, by the place they go
        (:mod:`~chickenfoot.cli._places`): a row per place, as the table draws it, then its
        tiles as they would lie; draw and pass on a row of their own."""
        room = self.width()
        self._write(_(MOVES_TITLE))
        for label, cells in _rows(position, 78 if room is None else room):
            self._write("  " + label + "".join(f"  {n} {tile}" for n, tile in cells))

    def score_sheet(self, m: Match, seat: int) -> None:
        """The match's score sheet: a row per finished round, then the totals."""
        self._write("\n".join(sheet_lines(m)))

    def winner(self, text: str) -> None:
        """Who won the round."""
        self.say(text)

    def standings(self, result: MatchResult, seat: int, names: Mapping[int, str]) -> None:
        """The final standings, best first (each seat with its player's name)."""
        for st in result.standings:
            self._write(f"  {st.rank}. {who(st.seat, seat, names)}: {st.total}")


class RichScreen(Screen):
    """The same story drawn with rich: colours, a panel, tables."""

    def __init__(self, out: TextIO, *, environ: Mapping[str, str] | None = None) -> None:
        super().__init__(out, terminal=True)
        from rich.console import Console

        self.console: Any = Console(
            file=out,
            highlight=False,
            markup=False,
            emoji=False,
            soft_wrap=True,
            force_terminal=True,
            no_color=None if environ is None else bool(environ.get("NO_COLOR")),
        )

    def width(self) -> int:
        return max(_MIN_WIDTH, int(self.console.width))

    def _print(self, thing: Any) -> None:
        self.console.print(thing)
        self.out.flush()

    def _text(self, *parts: tuple[str, str]) -> Any:
        from rich.text import Text

        return Text.assemble(*parts)

    def refuse(self, text: str) -> None:
        self._print(self._text((fit(text, self.width()), "yellow")))

    def bot(self, who: str, verb: str, what: str = "", why: str = "") -> None:
        line = " ".join(part for part in (who, verb, what, why) if part)
        if len(line) > self.width():
            self.say(line)
            return
        parts = [(who, "cyan"), (f" {verb}", "")]
        if what:
            parts.append((f" {what}", "bold"))
        if why:
            parts.append((f" {why}", "dim"))
        self._print(self._text(*parts))

    def heading(self, text: str) -> None:
        from rich.rule import Rule

        self._print(Rule(text, style="blue", align="left", characters="─"))

    def board(
        self, position: State | View, *, heading: str | None = None, legal: Sequence[Move] = ()
    ) -> None:
        from rich.panel import Panel

        width = min(self.width(), _PANEL)
        text = _styled(position, legal, max(_MIN_WIDTH, width - 4))
        title = None if heading is None else self._text((heading, "bold"))
        panel = Panel(text, title=title, title_align="left", border_style="blue", width=width)
        self._print(panel)

    def moves(self, position: State | View) -> None:
        self._print(self._text((_(MOVES_TITLE), "bold")))
        for label, cells in _rows(position, self.width()):
            parts: list[tuple[str, str]] = [("  ", ""), (label, "green")]
            for n, tile in cells:
                parts += [("  ", ""), (n, "bold cyan"), (" ", ""), (tile, "bold green")]
            self._print(self._text(*parts))

    def score_sheet(self, m: Match, seat: int) -> None:
        from rich.table import Table

        lines = sheet_lines(m)
        table = Table(title=lines[0], title_justify="left", title_style="bold")
        table.add_column(_("round"), justify="right")
        table.add_column(_("centre"), justify="right")
        for s in range(m.rules.players):
            table.add_column(_("you") if s == seat else _("seat {seat}", seat=s), justify="right")
        for k, row in enumerate(m.scores):
            d = m.rules.centre_of_round(k)
            table.add_row(str(k + 1), f"{d}-{d}", *map(str, row))
        if m.scores:
            table.add_section()
            best = min(m.totals)
            totals = [self._text((str(t), "bold green" if t == best else "bold")) for t in m.totals]
            table.add_row(self._text((_("total"), "bold")), "", *totals)
        self._print(table)

    def winner(self, text: str) -> None:
        style = "bold green" if text.startswith(_("You")) else "bold"
        self._print(self._text((fit(text, self.width()), style)))

    def standings(self, result: MatchResult, seat: int, names: Mapping[int, str]) -> None:
        from rich.table import Table

        table = Table(show_header=False, box=None, padding=(0, 1))
        for st in result.standings:
            style = "bold green" if st.rank == 1 else ""
            name = who(st.seat, seat, names)
            table.add_row(f"  {st.rank}.", self._text((name, style)), str(st.total))
        self._print(table)


def _styled(position: State | View, legal: Sequence[Move], width: int) -> Any:
    """The picture of :func:`render_compact` in rich text: the same characters, styled."""
    from rich.text import Text

    rows = said_board(render_compact(position, width=width)).split("\n")
    plays = [m for m in legal if isinstance(m, Play)]
    anchors = {m.anchor for m in plays}
    tiles = {m.tile for m in plays}
    table = position.table
    kinds: list[tuple[str, Any]] = []  # what each table row draws
    if table.centre is None:
        kinds.append(("empty", None))
    for hub in table.hubs:
        kinds.append(("hub", hub))
        kinds += [("line", line) for line in hub.lines]
    viewer = position.seat if isinstance(position, View) else None
    out = Text()
    for i, row in enumerate(rows):
        text = Text(row)
        if i < len(kinds):
            kind, part = kinds[i]
            if kind == "hub":
                head = len(row.split("  ", 1)[0])
                text.stylize("bold cyan", 0, head)
                pending = table.pending_hub
                style = "dim"
                if pending is not None and part is pending:
                    style = "bold green" if pending.tile in anchors else "bold yellow"
                text.stylize(style, head)
            elif kind == "line":
                text.stylize("dim", 0, 3)
                text.highlight_regex(r"\S+\*", "bold black on yellow")
                if part.closed_by is not None:
                    text.highlight_regex(r"▪ foot \S+$", "magenta")
                else:
                    style = "bold green" if part.anchor in anchors else "green"
                    text.highlight_regex(r"→ \d+$", style)
            else:
                text.stylize("dim")
        elif i == len(kinds):  # whose turn, the boneyard
            mine = viewer is not None and position.turn == viewer and position.outcome() is None
            turn = row.split(" · ", 1)[0]
            text.stylize("bold green" if mine else "bold", 0, len(turn))
        else:
            if row.startswith(">"):
                text.stylize("bold", 0, 1)
            for m in re.finditer(r"\d+-\d+", row):
                if Tile.parse(m.group(0)) in tiles:
                    text.stylize("bold green", m.start(), m.end())
            text.highlight_regex(r"\(\d+ tiles?, \d+ points\)", "dim")
        if i:
            out.append("\n")
        out.append_text(text)
    return out


def _has_rich() -> bool:
    try:
        import rich.console  # noqa: F401
    except ImportError:
        return False
    return True


def screen_for(out: TextIO, environ: Mapping[str, str] | None = None) -> Screen:
    """The screen for ``out``: rich on a terminal (not ``TERM=dumb``) when rich can be
    imported; plain text otherwise, wrapped to the width of a terminal.

    >>> import io
    >>> type(screen_for(io.StringIO())).__name__
    'Screen'
    """
    env = os.environ if environ is None else environ
    if not is_terminal(out):
        return Screen(out)
    if env.get("TERM", "").strip().lower() in ("dumb", "unknown") or not _has_rich():
        return Screen(out, terminal=True)
    return RichScreen(out, environ=env)
