"""Train chickenfoot.belief's model of where the unseen tiles are, on a data set's rounds.

    chickenfoot dataset build DATA --rounds 3000 --agents heuristic --players 4 \
        --presets house --seed 1
    python tools/train_belief.py DATA --every 3 --workers 2 --cache feats.npz \
        --hidden 16 --decisions 3000 --out src/chickenfoot/belief.npz

Replays the rounds of ``DATA`` (house rules, 4 seats: ``--preset``, ``--players``), takes
every ``--every``-th decision of each round (from its seat's view: the features of
:func:`chickenfoot.belief.features`, and where each unseen tile truly is), holds out the
rounds whose number is 4 mod 5, fits the conditional logit with plain numpy (Adam, full
batch), and prints, for growing numbers of training decisions, the held-out figures at
mid-round (moves 24 to 35, as ``bench/bounds.py fit``): the share of the others' tiles in
the right hand (mean probability of the true hand: what one sample places rightly) and the
share of all unseen tiles whose most probable place is right. Then, on up to ``--views``
held-out mid-round views, the same share for samples dealt uniformly (``View.sample``) and
with the learned weights (``sample_state(..., weights=deal_weights(...))``). Writes the
model (arrays only, no pickle) to ``--out``. Docs: docs/learned.md.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow.parquet as pq

from chickenfoot import Rules, deal
from chickenfoot.belief import FEATURES, BeliefModel, deal_weights, features
from chickenfoot.encoding import Encoding
from chickenfoot.sampling import sample_state

MID = (24, 36)


def rounds_of(data: Path, preset: str, players: int) -> list[tuple[int, int, list[int]]]:
    manifest = json.loads((data / "manifest.json").read_text())
    prefix = f"rounds/preset={preset}/players={players}/"
    out = []
    for entry in manifest["parts"]:
        if str(entry["path"]).startswith(prefix):
            t = pq.read_table(data / entry["path"], columns=["round", "seed", "moves"])
            out += list(
                zip(
                    t.column("round").to_pylist(),
                    t.column("seed").to_pylist(),
                    t.column("moves").to_pylist(),
                    strict=True,
                )
            )
    return out


def mid_views(rows: list[Any], rules: Rules, every: int) -> list[Any]:
    """The mid-round views (and true states) among every ``every``-th decision."""
    enc, views = Encoding(rules), []
    for k, seed, moves in rows:
        state = deal(rules, seed=seed)
        for n, action in enumerate(moves[: MID[1]]):
            if n % every == k % every and n >= MID[0]:
                views.append((state.view(state.turn), state))
            state = state.apply(enc.move(action))
    return views


def extract(rows: list[Any], rules: Rules, every: int, workers: int = 1) -> dict[str, Any]:
    """Features and labels of every ``every``-th decision (in ``workers`` processes)."""
    if workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        chunks = [rows[i::workers] for i in range(workers)]
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(extract, chunks, [rules] * workers, [every] * workers))
        out = {k: np.concatenate([d[k] for d in parts]) for k in parts[0] if k != "decisions"}
        sizes = np.concatenate([np.diff(d["decisions"], prepend=0) for d in parts])
        out["decisions"] = np.cumsum(sizes)
        return out
    enc = Encoding(rules)
    players = rules.players
    xs, al, ys, mv, own = [], [], [], [], []
    for k, seed, moves in rows:
        state = deal(rules, seed=seed)
        for n, action in enumerate(moves):
            if n % every == k % every:
                seat = state.turn
                v = state.view(seat)
                tiles, x, allowed = features(v)
                where = {t.id: s for s, hand in enumerate(state.hands) for t in hand}
                y = [where.get(t, players) for t in tiles]
                xs.append(x)
                al.append(allowed)
                ys.append(np.array(y))
                mv.append(np.full(len(tiles), n))
                own.append(np.array([0 <= yy < players for yy in y]))
            state = state.apply(enc.move(action))
    return {
        "x": np.concatenate(xs),
        "allowed": np.concatenate(al),
        "y": np.concatenate(ys),
        "move": np.concatenate(mv),
        "held": np.concatenate(own),
        "decisions": np.cumsum([len(y) for y in ys]),
    }


def softmax(s: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    s = np.where(allowed, s, -np.inf)
    s = s - s.max(axis=1, keepdims=True)
    e = np.where(allowed, np.exp(s), 0.0)
    return e / e.sum(axis=1, keepdims=True)


def fit(d: dict[str, Any], hidden: int, steps: int, seed: int) -> BeliefModel:
    """Adam on the mean negative log-likelihood of the true places (L2 1e-4)."""
    x, allowed, y = d["x"], d["allowed"], d["y"]
    n = len(y)
    rng = np.random.default_rng(seed)
    params = [np.zeros(len(FEATURES))]
    params[0][0] = 1.0  # start at "in proportion to the places' sizes"
    if hidden:
        params += [
            rng.normal(0, 0.3, (len(FEATURES), hidden)),
            np.zeros(hidden),
            rng.normal(0, 0.1, hidden),
        ]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    onehot = np.zeros_like(allowed, dtype=float)
    onehot[np.arange(n), y] = 1.0
    for step in range(1, steps + 1):
        s = x @ params[0]
        if hidden:
            h_pre = x @ params[1] + params[2]
            h = np.maximum(h_pre, 0.0)
            s = s + h @ params[3]
        q = softmax(s, allowed)
        g_s = (q - onehot) / n  # d loss / d score
        grads = [np.einsum("nl,nlf->f", g_s, x) + 1e-4 * params[0]]
        if hidden:
            g_h = g_s[..., None] * params[3] * (h_pre > 0)
            grads += [
                np.einsum("nlh,nlf->fh", g_h, x) + 1e-4 * params[1],
                g_h.sum(axis=(0, 1)),
                np.einsum("nl,nlh->h", g_s, h) + 1e-4 * params[3],
            ]
        lr = 0.05 if step < steps // 2 else 0.01
        for i, g in enumerate(grads):
            m[i] = 0.9 * m[i] + 0.1 * g
            v[i] = 0.999 * v[i] + 0.001 * g * g
            mh, vh = m[i] / (1 - 0.9**step), v[i] / (1 - 0.999**step)
            params[i] = params[i] - lr * mh / (np.sqrt(vh) + 1e-8)
    return BeliefModel(params[0], tuple(params[1:]) if hidden else None)  # type: ignore[arg-type]


def evaluate(model: BeliefModel, d: dict[str, Any]) -> tuple[float, float, float]:
    """At mid-round: mean probability of the true hand over the others' tiles, argmax
    accuracy over all unseen tiles, and the mean log-likelihood."""
    mid = (d["move"] >= MID[0]) & (d["move"] < MID[1])
    x, allowed, y = d["x"][mid], d["allowed"][mid], d["y"][mid]
    q = softmax(model.scores(x), allowed)
    p_true = q[np.arange(len(y)), y]
    held = d["held"][mid]
    return (
        float(p_true[held].mean()),
        float((q.argmax(1) == y).mean()),
        float(np.log(p_true).mean()),
    )


def subset(d: dict[str, Any], decisions: int) -> dict[str, Any]:
    end = int(d["decisions"][min(decisions, len(d["decisions"])) - 1])
    return {k: (v[:end] if k != "decisions" else v[:decisions]) for k, v in d.items()}


def sampled(views: list[Any], model: BeliefModel | None, samples: int) -> float:
    """The share of the others' tiles a sample puts in the right hand."""
    right = held = 0
    for i, (v, truth) in enumerate(views):
        rng = random.Random(i)
        w = None if model is None else deal_weights(v, model)
        others = [h for s, h in enumerate(truth._hands) if s != v.seat]
        for _ in range(samples):
            g = v.sample(rng) if w is None else sample_state(v, rng, weights=w)
            got = [h for s, h in enumerate(g._hands) if s != v.seat]
            right += sum((a & b).bit_count() for a, b in zip(got, others, strict=True))
            held += sum(h.bit_count() for h in others)
    return right / held


