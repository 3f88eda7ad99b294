"""Bots in any language: the engine protocol, like UCI for chess (docs: Engine protocol).

A program that reads and writes JSON lines on its standard input and output plays through
:class:`EngineAgent`, an :class:`~chickenfoot.Agent` usable wherever one is (``play_round``,
``play_match``, ``simulate`` on a process pool or a cluster); :func:`serve` runs any agent
of this library (or yours) as such a program, and ``chickenfoot engine AGENT`` does so from
the command line. This subpackage stands above the rest of the library: nothing else in it
imports this.

>>> import sys
>>> from chickenfoot import Rules, Rounds, play_match
>>> import random
>>> bot = EngineAgent([sys.executable, "-m", "chickenfoot", "engine", "random"], time_ms=5000)
>>> with bot:
...     m = play_match(Rules(players=2, match=Rounds(1)), [bot, bot], seed=1,
...                    rng=random.Random(0))
...     bot.hello["name"], bot.hello["extensions"]
('random', ['ping', 'rng', 'rounds'])
>>> m.is_over()
True
"""

from __future__ import annotations

from chickenfoot._protocol import EXTENSIONS, MAX_LINE, PROTOCOL
from chickenfoot.engine._host import MAX_MESSAGE, EngineAgent
from chickenfoot.engine._process import STDERR_LINES
from chickenfoot.engine._serve import serve

__all__ = [
    "EXTENSIONS",
    "MAX_LINE",
    "MAX_MESSAGE",
    "PROTOCOL",
    "STDERR_LINES",
    "EngineAgent",
    "serve",
]
