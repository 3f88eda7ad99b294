"""The instrument on every test (``no_lost_errors``, conftest): an asyncio task that ends with
an error nobody reads is heard, even when it sits in a reference cycle, after the heap made by
collection was frozen (conftest's ``pytest_collection_finish``)."""

from __future__ import annotations

import asyncio
import gc
from typing import Any


async def _fails() -> None:
    raise ValueError("nobody reads this")


def test_a_failed_task_in_a_reference_cycle_is_heard_at_the_collection(
    no_lost_errors: Any,
) -> None:
    assert gc.get_freeze_count() > 0  # collection's heap is frozen: the case that matters
    loop = asyncio.new_event_loop()
    try:
        task = loop.create_task(_fails())
        loop.run_until_complete(asyncio.wait([task]))
    finally:
        loop.close()
    cycle: list[Any] = [task]
    cycle.append(cycle)
    del task, cycle
    assert no_lost_errors.lost == []  # the cycle keeps the task alive until a collection
    gc.collect()
    (said,) = no_lost_errors.lost
    assert "Task exception was never retrieved" in said and "nobody reads this" in said
    no_lost_errors.lost.clear()  # heard: the fixture's own check must not fail this test
