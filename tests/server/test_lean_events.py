"""server/hosting/lean_events.py: events without a waiter deque until waited on, same behaviour."""

from __future__ import annotations

import asyncio

from textual._queue import Queue
from textual.message_pump import MessagePump

from harena.server.hosting.lean_events import LeanEvent
from harena.server.hosting.textual_fixes import install

install()


async def test_a_lean_event_waits_sets_and_clears_as_asyncio_does() -> None:
    event = LeanEvent()
    assert not event.is_set() and event._waiters == ()  # no deque yet
    event.set()  # set with nobody waiting
    assert event.is_set() and await event.wait() is True
    event.clear()
    waiters = [asyncio.create_task(event.wait()) for _ in range(3)]
    await asyncio.sleep(0)
    assert len(event._waiters) == 3 and not any(task.done() for task in waiters)
    event.set()
    assert await asyncio.gather(*waiters) == [True] * 3
    assert len(event._waiters) == 0
    event.clear()
    cancelled = asyncio.create_task(event.wait())
    await asyncio.sleep(0)
    cancelled.cancel()
    await asyncio.gather(cancelled, return_exceptions=True)
    assert len(event._waiters) == 0 and not event.is_set()


async def test_textual_queues_and_mounted_events_are_lean() -> None:
    queue: Queue[int] = Queue()
    assert isinstance(queue.ready_event, LeanEvent)
    getter = asyncio.create_task(queue.get())
    await asyncio.sleep(0)
    queue.put_nowait(7)
    assert await getter == 7
    pump = MessagePump()
    assert isinstance(pump._mounted_event, LeanEvent)
    assert pump._mounted_event is pump._mounted_event  # made once per pump
