"""Limits that keep one client from spoiling the server for everyone else.

All numbers are options of `harena serve` (see ServerLimits and docs/server.md). Everything here
is plain bookkeeping with an injectable clock: the server module applies it to connections,
channels and input.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass


@dataclass(frozen=True)
class ServerLimits:
    login_timeout: float = 30.0  # seconds to finish SSH authentication
    max_per_ip: int = 8  # concurrent logged-in connections from one address
    max_connections: int = 200  # concurrent connections in all, logged in or not
    max_startups: int = 30  # connections still logging in, in all (sshd's MaxStartups)
    max_startups_per_ip: int = 10  # connections still logging in from one address
    max_per_key: int = 4  # concurrent connections of one identity (key)
    max_channels: int = 2  # sessions (channels) open on one connection
    input_rate: float = 2048.0  # sustained input bytes per second per connection
    input_burst: int = 16384  # bytes that may arrive at once (a pasted chat line fits easily)
    input_events: float = (
        30.0  # sustained input events (keys, clicks, pastes) per second per session
    )
    input_event_burst: int = 30  # events that may come at once (a fast typist's word)
    loop_share: float = 0.05  # fraction of the event loop one session's input may keep busy
    idle_timeout: float = 1800.0  # seconds without input before a spectator is disconnected
    max_write_buffer: int = 256 * 1024  # unsent output bytes before a stuck client is dropped


class ConnectionCounter:
    """Concurrent connections per key (an address, an identity)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: dict[str, int] = {}
        # In a cluster (server/cluster/connections.py): the other nodes' connections of a key,
        # counted in; and told of every change here.
        self.elsewhere: Callable[[str], int] = lambda address: 0
        self.on_change: Callable[[], None] | None = None

    def try_open(self, address: str) -> bool:
        count = self._open.get(address, 0)
        if count + self.elsewhere(address) >= self.limit:
            return False
        self._open[address] = count + 1
        self._changed()
        return True

    def close(self, address: str) -> None:
        count = self._open.get(address, 0) - 1
        if count > 0:
            self._open[address] = count
        else:
            self._open.pop(address, None)
        self._changed()

    def _changed(self) -> None:
        if self.on_change is not None:
            self.on_change()

    def counts(self) -> dict[str, int]:
        return dict(self._open)

    def count(self, address: str) -> int:
        return self._open.get(address, 0)

    def total(self) -> int:
        return sum(self._open.values())


class StartupSlots:
    """Connections that have not finished logging in, like sshd's MaxStartups.

    A socket that never speaks must not lock anyone out, so a full table does not refuse the
    newcomer: it evicts the oldest pending login of the same address (of the busiest address
    once the global table is full), preferring logins that have not begun to authenticate
    (`engage`). A real client starts authenticating within a few hundred milliseconds and keeps
    its slot while a silent socket is pushed out by the next arrival: an attacker can only churn
    their own sockets.
    """

    def __init__(self, limit: int, per_address: int) -> None:
        self.limit = limit
        self.per_address = per_address
        self._pending: dict[Hashable, tuple[str, int]] = {}  # handle -> (address, arrival)
        self._engaged: set[Hashable] = set()
        self._arrivals = 0

    def admit(self, handle: Hashable, address: str) -> list[Hashable]:
        """Count `handle` as logging in; returns the older pending logins it evicts."""
        evicted: list[Hashable] = []
        same = [h for h, (a, _n) in self._pending.items() if a == address]
        if len(same) >= self.per_address:
            evicted.append(self._first_to_go(same))
        elif len(self._pending) >= self.limit:
            evicted.append(self._first_to_go(self._of_busiest_address()))
        for old in evicted:
            self.done(old)
        self._arrivals += 1
        self._pending[handle] = (address, self._arrivals)
        return evicted

    def _first_to_go(self, handles: list[Hashable]) -> Hashable:
        """The oldest that has not begun to authenticate, else the oldest."""
        silent = [h for h in handles if h not in self._engaged] or handles
        return min(silent, key=lambda h: self._pending[h][1])

    def _of_busiest_address(self) -> list[Hashable]:
        counts: dict[str, int] = {}
        for address, _n in self._pending.values():
            counts[address] = counts.get(address, 0) + 1
        busiest = max(counts.values())
        return [h for h, (a, _n) in self._pending.items() if counts[a] == busiest]

    def engage(self, handle: Hashable) -> None:
        """The client has begun to authenticate: it speaks SSH."""
        if handle in self._pending:
            self._engaged.add(handle)

    def done(self, handle: Hashable) -> None:
        """Logged in, or gone."""
        self._pending.pop(handle, None)
        self._engaged.discard(handle)

    def pending(self, address: str | None = None) -> int:
        if address is None:
            return len(self._pending)
        return sum(1 for a, _n in self._pending.values() if a == address)


class TokenBucket:
    """`rate` tokens a second, at most `burst` saved up: what every input limit spends."""

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now


class InputRateLimiter(TokenBucket):
    """A token bucket over input bytes: a human's typing, mouse and a pasted line pass; a flood
    is cut to `rate` bytes per second, the excess dropped (and counted)."""

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__(rate, burst, clock)
        self.dropped = 0

    def admit(self, data: bytes) -> bytes:
        """The part of `data` that may pass now."""
        self._refill()
        allowed = int(self._tokens)
        if len(data) <= allowed:
            self._tokens -= len(data)
            return data
        self._tokens -= allowed
        self.dropped += len(data) - allowed
        return data[:allowed]


class EventBudget(TokenBucket):
    """A token bucket over input events: what an event costs the server (a key may repaint a
    screen or open one) does not depend on its bytes, so the fair share is counted in events."""

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        super().__init__(rate, max(1, burst), clock)

    def take(self) -> bool:
        """Spend one event if there is one to spend."""
        self._refill()
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False

    def wait(self) -> float:
        """Seconds until the next event may pass."""
        self._refill()
        return 0.0 if self._tokens >= 1.0 else (1.0 - self._tokens) / self.rate


class CodeGuard:
    """Tries of share codes (`ssh host join CODE`, core/privacy.py), per key and per address:
    `burst` at once, then one every `every` seconds. A try refused here is not looked up at
    all, so a right code guessed while refused fails too: 80-bit codes at one try per `every`
    seconds from each address and key are out of reach of guessing."""

    MAX_KEPT = 10_000  # buckets kept before the full ones (nobody guessing lately) are forgotten

    def __init__(
        self, burst: int = 5, every: float = 30.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.burst = burst
        self.every = every
        self._clock = clock
        self._buckets: dict[str, EventBudget] = {}
        self.refused = 0

    def _bucket(self, key: str) -> EventBudget:
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.MAX_KEPT:
                self._forget_rested()
            bucket = self._buckets[key] = EventBudget(1.0 / self.every, self.burst, self._clock)
        return bucket

    def _forget_rested(self) -> None:
        for key, bucket in list(self._buckets.items()):
            if bucket.wait() == 0.0:
                bucket._refill()
                if bucket._tokens >= bucket.burst:
                    del self._buckets[key]

    def admit(self, identity: str, address: str) -> bool:
        """Whether one more code may be tried now by `identity` from `address` (spends a try
        of each; refused: spends none)."""
        key, addr = self._bucket(f"key {identity}"), self._bucket(f"address {address}")
        if key.wait() > 0 or addr.wait() > 0:
            self.refused += 1
            return False
        key.take()
        addr.take()
        return True

    def wait(self, identity: str, address: str) -> float:
        """Seconds until `identity` from `address` may try a code again."""
        return max(
            self._bucket(f"key {identity}").wait(), self._bucket(f"address {address}").wait()
        )
