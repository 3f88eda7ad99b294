"""What ``chickenfoot play`` draws (issue 19, items 11 and 12): with rich on a terminal, in
colour (the table in a panel, the moves numbered and highlighted, the last tile marked,
whose turn emphasised, the score sheet in a table); plain without rich, with ``NO_COLOR``
(no colours), with ``TERM=dumb`` and off a terminal (byte for byte the same); long lines
wrapped between moves, never inside one; ``help`` explaining the marks of the picture; a
tile that fits nowhere told why.

The terminal tests run the real command in a pseudo-terminal of a fixed size (pexpect) and
read the captured screen back with rich's own ANSI decoder (``Text.from_ansi``): the text a
person sees, with the style of every character.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import chickenfoot as cf
from chickenfoot.cli._places import in_order, laid
from chickenfoot.cli._prompt import understand

if sys.platform == "win32":  # pragma: no cover - a POSIX pseudo-terminal
    pytest.skip("needs a POSIX pty", allow_module_level=True)
import pexpect
from rich.text import Text

from helpers import SRC, WITHOUT_RICH, Transcript, decision

SMALL = ["--players", "2", "--set", 'match={"rounds": 1}', "--bots", "greedy", "--seed", "1"]
PROMPT = r"move \[1-\d+, help\]> "
OVER = r"The match is over"
COLOUR = re.compile(r"\x1b\[([0-9;]*)m")


def colours(raw: str) -> list[str]:
    """The SGR codes of ``raw`` that set a colour (not those of bold, dim or a reset alone)."""
    found = []
    for params in COLOUR.findall(raw):
        parts = params.split(";")
        numbers = [int(p) for p in parts if p.isdigit()]
        if "38" in parts or "48" in parts or any(30 <= n <= 47 or 90 <= n <= 107 for n in numbers):
            found.append(params)
    return found


ANSI = {"black": 0, "red": 1, "green": 2, "yellow": 3, "blue": 4, "magenta": 5, "cyan": 6}


def is_colour(colour: Any, name: str) -> bool:
    """Whether a decoded colour is the terminal's colour ``name`` (its number, 0 to 7)."""
    return colour is not None and colour.number == ANSI[name]


def spawn(
    *argv: str, rich: bool = True, size: tuple[int, int] = (50, 100), **env: str
) -> tuple[Any, list[str]]:
    environ = {**os.environ, "PYTHONPATH": str(SRC), "PYTHONUNBUFFERED": "1"}
    environ.pop("NO_COLOR", None)
    environ.pop("COLUMNS", None)
    environ["TERM"] = "xterm-256color"
    environ.update(env)
    start = ["-m", "chickenfoot"] if rich else ["-c", WITHOUT_RICH]
    child = pexpect.spawn(
        sys.executable,
        [*start, "play", *argv],
        env=environ,
        encoding="utf-8",
        timeout=30,
        dimensions=size,
    )
    log = Transcript()
    child.logfile_read = log
    return child, log.parts


def play_through(child: Any, first: Sequence[str] = ()) -> None:
    """Answer ``first``, then move 1 at every decision, to the end of the match."""
    queue = list(first)
    for _ in range(200):
        if child.expect([PROMPT, OVER]) == 1:
            break
        child.sendline(queue.pop(0) if queue else "1")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def screen(seen: list[str]) -> Text:
    """The captured output as a person sees it: the text and the style of each character."""
    return Text.from_ansi("".join(seen).replace("\r\n", "\n"))


def styled(text: Text, pattern: str, want: Callable[[Any], bool]) -> list[str]:
    """The pieces of ``text`` matching ``pattern`` whose whole span has a style ``want``s."""
    plain = text.plain
    hits = []
    for m in re.finditer(pattern, plain):
        style = text.get_style_at_offset(_console(), m.start())
        end = text.get_style_at_offset(_console(), m.end() - 1)
        if want(style) and want(end):
            hits.append(m.group(0))
    return hits


def _console() -> Any:
    from rich.console import Console

    return Console()


# -- item 11: colour with rich on a terminal --------------------------------------------------------


