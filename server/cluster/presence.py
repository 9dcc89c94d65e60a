"""What each live node says of itself (its players online, its connection counts), as heard.

Such entries sit in KV buckets with a TTL of three lease times, and each node puts its own again
with every lease renewal. A node stopped cleanly puts an empty entry or deletes it; one killed
outright just goes quiet, and an expired KV entry is not announced to watchers: so an entry
counts only while it is fresh here, three lease times after it arrived."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Generic, TypeVar

T = TypeVar("T")


class NodeEntries(Generic[T]):
    """node name -> its latest entry, forgotten three lease times after it arrived."""

    def __init__(self, lease_seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.lifetime = 3 * lease_seconds
        self._clock = clock
        self._entries: dict[str, tuple[float, T]] = {}

    def heard(self, node: str, entry: T | None) -> None:
        """`node`'s new entry (None: it left, or said something malformed)."""
        if entry is None:
            self._entries.pop(node, None)
        else:
            self._entries[node] = (self._clock(), entry)

    def fresh(self) -> list[T]:
        oldest = self._clock() - self.lifetime
        return [entry for arrived, entry in self._entries.values() if arrived >= oldest]

    def prune(self) -> bool:
        """Forget the entries gone stale; True if there were any."""
        oldest = self._clock() - self.lifetime
        stale = [node for node, (arrived, _) in self._entries.items() if arrived < oldest]
        for node in stale:
            del self._entries[node]
        return bool(stale)
