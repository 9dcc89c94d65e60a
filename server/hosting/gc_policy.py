"""When the server process runs full garbage collections: after sessions end, not during play.

Why: all sessions share one event loop, so a garbage collection pauses every table at once, and
a full collection costs ~1 µs per tracked object (a Textual session holds ~12,500). Left to
CPython, full collections came every 15-30 moves and were the tail of the keypress-to-screen
latency. Steady play makes almost no cyclic garbage; what does is something big thrown away (an
app when its session ends, a screen when it is closed), each a web of cycles only a full
collection frees. So:

* the old generation is never collected automatically (`configure`); young collections are,
  and one is scheduled `YOUNG_DELAY` after the last write to a client (`output_sent`), so a
  move starts with the young generations empty;
* `session_ended` / `screen_closed` schedule a full collection soon after (such things come in
  bursts), sooner once the garbage waiting would take `PAUSE_TARGET` to free; the app that
  closed a screen is charged its cost (`loop_share`);
* every full collection ends with `gc.freeze()`, and a new session's and a shown screen's
  objects are frozen too (`session_started`, `screen_shown`), so a collection walks only what
  was made since; what young collections promote is frozen every `PROMOTED_LIMIT` generation-1
  collections;
* the price is that cyclic garbage among frozen objects needs a *deep* collection (the whole
  heap); `dismantle` takes ended apps and closed screens apart so that almost none is left,
  and deep collections run rarely: past `FROZEN_LIMIT` at a quiet moment (`activity`), at once
  past `FROZEN_HARD_LIMIT`, for less while no session is connected, and hourly at most
  (`MAX_INTERVAL`).

docs/gc_policy.md has the measurements behind each threshold and the designs tried and dropped.
`collections()` counts the full collections run, for tests and logs.
"""

from __future__ import annotations

import asyncio
import contextvars
import gc
import logging
import time
import weakref
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)

NEVER = 2**31 - 1
"""A threshold the old generation never reaches (the largest a C int holds)."""
COLLECT_DELAY = 2.0
MIN_INTERVAL = 60.0
PAUSE_TARGET = 0.01
"""Seconds a collection of the garbage waiting may take before it is collected early."""
SESSION_GARBAGE = 10
"""An ended session counts as this many closed screens."""
DIALOG_WIDGETS = 5
"""Widgets of a dialog (3-6), the unit of closed screens: a table screen has ~24."""
TAKEN_APART_GARBAGE = 0.0
"""An ended session that `dismantle` took apart counts as this many: what is left of it, now
nothing (a dialog is ~1,600 objects). At 0.03 (~40 objects were left: its stylesheet's caches,
its TCP transport), 34 sessions made a deep collection due once nobody was connected (59-89 ms
in `bench/hostile.py --scenario cycles`)."""
TAKEN_APART_SCREEN = 0.0
"""The share of a closed screen's garbage left once `dismantle` took it apart: of a Carthage
table screen, none (of ~4,600 objects). Counted at 1%, a flood of tables watched and left
called for a 110 ms deep collection in two minutes, freeing 7,000 objects that were mostly not
screens'; whatever another screen might leave waits for the hourly deep collection."""
SOON = 0.05
"""Delay of an early collection (a closed screen's own tasks are done by then)."""
MIN_GAP = 0.1
"""Seconds between two full collections, however much garbage waits."""
INITIAL_SCREEN_COST = 0.0005
"""Seconds a closed screen's garbage takes to free, until collections have measured it."""
FROZEN_LIMIT = 20
"""Closed screens born before the last freeze waiting for a deep collection."""
EMPTY_FROZEN_LIMIT = 1.0
"""Closed screens' worth of frozen garbage for a deep collection while no session is connected:
its pause keeps nobody waiting then, and the heap is at its smallest (16-90 ms, against 50-85 ms
with 4-8 sessions watching a table)."""
FREEZE_DELAY = 1.0
"""Seconds after a session starts (a screen is shown) before what it made is frozen."""
DEEP_INTERVAL = 60.0
"""Seconds between two deep collections at most, when frozen garbage waits."""
DEEP_DUTY = 0.05
"""Share of the loop deep collections may take (each walks the whole heap)."""
MAX_INTERVAL = 3600.0
"""Seconds between two deep collections at most, when no session is connected: for cyclic
garbage no one reported (what is reported is little once apps and screens are taken apart)."""
QUIET = 1.0
"""Seconds without `activity` before a deep collection may run."""
FROZEN_HARD_LIMIT = 100
"""Closed screens' worth of frozen garbage after which a deep collection runs, quiet or not."""
DEEP_LONGEST_WAIT = 6 * 3600.0
"""Seconds after the last deep collection after which one runs at a quiet moment, sessions
connected or not, if the frozen generation grew by `FROZEN_GROWTH`."""
FROZEN_GROWTH = 100_000
"""Objects the frozen generation must have grown by since the last deep collection for the one
for unreported garbage to run with sessions connected: short of that, little of it can be
garbage (after a two-minute flood of tables watched and left, a deep collection found 30
objects), and its pause (50-150 ms with sessions connected) is not worth it."""
YOUNG_DELAY = 0.01
"""Quiet time after the last write before the young generations are collected."""
PROMOTED_LIMIT = 4
"""Generation-1 collections since the last freeze after which what they promoted to the old
generation is frozen. A full collection used to come then (at most one per 5 s), for cyclic
garbage promoted before it died; with the server's own sources of it gone they freed nothing,
yet walked all that was promoted since the last freeze: 40-60 ms while clients connected and
left 17 times a second (`bench/hostile.py --scenario cycles`), 41 ms under a `??` flood."""