def main(argv: list[str] | None = None) -> int:
    a = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    a.add_argument("data", type=Path)
    a.add_argument("--out", type=Path, default=None)
    a.add_argument("--preset", default="house")
    a.add_argument("--players", type=int, default=4)
    a.add_argument("--every", type=int, default=3)
    a.add_argument("--hidden", type=int, default=0)
    a.add_argument("--steps", type=int, default=300)
    a.add_argument("--views", type=int, default=200)
    a.add_argument("--samples", type=int, default=20)
    a.add_argument("--seed", type=int, default=1)
    a.add_argument("--decisions", type=int, default=0, help="train on at most this many")
    a.add_argument("--workers", type=int, default=1)
    a.add_argument("--cache", type=Path, default=None, help="features kept in this .npz")
    args = a.parse_args(argv)
    rules = Rules.preset(args.preset, players=args.players)
    rows = rounds_of(args.data, args.preset, args.players)
    train_rows = [r for r in rows if r[0] % 5 != 4]
    test_rows = [r for r in rows if r[0] % 5 == 4]
    t0 = time.perf_counter()
    cache = args.cache
    if cache is not None and cache.exists():
        with np.load(cache, allow_pickle=False) as z:
            train = {k[6:]: z[k] for k in z.files if k.startswith("train_")}
            test = {k[5:]: z[k] for k in z.files if k.startswith("test_")}
    else:
        train = extract(train_rows, rules, args.every, args.workers)
        test = extract(test_rows, rules, args.every, args.workers)
        if cache is not None:
            np.savez(
                cache,
                **{f"train_{k}": v for k, v in train.items()},
                **{f"test_{k}": v for k, v in test.items()},
            )
    views = mid_views(test_rows, rules, args.every)
    print(
        f"{len(train_rows)} training rounds ({len(train['decisions'])} decisions, "
        f"{len(train['y'])} tiles), {len(test_rows)} held out ({len(test['decisions'])}); "
        f"features in {time.perf_counter() - t0:.0f} s"
    )
    prior = BeliefModel(np.eye(len(FEATURES))[0], None)  # in proportion to sizes alone
    print("model                  decisions  right hand  argmax  log-lik  (held out, moves 24-35)")
    print(
        "sizes alone (prior)            0  {:9.1%}  {:6.1%}  {:7.3f}".format(*evaluate(prior, test))
    )
    n = min(len(train["decisions"]), args.decisions or len(train["decisions"]))
    model = prior
    for size in [s for s in (300, 1000, 3000, 10000, 30000) if s < n] + [n]:
        t1 = time.perf_counter()
        model = fit(subset(train, size), args.hidden, args.steps, args.seed)
        r, top, ll = evaluate(model, test)
        print(
            f"{'logit' if not args.hidden else f'mlp {args.hidden}':20s} {size:9d}  {r:9.1%}  "
            f"{top:6.1%}  {ll:7.3f}  ({time.perf_counter() - t1:.0f} s)"
        )
    print(
        "weights:", " ".join(f"{f}={w:+.2f}" for f, w in zip(FEATURES, model.weights, strict=True))
    )
    few = views[: args.views]
    t2 = time.perf_counter()
    if few:
        print(
            f"samples on {len(few)} held-out mid-round views x {args.samples}: the others' tiles in "
            f"the right hand: uniform {sampled(few, None, args.samples):.1%}, learned "
            f"{sampled(few, model, args.samples):.1%} ({time.perf_counter() - t2:.0f} s)"
        )
    if args.out is not None:
        arrays = {"features": np.array(FEATURES), "weights": model.weights}
        if model.hidden is not None:
            arrays.update(zip(("w1", "b1", "w2"), model.hidden, strict=True))
        np.savez_compressed(args.out, **arrays)
        print(f"wrote {args.out} ({args.out.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
