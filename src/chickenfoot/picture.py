"""SVG pictures of a round, with no dependency: ``chickenfoot.svg(state)``.

The picture is drawn from :attr:`State.table <chickenfoot.State.table>`. The centre stands
upright in the middle; its lines grow to the right and to the left (the sides are filled in
turn, keeping them about equally tall), each line a row of dominoes turned the way they lie,
the number that faces the hub on the hub's side. A double that closes a line is laid
crosswise at its end and its toes fan out beyond it, each with a thin stroke back to the
double. Every line gets a band of its own, tall enough for everything that grows from it,
and sibling bands never share a row, so no two dominoes overlap however big the table.

Pips are dots up to 9 (the usual patterns) and numerals from 10 to 18. The pending hub is
outlined in orange with the toes it still needs drawn as dashed slots; the tile placed last
is outlined in blue. A caption says whose turn it is and what happened last, in the
language asked for (``lang="el"``; English by default). Hands are
optional, below the table: every hand, one seat's, or, for a player's view, the viewer's
face up and the others face down.

Every domino is an SVG group ``<g class="domino" data-tile="9-3" data-box="x0 y0 x1 y1">``
(``data-box`` in the picture's own units, a domino being 1 by 2), so programs and tests can
find tiles in the picture. With ``targets=`` (legal moves) the places those moves lay a
tile are drawn too, each a group ``<g class="target" data-move="7-4@7-6">``: a game page
makes them clickable.

>>> from chickenfoot import Rules, deal, svg
>>> s = deal(Rules(), seed=1).apply("9-3@9-9")
>>> picture = svg(s)
>>> picture.startswith("<svg") and picture.count('<g class="domino')
2
>>> svg(s, hands="all").count('<g class="domino') == 2 + sum(s.hand_sizes)
True
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator
from typing import Literal
from xml.sax.saxutils import escape

from chickenfoot import _picture_words as words
from chickenfoot._i18n import LANGUAGES, Translator, translator
from chickenfoot._layout import (
    BACK,
    BOARD,
    DEFAULT_SCALE,
    FACE,
    HAND_GAP,
    INK,
    LAST_TEXT,
    MARGIN,
    PENDING,
    Domino,
    Layout,
    Mark,
)
from chickenfoot.errors import ArgumentError, SeatError, brief
from chickenfoot.moves import Move, Play, parse_move
from chickenfoot.state import State
from chickenfoot.tiles import Tile
from chickenfoot.view import View

__all__ = ["svg"]


# Dot centres in a unit square for 0-9, on a 3 x 3 grid (a, b, c = left/top, middle, right).
_A, _B, _C = 0.24, 0.5, 0.76
_DOTS: dict[int, tuple[tuple[float, float], ...]] = {
    0: (),
    1: ((_B, _B),),
    2: ((_A, _A), (_C, _C)),
    3: ((_A, _A), (_B, _B), (_C, _C)),
    4: ((_A, _A), (_C, _A), (_A, _C), (_C, _C)),
    5: ((_A, _A), (_C, _A), (_B, _B), (_A, _C), (_C, _C)),
    6: ((_A, _A), (_A, _B), (_A, _C), (_C, _A), (_C, _B), (_C, _C)),
    7: ((_A, _A), (_A, _B), (_A, _C), (_B, _B), (_C, _A), (_C, _B), (_C, _C)),
    8: ((_A, _A), (_A, _B), (_A, _C), (_B, _A), (_B, _C), (_C, _A), (_C, _B), (_C, _C)),
    9: tuple((x, y) for y in (_A, _B, _C) for x in (_A, _B, _C)),
}


TARGET = "#ffd54a"
"""The colour of a place a tile may be laid (``targets=``)."""


# -- drawing ------------------------------------------------------------------------------


def _f(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _half(number: int, x: float, y: float) -> Iterator[str]:
    """The pips of one half: a unit square with its top left corner at (x, y)."""
    if number <= 9:
        for dx, dy in _DOTS[number]:
            yield f'<circle cx="{_f(x + dx)}" cy="{_f(y + dy)}" r="0.1" fill="{INK}"/>'
    else:
        yield (
            f'<text x="{_f(x + 0.5)}" y="{_f(y + 0.5)}" font-size="0.58" text-anchor="middle" '
            f'dominant-baseline="central" font-family="sans-serif" font-weight="bold" '
            f'fill="{INK}">{number}</text>'
        )


@functools.lru_cache(maxsize=4096)
def _face(name: str, w: float, h: float, first: int, second: int, outline: str | None) -> str:
    """What is inside a domino's group, drawn from its top left corner (the group is
    moved into place): the same for every domino of one tile, size and outline, so it is
    drawn once (a table redrawn after each move draws only what is new)."""
    parts = [f"<title>{name}</title>"] if name else []
    fill = FACE if name else BACK
    parts.append(
        f'<rect x="0.03" y="0.03" width="{_f(w - 0.06)}" height="{_f(h - 0.06)}" rx="0.14" '
        f'fill="{fill}" stroke="{INK}" stroke-width="0.05"/>'
    )
    if name:
        if w > h:  # lying: halves left and right
            mid = w / 2
            parts.append(
                f'<line x1="{_f(mid)}" y1="0.15" x2="{_f(mid)}" y2="{_f(h - 0.15)}" '
                f'stroke="{INK}" stroke-width="0.04"/>'
            )
            parts.extend(_half(first, 0.0, 0.0))
            parts.extend(_half(second, mid, 0.0))
        else:  # standing: halves top and bottom
            mid = h / 2
            parts.append(
                f'<line x1="0.15" y1="{_f(mid)}" x2="{_f(w - 0.15)}" y2="{_f(mid)}" '
                f'stroke="{INK}" stroke-width="0.04"/>'
            )
            parts.extend(_half(first, 0.0, 0.0))
            parts.extend(_half(second, 0.0, mid))
    if outline is not None:
        parts.append(
            f'<rect x="-0.06" y="-0.06" width="{_f(w + 0.12)}" height="{_f(h + 0.12)}" '
            f'rx="0.2" fill="none" stroke="{outline}" stroke-width="0.12"/>'
        )
    return "".join(parts)


@functools.lru_cache(maxsize=4096)
def _domino(d: Domino) -> str:
    """One domino: a group on one line, its face drawn from (0, 0) and moved into place
    (kept: a table drawn after each move draws again only the dominoes that moved)."""
    name = "" if d.tile is None else str(d.tile)
    box = " ".join(_f(v) for v in (d.x0, d.y0, d.x1, d.y1))
    face = _face(name, round(d.x1 - d.x0, 3), round(d.y1 - d.y0, 3), d.first, d.second, d.outline)
    return (
        f'<g class="domino {d.role}" data-tile="{name}" data-box="{box}" '
        f'transform="translate({_f(d.x0)} {_f(d.y0)})">{face}</g>'
    )


@functools.lru_cache(maxsize=4096)
def _mark(m: Mark) -> str:
    if m.kind == "stroke":
        return (
            f'<line class="toe-stroke" x1="{_f(m.x0)}" y1="{_f(m.y0)}" x2="{_f(m.x1)}" '
            f'y2="{_f(m.y1)}" stroke="{m.colour}" stroke-width="0.06" stroke-opacity="0.7"/>'
        )
    if m.kind == "slot":
        lo, hi = min(m.x0, m.x1), max(m.x0, m.x1)
        return (
            f'<rect class="slot" x="{_f(lo)}" y="{_f(m.y0)}" width="{_f(hi - lo)}" '
            f'height="{_f(m.y1 - m.y0)}" rx="0.14" fill="none" stroke="{PENDING}" '
            f'stroke-width="0.06" stroke-dasharray="0.18 0.12"/>'
        )
    return (
        f'<text x="{_f(m.x0)}" y="{_f(m.y0)}" font-size="{_f(m.size)}" '
        f'text-anchor="{m.anchor}" font-family="sans-serif" fill="{m.colour}">'
        f"{escape(m.text)}</text>"
    )


def _target(move: Play, box: Mark, tr: Translator) -> str:
    """One place a move lays its tile: a group on one line (a page may take the line out
    and lay it over the picture drawn without it)."""
    lo, hi = min(box.x0, box.x1), max(box.x0, box.x1)
    corners = " ".join(_f(v) for v in (lo, box.y0, hi, box.y1))
    return (
        f'<g class="target" data-move="{move.notation()}" data-box="{corners}">'
        f"<title>{escape(words.place_title(move, tr))}</title>"
        f'<rect x="{_f(lo + 0.03)}" y="{_f(box.y0 + 0.03)}" width="{_f(hi - lo - 0.06)}" '
        f'height="{_f(box.y1 - box.y0 - 0.06)}" rx="0.14" fill="{TARGET}" fill-opacity="0.35" '
        f'stroke="{TARGET}" stroke-width="0.1"/></g>'
    )


def _targets(
    layout: Layout, position: State | View, moves: Iterable[Move | str]
) -> list[tuple[Play, Mark]]:
    """The place of each move of ``moves`` that lays a tile (draws and passes have none),
    as a ``slot`` mark; every toe of a hub goes to its first
    missing slot, the centre's lay (``holder`` mode) to the centre's place."""
    if isinstance(moves, str | bytes) or not isinstance(moves, Iterable):
        raise ArgumentError(f"targets={brief(moves)} is invalid: must be moves (a list)")
    where: dict[Tile | None, Mark] = {None: Mark("slot", -0.5, -1.0, 0.5, 1.0)}
    for anchor, box in layout.places:
        where.setdefault(anchor, box)
    out: list[tuple[Play, Mark]] = []
    for given in moves:
        move = given if isinstance(given, Move) else None
        if isinstance(given, str) and len(given) <= 40:
            move = parse_move(given, max_pip=position.rules.max_pip)
        if move is None:
            raise ArgumentError(f"targets: {brief(given)} is not a move")
        if not isinstance(move, Play):
            continue
        known = move.anchor is None and layout.table.centre is None
        if not known and (move.anchor is None or move.anchor not in where):
            raise ArgumentError(f"targets: {move.notation()} has no open place on this table")
        out.append((move, where[move.anchor]))
    return out


# -- captions and hands --------------------------------------------------------------------


HandsOption = Literal["none", "all"] | int


def _hand_rows(
    position: State | View, hands: HandsOption
) -> list[tuple[int, tuple[Tile | None, ...]]]:
    players = position.players
    if hands == "none":
        return []
    seats = range(players) if hands == "all" else [hands]
    rows: list[tuple[int, tuple[Tile | None, ...]]] = []
    for seat in seats:
        if isinstance(position, View) and seat != position.seat:
            rows.append((seat, (None,) * position.hand_sizes[seat]))
        else:
            rows.append(
                (seat, tuple(position.hand(seat) if isinstance(position, State) else position.hand))
            )
    return rows


def _text_right(m: Mark) -> float:
    """Where a text mark ends on the right, estimated (sans-serif is about 0.56 em a letter)."""
    width = 0.56 * m.size * len(m.text)
    return m.x0 + (width if m.anchor == "start" else width / 2)


def _bounds(dominoes: list[Domino], marks: list[Mark]) -> tuple[float, float, float, float]:
    """The extent (left, top, right, bottom) of everything laid out so far."""
    xs: list[float] = [-4.0, 4.0]
    ys: list[float] = [-1.0, 1.0]
    for d in dominoes:
        xs += (d.x0, d.x1)
        ys += (d.y0, d.y1)
    for m in marks:
        if m.kind == "text":
            half = 0.56 * m.size * len(m.text) / 2
            xs += (m.x0 - half, m.x0 + half) if m.anchor == "middle" else (m.x0, _text_right(m))
            ys += (m.y0 - m.size, m.y0)
        else:
            xs += (m.x0, m.x1)
            ys += (m.y0, m.y1)
    return min(xs), min(ys), max(xs), max(ys)


def _check_options(
    position: object, size: object, hands: object, seat: object, lang: object
) -> None:
    if type(lang) is not str or lang not in LANGUAGES:
        raise ArgumentError(f"lang={brief(lang)} is invalid: must be one of {', '.join(LANGUAGES)}")
    if not isinstance(position, State | View):
        raise ArgumentError(f"expected a State or a View, got {brief(position)}")
    if size is not None and (type(size) is not int or not 16 <= size <= 20_000):
        raise ArgumentError(f"size={brief(size)} is invalid: must be an int from 16 to 20000")
    players = position.players
    if hands not in ("none", "all") and (type(hands) is not int or not 0 <= hands < players):
        raise SeatError(
            f"hands={brief(hands)} is invalid: must be 'none', 'all' or a seat "
            f"from 0 to {players - 1}"
        )
    if seat is not None and (type(seat) is not int or not 0 <= seat < players):
        raise SeatError(f"seat={brief(seat)} is invalid: must be a seat from 0 to {players - 1}")
    if seat is not None and isinstance(position, View):
        raise ArgumentError("seat= is for a State; a View is already one seat's picture")


def svg(
    position: State | View,
    *,
    size: int | None = None,
    hands: HandsOption | None = None,
    seat: int | None = None,
    targets: Iterable[Move | str] | None = None,
    room_for_places: bool = False,
    lang: str = "en",
) -> str:
    """An SVG picture of ``position`` (a :class:`~chickenfoot.State` or a :class:`~chickenfoot.View`).

    Options (keyword-only):

    - ``size``: the width of the picture in pixels (the height follows); by default 24
      pixels per domino width.
    - ``hands``: ``"none"``, ``"all"``, or a seat number: the hands drawn below the table.
      In a view only the viewer's tiles are face up. By default a state's picture shows no
      hand and a view's shows the viewer's own hand, face up.
    - ``seat``: draw a state as that seat sees it (``state.view(seat)``, with that seat's
      hand by default): the other hands face down.
    - ``targets``: moves (``Move`` objects or notation, usually the legal moves) whose
      places are drawn, glowing, above the table: ``<g class="target"
      data-move="7-4@7-6">`` where the move would lay its tile (beyond a line's last tile,
      in a pending hub's first dashed slot). Draws and passes are skipped; a move with no
      open place on the table raises :class:`~chickenfoot.ArgumentError`. By default none.
    - ``room_for_places``: leave room for a tile at every open place (beyond each line's
      end), so that the picture keeps its frame with or without ``targets=`` (a page can
      lay the places of any moves, each one line of the picture, over it). By default the
      frame is tight.
    - ``lang``: the language of the words inside the picture (its captions, the hands'
      labels, the places' titles, its ``<title>``): ``"en"`` (the default), ``"el"``,
      ``"hr"``, ``"ro"`` or ``"lv"``; the tiles and moves stay in notation. It is asked
      for, never taken from the process's locale: the same call draws the same picture
      everywhere. Any other value raises :class:`~chickenfoot.ArgumentError`.

    The caption above the table says whose turn it is and, for a view, whose view it is.

    Raises :class:`~chickenfoot.ArgumentError` for a bad ``size`` or position and
    :class:`~chickenfoot.SeatError` for a seat the round does not have.

    >>> from chickenfoot import Rules, deal
    >>> s = deal(Rules(players=2), seed=3)
    >>> picture = svg(s, seat=1, hands="all", size=600)
    >>> 'width="600"' in picture, picture.count('data-tile=""') == len(s.hand(0))
    (True, True)
    >>> s = deal(Rules(players=2), seed=1).apply("9-8@9-9")
    >>> glowing = svg(s, targets=s.legal_moves)
    >>> glowing.count('class="target"') == len(s.legal_moves) - ("draw" in s.legal_moves)
    True
    >>> framed = svg(s, room_for_places=True).splitlines()     # the same frame, places or not
    >>> framed[0] == svg(s, targets=s.legal_moves, room_for_places=True).splitlines()[0]
    True
    >>> "παίζει η θέση 1" in svg(s, lang="el")                 # the words in Greek
    True
    """
    _check_options(position, size, "none" if hands is None else hands, seat, lang)
    tr = translator(lang)
    if type(room_for_places) is not bool:
        raise ArgumentError(f"room_for_places={brief(room_for_places)} is invalid: must be a bool")
    if seat is not None and isinstance(position, State):
        position = position.view(seat)
    if hands is None:
        hands = position.seat if isinstance(position, View) else "none"
    table = position.table  # worked out from the history on each call: once here
    layout = Layout(table)
    if table.centre is not None:
        layout.place()
    dominoes = layout.dominoes
    marks = layout.marks
    if not dominoes:
        marks.append(
            Mark(
                "text",
                0.0,
                0.2,
                text=words.empty_table(position, tr),
                anchor="middle",
            )
        )
    places = [] if targets is None else _targets(layout, position, targets)
    room = layout.places if room_for_places else places
    left, top, right, bottom = _bounds(dominoes, marks + [box for _, box in room])
    # Captions above the table: what happened last, then the status.
    event = words.last_event(position, tr)
    said_status = words.status(position, tr)
    caption_y = top - 1.0
    status = Mark("text", left, caption_y, text=said_status, size=0.6)
    marks.append(status)
    right = max(right, _text_right(status))
    top = caption_y - 0.7
    if event:
        said = Mark("text", left, caption_y - 0.8, text=event, size=0.5, colour=LAST_TEXT)
        marks.append(said)
        right = max(right, _text_right(said))
        top -= 0.8
    # Hands below the table, standing: one block per seat, as many side by side as the
    # table's width holds.
    rows = _hand_rows(position, hands)
    if rows:
        labels = [words.hand_label(position, seat_, tr) for seat_, _ in rows]
        widths = [
            max(len(tiles) * (1.0 + HAND_GAP), 0.56 * 0.5 * len(label))
            for (_, tiles), label in zip(rows, labels, strict=True)
        ]
        column = max(widths) + 1.0
        columns = max(1, int((right - left + 1.0) // column))
        y = bottom + 1.2
        drawn = position.drawn
        for i, ((_, tiles), label) in enumerate(zip(rows, labels, strict=True)):
            x = left + (i % columns) * column
            if i and i % columns == 0:
                y += 3.3
            marks.append(Mark("text", x, y + 0.4, text=label, size=0.5))
            right = max(right, _text_right(marks[-1]))
            for tile in tiles:
                if tile is None:
                    dominoes.append(Domino(None, x, y + 0.8, x + 1.0, y + 2.8, 0, 0, "hand"))
                else:
                    outline = PENDING if tile == drawn else None
                    dominoes.append(
                        Domino(
                            tile, x, y + 0.8, x + 1.0, y + 2.8, tile.high, tile.low, "hand", outline
                        )
                    )
                x += 1.0 + HAND_GAP
            right = max(right, x)
        bottom = y + 2.8
    x0, y0 = left - MARGIN, top - MARGIN
    width, height = right - left + 2 * MARGIN, bottom - top + 2 * MARGIN
    width = max(width, 12.0)
    scale = DEFAULT_SCALE if size is None else size / width
    px_w, px_h = round(width * scale), round(height * scale)
    said_lang = "" if lang == "en" else f' lang="{lang}"'  # English: as it always was
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{px_w}" height="{px_h}" '
        f'viewBox="{_f(x0)} {_f(y0)} {_f(width)} {_f(height)}" '
        f'font-family="sans-serif" role="img"{said_lang}>',
        f"<title>Chicken Foot: {escape(said_status)}</title>",
        f'<rect x="{_f(x0)}" y="{_f(y0)}" width="{_f(width)}" height="{_f(height)}" '
        f'fill="{BOARD}"/>',
    ]
    out.extend(
        _mark(m).replace(f'fill="{INK}"', 'fill="#f4f1e6"')
        if m.kind == "text" and m.colour == INK
        else _mark(m)
        for m in marks
    )
    out.extend(_domino(d) for d in dominoes)
    out.extend(_target(move, box, tr) for move, box in places)
    out.append("</svg>")
    return "\n".join(out)


def _repr_svg(self: State | View) -> str:
    return svg(self, hands="all")


# Jupyter draws any object with a ``_repr_svg_`` method. The method is attached here, not
# written in state.py and view.py, so that the rules core never imports its renderers.
State._repr_svg_ = _repr_svg  # type: ignore[attr-defined]
View._repr_svg_ = _repr_svg  # type: ignore[attr-defined]
