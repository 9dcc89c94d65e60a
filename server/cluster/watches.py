"""A node's KV watches, kept across NATS restarts.

nats-py watches a bucket through an ephemeral consumer, which a restarted NATS server forgets:
the watch then hears nothing more. A node once missed every registry change after a NATS
restart (a table taken over, a new table), and its players' screens at a table that moved stayed
stale. So every watch a node opens goes through `KvWatches.open`, inside a start function given
to `keep`; after each reconnect every watch is stopped and every start function runs again,
once JetStream answers: each hears the bucket's present entries again (what changed while the
node was away), then live changes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from harena.server.cluster.link import NatsLink

log = logging.getLogger(__name__)

T = TypeVar("T")

AGAIN_EVERY = 0.5  # seconds between tries to watch again after NATS came back
AGAIN_TRIES = 60


class KvWatches:
    def __init__(self, link: NatsLink, node: str, after: Callable[[], None]) -> None:
        self.link = link
        self.node = node
        self.after = after  # called (on the NATS thread) once every watch started again
        self._open: list[Any] = []  # every watch open
        self._starts: list[Callable[[], Awaitable[Any]]] = []
        self._restarting: asyncio.Lock | None = None  # (on the NATS thread's loop)
        link.on_reconnect.append(self.restart)

    def keep(
        self, start: Callable[[], Awaitable[T]], again: Callable[[], Awaitable[Any]] | None = None
    ) -> T:
        """Run `start` (which opens its watches with `open`) now, and `again` (default: `start`)
        after every reconnect."""
        self._starts.append(again or start)
        return self.link.call(start)

    async def open(self, kv: Any, key: str | None = None) -> Any:
        """A watch of `kv` (one key, or all), stopped and opened again after a reconnect."""
        watcher = await (kv.watchall() if key is None else kv.watch(key))
        self._open.append(watcher)
        return watcher

    def adopt(self, watcher: Any) -> None:
        """A watch opened elsewhere (the leases'), stopped on a reconnect like the others."""
        self._open.append(watcher)

    def restart(self) -> None:
        self.link.spawn(self._restart())

    async def _restart(self) -> None:
        """One at a time: a reconnect during a restart waits for it, then starts all again."""
        if self._restarting is None:
            self._restarting = asyncio.Lock()
        async with self._restarting:
            old, self._open = self._open, []
            for watcher in old:
                try:
                    await watcher.stop()
                except Exception:
                    log.debug("a stale watch did not stop", exc_info=True)
            for start in self._starts:
                await self._start_again(start)
            log.info("node %s: watches started again after NATS came back", self.node)
            self.after()

    async def _start_again(self, start: Callable[[], Awaitable[Any]]) -> None:
        for _ in range(AGAIN_TRIES):
            try:
                await asyncio.wait_for(start(), AGAIN_EVERY * 4)
                return
            except Exception as exc:  # JetStream not ready yet after a restart
                log.debug("a watch did not start again (%s); trying again", exc)
                await asyncio.sleep(AGAIN_EVERY)
        log.warning("node %s: a watch could not start again after NATS came back", self.node)
