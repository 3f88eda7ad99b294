"""The data card (README.md) written into every data set."""

from __future__ import annotations

import shlex
from typing import Any


def command_line(command: dict[str, Any]) -> str:
    """The ``chickenfoot dataset build`` line that makes the data set (DIR for its place)."""
    args = [
        "chickenfoot", "dataset", "build", "DIR",
        "--rounds", str(command["rounds"]),
        "--agents", ",".join(command["agents"]),
        "--players", ",".join(map(str, command["players"])),
        "--presets", ",".join(command["presets"]),
        "--seed", str(command["seed"]),
        "--part-rounds", str(command["part_rounds"]),
        *(["--decisions"] if command["decisions"] else []),
        *(["--engine", command["engine"]] if command["engine"] != "core" else []),
        *_label_args(command),
    ]  # fmt: skip
    return shlex.join(args).replace("'DIR'", "DIR")


_ENGINES = {
    "core": "The agents played through the core rules (`--engine core`).",
    "batch": "The agents played in the batch engine's compiled kernel (`--engine batch`): its "
    "`heuristic` is the search rollouts' heuristic, not `HeuristicAgent`, and its `random` "
    "draws from a generator seeded by the part.",
}


def _label_args(command: dict[str, Any]) -> list[str]:
    label = command.get("label")
    if not label:
        return []
    return [
        "--label", str(label["decisions"]),
        "--label-iterations", str(label["iterations"]),
        "--label-nodes", str(label["nodes"]),
    ]  # fmt: skip


def _labels_section(command: dict[str, Any]) -> str:
    label = command.get("label")
    if not label:
        return ""
    return f"""
## Labels

{label["decisions"]:,} decisions of each partition, spread over its rounds (chosen by the
seed), are labelled in `labels/preset=.../players=.../part-NNNNN.parquet`, one row a
decision: every legal move's value, in the order of the legal moves, from what the seat
knew (the search player's expected penalty `search_penalty` and win share `search_win`
over {label["iterations"]:,} sampled deals of the unseen tiles, heuristic rollouts) and
from the true hands (`solver_penalty`: the exact solver's final penalty of the seat,
within {label["nodes"]:,} nodes; `solved` false and no values where the budget ran out,
never an inexact value), and `clairvoyant_penalty`, the true round finished by the
heuristic rollout after each move (always there, not exact). Early positions of a round
are mostly unsolved: the solved labels lean to the ends of rounds.
"""


def card(manifest: dict[str, Any]) -> str:
    """The data card of a data set, from its manifest (deterministic: no dates)."""
    c = manifest["command"]
    rounds = sum(int(p["rounds"]) for p in manifest["parts"])
    parts = "\n".join(f"| `{p['path']}` | {p['rounds']:,} |" for p in manifest["parts"])
    return f"""# Chicken Foot rounds (chickenfoot {manifest["version"]})

Rounds of the domino game Chicken Foot played by built-in agents, one row a round, as
Parquet. Format `{manifest["format"]}`; the columns and how to read them are described in
the chickenfoot documentation: https://chickenfoot.readthedocs.io/en/latest/dataset/

## How it was made

    {command_line(c)}

with chickenfoot {manifest["version"]}: {rounds:,} rounds, {c["rounds"]:,} for each preset
({", ".join(c["presets"])}) and table size ({", ".join(map(str, c["players"]))} players).
Round `k` of a partition is dealt and played from `random.Random(f"dataset:{{seed}}:{{preset}}:{{players}}:{{k}}")`;
seat `i` is played by agent `(k + i) mod {len(c["agents"])}` of: {", ".join(c["agents"])}.
{_ENGINES[c["engine"]]}
The deal follows from the seed and the rules, so a round holds its moves (action ids of
`chickenfoot.encoding`) and not its tiles. Every decision, with the seat's observation and
the true hands, is read back by replaying the rounds (`chickenfoot.dataset.decisions`).
Hugging Face `datasets` streams the Parquet files as they are; `chickenfoot dataset export
DIR OUT --to numpy|openspiel|minari` writes the decisions as numpy files, OpenSpiel's
trajectory arrays or a Minari data set of one seat's rounds.
`chickenfoot dataset check DIR` replays every round and finds rows that do not agree.

{_labels_section(c)}
## Splits

One split, `train`. Partitions (`preset=.../players=...`) are independent; hold out by
partition or by round number (e.g. `round % 10 == 0`), never by decision within a round.

## License

Meant for any use: CC0 1.0 (public domain dedication), like the rules it is played by.

## Known issues and biases

- The players are programs, not people: their mistakes and habits are not human ones, and
  a learner imitates the mix of agents above, seated by rotation.
- Rounds only, not matches: scores of a round are not shaped by a match's standing.
- Agents with a time limit (e.g. `ismcts:50ms`) play differently on another machine or
  load, so such a data set is reproducible only on the same machine and load.

## Speed and size

As measured for chickenfoot's documentation (docs/dataset.md, "Size and speed"; a shared
2-core machine, CPU time of one pinned process, 4 seats, house rules): the batch engine
builds about 700,000 rounds a minute on one core, 10 million rounds take about 0.85 GB
as rounds (85 bytes a round), the check replays 27,000 to 33,000 rounds a second a core and
the decisions are read back at 124,000 to 137,000 a second with observations.

## Parts

| part | rounds |
|---|---:|
{parts}
"""
