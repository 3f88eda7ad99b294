"""Where the unseen tiles are: a learned model, for the search's dealing (issue 51).

From one seat's :class:`~chickenfoot.View`, each tile it cannot see (in another hand or the
boneyard; not the tiles the others played) gets a probability of being in each other
seat's hand and in the boneyard. The places the history rules out
(:mod:`chickenfoot.sampling`: a seat that drew or passed on a number holds none of it, a
seat's drawn tile that it could not play, ...) get probability 0; among the rest, a
conditional logit with a small hidden layer over :data:`FEATURES` of each (tile, place)
pair, read from the public history: how often the seat passed over the tile when it was
playable (heavier than the tile it played, or not, and since its last draw), how often
the heuristic's own score would have played the tile instead of the play made (from what
is known of the hand then: the tile and the tile played), whether its plays left one of
the tile's numbers open or laid the double of one (the heuristic keeps such tiles), how
many tiles it drew, the tile's points, and the place's size.

The model is trained on :mod:`chickenfoot.dataset` rounds with the true hands as labels
(``tools/train_belief.py``; docs/learned.md gives the curves) and shipped as
``belief.npz`` beside this module: plain arrays, read with ``allow_pickle=False``. It needs
numpy.

:func:`deal_weights` turns the probabilities into the weights with which
:func:`chickenfoot.sampling.sample_state` (and the compiled sampler) deal: each tile goes
to a place in proportion to the place's room times ``probability / size``, so that the
weights say what the history says beyond the sizes of the hands.

>>> from chickenfoot import Rules, deal
>>> s = deal(Rules(), seed=1).apply("9-3@9-9").apply("draw").apply("pass")
>>> tiles, q = BeliefModel.load().probabilities(s.view(0))
>>> q.shape, bool(abs(q.sum(axis=1) - 1).max() < 1e-9), float(q[:, 0].max())  # seat 0 is me
((43, 5), True, 0.0)
>>> nine = [i for i, t in enumerate(tiles) if BY_ID[t].has(9)]   # seat 1 drew and passed
>>> float(q[nine, 1].max())
0.0
"""

from __future__ import annotations

import math
import os
from functools import lru_cache
from importlib import resources
from typing import Any, Final

import numpy as np
from numpy.typing import NDArray

from chickenfoot._slots import Weights
from chickenfoot.errors import FormatError
from chickenfoot.moves import Draw, Play
from chickenfoot.sampling import problem
from chickenfoot.tiles import BY_ID
from chickenfoot.view import View

__all__ = ["FEATURES", "BeliefModel", "deal_weights", "features"]

FEATURES: Final = (
    "log_size",  # log of the place's tiles (hand or boneyard)
    "boneyard",  # 1 for the boneyard
    "next",  # 1 for the seat after the viewer
    "previous",  # 1 for the seat before the viewer
    "passed",  # the seat's plays while the tile was playable (it played another)
    "passed_since_draw",  # the same, since the seat's last draw
    "passed_heavier",  # those plays where the tile had more points than the one played
    "passed_heavier_since_draw",
    "left_open",  # the seat's plays that left one of the tile's numbers open
    "left_open_since_draw",
    "laid_double",  # doubles the seat laid that share a number with the tile
    "draws",  # the seat's draws
    "points",  # the tile's points (a hand's feature)
    "double",  # 1 for a double (a hand's feature)
    "points_by_plays",  # the tile's points times the seat's plays
    "passed_by_all",  # (the boneyard's) the others' plays while the tile was playable
    "passed_double",  # "passed" for a double
    "left_open_double",  # "left_open" for a double (the heuristic keeps it thrice over)
    "beaten",  # the seat's plays, since its last draw, that the heuristic would have
    #   made with the tile instead (its score of the tile's play, from what is known of
    #   the hand then: the tile and the tile played, above that of the play made)
    "beaten_before",  # the same before the seat's last draw (the tile may have come later)
    "beaten_by",  # the sum of those margins since the last draw (points / 10, each <= 2)
    "close",  # plays since the last draw where the tile's score was within 3 below
    "margin_best",  # the largest margin since the last draw (/ 10, in [-2, 2]; -2: none)
)
"""The features of a (tile, place) pair, in the model's order."""

_F: Final = len(FEATURES)
_EPS: Final = 1e-6  # the least weight of a place the history allows