_configured = False
_last_full = time.monotonic()
_scheduled: asyncio.TimerHandle | None = None
_scheduled_loop: asyncio.AbstractEventLoop | None = None
_collections = 0
_garbage = 0.0  # closed screens (sessions weighted) since the last full collection
_frozen_garbage = 0.0  # the same, born before the last freeze: for a deep collection
_frozen_at = 0.0  # monotonic time of the last freeze
_promoted_at_freeze = 0  # generation-1 collections counted (gc.get_count()[2]) at the last freeze
_screen_cost = INITIAL_SCREEN_COST  # measured seconds per closed screen freed
_last_deep = time.monotonic()
_deep_collections = 0
_deep_seconds = 0.05  # how long the last deep collection took
_freeze: asyncio.TimerHandle | None = None
_freeze_loop: asyncio.AbstractEventLoop | None = None
_young: asyncio.TimerHandle | None = None
_young_loop: asyncio.AbstractEventLoop | None = None
_last_output = 0.0  # monotonic time of the last write to a client
_NO_APP = contextvars.Context()
"""The context of the young collection's timer: the handle outlives the write, and the
writer's context holds its app."""
_young_collections = 0
_last_activity = 0.0  # monotonic time of the last `activity`
_deferred_deep = 0  # times a due deep collection was put off for a quiet moment


def _nobody() -> int:
    return 0


_connected: Callable[[], int] = _nobody  # live sessions, as `configure` was told
_frozen_after_deep = 0  # the frozen generation's size after the last deep collection
_dying: list[tuple[weakref.ref[Any], int]] = []  # ended sessions' apps, and collections left to try
DYING_TRIES = 5


def configure(connected: Callable[[], int] | None = None) -> None:
    """Stop automatic full collections (idempotent); call on the event loop of the sessions.
    `connected` tells how many sessions are live (the hourly deep collection waits for none)."""
    global _configured, _connected, _frozen_after_deep
    if connected is not None:
        _connected = connected
    if not _configured:
        young, middle, _old = gc.get_threshold()
        gc.set_threshold(young, middle, NEVER)
        gc.collect()
        _freeze_all()  # alive before any session: the server's own, never garbage
        _frozen_after_deep = gc.get_freeze_count()
        _configured = True
        log.info("automatic full garbage collections off: run after sessions end instead")
    _schedule(MAX_INTERVAL)


def session_started() -> None:
    """A session's app has started: freeze what it made once its start-up is over."""
    _freeze_soon()


def screen_shown() -> None:
    """A session's app shows a screen (a table screen just built, the lobby again): freeze what
    it made once it is drawn, as for a new session. Unfrozen, the screens sessions keep open
    are walked by every full collection: under a flood of tables watched and left, 30,000-
    50,000 objects, 13-63 ms. (What a freeze leaves for a deep collection is cyclic garbage
    waiting in the old generation: since the flood's own sources of it were removed, 0-200
    objects a full collection.)"""
    _freeze_soon()


