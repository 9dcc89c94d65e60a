"""Work the NATS thread hands to the server's thread, where tables and sessions live.

Tables are plain objects of the server's event loop thread: a request from another node (a
move at a table run here) must run there. `post` queues it and wakes the loop. A session on this
node that waits for another node's answer (its player's move at a table run elsewhere) waits
with `wait`, which runs the queued work meanwhile: two nodes asking each other at once (or two
nodes in one process, as in the tests) then answer each other instead of both waiting out
their timeouts.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import queue
import threading
import time
import weakref
from collections.abc import Callable
from typing import ClassVar, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")


class Inbox:
    """One per event loop: every node of a process running on that loop shares it."""

    # Weak: a loop that ended (a test's, a restarted server's) takes its inbox with it.
    _by_loop: ClassVar[weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Inbox]] = (
        weakref.WeakKeyDictionary()
    )

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = weakref.ref(loop)  # (the registry's key: a strong one would keep it)
        self._work: queue.SimpleQueue[Callable[[], None]] = queue.SimpleQueue()
        self._wake = threading.Event()
        self._draining = False  # a drain is scheduled on the loop: a burst wakes it once

    @classmethod
    def of(cls, loop: asyncio.AbstractEventLoop) -> Inbox:
        inbox = cls._by_loop.get(loop)
        if inbox is None:
            inbox = cls._by_loop[loop] = Inbox(loop)
        return inbox

    def post(self, work: Callable[[], None]) -> None:
        """From any thread: run `work` on the loop's thread soon."""
        self._work.put(work)
        self._wake.set()
        if self._draining:
            return  # the drain scheduled already takes this work too
        loop = self._loop()
        if loop is None:
            return  # the loop ended: the server is gone, so is the work
        self._draining = True
        try:
            loop.call_soon_threadsafe(self.drain)
        except RuntimeError:  # the loop is closed: the server is gone, so is the work
            pass

    def drain(self) -> None:
        self._draining = False  # first: work posted from here on schedules another drain
        while True:
            try:
                work = self._work.get_nowait()
            except queue.Empty:
                return
            try:
                work()
            except Exception:
                log.exception("cluster work failed")

    def wait(self, future: concurrent.futures.Future[T], timeout: float) -> T:
        """The loop's thread waits for `future`, running posted work meanwhile."""
        future.add_done_callback(lambda _: self._wake.set())
        deadline = time.monotonic() + timeout
        while not future.done():
            left = deadline - time.monotonic()
            if left <= 0:
                future.cancel()
                raise TimeoutError
            self._wake.wait(min(left, 0.05))
            self._wake.clear()
            self.drain()
        return future.result()
