"""sb3-contrib's MaskablePPO on ``ChickenFootEnv`` (docs/gym.md, "Recipes").

One learning seat against three random players; the env's ``action_masks()`` is what
MaskablePPO asks for, so no wrapper is needed. The win share of the deterministic policy
against the same opponents is measured before training and after each chunk of
``--chunk`` timesteps (``--episodes`` rounds, with its 95% interval), and written as
JSON (``--out``).

    pip install "chickenfoot[gym]" sb3-contrib torch   # a CPU wheel of torch will do
    python examples/sb3_maskable.py --timesteps 60000 --out runs/sb3.json
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np
import torch
from sb3_contrib import MaskablePPO

from chickenfoot.gym import ChickenFootEnv


def win_share(model: MaskablePPO, episodes: int, seed: int) -> tuple[float, float]:
    """The deterministic policy's mean win share over ``episodes`` rounds, and the half
    width of its 95% interval."""
    env = ChickenFootEnv(opponents="random")
    obs, _ = env.reset(seed=seed)
    got = []
    for _ in range(episodes):
        done, r = False, 0.0
        while not done:
            a, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, r, done, _, _ = env.step(int(a))
        got.append(r)
        obs, _ = env.reset()
    w = np.array(got)
    return float(w.mean()), float(1.96 * w.std() / np.sqrt(len(w)))


def main(argv: list[str] | None = None) -> dict[str, object]:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--timesteps", type=int, default=60_000)
    p.add_argument("--chunk", type=int, default=10_000)
    p.add_argument("--episodes", type=int, default=400)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--out", default="sb3_maskable.json")
    p.add_argument(
        "--min-gain", type=float, default=None,
        help="exit 1 unless the win share rose by more than this (nox -s rl)",
    )  # fmt: skip
    args = p.parse_args(argv)
    out = Path(args.out)  # checked before the work, not after it: the folder made if missing
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise SystemExit(f"cannot write {out}: {err.strerror or err}") from None
    if (out.exists() and not out.is_file()) or not os.access(out.parent, os.W_OK):
        raise SystemExit(f"cannot write {out}: not a regular file in a writable folder")
    torch.set_num_threads(args.threads)
    env = ChickenFootEnv(opponents="random")
    model = MaskablePPO(
        "MultiInputPolicy", env, n_steps=1024, batch_size=256, learning_rate=3e-4,
        ent_coef=0.01, seed=args.seed, verbose=0,
    )  # fmt: skip
    start = time.perf_counter()
    curve = []
    win, half = win_share(model, args.episodes, 10_000)
    curve.append({"timesteps": 0, "seconds": 0.0, "win_vs_random": win, "half_width": half})
    print(json.dumps(curve[-1]), flush=True)
    trained, spent = 0, 0.0
    while trained < args.timesteps:
        t0 = time.perf_counter()
        # the last chunk only what is left; PPO collects whole rollouts of n_steps (1,024),
        # so it may run a little past: what it trained is what the curve records
        model.learn(min(args.chunk, args.timesteps - trained), reset_num_timesteps=False)
        spent += time.perf_counter() - t0
        trained = model.num_timesteps
        win, half = win_share(model, args.episodes, 10_000 + trained)
        curve.append({"timesteps": trained, "seconds": round(spent, 1),
                      "win_vs_random": round(win, 4), "half_width": round(half, 4)})  # fmt: skip
        print(json.dumps(curve[-1]), flush=True)
    result = {"curve": curve, "wall_seconds": round(time.perf_counter() - start, 1)}
    Path(args.out).write_text(json.dumps(result, indent=1))
    gain = curve[-1]["win_vs_random"] - curve[0]["win_vs_random"]
    if args.min_gain is not None and not gain > args.min_gain:
        raise SystemExit(f"the win share rose by {gain:.3f}, not more than {args.min_gain}")
    return result


if __name__ == "__main__":
    main()