class BeliefModel:
    """A conditional logit over :data:`FEATURES` (and an optional hidden layer): the score
    of each (tile, place) pair; a tile's probabilities are the softmax of its scores over
    the places the history allows. Make one with :meth:`load`.

    >>> m = BeliefModel.load()
    >>> m.weights.shape == (len(FEATURES),)
    True
    """

    def __init__(self, weights: NDArray[np.float64], hidden: tuple[Any, Any, Any] | None) -> None:
        self.weights = weights
        self.hidden = hidden

    @classmethod
    def load(cls, file: str | os.PathLike[str] | None = None) -> BeliefModel:
        """The model of a ``.npz`` file (arrays ``features``, ``weights`` and optionally
        ``w1``, ``b1``, ``w2``), by default the shipped one; :class:`~chickenfoot.FormatError`
        if it is not one. Nothing is unpickled.

        >>> BeliefModel.load("no-such-file.npz")
        Traceback (most recent call last):
        ...
        chickenfoot.errors.FormatError: belief model no-such-file.npz cannot be read: FileNotFoundError
        """
        if file is None:
            return _shipped()
        return _read(file, os.fspath(file)[:200])

    def scores(self, x: NDArray[np.float64]) -> NDArray[np.float64]:
        """The score of each pair of ``x`` (``(..., len(FEATURES))``)."""
        s: NDArray[np.float64] = x @ self.weights
        if self.hidden is not None:
            w1, b1, w2 = self.hidden
            s = s + np.maximum(x @ w1 + b1, 0.0) @ w2
        return s

    def probabilities(self, view: View) -> tuple[list[int], NDArray[np.float64]]:
        """The tiles ``view`` cannot see (ids) and, for each, its probabilities ``(tiles,
        players + 1)``: column ``r`` seat ``r``'s hand, the last the boneyard; 0 for the
        viewer and for every place the history rules out; each row sums to 1."""
        tiles, x, allowed = features(view)
        s = self.scores(x)
        s = np.where(allowed, s, -np.inf)
        s -= s.max(axis=1, keepdims=True)
        e = np.where(allowed, np.exp(s), 0.0)
        return tiles, e / e.sum(axis=1, keepdims=True)


def _read(file: str | os.PathLike[str] | Any, name: str) -> BeliefModel:
    try:
        with np.load(file, allow_pickle=False) as z:
            got = {k: np.asarray(z[k]) for k in z.files}
    except (OSError, ValueError, EOFError) as err:
        raise FormatError("", f"belief model {name} cannot be read: {type(err).__name__}") from None
    names = got.get("features")
    if names is None or [str(n) for n in names] != list(FEATURES):
        raise FormatError("features", f"belief model {name}: not this version's features")
    w = got.get("weights")
    if w is None or w.shape != (_F,) or not _finite(w):
        raise FormatError("weights", f"belief model {name}: expected {_F} finite weights")
    hidden = None
    if "w1" in got:
        w1, b1, w2 = (got.get(k, np.zeros(0)) for k in ("w1", "b1", "w2"))
        h = w1.shape[1] if w1.ndim == 2 else -1
        if (
            w1.shape != (_F, h)
            or b1.shape != (h,)
            or w2.shape != (h,)
            or not all(_finite(a) for a in (w1, b1, w2))
        ):
            raise FormatError("w1", f"belief model {name}: a malformed hidden layer")
        hidden = (w1.astype(np.float64), b1.astype(np.float64), w2.astype(np.float64))
    return BeliefModel(w.astype(np.float64), hidden)


def _finite(a: NDArray[Any]) -> bool:
    return a.dtype.kind in "fiu" and bool(np.isfinite(a).all())


@lru_cache(maxsize=1)
def _shipped() -> BeliefModel:
    with resources.as_file(resources.files("chickenfoot") / "belief.npz") as path:
        return _read(path, "belief.npz")


def _bits(masks: list[int], size: int) -> NDArray[np.bool_]:
    """Rows of tile bits: ``(len(masks), size)``."""
    nbytes = (size + 7) // 8
    raw = np.frombuffer(
        b"".join((m & ((1 << size) - 1)).to_bytes(nbytes, "little") for m in masks), dtype=np.uint8
    )
    return np.unpackbits(raw.reshape(len(masks), nbytes), axis=1, bitorder="little")[
        :, :size
    ].astype(bool)