def _freeze_soon(delay: float | None = None) -> None:
    """Freeze in `delay` seconds (`FREEZE_DELAY`), unless a freeze is due sooner on this loop."""
    global _freeze, _freeze_loop
    if not _configured:
        return
    delay = FREEZE_DELAY if delay is None else delay
    loop = asyncio.get_running_loop()
    if _freeze is not None and _freeze_loop is loop and not loop.is_closed():
        if _freeze.when() <= loop.time() + delay:
            return
        _freeze.cancel()
    # An empty context: the handle outlives its caller, whose context holds its app.
    _freeze, _freeze_loop = loop.call_later(delay, _freeze_new, context=contextvars.Context()), loop


def _freeze_new() -> None:
    global _freeze, _garbage, _frozen_garbage
    _freeze = None
    gc.collect(1)  # young garbage out first: cheap, it does not walk the old generation
    _freeze_all()
    _frozen_garbage, _garbage = _frozen_garbage + _garbage, 0.0
    if _frozen_garbage >= FROZEN_LIMIT:
        _schedule(_next_delay())


def _freeze_all() -> None:
    """Move every tracked object to the frozen generation, which collections do not walk."""
    global _frozen_at, _promoted_at_freeze
    gc.freeze()
    _frozen_at = time.monotonic()
    _promoted_at_freeze = gc.get_count()[2]  # (a freeze does not reset it; a full collection does)


def session_ended(born: float | None = None, app: Any = None, taken_apart: bool = False) -> None:
    """A session's app, started at `born` (monotonic clock), is now garbage: collect it soon,
    when no other collection is due. An app `taken_apart` (`dismantle`) leaves little behind.
    One left whole: while `app` is still alive (its last tasks may outlive the session on a
    loaded machine), collections do not freeze: frozen, it would wait for a deep collection;
    they come again `COLLECT_DELAY` later until it is gone (`DYING_TRIES`)."""
    if app is not None:
        _dying.append((weakref.ref(app), DYING_TRIES))
    _collect_soon(TAKEN_APART_GARBAGE if taken_apart else SESSION_GARBAGE, born)


def screen_closed(born: float | None = None, widgets: int = 0, taken_apart: bool = False) -> float:
    """A screen of `widgets` widgets (itself included), made at `born`, is now garbage: collect
    it soon. Returns its weight in closed screens: a dialog (`DIALOG_WIDGETS`) counts 1, a
    bigger screen as many dialogs as its widgets make; taken apart (`dismantle`), what is left
    of it (`TAKEN_APART_SCREEN`)."""
    weight = max(1.0, widgets / DIALOG_WIDGETS)
    if taken_apart:
        weight *= TAKEN_APART_SCREEN
    _collect_soon(weight, born)
    return weight


def _collect_soon(weight: float, born: float | None) -> None:
    global _garbage, _frozen_garbage
    if not _configured:
        return
    if born is not None and born < _frozen_at:
        _frozen_garbage += weight
    else:
        _garbage += weight
    _schedule(_next_delay())


def garbage_limit() -> int:
    """Closed screens whose garbage takes `PAUSE_TARGET` to free."""
    return max(1, int(PAUSE_TARGET / _screen_cost))


def screen_cost() -> float:
    """Seconds a closed screen costs to collect, as measured (what its app is charged)."""
    return _screen_cost


def _next_delay() -> float:
    now = time.monotonic()
    if _garbage >= garbage_limit():
        return max(SOON, MIN_GAP - (now - _last_full))
    delay = max(COLLECT_DELAY, MIN_INTERVAL - (now - _last_full))
    if _frozen_garbage >= FROZEN_LIMIT:
        delay = min(delay, max(SOON, _deep_gap() - (now - _last_deep)))
    return delay


def _deep_gap() -> float:
    """Seconds from one deep collection to the next: `DEEP_DUTY` of the loop at most."""
    return min(DEEP_INTERVAL, max(MIN_GAP, _deep_seconds / DEEP_DUTY))


def deep_collections() -> int:
    """Deep collections (the frozen generation included) run so far."""
    return _deep_collections


def output_sent() -> None:
    """A write to a client: collect the young generations once the writing stops."""
    global _young, _young_loop, _last_output
    if not _configured:
        return
    # One timer per burst of writes, not one per write: it is put off when it fires
    # (`_collect_young`). Under load, cancelling and making a timer for each of the thousand
    # writes a second filled the loop's timer heap with cancelled handles.
    _last_output = time.monotonic()
    loop = asyncio.get_running_loop()
    if _young is None or _young_loop is not loop:
        _young_loop = loop
        _young = loop.call_later(YOUNG_DELAY, _collect_young, context=_NO_APP)
    # What lived through two young collections is in the old generation, walked by every full
    # collection until a freeze: frozen now, writes going on or not (under a flood they never
    # stop for `YOUNG_DELAY`), unless an ended app left whole is still alive (frozen, it would
    # wait for a deep collection).
    if gc.get_count()[2] - _promoted_at_freeze >= PROMOTED_LIMIT and not _dying:
        _freeze_soon(0.0)


