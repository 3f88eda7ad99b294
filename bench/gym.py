"""Game-steps per second of ``ChickenFootVectorEnv`` beside the batch engine's own
training loop, timed in the same run, interleaved (docs/gym.md, "Speed").

Both at N = 8,192 tables (``--n``), house rules, on the backend given (numba by
default). The batch engine's loop is bench/batch.py's: ``legal_mask()``, ``observe()``
and ``step(random_actions())`` per step, ``auto_reset``; each step is one game-step of
every round. The vector env's step is the learner's move (a uniformly random legal
action, from the engine's compiled ``random_actions``), then every opponent's move up to
the learner's next turn (inside the kernel: random, greedy or heuristic opponents), with
the observation and mask buffers written for the learner and Gymnasium's next-step
autoreset; its game-steps count every seat's moves (``env.lanes.moves``). Figures are
medians of ``--repeats`` runs of ``--seconds`` each.

    python bench/gym.py --seconds 2 --repeats 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import chickenfoot as cf  # noqa: E402


def batch_loop(n: int, backend: str) -> Callable[[], int]:
    """The batch engine's training loop: game-steps per call."""
    from chickenfoot.batch import BatchEngine

    e = BatchEngine(cf.Rules(), n, seed=0, rng_seed=1, auto_reset=True, backend=backend)

    def run() -> int:
        e.legal_mask()
        e.observe()
        e.step(e.random_actions())
        return n

    run()
    return run


def env_loop(n: int, backend: str, opponents: str) -> tuple[Callable[[], int], Callable[[], int]]:
    """The vector env's steps: ``(run, learner_steps)``; ``run`` returns the game-steps
    (every seat's moves) of one env step."""
    from chickenfoot.gym import ChickenFootVectorEnv

    env = ChickenFootVectorEnv(n, opponents=opponents, backend=backend)
    env.reset(seed=0)
    lanes = env.lanes

    def run() -> int:
        before = lanes.moves
        env.step(env.engine.random_actions())
        made = lanes.moves - before
        calls[0] += 1
        calls[1] += made
        return made

    calls = [0, 0]
    run()
    return run, calls


def timed(fn: Callable[[], int], seconds: float) -> float:
    done, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        done += fn()
    return done / elapsed


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--n", type=int, default=8192)
    p.add_argument("--seconds", type=float, default=2.0)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--backend", default="numba")
    p.add_argument("--opponents", nargs="+", default=["random", "greedy", "heuristic"])
    args = p.parse_args(argv)
    loops: dict[str, Callable[[], int]] = {"batch engine loop": batch_loop(args.n, args.backend)}
    counters: dict[str, list[int]] = {}
    for o in args.opponents:
        loops[f"vector env vs {o}"], counters[f"vector env vs {o}"] = env_loop(
            args.n, args.backend, o
        )
    got: dict[str, list[float]] = {k: [] for k in loops}
    for _ in range(args.repeats):  # interleaved: the machine's load falls on all alike
        for name, fn in loops.items():
            got[name].append(timed(fn, args.seconds))
    base = statistics.median(got["batch engine loop"])
    print(f"N = {args.n:,}, backend {args.backend}, medians of {args.repeats} x {args.seconds} s")
    print(f"{'loop':32} {'game-steps/s':>14} {'vs batch loop':>14} {'moves a step':>13}")
    for name, rates in got.items():
        med = statistics.median(rates)
        per = ""
        if name in counters:  # every seat's moves per env step and table
            c = counters[name]
            per = f"{c[1] / (c[0] * args.n):.2f}"
        print(f"{name:32} {med:14,.0f} {med / base:14.2f} {per:>13}")


if __name__ == "__main__":
    main()
