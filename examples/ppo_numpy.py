"""Masked PPO in one file, numpy only, in the style of CleanRL's ppo.py (docs/gym.md).

Trains one seat of ``ChickenFootVectorEnv`` (``--envs`` tables in one process) against
built-in opponents (heuristic by default), with invalid actions masked out of the
policy's softmax, and evaluates the greedy (argmax) policy against three GreedyAgents
(``--eval-opponents``) before training and every ``--eval-every`` updates: the learning curve (wall time, game steps, win share with
its 95% interval) is written as JSON beside the policy file, which is a
``chickenfoot.policy`` file any table can seat (``policy:PATH``).

    python examples/ppo_numpy.py --seconds 600 --out runs/ppo.npz

numpy, not torch or JAX: the network is small (two tanh layers of 64), the batch is the
engine's, the gradients are a few matrix products written out below, and CI needs no
other wheel; the trained file plays with numpy alone.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import time
from pathlib import Path

import numpy as np

import chickenfoot as cf
from chickenfoot.gym import ChickenFootVectorEnv
from chickenfoot.policy import save_policy


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--seconds", type=float, default=300.0, help="training wall-time budget")
    p.add_argument("--updates", type=int, default=10_000, help="at most this many updates")
    p.add_argument("--envs", type=int, default=256)
    p.add_argument("--steps", type=int, default=32, help="steps per env per rollout")
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--minibatches", type=int, default=4)
    p.add_argument("--gamma", type=float, default=1.0)
    p.add_argument("--lam", type=float, default=0.95)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--ent", type=float, default=0.01)
    p.add_argument("--vf", type=float, default=0.5)
    p.add_argument("--opponents", default="heuristic")
    p.add_argument("--reward", default="margin", help="win, margin or penalty")
    p.add_argument("--scale", type=float, default=0.05, help="reward scale")
    p.add_argument("--eval-every", type=int, default=5)
    p.add_argument("--eval-opponents", default="greedy")
    p.add_argument("--eval-rounds", type=int, default=2000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default="ppo_policy.npz")
    return p.parse_args(argv)


# -- the networks: tanh MLPs, written out so the gradients can be too ---------------------------


def mlp(rng: np.random.Generator, sizes: list[int], last_gain: float) -> list[np.ndarray]:
    layers = []
    for k, (a, b) in enumerate(itertools.pairwise(sizes)):
        q, _ = np.linalg.qr(rng.standard_normal((max(a, b), min(a, b))))
        w = q if a >= b else q.T
        gain = last_gain if k == len(sizes) - 2 else np.sqrt(2.0)
        layers += [(gain * w[:a, :b]).astype(np.float32), np.zeros(b, dtype=np.float32)]
    return layers


def forward(layers: list[np.ndarray], x: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
    acts = [x]
    for k in range(0, len(layers), 2):
        x = x @ layers[k] + layers[k + 1]
        if k < len(layers) - 2:
            x = np.tanh(x)
        acts.append(x)
    return x, acts


def backward(
    layers: list[np.ndarray], acts: list[np.ndarray], dout: np.ndarray
) -> list[np.ndarray]:
    grads: list[np.ndarray] = [np.empty(0)] * len(layers)
    d = dout
    for k in range(len(layers) - 2, -1, -2):
        grads[k] = acts[k // 2].T @ d
        grads[k + 1] = d.sum(axis=0)
        if k:
            d = (d @ layers[k].T) * (1.0 - acts[k // 2] ** 2)
    return grads


class Adam:
    def __init__(self, params: list[np.ndarray], lr: float) -> None:
        self.lr, self.t = lr, 0
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]

    def step(self, params: list[np.ndarray], grads: list[np.ndarray], lr: float) -> None:
        self.t += 1
        norm = np.sqrt(sum(float((g * g).sum()) for g in grads))
        c = min(1.0, 0.5 / (norm + 1e-8))  # clip the gradient's norm at 0.5, as CleanRL
        for p, g, m, v in zip(params, grads, self.m, self.v, strict=True):
            gc = g * c
            np.multiply(m, 0.9, out=m)
            np.add(m, 0.1 * gc, out=m)
            np.multiply(v, 0.999, out=v)
            np.add(v, 0.001 * gc * gc, out=v)
            mh = m / (1 - 0.9**self.t)
            vh = v / (1 - 0.999**self.t)
            np.subtract(p, (lr * mh / (np.sqrt(vh) + 1e-5)).astype(p.dtype), out=p)


def masked_logp(logits: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    z = np.where(mask, logits, -1e9)
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z) * mask
    p /= p.sum(axis=1, keepdims=True)
    logp = np.where(mask, z - np.log(np.exp(z).sum(axis=1, keepdims=True)), 0.0)
    return logp, p


# -- evaluation: the argmax policy against three GreedyAgents ------------------------------------


def evaluate(
    actor: list[np.ndarray], scale: np.ndarray, opponents: str, rounds: int, seed: int
) -> tuple[float, float]:
    env = ChickenFootVectorEnv(min(1024, rounds), opponents=opponents, reward="win")
    obs, _ = env.reset(seed=seed)
    wins: list[float] = []
    while len(wins) < rounds:
        logits, _ = forward(actor, obs["observation"] * scale)
        a = np.where(obs["action_mask"].astype(bool), logits, -np.inf).argmax(axis=1)
        obs, r, term, _, _ = env.step(a)
        wins.extend(r[term].tolist())
    w = np.array(wins[:rounds])
    return float(w.mean()), float(1.96 * w.std() / np.sqrt(len(w)))


def ready_to_write(out: str) -> None:
    """Check where the run will be saved before any work: the policy ``out`` and its curve
    beside it (``.json``); the folder is made if missing. Refuses at once, rather than
    after the whole budget, with one line (SystemExit)."""
    path = Path(out)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise SystemExit(f"cannot write {out}: {err.strerror or err}") from None
    for target in (path, path.with_suffix(".json")):
        if target.exists() and not target.is_file():
            raise SystemExit(f"cannot write {target}: it is not a regular file")
    if not os.access(path.parent, os.W_OK):
        raise SystemExit(f"cannot write {out}: its folder is not writable")


def train(args: argparse.Namespace) -> dict[str, object]:
    ready_to_write(args.out)
    rng = np.random.default_rng(args.seed)
    env = ChickenFootVectorEnv(args.envs, opponents=args.opponents, reward=args.reward)
    obs, _ = env.reset(seed=args.seed)
    n, nobs, nact = args.envs, obs["observation"].shape[1], obs["action_mask"].shape[1]
    # flags stay, counts (hand sizes, the boneyard, open ends) are scaled to about 1
    scale = (1.0 / np.maximum(1.0, obs["observation"].max(axis=0))).astype(np.float32)
    actor = mlp(rng, [nobs, args.hidden, args.hidden, nact], 0.01)
    critic = mlp(rng, [nobs, args.hidden, args.hidden, 1], 1.0)
    opt_a, opt_c = Adam(actor, args.lr), Adam(critic, args.lr)
    steps_t = args.steps
    b_obs = np.zeros((steps_t, n, nobs), np.float32)
    b_mask = np.zeros((steps_t, n, nact), bool)
    b_act = np.zeros((steps_t, n), np.int64)
    b_logp = np.zeros((steps_t, n), np.float32)
    b_rew = np.zeros((steps_t, n), np.float32)
    b_done = np.zeros((steps_t, n), np.float32)
    b_val = np.zeros((steps_t, n), np.float32)
    curve: list[dict[str, float]] = []
    start = time.perf_counter()
    train_time = 0.0
    done_now = np.zeros(n, np.float32)
    steps = 0

    def evaluated(update: int) -> None:
        win, half = evaluate(actor, scale, args.eval_opponents, args.eval_rounds, 10_000 + update)
        curve.append({"update": update, "seconds": round(train_time, 1), "steps": steps,
                      "win": round(win, 4), "half_width": round(half, 4)})  # fmt: skip
        print(json.dumps(curve[-1]), flush=True)

    evaluated(0)
    for update in range(1, args.updates + 1):
        t0 = time.perf_counter()
        lr = args.lr * max(0.1, 1.0 - train_time / args.seconds)
        for t in range(steps_t):
            x = obs["observation"] * scale
            m = obs["action_mask"].astype(bool)
            b_obs[t], b_mask[t], b_done[t] = x, m, done_now
            logits, _ = forward(actor, x)
            b_val[t] = forward(critic, x)[0][:, 0]
            g = rng.gumbel(size=logits.shape).astype(np.float32)
            a = np.where(m, logits + g, -np.inf).argmax(axis=1)
            logp, _ = masked_logp(logits, m)
            b_act[t], b_logp[t] = a, logp[np.arange(n), a]
            obs, r, term, trunc, _ = env.step(a)
            b_rew[t] = r * args.scale
            done_now = (term | trunc).astype(np.float32)
        steps += steps_t * n
        # GAE; NextStep autoreset: the step after a terminal one is a reset (ignored)
        next_v = forward(critic, obs["observation"] * scale)[0][:, 0]
        adv = np.zeros((steps_t, n), np.float32)
        last = np.zeros(n, np.float32)
        for t in reversed(range(steps_t)):
            nv = next_v if t == steps_t - 1 else b_val[t + 1]
            nonterm_next = 1.0 - (done_now if t == steps_t - 1 else b_done[t + 1])
            # a step whose own row began a new episode after a terminal one is a reset row
            delta = b_rew[t] + args.gamma * nv * nonterm_next - b_val[t]
            last = delta + args.gamma * args.lam * nonterm_next * last
            adv[t] = last
        valid = (b_done == 0).reshape(-1)  # rows stepped right after a terminal are resets
        ret = (adv + b_val).reshape(-1)
        obs_all, mask_all = b_obs.reshape(-1, nobs), b_mask.reshape(-1, nact)
        act_all, logp_all, adv_all = b_act.reshape(-1), b_logp.reshape(-1), adv.reshape(-1)
        idx_all = np.flatnonzero(valid)
        for _ in range(args.epochs):
            rng.shuffle(idx_all)
            for mb in np.array_split(idx_all, args.minibatches):
                nb = len(mb)
                x, m, a = obs_all[mb], mask_all[mb], act_all[mb]
                adv_b = adv_all[mb]
                adv_b = (adv_b - adv_b.mean()) / (adv_b.std() + 1e-8)
                logits, acts = forward(actor, x)
                logp, p = masked_logp(logits, m)
                lp_a = logp[np.arange(nb), a]
                ratio = np.exp(lp_a - logp_all[mb])
                unclipped = -adv_b * ratio
                clipped = -adv_b * np.clip(ratio, 1 - args.clip, 1 + args.clip)
                gsel = (unclipped >= clipped).astype(np.float32)
                coef = -adv_b * ratio * gsel  # d loss / d logp_a
                ent = -(p * logp).sum(axis=1)
                d = -p * coef[:, None]
                d[np.arange(nb), a] += coef
                d += args.ent * p * (logp + ent[:, None])
                grads = backward(actor, acts, (d / nb).astype(np.float32))
                opt_a.step(actor, grads, lr)
                v, cacts = forward(critic, x)
                dv = (args.vf * (v[:, 0] - ret[mb]) / nb)[:, None].astype(np.float32)
                opt_c.step(critic, backward(critic, cacts, dv), lr)
        train_time += time.perf_counter() - t0
        last = update == args.updates or train_time >= args.seconds
        if update % args.eval_every == 0 or last:
            evaluated(update)
        if last:
            break
    # the input scale folded into the first layer: the file takes raw observations
    layers = [actor[0] * scale[:, None], *actor[1:]]
    save_policy(args.out, cf.Rules(), layers)
    result = {"curve": curve, "wall_seconds": round(time.perf_counter() - start, 1),
              "args": vars(args)}  # fmt: skip
    Path(args.out).with_suffix(".json").write_text(json.dumps(result, indent=1))
    return result


if __name__ == "__main__":
    train(parse())
