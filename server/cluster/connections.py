"""The per-address and per-key connection caps, held across the cluster.

Each node counts its own logged-in connections (`server/common/limits.py`'s ConnectionCounter) and
puts the counts under its name in a KV bucket, at once when they change and again with every
lease renewal; it follows the other nodes' entries and adds them in before it lets a connection
in. So `max_per_ip` and `max_per_key` hold for the cluster, not per node: a client cannot open
the cap's worth on every node behind the balancer. Two logins at the same instant on two nodes
may both pass (the counts travel in a few milliseconds); the next one is refused. A node that
died stops counting once its entry is three lease times old (`presence.py`).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from harena.server.cluster.presence import NodeEntries
from harena.server.common.limits import ConnectionCounter

if TYPE_CHECKING:
    from harena.server.cluster.node import ClusterNode

log = logging.getLogger(__name__)

BUCKET = "connections"
KINDS = ("addresses", "keys")


class ClusterConnections:
    """Other nodes' connection counts, and this node's, shared through the `connections` bucket."""

    def __init__(
        self,
        node: ClusterNode,
        counters: dict[str, ConnectionCounter],
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.node = node
        self.counters = counters  # kind ("addresses", "keys") -> this node's counter
        # the other nodes' entries: kind -> key -> connections there
        self._others: NodeEntries[dict[str, dict[str, int]]] = NodeEntries(
            node.settings.lease_seconds, clock
        )
        self._pending = False  # a put of our counts is scheduled on the loop

    def start(self) -> ClusterConnections:
        for kind, counter in self.counters.items():
            counter.elsewhere = partial(self.elsewhere, kind)
            counter.on_change = self.changed
        self.node.watches.keep(self._follow)
        self.node.refreshers.append(self.put)
        return self

    def elsewhere(self, kind: str, key: str) -> int:
        """Connections of `key` (an address, a key's identity) on the other live nodes."""
        return sum(counts.get(kind, {}).get(key, 0) for counts in self._others.fresh())

    def changed(self) -> None:
        """A connection opened or closed here: say so soon (once for a burst of them)."""
        if not self._pending:
            self._pending = True
            self.node.later(0, self.put)

    def put(self) -> None:
        self._pending = False
        payload = json.dumps({k: c.counts() for k, c in self.counters.items()}).encode()

        async def put() -> None:
            kv = await self.node.bucket(BUCKET)
            await kv.put(self.node.name, payload)

        self.node.link.spawn(put())

    async def _follow(self) -> None:
        watcher = await self.node.watches.open(await self.node.bucket(BUCKET))

        async def follow() -> None:
            async for entry in watcher:
                if entry is None or entry.key == self.node.name:
                    continue
                counts = None if entry.operation else _counts(entry.value)
                self.node.inbox.post(partial(self._others.heard, entry.key, counts))

        self.node.link.spawn(follow())


def _counts(raw: bytes | None) -> dict[str, dict[str, int]] | None:
    """A node's entry, or None if it is malformed (dropped and logged: never trusted)."""
    try:
        data: Any = json.loads(raw or b"")
        return {kind: {str(key): int(n) for key, n in data.get(kind, {}).items()} for kind in KINDS}
    except (ValueError, TypeError, AttributeError):
        log.warning("dropped a malformed connections entry")
        return None