def test_with_rich_on_a_terminal_play_draws_in_colour() -> None:
    child, seen = spawn(*SMALL)
    play_through(child)
    raw = "".join(seen)
    assert "Traceback" not in raw
    assert colours(raw), "no colour codes"
    text = screen(seen)
    lines = text.plain.split("\n")
    # the table in a panel, titled with the round and whose turn it is
    top = [line for line in lines if line.startswith("╭─ Round 1 of 1 (centre 9-9): ")]
    assert top and any(line.startswith("│ centre 9-9  (") for line in lines)
    assert any(line.startswith("╰─") for line in lines)
    # the last tile laid: reverse yellow; the moves numbered in cyan, in bold green
    assert styled(text, r"\S+\*", lambda s: is_colour(s.bgcolor, "yellow"))
    assert styled(text, r"(?<=  )1\)", lambda s: is_colour(s.color, "cyan"))
    assert styled(text, r"(?<=1\) )\d\|\d", lambda s: s.bold and is_colour(s.color, "green"))
    # the places the moves go, green as the open ends they name on the picture
    assert styled(text, r"(?<=\n  )\d\|\d → \d(?= )", lambda s: is_colour(s.color, "green"))
    # the winner of the round, named with the bot's name
    assert re.search(r"\n(You win|seat 1 \(greedy\) wins) the round with \d+\.\n", text.plain)
    # whose turn: bold, green when it is yours
    assert styled(text, r"seat 0 to play", lambda s: s.bold and is_colour(s.color, "green"))
    # the score sheet and the standings: rich tables
    assert any(re.match(r"┃ +round ┃ +centre ┃ +you ┃ +seat 1 ┃", line) for line in lines), lines
    assert any(re.match(r"│ +total │", line) for line in lines)
    assert any(re.match(r" +1\. +(you|seat 1 \(greedy\)) +\d+", line) for line in lines)


def test_no_color_keeps_the_panel_and_leaves_out_the_colours() -> None:
    child, seen = spawn(*SMALL, NO_COLOR="1")
    play_through(child)
    raw = "".join(seen)
    assert colours(raw) == []
    plain = screen(seen).plain
    assert "╭─ Round 1 of 1 (centre 9-9): " in plain and "\x1b[1m" in raw  # bold stays


@pytest.mark.parametrize(
    ("how", "rich", "env"),
    [("without rich", False, {}), ("TERM=dumb", True, {"TERM": "dumb"})],
    ids=["without rich", "TERM=dumb"],
)
def test_plain_text_without_rich_or_on_a_dumb_terminal(
    how: str, rich: bool, env: dict[str, str]
) -> None:
    child, seen = spawn(*SMALL, rich=rich, **env)
    play_through(child)
    raw = "".join(seen)
    assert colours(raw) == [] and "\x1b[1m" not in raw, how
    assert "== Round 1 of 1 (centre 9-9): you play first ==" in raw
    assert "╭" not in raw and "Traceback" not in raw


def test_off_a_terminal_the_output_is_the_same_with_rich_or_without(tmp_path: Path) -> None:
    answers = tmp_path / "answers"
    answers.write_text("help\n" + "1\n" * 80)
    outputs = []
    for start in (["-m", "chickenfoot"], ["-c", WITHOUT_RICH]):
        with open(answers, "rb") as stdin:
            proc = subprocess.run(
                [sys.executable, *start, "play", *SMALL],
                stdin=stdin,
                capture_output=True,
                env={**os.environ, "PYTHONPATH": str(SRC), "TERM": "xterm-256color"},
                timeout=60,
                check=True,
            )
        outputs.append(proc.stdout)
    assert outputs[0] == outputs[1]
    assert b"\x1b" not in outputs[0] and b"== The match is over: " in outputs[0]


# -- item 12: long lines wrap between moves, help explains the picture ---------------------------


def _all_lines_fit(text: str, width: int) -> list[str]:
    return [line for line in text.split("\n") if len(line.rstrip()) > width]


@pytest.mark.parametrize("rich", [False, True], ids=["plain", "rich"])
def test_a_narrow_terminal_wraps_lines_between_moves(rich: bool) -> None:
    child, seen = spawn(*SMALL, rich=rich, size=(40, 50))
    child.expect(PROMPT)
    child.sendline("draw")  # refused: it can play; the reply lists every move
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    text = screen(seen).plain
    assert _all_lines_fit(text, 50) == []
    reply = text[text.index("draw: you can play") :].split("move [")[0]
    assert reply.count("\n") >= 2  # wrapped onto several rows
    s = cf.deal(cf.Rules(players=2), 1)
    moves = [f"{n}) {laid(m, s.table)}" for n, m in enumerate(in_order(s.table, s.legal_moves), 1)]
    for move in moves:  # each move whole on one row, its number with it, as the list shows it
        assert re.search(rf"(^|[ ,(;]){re.escape(move)}([ ,.;)]|$)", reply, re.M), (move, reply)


def test_help_explains_the_marks_of_the_picture() -> None:
    child, seen = spawn(*SMALL, rich=False)
    child.expect(PROMPT)
    child.sendline("help")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect(pexpect.EOF)
    text = screen(seen).plain
    assert "* marks the tile laid last; > marks your hand" in text
    assert "an open end: the next tile there shows 1" in text
    assert "▪ foot 0-0  closed by the double 0-0, now a foot that needs toes" in text


