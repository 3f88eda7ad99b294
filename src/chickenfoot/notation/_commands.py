"""Structured commands inside comments: ``[%eval ...]`` and ``[%clk ...]`` (docs/notation.md).

An evaluation gives, per seat in seat order, the expected penalty and the win share, then
the effort spent (``it=N`` iterations or ``ms=N`` milliseconds); a clock gives the time
left to the seat that moved, ``H:MM:SS`` with optional tenths. The getters read the first
command of a comment; the setters replace it, or append one.

>>> ev = Evaluation((12.5, 30.0), (0.75, 0.25), iterations=2000)
>>> text = set_eval("a fine draw", ev)
>>> text
'a fine draw [%eval 12.5:0.75 30:0.25 it=2000]'
>>> comment_eval(text) == ev, comment_clock(set_clock(text, 83.5))
(True, 83.5)
>>> set_clock("[%clk 0:00:10] ok", 5)
'[%clk 0:00:05] ok'
"""

from __future__ import annotations

import math
import re
from typing import Final

import attrs

from chickenfoot.errors import FormatError, brief

__all__ = ["Evaluation", "comment_clock", "comment_eval", "set_clock", "set_eval"]

_EVAL: Final = re.compile(
    r"\[%eval((?: [0-9.]{1,20}:[0-9.]{1,20}){1,100})(?: (it|ms)=([0-9]{1,12}))?\]"
)
_CLK: Final = re.compile(r"\[%clk ([0-9]{1,6}):([0-5][0-9]):([0-5][0-9](?:\.[0-9]{1,3})?)\]")


def _number(x: float) -> str:
    return f"{x:.6g}" if x != int(x) else str(int(x))


@attrs.frozen
class Evaluation:
    """Per seat, the expected penalty and win share; the effort in iterations or ms.

    >>> Evaluation((1.0,), (2.0,))
    Traceback (most recent call last):
    ...
    chickenfoot.errors.FormatError: eval: a win share is from 0 to 1, got 2.0
    """

    penalties: tuple[float, ...]
    wins: tuple[float, ...]
    iterations: int | None = attrs.field(default=None, kw_only=True)
    ms: int | None = attrs.field(default=None, kw_only=True)

    def __attrs_post_init__(self) -> None:
        if len(self.penalties) != len(self.wins) or not self.penalties:
            raise FormatError("eval", "one penalty and one win share per seat")
        for x in self.penalties:
            if not (math.isfinite(x) and x >= 0):
                raise FormatError("eval", f"a penalty is a number from 0, got {brief(x)}")
        for x in self.wins:
            if not (math.isfinite(x) and 0 <= x <= 1):
                raise FormatError("eval", f"a win share is from 0 to 1, got {brief(x)}")
        if self.iterations is not None and self.ms is not None:
            raise FormatError("eval", "the effort is iterations or milliseconds, not both")

    def __str__(self) -> str:
        seats = " ".join(
            f"{_number(p)}:{_number(w)}" for p, w in zip(self.penalties, self.wins, strict=True)
        )
        effort = (
            f" it={self.iterations}"
            if self.iterations is not None
            else f" ms={self.ms}"
            if self.ms is not None
            else ""
        )
        return f"[%eval {seats}{effort}]"


def comment_eval(text: str) -> Evaluation | None:
    """The first evaluation command of a comment, or ``None`` (also for a malformed one)."""
    m = _EVAL.search(text)
    if m is None:
        return None
    try:
        pairs = [pair.split(":") for pair in m.group(1).split()]
        effort = None if m.group(3) is None else int(m.group(3))
        return Evaluation(
            tuple(float(p) for p, _ in pairs),
            tuple(float(w) for _, w in pairs),
            iterations=effort if m.group(2) == "it" else None,
            ms=effort if m.group(2) == "ms" else None,
        )
    except (ValueError, FormatError):
        return None


def set_eval(text: str, evaluation: Evaluation) -> str:
    """``text`` with its first evaluation command replaced by ``evaluation`` (or appended)."""
    command = str(evaluation)
    if _EVAL.search(text):
        return _EVAL.sub(lambda _: command, text, count=1)
    return f"{text} {command}" if text else command


def comment_clock(text: str) -> float | None:
    """The seconds of the first clock command of a comment, or ``None``."""
    m = _CLK.search(text)
    if m is None:
        return None
    return int(m.group(1)) * 3600 + int(m.group(2)) * 60 + float(m.group(3))


def set_clock(text: str, seconds: float) -> str:
    """``text`` with its first clock command set to ``seconds`` (or appended)."""
    if not (isinstance(seconds, (int, float)) and math.isfinite(seconds) and 0 <= seconds < 3.6e9):
        raise FormatError("clock", f"expected seconds from 0, got {brief(seconds)}")
    tenths = round(seconds * 10)
    h, rest = divmod(tenths, 36000)
    m, s = divmod(rest, 600)
    sec = f"{s // 10:02d}" + (f".{s % 10}" if s % 10 else "")
    command = f"[%clk {h}:{m:02d}:{sec}]"
    if _CLK.search(text):
        return _CLK.sub(lambda _: command, text, count=1)
    return f"{text} {command}" if text else command
