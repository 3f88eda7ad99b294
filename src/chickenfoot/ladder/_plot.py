"""The ratings of a ladder as an SVG picture, with no dependency.

One row per agent, strongest at the top: a dot at ``mu`` and a bar over ``mu ± 2 sigma``,
on a shared axis with ticks. Each row is a group ``<g class="rating" data-agent="..."
data-mu="..." data-sigma="...">`` so programs and tests can read the picture.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from xml.sax.saxutils import escape, quoteattr

from chickenfoot.ladder._stats import Rating

__all__ = ["ratings_svg"]

_ROW = 28
_LEFT = 190
_WIDTH = 640
_TOP = 44
_BOTTOM = 40
_INK = "#1f2933"
_BAR = "#3b82f6"
_DOT = "#1d4ed8"
_GRID = "#d9e2ec"


def _ticks(low: float, high: float) -> list[float]:
    span = high - low
    step = 10 ** math.floor(math.log10(span / 4))
    for factor in (1, 2, 5, 10):
        if span / (step * factor) <= 8:
            step *= factor
            break
    first = math.ceil(low / step) * step
    return [first + k * step for k in range(int((high - first) / step + 1e-9) + 1)]


def _f(x: float) -> str:
    return f"{x:.1f}".rstrip("0").rstrip(".")


def ratings_svg(ratings: Sequence[Rating], *, title: str = "Ratings (mu ± 2 sigma)") -> str:
    """The picture of ``ratings`` (in the order given) as an SVG document."""
    if not ratings:
        low, high = 0.0, 50.0
    else:
        low = min(r.mu - 2 * r.sigma for r in ratings)
        high = max(r.mu + 2 * r.sigma for r in ratings)
    if high - low < 1e-6:
        low, high = low - 1, high + 1
    pad = (high - low) * 0.05
    low, high = low - pad, high + pad
    plot = _WIDTH - _LEFT - 20
    height = _TOP + _ROW * max(1, len(ratings)) + _BOTTOM

    def x(v: float) -> float:
        return _LEFT + (v - low) / (high - low) * plot

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_WIDTH}" height="{height}" '
        f'viewBox="0 0 {_WIDTH} {height}" font-family="sans-serif" font-size="13">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{_WIDTH}" height="{height}" fill="#ffffff"/>',
        f'<text x="{_LEFT}" y="24" fill="{_INK}" font-size="15">{escape(title)}</text>',
    ]
    axis_y = _TOP + _ROW * max(1, len(ratings))
    out.append('<g class="axis">')
    for t in _ticks(low, high):
        tx = x(t)
        out.append(
            f'<line x1="{tx:.1f}" y1="{_TOP - 6}" x2="{tx:.1f}" y2="{axis_y}" stroke="{_GRID}"/>'
            f'<text x="{tx:.1f}" y="{axis_y + 18}" text-anchor="middle" fill="{_INK}">'
            f"{_f(t)}</text>"
        )
    out.append(
        f'<line x1="{_LEFT}" y1="{axis_y}" x2="{_LEFT + plot}" y2="{axis_y}" stroke="{_INK}"/>'
    )
    out.append(
        f'<text x="{_LEFT + plot / 2:.1f}" y="{axis_y + 34}" text-anchor="middle" '
        f'fill="{_INK}">mu (openskill Plackett-Luce)</text></g>'
    )
    for k, r in enumerate(ratings):
        y = _TOP + _ROW * k + _ROW / 2
        name = r.agent if len(r.agent) <= 26 else r.agent[:25] + "…"
        out.append(
            f'<g class="rating" data-agent={quoteattr(r.agent)} data-mu="{r.mu:.3f}" '
            f'data-sigma="{r.sigma:.3f}">'
            f'<text x="{_LEFT - 10}" y="{y + 4:.1f}" text-anchor="end" fill="{_INK}">'
            f"{escape(name)}</text>"
            f'<line x1="{x(r.mu - 2 * r.sigma):.1f}" y1="{y:.1f}" '
            f'x2="{x(r.mu + 2 * r.sigma):.1f}" y2="{y:.1f}" stroke="{_BAR}" stroke-width="6" '
            f'stroke-linecap="round" opacity="0.55"/>'
            f'<circle cx="{x(r.mu):.1f}" cy="{y:.1f}" r="5" fill="{_DOT}"/>'
            f"<title>{escape(r.agent)}: mu {r.mu:.2f}, sigma {r.sigma:.2f}</title></g>"
        )
    out.append("</svg>")
    return "\n".join(out)
