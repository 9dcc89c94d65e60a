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
        # the other threads' loops (the NATS threads') whose turn's end wakes ours (weak: a
        # link closed before its turn ended leaves its work to the next drain, not its loop here)
        self._turn_ends: weakref.WeakSet[asyncio.AbstractEventLoop] = weakref.WeakSet()
        self._waiting = 0  # `wait`s under way: the loop's turn does not end meanwhile
        self.posts = 0  # work posted, and the wakeups of the loop that ran it: how many a
        self.wakeups = 0  # wakeup carries (bench/cluster.py prints them)

    @classmethod
    def of(cls, loop: asyncio.AbstractEventLoop) -> Inbox:
        inbox = cls._by_loop.get(loop)
        if inbox is None:
            inbox = cls._by_loop[loop] = Inbox(loop)
        return inbox

    @classmethod
    def waiting_on(cls, loop: asyncio.AbstractEventLoop) -> bool:
        """Whether `loop`'s thread is waiting in `wait` (its turn will not end soon)."""
        inbox = cls._by_loop.get(loop)
        return inbox is not None and inbox._waiting > 0

    def post(self, work: Callable[[], None]) -> None:
        """From any thread: run `work` on the loop's thread soon. From another thread's event
        loop (a NATS thread's: the messages of one read off its socket, each handled by a task
        of its subscription) the loop is woken once at the end of that loop's turn, for all it
        posted in that turn, not once per message."""
        self.posts += 1
        self._work.put(work)
        self._wake.set()
        try:
            here: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        if here is not None and here is not self._loop():
            if here not in self._turn_ends:
                self._turn_ends.add(here)
                here.call_soon(self._turn_ended, here)
            return
        self._schedule_drain()

    def _turn_ended(self, there: asyncio.AbstractEventLoop) -> None:
        self._turn_ends.discard(there)
        self._schedule_drain()

    def _schedule_drain(self) -> None:
        if self._draining:
            return  # the drain scheduled already takes this work too
        loop = self._loop()
        if loop is None:
            return  # the loop ended: the server is gone, so is the work
        self._draining = True
        self.wakeups += 1
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
        self._waiting += 1
        try:
            while not future.done():
                left = deadline - time.monotonic()
                if left <= 0:
                    future.cancel()
                    raise TimeoutError
                self._wake.wait(min(left, 0.05))
                self._wake.clear()
                self.drain()
        finally:
            self._waiting -= 1
        return future.result()
