"""Where the commands' tasks run: here, a process pool or a Dask cluster.

The contract: :func:`executor` is a context manager giving ``None`` (``kind`` ``"none"``:
the caller runs its tasks itself), a :class:`~concurrent.futures.ProcessPoolExecutor` of
``workers`` processes, or a Dask ``distributed`` client's executor (``"dask"``: on the
cluster at ``scheduler``, or a local cluster of ``workers`` single-threaded processes).
Bad ``workers`` and a missing dask extra are :class:`~chickenfoot.cli._common.UsageError`
lines. ``ladder`` and ``dataset build`` take their ``--executor`` from here.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import ExitStack, contextmanager
from typing import Final

from chickenfoot.cli._common import UsageError
from chickenfoot.errors import brief

KINDS: Final = ("none", "process", "dask")


@contextmanager
def executor(
    kind: str, workers: int, scheduler: str | None, most: int
) -> Iterator[Executor | None]:
    """The executor of ``--executor kind`` (see the module doc); ``most``: the most workers."""
    if kind == "none":
        yield None
        return
    if not 1 <= workers <= most:
        raise UsageError(f"--workers {brief(workers)} is invalid: from 1 to {most}")
    if kind == "process":
        with ProcessPoolExecutor(max_workers=workers) as pool:
            yield pool
        return
    try:
        distributed = importlib.import_module("distributed")
    except ImportError:
        raise UsageError(
            "--executor dask needs the dask extra: pip install 'chickenfoot[dask]'"
        ) from None
    with ExitStack() as stack:
        if scheduler:
            client = stack.enter_context(distributed.Client(scheduler))
        else:
            cluster = stack.enter_context(
                distributed.LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                )
            )
            client = stack.enter_context(distributed.Client(cluster))
        yield client.get_executor()
