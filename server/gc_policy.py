"""When the server process runs full garbage collections: after sessions end, not during play.

All sessions share one event loop, so a garbage collection pauses every table at once. A full
collection costs ~1 µs per tracked object on the 2-core test machine and a Textual session holds
~12,500 objects: with 10 sessions a full collection paused the server ~200 ms, with 100 sessions
~1.1 s, and CPython started one every 15-30 moves (whenever objects that outlived two young
collections reached 25% of the old generation; every screen update keeps new strips alive until
the next update). That was the tail of the keypress-to-screen latency (bench/ssh_load.py).

Steady play makes almost no cyclic garbage (textual_fixes removes the reference cycle Textual's
`Strip.divide` made of every rendered line), so the old generation only needs collecting when
something big is thrown away: an app when its session ends, a screen when it is closed (the
table screen left for the lobby, a dialog), each a web of reference cycles that only a full
collection frees. Hence:

* `configure()`: young collections (generations 0 and 1) stay automatic; the old generation is
  never collected automatically;
* `session_ended()`, `screen_closed()`: a full collection `COLLECT_DELAY` seconds later (such
  things come in bursts), at most one per `MIN_INTERVAL` seconds, unless the garbage piles up:
  once `GARBAGE_LIMIT` screens' worth (a session counts `SESSION_GARBAGE` screens) wait, the
  collection comes `COLLECT_DELAY` later whatever the interval, at most one per `MIN_GAP`.
  A client toggling a dialog as fast as its input budget allows (15 screens a second) or
  connecting and leaving in a loop then makes small collections every few seconds instead of
  hundreds of megabytes collected, in seconds of pause, once a minute;
* a full collection at least every `MAX_INTERVAL` seconds, for any other cyclic garbage;
* `configure()` also freezes what is alive before the first session (modules, classes, the
  lobby: ~55,000 objects that are never garbage, ~10 ms of every full collection): collections
  then only walk what sessions made.

Worst case, with players switching screens all the time, that is one short pause per few
seconds; in steady play, none.

Young collections are cheap but not free: a move at a table of ten allocates enough to trigger
one every other move, and every tenth is a generation-1 collection (5-8 ms), in the middle of
the move's screens: that was most of the tail of the keypress-to-screen latency once the rest
got fast. `output_sent()` (each write to a client) keeps a young collection scheduled for
`YOUNG_DELAY` after the last write: once a burst of screens is out, the young generations are
collected while the server waits for the next key, and the next move starts with them empty.

`collections()` counts the full collections run, for tests and logs.
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import logging
import time

log = logging.getLogger(__name__)

NEVER = 2**31 - 1
"""A threshold the old generation never reaches (the largest a C int holds)."""
COLLECT_DELAY = 2.0
MIN_INTERVAL = 60.0
GARBAGE_LIMIT = 40
"""Closed screens waiting for a collection before it comes early."""
SESSION_GARBAGE = 10
"""An ended session counts as this many closed screens."""
MIN_GAP = 2.0
"""Seconds between two full collections, however much garbage waits."""
MAX_INTERVAL = 600.0
YOUNG_DELAY = 0.01
"""Quiet time after the last write before the young generations are collected."""

_configured = False
_last_full = time.monotonic()
_scheduled: asyncio.TimerHandle | None = None
_scheduled_loop: asyncio.AbstractEventLoop | None = None
_collections = 0
_garbage = 0  # closed screens (sessions weighted) since the last full collection
_young: asyncio.TimerHandle | None = None
_young_collections = 0


def configure() -> None:
    """Stop automatic full collections (idempotent); call on the event loop of the sessions."""
    global _configured
    if not _configured:
        young, middle, _old = gc.get_threshold()
        gc.set_threshold(young, middle, NEVER)
        gc.collect()
        gc.freeze()  # alive before any session: the server's own, never garbage
        _configured = True
        log.info("automatic full garbage collections off: run after sessions end instead")
    _schedule(MAX_INTERVAL)


def session_ended() -> None:
    """A session's app is now garbage: collect it soon, when no other collection is due."""
    _collect_soon(SESSION_GARBAGE)


def screen_closed() -> None:
    """A screen (and its widgets) is now garbage: collect it soon."""
    _collect_soon(1)


def _collect_soon(weight: int) -> None:
    global _garbage
    if not _configured:
        return
    _garbage += weight
    interval = MIN_GAP if _garbage >= GARBAGE_LIMIT else MIN_INTERVAL
    _schedule(max(COLLECT_DELAY, interval - (time.monotonic() - _last_full)))


def output_sent() -> None:
    """A write to a client: collect the young generations once the writing stops."""
    global _young
    if not _configured:
        return
    if _young is not None:
        _young.cancel()
    # An empty context: the handle outlives the write, and the writer's context holds its app.
    _young = asyncio.get_running_loop().call_later(YOUNG_DELAY, _collect_young, context=contextvars.Context())


def _collect_young() -> None:
    global _young, _young_collections
    _young = None
    if gc.get_count()[0] > 0:
        gc.collect(1)
        _young_collections += 1


def young_collections() -> int:
    """Young collections run by `output_sent` so far."""
    return _young_collections


def collections() -> int:
    """Full collections run by this module so far."""
    return _collections


def _schedule(delay: float) -> None:
    """Run a full collection in `delay` seconds, unless one is due sooner on this loop."""
    global _scheduled, _scheduled_loop
    loop = asyncio.get_running_loop()
    when = loop.time() + delay
    if _scheduled is not None and _scheduled_loop is loop and not loop.is_closed():
        if _scheduled.when() <= when:
            return
        _scheduled.cancel()
    # An empty context: the caller's (an ending session's task) holds its app, and a handle
    # keeps its context until its time comes, cancelled or not.
    _scheduled, _scheduled_loop = loop.call_at(when, _collect, context=contextvars.Context()), loop


def _collect() -> None:
    global _scheduled, _scheduled_loop, _last_full, _collections, _garbage
    _scheduled = _scheduled_loop = None
    _garbage = 0
    started = time.monotonic()
    freed = gc.collect()
    _last_full = time.monotonic()
    _collections += 1
    log.info("full garbage collection: %d objects freed in %.0f ms", freed, (_last_full - started) * 1000)
    _schedule(MAX_INTERVAL)