def features(view: View) -> tuple[list[int], NDArray[np.float64], NDArray[np.bool_]]:
    """The unseen tiles (ids), their :data:`FEATURES` ``(tiles, players + 1, len(FEATURES))``
    (the places as in :meth:`BeliefModel.probabilities`) and the places the history allows
    (``(tiles, players + 1)`` bool)."""
    p = problem(view)
    players, me, size = view.players, view.seat, view.rules.set_size
    index = [x for x, t in enumerate(p.tiles) if t not in p.played]
    tiles = [p.tiles[x] for x in index]
    n = len(tiles)
    allowed = np.zeros((n, players + 1), dtype=bool)
    for j, x in enumerate(index):
        for g in p.feasible[x]:
            allowed[j, players if p.owner[g] < 0 else p.owner[g]] = True
    x_ = np.zeros((n, players + 1, _F))
    if not n:
        return tiles, x_, allowed
    events = view.history
    playable = _bits(p.masks, size) if events else np.zeros((0, size), dtype=bool)
    ids = np.array(tiles)
    pts = np.array([BY_ID[t].pips for t in tiles], dtype=float)
    doubles = np.array([BY_ID[t].is_double for t in tiles], dtype=float)
    numbers = [(BY_ID[t].high, BY_ID[t].low) for t in tiles]
    has = np.zeros((view.rules.max_pip + 1, n))
    for j, (a, b) in enumerate(numbers):
        has[a, j] = has[b, j] = 1.0
    sizes = list(view.hand_sizes) + [view.boneyard_size]
    opened = _open_numbers(view, playable, p.start_len) if events else None
    for place in range(players + 1):
        x_[:, place, 0] = math.log(max(sizes[place], 1))
    x_[:, players, 1] = 1.0
    by_all = np.zeros(n)
    for r in range(players):
        if r == me:
            continue
        rel = (r - me) % players
        x_[:, r, 2] = 1.0 if rel == 1 else 0.0
        x_[:, r, 3] = 1.0 if rel == players - 1 and players > 2 else 0.0
        idx, upts, left, laid, last_draw, draws = [], [], [], [], -1, 0
        for i, e in enumerate(events):
            if e.seat != r:
                continue
            if isinstance(e.move, Draw):
                last_draw, draws = i, draws + 1
            elif isinstance(e.move, Play):
                tile, anchor = e.move.tile, e.move.anchor
                idx.append(i)
                upts.append(tile.pips)
                open_ = -1
                if not tile.is_double and anchor is not None:
                    open_ = tile.other(tile.high if anchor.has(tile.high) else tile.low)
                left.append(open_)
                laid.append(tile.high if tile.is_double else -1)
        f = np.zeros((_F, n))
        plays = len(idx)
        if plays:
            recent = np.array(idx) > last_draw
            ok = playable[np.ix_(np.array(idx), ids)].astype(float)
            heavy = ok * (pts[None, :] > np.array(upts, dtype=float)[:, None])
            lo, ld = np.array(left), np.array(laid)
            f[4], f[5] = ok.sum(0), ok[recent].sum(0)
            f[6], f[7] = heavy.sum(0), heavy[recent].sum(0)
            f[8], f[9] = has[lo[lo >= 0]].sum(0), has[lo[(lo >= 0) & recent]].sum(0)
            f[10] = has[ld[ld >= 0]].sum(0)
            f[16], f[17] = f[4] * doubles, f[8] * doubles
            assert opened is not None
            chosen = [events[i].move for i in idx]
            m = _margins(view.rules, chosen, opened[np.array(idx)], tiles, ok.astype(bool))
            hit = m > 0
            f[18], f[19] = hit[recent].sum(0), hit[~recent].sum(0)
            f[20] = np.where(hit[recent], np.minimum(m[recent], 20.0), 0.0).sum(0)
            f[21] = ((m[recent] > -3) & ~hit[recent]).sum(0)
            f[22] = np.clip(m[recent].max(0), -20, 20) if recent.any() else -20.0
        else:
            f[22] = -20.0
        by_all += f[4]
        x_[:, r, 4:8] = f[4:8].T / 4.0
        x_[:, r, 8] = f[8] / 4.0
        x_[:, r, 9] = f[9] / 4.0
        x_[:, r, 10] = f[10] / 2.0
        x_[:, r, 11] = draws / 5.0
        x_[:, r, 12] = pts / 20.0
        x_[:, r, 13] = doubles
        x_[:, r, 14] = pts / 20.0 * plays / 10.0
        x_[:, r, 16], x_[:, r, 17] = f[16] / 4.0, f[17] / 4.0
        x_[:, r, 18], x_[:, r, 19] = f[18] / 2.0, f[19] / 2.0
        x_[:, r, 20], x_[:, r, 21], x_[:, r, 22] = f[20] / 10.0, f[21] / 2.0, f[22] / 10.0
    x_[:, players, 15] = by_all / 8.0
    return tiles, x_, allowed


