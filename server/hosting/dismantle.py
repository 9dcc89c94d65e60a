"""Take an ended session's app apart, so that reference counting frees it instead of a collection.

A Textual app is a web of reference cycles: widgets and their parents, styles and their nodes,
message queues, bound methods, render caches. One app at the lobby is ~6,500 objects, one with
a table screen twice that, and only a garbage collection frees such a web. Worse, a session that
lived through a `gc_policy` freeze (all but the shortest) is frozen: only a *deep* collection,
which walks the whole heap (~110,000 objects with no session at all, 50-100 ms), frees it. So
every ended session cost a pause over the 50 ms the loop may stop for, or a deep one later.

Almost every cycle runs through a message pump's `__dict__` (the app, its screens, its
widgets). Clearing those dicts once the app has stopped breaks the cycles; reference counting
then frees what they held, a slice at a time (`SLICE` pumps per loop turn, about a millisecond
each), frozen or not. A few hundred objects are left (the SSH connection's own cycles, a few
layout objects) for the next collection.

Safety: `track()` records the pumps made under each server app (its context is active while
they are made), so nothing of another app or of the lobby is ever touched. Clearing starts
`DELAY` after the session ended (callbacks already scheduled for the app have run by then) and
only once no pump of the app has a task or a timer still running; an app that does not come
to rest within `TRIES` checks is left whole for the collector, as before.

A screen an app closes and removes (a table screen left for the lobby: ~6,500 objects; dialogs
are kept, `tui/screens/kept.py`) is the same web, and it is what frozen garbage was mostly made
of once sessions were taken apart: a deep collection after a client watched and left tables
for a while took 170-240 ms. `dismantle_screen` takes it apart while its app lives on, with
more care: the app must not show or keep it again, what the app keeps of its widgets (the one
clicked, the one under the pointer, the one focused when the terminal lost focus) is dropped,
and the app must have no message or after-refresh callback waiting (Textual's hover check
after a removal holds the removed screen: taken apart before it ran, that crashed the app).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
import weakref
from collections.abc import Callable
from typing import Any

from textual._animator import Animator
from textual._context import active_app
from textual.cache import LRUCache
from textual.css.stylesheet import Stylesheet
from textual.message_pump import MessagePump
from textual.timer import Timer

from harena.server.hosting import loop_share
from harena.server.hosting.textual_pins import patch

log = logging.getLogger(__name__)

DELAY = 0.5
"""Seconds after a session ends before its app is taken apart."""
RETRY = 0.25
"""Seconds between two checks of an app that still has a task or timer running."""
TRIES = 20
"""Checks before an app still busy is left to the collector."""
SLICE = 40
"""Message pumps cleared per loop turn."""
TOMBSTONE = {"_closing": True, "_closed": True, "_MessagePump__parent": None}
"""What a cleared pump keeps: a late `post_message` or `is_attached` on it finds it closed."""

_pumps: weakref.WeakKeyDictionary[Any, weakref.WeakSet[MessagePump]] = weakref.WeakKeyDictionary()
_installed = False
_left_whole = 0
_pending: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, int] = weakref.WeakKeyDictionary()
"""Per loop: apps handed to `dismantle` and not done yet."""


def install() -> None:
    """Record, from now on, the message pumps each tracked app makes (idempotent)."""
    global _installed
    if _installed:
        return
    pump_init = MessagePump.__init__

    def __init__(self: MessagePump, *args: Any, **kwargs: Any) -> None:
        pump_init(self, *args, **kwargs)
        app = active_app.get(None)
        pumps = None if app is None else _pumps.get(app)
        if pumps is not None:
            pumps.add(self)

    patch(MessagePump, "__init__", __init__)
    _installed = True


def track(app: Any) -> None:
    """Record the pumps `app` makes, to take them apart once it ends."""
    install()
    _pumps[app] = weakref.WeakSet()


def dismantle(app: Any, done: Callable[[bool], None] | None = None) -> None:
    """Take `app` (ended: its run is over) apart over the next loop turns, then call
    `done(taken_apart)`: False if it was left whole (still busy, or never tracked)."""
    pumps = _pumps.pop(app, None)
    if pumps is None:
        if done is not None:
            done(False)
        return
    _start(_Dismantling(app, list(pumps), done))


def _start(job: _Dismantling) -> None:
    """Count `job` pending on this loop, and check it `DELAY` from now."""
    loop = asyncio.get_running_loop()
    _pending[loop] = _pending.get(loop, 0) + 1
    # An empty context: the handle outlives the session's task, whose context holds the app.
    loop.call_later(DELAY, job.check, context=contextvars.Context())


def pending() -> int:
    """Ended apps and closed screens on this loop still waiting to rest or being taken apart
    (held until then)."""
    return _pending.get(asyncio.get_running_loop(), 0)


def left_whole() -> int:
    """Apps left to the collector because they did not come to rest."""
    return _left_whole


def _busy(pump: MessagePump) -> bool:
    task = getattr(pump, "_task", None)
    if task is not None and not task.done():
        return True
    timers = getattr(pump, "_timers", ())
    return any(
        getattr(timer, "_task", None) is not None and not timer._task.done()
        for timer in list(timers)
    )


def _clear(pump: Any) -> None:
    state = pump.__dict__
    for value in state.values():
        _unlink(value)
    state.clear()
    state.update(TOMBSTONE)


def _unlink(value: Any) -> None:
    """Break the cycles of what a pump owns that its clearing alone would leave: an `LRUCache`'s
    ring of links (a widget's box models and query results: ~200 objects a session; the app's
    stylesheet's parsed CSS, ~30), and the app's `Animator`, whose `Timer` calls it back."""
    if isinstance(value, LRUCache):
        value.clear()  # its links unlinked first (`textual_fixes`)
    elif isinstance(value, Stylesheet):  # the app's: its caches of parsed CSS and styles
        for cache in vars(value).values():
            if isinstance(cache, LRUCache):
                cache.clear()
    elif isinstance(value, Animator):
        timer = value.__dict__.get("_timer")
        if isinstance(timer, Timer):
            timer.__dict__.clear()
        value.__dict__.clear()


APP_POINTERS = (
    "mouse_over",
    "hover_over",
    "mouse_captured",
    "_mouse_down_widget",
    "_last_focused_on_app_blur",
)
"""What a Textual app (8.2) keeps of widgets under the mouse or last focused, which may be on a
screen it closed: dropped before that screen is taken apart, as Textual would on the next
mouse move."""


def pumps_of(app: Any, screen: Any) -> list[MessagePump]:
    """`screen` and the pumps `app` made under it: its widgets, and their scrollbars, which are
    attached to a widget without being among its children (missed, each is a widget's worth
    of garbage: ~200 objects a table screen). Before the screen is removed: then they all have
    their parents."""
    tracked = _pumps.get(app)
    if tracked is None:
        return list(screen.walk_children(with_self=True))
    found = []
    for pump in list(tracked):
        node: MessagePump | None = pump
        while node is not None and node is not screen:
            node = node._parent
        if node is screen:
            found.append(pump)
    return found


def dismantle_screen(
    app: Any, screen: Any, pumps: list[MessagePump], done: Callable[[bool], None]
) -> None:
    """Take apart `screen` (closed and removed by `app`, which lives on), `pumps` being it and
    the pumps under it (`pumps_of`, before its removal), then call `done(taken_apart)`. Left
    whole if it does not come to rest, or if it is in use again (pushed back, installed). If
    the app ends first, its own dismantling takes the screen apart: `done(True)`."""
    _start(
        _Dismantling(screen, [pump for pump in pumps if pump is not screen], done, weakref.ref(app))
    )


def _settling(app: Any) -> bool:
    """True while `app` or a screen it shows has messages or after-refresh callbacks waiting:
    one may hold a screen it just closed (Textual's hover check after a removal does)."""
    screens = [screen for stack in app._screen_stacks.values() for screen in stack]
    return bool(app.message_queue_size) or any(
        screen._callbacks or screen.message_queue_size for screen in screens
    )


def _in_use(app: Any, screen: Any) -> bool:
    """True if `app` shows or keeps `screen` again."""
    stacks = getattr(app, "_screen_stacks", {})
    installed = getattr(app, "_installed_screens", {})
    return any(screen in stack for stack in stacks.values()) or any(
        s is screen for s in installed.values()
    )


class _Dismantling:
    """One ended app, or one closed screen of a live app (`app` given), being taken apart: waits
    for it to rest, then clears it slice by slice."""

    def __init__(
        self,
        owner: Any,
        pumps: list[MessagePump],
        done: Callable[[bool], None] | None,
        app: weakref.ref[Any] | None = None,
    ) -> None:
        # Held, not weakly: a collection meanwhile would free the owner whole, at its full cost.
        self.owner: Any = owner
        self.pumps = pumps
        self.done = done
        self.live_app = app
        self.what = "a closed screen" if app is not None else "an ended app"  # for the log
        self.tries = TRIES
        self.spent = 0.0  # seconds of the loop spent clearing

    def _later(self, delay: float, step: Callable[[], None]) -> None:
        asyncio.get_running_loop().call_later(delay, step, context=contextvars.Context())

    def check(self) -> None:
        live = self.live_app() if self.live_app is not None else None
        if self.live_app is not None:
            if live is None or getattr(live, "_closed", True):
                # The app ended meanwhile: its own dismantling takes the screen apart with it
                # (or, left whole, the app's garbage is counted with the screen's). Counted
                # apart, every session's last table screen was frozen garbage: 8 flooding
                # clients leaving called for a 160 ms deep collection.
                self._finish(True)
                return
            if _in_use(live, self.owner):
                self._finish(False)
                return
            for name in APP_POINTERS:  # what the app keeps of the screen, dropped first
                if (pointer := getattr(live, name, None)) is self.owner or pointer in self.pumps:
                    setattr(live, name, None)
        if (
            _busy(self.owner)
            or any(_busy(pump) for pump in self.pumps)
            or (live is not None and _settling(live))
        ):
            self.tries -= 1
            if self.tries > 0:
                self._later(RETRY, self.check)
            else:
                global _left_whole
                _left_whole += 1
                # A screen is closed per key: a warning each would let a client flood the log.
                log.log(logging.DEBUG if self.live_app is not None else logging.WARNING,
                        "%s was still busy after %.0f s: left to the collector", self.what,
                        DELAY + RETRY * TRIES)  # fmt: skip
                self._finish(False)
            return
        self.clear_slice()

    def clear_slice(self) -> None:
        start = time.perf_counter()
        for _ in range(min(SLICE, len(self.pumps))):
            _clear(self.pumps.pop())
        if not self.pumps:
            _clear(self.owner)
        self.spent += time.perf_counter() - start
        if self.pumps:
            asyncio.get_running_loop().call_soon(self.clear_slice, context=contextvars.Context())
            return
        live = self.live_app() if self.live_app is not None else None
        if live is not None:  # what it cost the loop is on the app that closed the screen
            loop_share.charge(live, self.spent)
        log.debug("%s taken apart in %.1f ms", self.what, self.spent * 1000)
        self._finish(True)

    def _finish(self, taken_apart: bool) -> None:
        loop = asyncio.get_running_loop()
        _pending[loop] -= 1
        self.owner = self.live_app = None
        self.pumps = []
        done, self.done = self.done, None
        if done is not None:
            done(taken_apart)
