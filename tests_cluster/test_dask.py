"""simulate() on a real Dask cluster: two worker processes, one thread each.

Outside the default test paths (Dask is the ``dask`` extra): run with ``nox -s cluster``.
"""

from __future__ import annotations

import os
from concurrent.futures import Executor
from pathlib import Path

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


def test_a_data_set_built_and_checked_on_a_local_cluster_is_the_local_one(tmp_path: Path) -> None:
    import hashlib

    import pyarrow.parquet as pq

    from chickenfoot.cli import main
    from chickenfoot.dataset import check

    def files(root: Path) -> dict[str, str]:
        return {
            str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*"))
            if p.is_file()
        }

    build = ["--rounds", "9", "--agents", "greedy,random", "--players", "2,3", "--seed", "4"]
    build += ["--part-rounds", "4"]
    assert main(["dataset", "build", str(tmp_path / "here"), *build]) == 0
    there = tmp_path / "there"
    assert main(["dataset", "build", str(there), *build, "--executor", "dask"]) == 0
    assert files(there) == files(tmp_path / "here")
    part = there / "rounds/preset=house/players=3/part-00001.parquet"
    table = pq.read_table(part)
    pq.write_table(table.slice(0, 3), part)  # a row lost
    with (
        LocalCluster(
            n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        assert check(there, executor=client.get_executor()) == check(there) != []
