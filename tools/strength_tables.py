"""The Strength page's ladder tables, from ``chickenfoot ladder --json`` output.

    chickenfoot ladder --agents ... --players 4 --deals 100 --seed 4 --json > ladder4.json
    python tools/strength_tables.py ladder4.json

prints the ratings table (mu, sigma, mu ± 2 sigma, strongest first) and the leader's
pairs table (its mean penalty minus each other's and its win share of their meetings,
with 95% intervals), in the page's Markdown.
"""

from __future__ import annotations

import json
import sys

ANCHOR = "examples.openspiel_ismcts:Anchor"
TO = " \u2013 "  # the page's ranges: an en dash


def name(agent: str) -> str:
    """An agent as the page names it."""
    return "OpenSpiel IS-MCTS (anchor)" if agent == ANCHOR else f"`{agent}`"


def tables(result: dict[str, object]) -> str:
    """The two tables of one ladder."""
    ratings = result["ratings"]
    assert isinstance(ratings, list)
    lines = [
        "| # | agent | mu | sigma | mu ± 2 sigma |",
        "|---:|---|---:|---:|---|",
    ]
    for i, r in enumerate(ratings, 1):
        mu, sigma = r["mu"], r["sigma"]
        lines.append(
            f"| {i} | {name(r['agent'])} | {mu:.2f} | {sigma:.2f} | "
            f"{mu - 2 * sigma:.1f}{TO}{mu + 2 * sigma:.1f} |"
        )
    leader = ratings[0]["agent"]
    lines += [
        "",
        f"The leader, {name(leader)}, against each (its mean penalty minus the other's, "
        "negative is better; its win share of their meetings):",
        "",
        "| against | deals | penalty difference | 95% interval | win share | 95% interval |",
        "|---|---:|---:|---|---:|---|",
    ]
    pairs = result["pairs"]
    assert isinstance(pairs, list)
    for r in ratings[1:]:
        other = r["agent"]
        for p in pairs:
            if {p["a"], p["b"]} != {leader, other}:
                continue
            sign = 1 if p["a"] == leader else -1
            d = sign * p["difference"]
            lo, hi = sorted(sign * x for x in p["difference_ci"])
            share = p["share"] if sign == 1 else 1 - p["share"]
            slo, shi = sorted(x if sign == 1 else 1 - x for x in p["share_ci"])
            lines.append(
                f"| {name(other)} | {p['deals']} | {d:+.2f} | {lo:+.2f}{TO}{hi:+.2f} | "
                f"{share:.1%} | {slo:.1%}{TO}{shi:.1%} |"
            )
    return "\n".join(lines)


if __name__ == "__main__":
    for path in sys.argv[1:]:
        with open(path, encoding="utf-8") as f:
            print(tables(json.load(f)))
            print()