def _collect_young() -> None:
    global _young, _young_collections
    wait = _last_output + YOUNG_DELAY - time.monotonic()
    if wait > 0:  # written to since the timer was set: not quiet yet
        _young = asyncio.get_running_loop().call_later(wait, _collect_young, context=_NO_APP)
        return
    _young = None
    if gc.get_count()[0] > 0:
        gc.collect(1)
        _young_collections += 1


def activity() -> None:
    """A client typed, connected or left: someone may be waiting for a screen, and a deep
    collection now would keep them waiting."""
    global _last_activity
    _last_activity = time.monotonic()


def _quiet_in(now: float) -> float:
    """Seconds until the loop counts as quiet (0 if it is)."""
    return max(0.0, QUIET - (now - _last_activity))


def deferred_deep_collections() -> int:
    """Times a due deep collection was put off for a quiet moment, so far."""
    return _deferred_deep


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
    global _scheduled, _scheduled_loop, _last_full, _collections, _garbage, _frozen_garbage
    global _last_deep, _deep_collections, _screen_cost, _deep_seconds, _deferred_deep
    global _frozen_after_deep
    _scheduled = _scheduled_loop = None
    started = time.monotonic()
    since_deep = started - _last_deep
    nobody = _connected() == 0
    due = since_deep >= _deep_gap() and (
        _frozen_garbage >= FROZEN_LIMIT or (nobody and _frozen_garbage >= EMPTY_FROZEN_LIMIT)
    )
    # The hourly one, for garbage no one reported, waits for a moment with no session at all,
    # when its pause keeps nobody waiting (or, none coming, `DEEP_LONGEST_WAIT` for a quiet one,
    # if so much was frozen since the last that some of it may be garbage).
    grown = gc.get_freeze_count() - _frozen_after_deep >= FROZEN_GROWTH
    hourly = since_deep >= MAX_INTERVAL and (nobody or (since_deep >= DEEP_LONGEST_WAIT and grown))
    deep = due or hourly
    overdue = _frozen_garbage >= FROZEN_HARD_LIMIT
    wait = _quiet_in(started)
    put_off = deep and wait > 0 and not overdue  # a player is typing: the deep one waits
    if put_off:
        _deferred_deep += 1
        deep = False
        if _garbage == 0 and not _dying:  # nothing else to collect either
            _schedule(max(SOON, wait))
            return
    if deep:
        gc.unfreeze()
    freed = gc.collect()
    _last_full = time.monotonic()
    _dying[:] = [(ref, tries - 1) for ref, tries in _dying if ref() is not None and tries > 1]
    # Every collection freezes what survived it, early ones too (garbage piling up: screens
    # closed in a burst). Unfrozen, what lives on would be walked by every next collection: in
    # a flood of tables watched and left, full collections grew from 15 to 76 ms in two
    # minutes. (Early collections used not to freeze: the next screen, often open by then,
    # would have been frozen garbage for a deep collection; screens are taken apart now.)
    # Not while an ended session's app is still alive (frozen, it would wait for a deep one;
    # tried again soon), except after a deep one: unfrozen, the whole heap would make every
    # next collection as long as a deep one.
    if deep or not _dying:
        _freeze_all()
    _collections += 1
    if not deep and _garbage >= 5:  # enough to measure what a screen costs
        measured = (_last_full - started) / _garbage
        _screen_cost = 0.7 * _screen_cost + 0.3 * measured
    _garbage = 0.0
    if deep:
        _frozen_garbage, _last_deep = 0.0, _last_full
        _deep_collections += 1
        _deep_seconds = _last_full - started
        _frozen_after_deep = gc.get_freeze_count()
    log.info(
        "%s garbage collection: %d objects freed in %.0f ms",
        "deep" if deep else "full",
        freed,
        (_last_full - started) * 1000,
    )
    if _dying:
        _schedule(COLLECT_DELAY)
    else:
        _schedule(_next_delay() if _frozen_garbage >= FROZEN_LIMIT else MAX_INTERVAL)
    if put_off:  # when the loop may be quiet
        _schedule(max(SOON, wait))
