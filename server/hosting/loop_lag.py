"""How late the event loop runs what is due: the wait every session's input and output shares.

All sessions share one event loop, so when a callback (a screen repaint, a garbage collection, a
burst of fan-out) holds it, every other session's key and screen waits. `LoopLag` measures that
wait from inside: a timer due every `interval` seconds notes how late it ran. The lateness of
such a timer is what a key arriving at a random moment waits before its turn, so the histogram
is the loop's share of keypress-to-screen latency.

    lag = LoopLag()            # inside the running loop
    lag.start()
    ...
    lag.histogram()            # [(upper bound in seconds, count), ...] since start
    lag.samples_since(t)       # [(monotonic time, lag), ...] kept for the last `keep` samples
    lag.observers.append(fn)   # fn(lag_seconds) on every sample (a metrics exporter)

`monitor()` is the process's one shared instance (the server starts it; benches and metrics read
it). Cost: one timer callback every `interval` (20 per second by default): nothing next to a
session's work.
"""

from __future__ import annotations

import asyncio
import bisect
import time
from collections import deque
from collections.abc import Callable

BUCKETS: tuple[float, ...] = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Upper bounds (seconds) of the histogram's buckets; a last bucket holds everything above."""
DEFAULT_INTERVAL = 0.05
DEFAULT_KEEP = 20_000
"""Samples kept with their time (about 17 minutes at the default interval)."""


class LoopLag:
    """A sampler of the event loop's lateness (see the module docstring)."""

    def __init__(self, interval: float = DEFAULT_INTERVAL, keep: int = DEFAULT_KEEP) -> None:
        self.interval = interval
        self.counts = [0] * (len(BUCKETS) + 1)
        """Samples per bucket: `counts[i]` are those <= BUCKETS[i] (and > the one before)."""
        self.count = 0
        self.total = 0.0
        """Sum of all lags (seconds)."""
        self.max = 0.0
        self.observers: list[Callable[[float], None]] = []
        """Called with each sample's lag (seconds), inside the loop."""
        self._recent: deque[tuple[float, float]] = deque(maxlen=keep)
        self._handle: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._due = 0.0

    @property
    def running(self) -> bool:
        return self._handle is not None

    def start(self) -> None:
        """Start sampling on the running loop (idempotent; a sampler left running on a loop
        that has since ended samples this one instead: tests run a loop each)."""
        loop = asyncio.get_running_loop()
        if self._handle is not None and self._loop is loop:
            return
        self._loop = loop
        self._due = loop.time() + self.interval
        self._handle = loop.call_at(self._due, self._tick)

    def stop(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def _tick(self) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        self.record(max(0.0, now - self._due))
        self._due = now + self.interval
        self._handle = loop.call_at(self._due, self._tick)

    def record(self, lag: float) -> None:
        """Count one sample (seconds)."""
        self.counts[bisect.bisect_left(BUCKETS, lag)] += 1
        self.count += 1
        self.total += lag
        self.max = max(self.max, lag)
        self._recent.append((time.monotonic(), lag))
        for observer in self.observers:
            observer(lag)

    def histogram(self) -> list[tuple[float, int]]:
        """(upper bound in seconds, samples) per bucket, the last bound being infinity."""
        return list(zip((*BUCKETS, float("inf")), self.counts, strict=True))

    def samples_since(self, since: float) -> list[tuple[float, float]]:
        """The kept samples taken after `since` (a `time.monotonic()`): (when, lag)."""
        return [(at, lag) for at, lag in self._recent if at > since]


_monitor: list[LoopLag] = []


def monitor() -> LoopLag:
    """The process's shared sampler (created on first use; `start()` it inside the loop)."""
    if not _monitor:
        _monitor.append(LoopLag())
    return _monitor[0]
