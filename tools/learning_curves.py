"""Draw the learning curves of docs/gym.md as one SVG, with no plotting library.

    python tools/learning_curves.py --docs      # docs/img/gym-learning-curves.svg
    python tools/learning_curves.py "PPO=runs/ppo.json" --out curve.svg

Each input is a recipe's JSON result (``examples/ppo_numpy.py``, ``examples/sb3_maskable.py``):
its ``curve`` holds points with ``seconds`` of training and a win share (``win``,
``win_vs_greedy`` or ``win_vs_random``) with the ``half_width`` of its 95% interval. The
picture plots win share against training wall time, one panel per input, the interval as
a band, and the par of four players (25%) as a dashed line.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

W, H = 360, 240  # one panel
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 28, 40
COLOURS = ("#1f5fa8", "#b3541e")
ROOT = Path(__file__).resolve().parent.parent
DOCS_RUNS = (
    ("numpy PPO, evaluated vs 3 GreedyAgents", "ppo_numpy.json"),
    ("MaskablePPO vs 3 random players", "sb3_maskable.json"),
)
"""The runs the docs' picture draws, under bench/gym_runs/, with their titles."""


def _win(point: dict[str, Any]) -> float:
    for key in ("win", "win_vs_greedy", "win_vs_random"):
        if key in point:
            return float(point[key])
    raise KeyError("a point has no win share")


def panel(curve: list[dict[str, Any]], title: str, x0: float, colour: str) -> list[str]:
    """The SVG elements of one panel at horizontal offset ``x0``."""
    xs = [float(p["seconds"]) for p in curve]
    ys = [_win(p) for p in curve]
    hs = [float(p.get("half_width", 0.0)) for p in curve]
    xmax = max(xs) or 1.0
    ymax = max(0.5, max(y + h for y, h in zip(ys, hs, strict=True)) + 0.02)
    pw, ph = W - LEFT - RIGHT, H - TOP - BOTTOM

    def px(x: float) -> float:
        return x0 + LEFT + pw * x / xmax

    def py(y: float) -> float:
        return TOP + ph * (1 - y / ymax)

    out = [
        f'<text x="{x0 + W / 2:.1f}" y="16" text-anchor="middle" font-size="12">{escape(title)}</text>'
    ]
    out.append(
        f'<rect x="{x0 + LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="none" stroke="#999"/>'
    )
    for k in range(0, int(ymax * 10) + 1):
        y = k / 10
        out.append(
            f'<line x1="{x0 + LEFT}" x2="{x0 + LEFT + pw}" y1="{py(y):.1f}" y2="{py(y):.1f}" stroke="#eee"/>'
        )
        out.append(
            f'<text x="{x0 + LEFT - 4}" y="{py(y) + 4:.1f}" text-anchor="end" font-size="10">{k * 10}%</text>'
        )
    step = max(1, round(xmax / 5 / 60)) * 60 if xmax > 300 else max(10, round(xmax / 5 / 10) * 10)
    t = 0.0
    while t <= xmax + 1e-9:
        out.append(
            f'<text x="{px(t):.1f}" y="{TOP + ph + 14}" text-anchor="middle" font-size="10">{t:.0f}</text>'
        )
        t += step
    out.append(
        f'<text x="{x0 + LEFT + pw / 2:.1f}" y="{H - 8}" text-anchor="middle" font-size="10">training wall time (s)</text>'
    )
    out.append(
        f'<line x1="{x0 + LEFT}" x2="{x0 + LEFT + pw}" y1="{py(0.25):.1f}" y2="{py(0.25):.1f}" stroke="#555" stroke-dasharray="4 3"/>'
    )
    out.append(
        f'<text x="{x0 + LEFT + pw - 2}" y="{py(0.25) - 3:.1f}" text-anchor="end" font-size="9" fill="#555">par (25%)</text>'
    )
    band = [f"{px(x):.1f},{py(y + h):.1f}" for x, y, h in zip(xs, ys, hs, strict=True)]
    band += [
        f"{px(x):.1f},{py(y - h):.1f}" for x, y, h in reversed(list(zip(xs, ys, hs, strict=True)))
    ]
    out.append(
        f'<polygon points="{" ".join(band)}" fill="{colour}" fill-opacity="0.18" stroke="none"/>'
    )
    line = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in zip(xs, ys, strict=True))
    out.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>')
    for x, y in zip(xs, ys, strict=True):
        out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="2.5" fill="{colour}"/>')
    return out


def draw(results: list[tuple[str, dict[str, Any]]]) -> str:
    """The SVG of the panels, side by side."""
    width = W * len(results)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{H}" '
        f'viewBox="0 0 {width} {H}" font-family="sans-serif">',
        f'<rect width="{width}" height="{H}" fill="white"/>',
    ]
    for k, (title, result) in enumerate(results):
        parts += panel(result["curve"], title, k * W, COLOURS[k % len(COLOURS)])
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("inputs", nargs="*", help="TITLE=FILE.json, or FILE.json")
    p.add_argument("--out")
    p.add_argument("--docs", action="store_true", help="redraw the docs' picture")
    args = p.parse_args(argv)
    if args.docs:
        runs = ROOT / "bench" / "gym_runs"
        args.inputs = [f"{title}={runs / name}" for title, name in DOCS_RUNS]
        args.out = ROOT / "docs" / "img" / "gym-learning-curves.svg"
    results = []
    for item in args.inputs:
        title, _, name = item.rpartition("=")
        results.append((title or Path(name).stem, json.loads(Path(name).read_text())))
    Path(args.out).write_text(draw(results), encoding="utf-8")


if __name__ == "__main__":
    main()