# -- item 12: why a tile fits nowhere ---------------------------------------------------------------


def _stuck(s: cf.State) -> list[cf.Tile]:
    """Tiles of seat 0's hand with no legal play."""
    playable = {m.tile for m in s.legal_moves if isinstance(m, cf.Play)}
    return [t for t in s.hand(0) if t not in playable]


def _reply(s: cf.State, tile: cf.Tile) -> str:
    reply = understand(str(tile), s.view(0), s)
    assert isinstance(reply, str)
    return reply


def test_a_tile_that_fits_nowhere_says_why_the_centre_needs_toes() -> None:
    s = decision(cf.Rules(players=2), lambda s: s.pending_hub == s.centre and bool(_stuck(s)))
    tile = _stuck(s)[0]
    need = s.toes_needed
    toes = f"{need} toe{'s' * (need != 1)}"
    assert _reply(s, tile).startswith(
        f"{tile} fits nowhere now: the centre {s.centre} still needs {toes} first, and {tile} "
        f"does not carry {s.centre.high}. Your moves: "
    )


def test_a_tile_that_fits_nowhere_says_why_a_foot_needs_toes() -> None:
    def foot(s: cf.State) -> bool:
        return s.pending_hub is not None and s.pending_hub != s.centre and bool(_stuck(s))

    s = decision(cf.Rules(players=2), foot)
    tile, hub = _stuck(s)[0], s.pending_hub
    assert hub is not None
    assert f"{tile} fits nowhere now: the foot {hub} still needs " in _reply(s, tile)
    assert f"first, and {tile} does not carry {hub.high}. Your moves: " in _reply(s, tile)


def test_a_tile_that_fits_nowhere_names_the_open_ends() -> None:
    def open_table(s: cf.State) -> bool:
        return s.pending_hub is None and s.drawn is None and bool(_stuck(s))

    s = decision(cf.Rules(players=2), open_table)
    tile = _stuck(s)[0]
    ends = ", ".join(map(str, sorted({n for _, n in s.open_ends})))
    shows = str(tile.high) if tile.is_double else f"{tile.high} or {tile.low}"
    assert _reply(s, tile).startswith(
        f"{tile} fits nowhere now: no open end shows {shows} (the open ends show {ends}). "
    )


def test_a_tile_that_fits_nowhere_after_a_draw_says_only_the_drawn_one_may_be_played() -> None:
    rules = cf.Rules(players=2, drawn_tile="may_play")

    def drew(s: cf.State) -> bool:
        return s.drawn is not None and any(t != s.drawn for t in _stuck(s))

    s = decision(rules, drew)
    tile = next(t for t in _stuck(s) if t != s.drawn)
    assert _reply(s, tile).startswith(
        f"{tile} fits nowhere now: you drew {s.drawn} this turn, and only the drawn tile may "
        "be played now. "
    )


def test_before_the_centre_is_laid_nothing_fits() -> None:
    # (the prompt never asks then: a seat without the centre can only draw)
    from chickenfoot.cli._prompt import nowhere

    s = cf.deal(cf.Rules.preset("classic", players=2), 4)
    assert not s.centre_laid
    tile = next(t for t in s.hand(0) if t != s.centre)
    assert nowhere(tile, s.view(0)) == f"the centre {s.centre} must be laid first"


# -- wrapping, as a property ------------------------------------------------------------------------

MOVES = st.builds(
    lambda a, b, c: f"{a}-{b}@{c}-{c}", st.integers(0, 15), st.integers(0, 15), st.integers(0, 15)
)


@given(st.lists(MOVES, min_size=1, max_size=40), st.integers(20, 120))
def test_fit_never_cuts_a_move(moves: list[str], width: int) -> None:
    from chickenfoot.cli._screen import fit

    line = f"9-6: you do not hold 9-6. Your moves: {', '.join(moves)}."
    rows = fit(line, width).split("\n")
    assert all(len(r) <= width for r in rows)
    assert " ".join(r.strip() for r in rows) == line  # only spaces became line breaks
    words = {w.strip(",.") for r in rows for w in r.split()}
    assert set(moves) <= words


def test_a_refused_draw_or_pass_is_said_to_you() -> None:
    s = cf.deal(cf.Rules(players=2), 1)
    for word in ("draw", "pass"):
        reply = understand(word, s.view(0), s)
        assert isinstance(reply, str)
        assert reply.startswith(
            f"{word}: you can play (e.g. 9|0 at centre 9-9 (toe)), so you may not {word}. "
        )  # the move as the list shows it