def _open_numbers(view: View, playable: NDArray[np.bool_], start_len: int) -> NDArray[np.bool_]:
    """Per history event, the numbers open then (``(events, max_pip + 1)``): those with a
    playable tile and none off the board that is not playable."""
    size, top = view.rules.set_size, view.rules.max_pip
    on = np.zeros((len(playable), size), dtype=bool)
    board = view.board
    for placed in board[:start_len]:
        on[:, placed.tile.id] = True
    for i, e in enumerate(view.history):
        if isinstance(e.move, Play):
            on[i + 1 :, e.move.tile.id] = True
    has = np.zeros((size, top + 1))
    for t in range(size):
        has[t, BY_ID[t].high] = has[t, BY_ID[t].low] = 1.0
    some = playable.astype(float) @ has
    shut = (~playable & ~on).astype(float) @ has
    opened: NDArray[np.bool_] = (some > 0) & (shut == 0)
    return opened


def _margins(
    rules: Any, chosen: list[Any], opened: NDArray[np.bool_], tiles: list[int], ok: Any
) -> NDArray[np.float64]:
    """Per play made (``chosen``, with the numbers ``opened`` then) and tile: the
    heuristic's score of the tile's best play minus that of the play made, counting only
    the hand's tiles known to it (the tile and the tile played); ``-inf`` where the tile
    was not playable."""
    top = rules.max_pip
    hi = np.array([BY_ID[t].high for t in tiles])
    lo = np.array([BY_ID[t].low for t in tiles])
    dbl = hi == lo
    val = np.array([rules.double_blank if t == 0 else BY_ID[t].pips for t in tiles], dtype=float)
    k = len(chosen)
    c_has = np.zeros((k, top + 1), dtype=bool)
    c_val, c_num, c_dbl = np.zeros(k), np.full(k, -1), np.full(k, -1)
    for j, mv in enumerate(chosen):
        c = mv.tile
        c_has[j, c.high] = c_has[j, c.low] = True
        c_val[j] = rules.double_blank if c.id == 0 else c.pips
        if c.is_double:
            c_dbl[j] = c.high
        elif mv.anchor is not None:
            c_num[j] = c.other(c.high if mv.anchor.has(c.high) else c.low)
    t_has = np.zeros((len(tiles), top + 1), dtype=bool)
    t_has[np.arange(len(tiles)), hi] = t_has[np.arange(len(tiles)), lo] = True
    # The tile's play: what it leaves open and whether the tile played follows it.
    follow = (opened[:, hi] & c_has[:, lo]) | (opened[:, lo] & c_has[:, hi])
    score_t = val[None, :] + np.where(dbl[None, :], 0.0, 2.0 * follow)
    score_t += np.where(dbl[None, :] & c_has[:, hi], 6.0, 0.0)  # a double it can help fill
    cd = np.clip(c_dbl, 0, top)
    score_t -= np.where((c_dbl[:, None] >= 0) & t_has[:, cd].T & ~dbl[None, :], 3.0, 0.0)
    # The play made: the tile follows it, fills its double, or is the double it keeps.
    cn = np.clip(c_num, 0, top)
    fol_c = (c_num[:, None] >= 0) & t_has[:, cn].T
    score_c = c_val[:, None] + np.where(fol_c, np.where(dbl[None, :], 6.0, 2.0), 0.0)
    score_c += np.where((c_dbl[:, None] >= 0) & t_has[:, cd].T, 6.0, 0.0)
    keeps = dbl[None, :] & c_has[:, hi] & (c_dbl[:, None] < 0)
    score_c -= np.where(keeps, 3.0, 0.0)
    out: NDArray[np.float64] = np.where(ok, score_t - score_c, -np.inf)
    return out


def deal_weights(view: View, model: BeliefModel | None = None) -> Weights:
    """The learned dealing's weights for ``view`` (see the module doc), per tile of
    :func:`chickenfoot.sampling.problem`'s ``tiles``, by slot: a tile the others played
    weighs 1 in every slot it may take (it left their hands; only its arrival is dealt).

    >>> from chickenfoot import Rules, deal
    >>> import random
    >>> from chickenfoot.sampling import sample_state
    >>> v = deal(Rules(), seed=1).apply("9-3@9-9").apply("draw").apply("pass").view(0)
    >>> s = sample_state(v, random.Random(1), weights=deal_weights(v))
    >>> s.view(0) == v
    True
    """
    p = problem(view)
    tiles, q = (model or BeliefModel.load()).probabilities(view)
    row = {t: j for j, t in enumerate(tiles)}
    players = view.players
    sizes = list(view.hand_sizes) + [view.boneyard_size]
    out: Weights = []
    for x, t in enumerate(p.tiles):
        j = row.get(t)
        if j is None:
            out.append(dict.fromkeys(p.feasible[x], 1.0))
            continue
        w = {}
        for g in p.feasible[x]:
            place = players if p.owner[g] < 0 else p.owner[g]
            w[g] = max(float(q[j, place]) / max(sizes[place], 1), _EPS)
        out.append(w)
    return out
