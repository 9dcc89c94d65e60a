"""How often table screens are built: by one app, a few at once, then one every `GAP` seconds;
by all apps of the process together, one at a time (`BuildSlots`).

A table screen is the biggest thing a session builds (the board, the log, the seats: thousands
of objects, tens of ms of the one event loop all sessions share), and closing it leaves a web
of reference cycles for a full garbage collection to free, pausing every table. A client
watching a table and leaving it as fast as its input allowed made collections that paused
everyone for 300-700 ms (`bench/hostile.py --scenario flood`, `w Esc`). Nobody reads a table
in less than a second, so an open asked for too soon is not refused: it waits its turn (the
lobby says so), and only the last one asked for is kept.

Pacing each app is not enough: eight clients each within their own pace still built eight
screens in the same few loop turns, and every other player waited behind all of them (loop
stalls of 100-150 ms). So every build also takes the next free slot of the process's
`BUILDS`, and builds follow one another instead of piling up.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

BURST = 2
"""Table screens an app may open at once after a quiet while (a quick look, and back to yours).
With 4, eight clients watching and leaving at once built 32 screens in a second: other players'
keypress-to-screen p95 102 ms, against 58-62 ms with 2 (bench/hostile.py --scenario flood)."""
GAP = 1.5
"""Seconds per table screen after that."""
JITTER = 0.6
"""A waiting open waits up to this share of a `GAP` more, at random."""
BUILD_SLOT = 0.06
"""Seconds from one table screen's build to the next one's, across all apps: about what a
build keeps the loop busy (compose, mount, first paint) on the 2-core machines we run on."""


class TablePace:
    """A token bucket: `BURST` opens, refilled at one per `GAP` seconds."""

    def __init__(
        self, clock: Callable[[], float] = time.monotonic, rand: Callable[[], float] = random.random
    ) -> None:
        self._clock = clock
        self._random = rand
        self._tokens = float(BURST)
        self._at = clock()

    def wait(self) -> float:
        """Seconds until the next open may happen (0: now)."""
        self._refill()
        return 0.0 if self._tokens >= 1 else (1 - self._tokens) * GAP

    def delay(self) -> float:
        """`wait()` and a random part of a `GAP` more: sessions that wait together (a client
        with several channels, clients started at once) do not all build at the same moment,
        which stalled every table for the sum of their builds."""
        wait = self.wait()
        return wait + self._random() * JITTER * GAP if wait > 0 else 0.0

    def take(self) -> None:
        """An open happens now."""
        self._refill()
        self._tokens -= 1

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(float(BURST), self._tokens + (now - self._at) / GAP)
        self._at = now


class BuildSlots:
    """Slots of `BUILD_SLOT` seconds, one table screen build each. A slot is taken when the build
    starts, never booked ahead: a client asking again and again must not push everyone's
    builds into the future. An app whose build finds the slot taken waits `retry()` and tries
    again, so waiting apps take turns at random."""

    def __init__(
        self,
        slot: float = BUILD_SLOT,
        clock: Callable[[], float] = time.monotonic,
        rand: Callable[[], float] = random.random,
    ) -> None:
        self.slot = slot
        self._clock = clock
        self._random = rand
        self._free_at = clock()

    def take(self) -> bool:
        """Take the slot for a build now; False while another build has it."""
        now = self._clock()
        if now < self._free_at:
            return False
        self._free_at = now + self.slot
        return True

    def claim(self) -> None:
        """Take the slot now, free or not: a build that cannot wait."""
        self._free_at = max(self._free_at, self._clock()) + self.slot

    def retry(self) -> float:
        """Seconds until a build that found the slot taken should try again."""
        return max(0.0, self._free_at - self._clock()) + self._random() * self.slot


BUILDS = BuildSlots()
"""The process's slots: every session's app shares them, as every session shares the loop."""
