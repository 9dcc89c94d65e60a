"""One place for every subscription an app holds, so that none can outlive it."""

from __future__ import annotations

import logging
from typing import Protocol

log = logging.getLogger(__name__)


class Closable(Protocol):
    def close(self) -> None: ...


class SubscriptionSet:
    """Open subscriptions by key ("lobby", "table:3"); opening a key again closes the old one."""

    def __init__(self) -> None:
        self._open: dict[str, Closable] = {}

    def add(self, key: str, subscription: Closable) -> None:
        self.close(key)
        self._open[key] = subscription

    def close(self, key: str) -> None:
        subscription = self._open.pop(key, None)
        if subscription is not None:
            subscription.close()

    def close_all(self) -> None:
        while self._open:
            key, subscription = self._open.popitem()
            try:
                subscription.close()
            except Exception:
                # One broken subscription must not keep the others open.
                log.exception("closing subscription %s failed", key)

    def keys(self) -> list[str]:
        return sorted(self._open)

    def __len__(self) -> int:
        return len(self._open)

    def __contains__(self, key: object) -> bool:
        return key in self._open
