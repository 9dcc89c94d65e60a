"""Limits that keep one client from spoiling the server for everyone else.

All numbers are options of `harena serve` (see ServerLimits and docs/server.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class ServerLimits:
    login_timeout: float = 30.0  # seconds to finish SSH authentication
    max_per_ip: int = 8  # concurrent connections from one address
    input_rate: float = 2048.0  # sustained input bytes per second per connection
    input_burst: int = 16384  # bytes that may arrive at once (a pasted chat line fits easily)
    idle_timeout: float = 1800.0  # seconds without input before a spectator is disconnected
    max_write_buffer: int = 256 * 1024  # unsent output bytes before a stuck client is dropped


class ConnectionCounter:
    """Concurrent connections per peer address."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: dict[str, int] = {}

    def try_open(self, address: str) -> bool:
        count = self._open.get(address, 0)
        if count >= self.limit:
            return False
        self._open[address] = count + 1
        return True

    def close(self, address: str) -> None:
        count = self._open.get(address, 0) - 1
        if count > 0:
            self._open[address] = count
        else:
            self._open.pop(address, None)

    def count(self, address: str) -> int:
        return self._open.get(address, 0)


class InputRateLimiter:
    """A token bucket over input bytes: a human's typing, mouse and a pasted line pass; a flood
    is cut to `rate` bytes per second, the excess dropped (and counted)."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()
        self.dropped = 0

    def admit(self, data: bytes) -> bytes:
        """The part of `data` that may pass now."""
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        allowed = int(self._tokens)
        if len(data) <= allowed:
            self._tokens -= len(data)
            return data
        self._tokens -= allowed
        self.dropped += len(data) - allowed
        return data[:allowed]
