"""``chickenfoot engine AGENT``: serve an agent as an engine on standard input and output."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from chickenfoot.cli._common import EXIT_OK, UsageError
from chickenfoot.specs import Trust, parse_spec

__all__ = ["cmd_engine"]


def cmd_engine(args: argparse.Namespace, out: TextIO) -> int:
    """Serve the agent ``args.agent`` (a spec of ``--bots``) until ``quit`` or end of input.

    The protocol is written to standard output's bytes (``out.buffer``) when it has them,
    else to ``out`` as text; the agent's own prints go to standard error.
    """
    from chickenfoot.engine import serve

    stdin = sys.stdin
    if stdin is None:  # ``<&-``
        raise UsageError("cannot serve an engine: standard input is closed")
    spec = parse_spec(args.agent)
    agent = spec.build(trust=Trust.user())  # typed on the command line
    sink = getattr(out, "buffer", None)
    out.flush()
    serve(
        agent,
        name=args.name or spec.name,
        stdin=getattr(stdin, "buffer", stdin),
        stdout=out if sink is None else sink,
    )
    return EXIT_OK
