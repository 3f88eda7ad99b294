"""simulate() on a real Dask cluster: two worker processes, one thread each.

Outside the default test paths (Dask is the ``dask`` extra): run with ``nox -s cluster``.
"""

from __future__ import annotations

import os
from concurrent.futures import Executor

from distributed import Client, LocalCluster, get_task_stream

from chickenfoot import Rounds, Rules, half_match
from chickenfoot.agents import GreedyAgent, HeuristicAgent, RandomAgent
from chickenfoot.simulation import simulate


def worker_pid() -> int:
    return os.getpid()


def test_a_local_cluster_gives_the_serial_numbers() -> None:
    four = Rules(match=Rounds(1))
    four_agents = [HeuristicAgent(), GreedyAgent(), RandomAgent(), RandomAgent()]
    two = Rules(players=2, match=half_match(9))
    two_agents = [GreedyAgent(), RandomAgent()]
    serial_four = simulate(four, four_agents, games=30, seed=12)
    serial_two = simulate(two, two_agents, games=6, seed=12)
    with (
        LocalCluster(
            n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        executor = client.get_executor()
        assert isinstance(executor, Executor)
        pids = set(client.run(worker_pid).values())
        assert len(pids) == 2 and os.getpid() not in pids  # two other processes
        calls: list[tuple[int, int]] = []
        with get_task_stream(client) as stream:
            on_cluster = simulate(
                four,
                four_agents,
                games=30,
                seed=12,
                executor=executor,
                progress=lambda *a: calls.append(a),
            )
        assert len(stream.data) == 30  # one task per game, run by the workers
        assert simulate(two, two_agents, games=6, seed=12, executor=executor) == serial_two
    assert on_cluster == serial_four
    assert calls == [(k, 30) for k in range(1, 31)]


def test_a_ladder_on_a_local_cluster_gives_the_serial_numbers() -> None:
    from chickenfoot.ladder import play_ladder

    two = Rules(players=2)
    agents = ["random", "greedy", "heuristic"]
    serial = play_ladder(two, agents, deals=6, seed=3)
    with (
        LocalCluster(
            n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        on_cluster = play_ladder(two, agents, deals=6, seed=3, executor=client.get_executor())
    assert on_cluster == serial
