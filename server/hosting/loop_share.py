"""How much of the one event loop each app uses, so that no session can take more than its share.

Every session runs in the server's single event loop, so a session whose keys are expensive (a
dialog opened and closed over and over, a list scrolled as fast as the link allows) slows every
other player down. Counting bytes or even events does not bound that: a key may cost 0.1 ms or
10 ms. `install()` times every callback the loop runs (`asyncio.Handle._run`: task steps, timers,
`call_soon`) and charges it to the app whose context it runs in (Textual's `active_app`), which
covers the app's own handlers, its rendering and the encryption of its output. `LoopShare` turns
that into a gate for the session's input: while the loop is busy (`BUSY`), an app that used
more than `share` of it lately gets no more input until it has paid the excess back.

Cost: two clock reads and a context lookup per callback (~0.3 µs; a move at a table of ten runs
a few thousand callbacks, ~25 ms of work).
"""

from __future__ import annotations

import asyncio.events
import time
from collections.abc import Callable
from typing import Any

from textual._context import active_app

from harena.server.hosting.textual_pins import patch

WINDOW = 2.0
"""Seconds of its share an app may save up: enough for an expensive action (a dialog opening)
to pass at once, short enough that the others hardly notice it."""
MAX_DEBT = 4
"""Windows of debt an app may run up: an expensive key is paid back in full (a cheaper cap
would let a key that costs more than the cap pass at once, again and again)."""
ATTRIBUTE = "_harena_loop_seconds"

BUSY = 0.25
"""Fraction of the loop busy (all apps together) under which no one's input is held: shares
matter when sessions compete, and a player's screen repainting for a busy table (charged to
them, though they asked for nothing) must not delay their keys on a quiet server."""
BUSY_SAMPLE = 0.25
"""Seconds over which the loop's business is measured."""

_installed = False
_busy_seconds = [0.0]  # every callback's time, all apps and none
_sample = [time.monotonic(), 0.0, 0.0]  # when, busy seconds then, the fraction measured


def busy() -> float:
    """The fraction of time the loop spent in callbacks lately."""
    now = time.monotonic()
    when, seconds, fraction = _sample
    if now - when >= BUSY_SAMPLE:
        fraction = (_busy_seconds[0] - seconds) / (now - when)
        _sample[:] = [now, _busy_seconds[0], fraction]
    return fraction


def install() -> None:
    """Charge every loop callback to its app (idempotent)."""
    global _installed
    if _installed:
        return
    run = asyncio.events.Handle._run
    clock = time.perf_counter
    current_app = active_app

    def _run(self: Any) -> None:  # an asyncio Handle: `_context` is a slot typeshed omits
        start = clock()
        try:
            run(self)
        finally:
            took = clock() - start
            _busy_seconds[0] += took
            app = self._context.get(current_app)
            if app is not None:
                setattr(app, ATTRIBUTE, getattr(app, ATTRIBUTE, 0.0) + took)

    patch(asyncio.events.Handle, "_run", _run)
    _installed = True


def charge(app: Any, seconds: float) -> None:
    """Charge `app` for loop time spent on its behalf later (collecting its garbage)."""
    setattr(app, ATTRIBUTE, getattr(app, ATTRIBUTE, 0.0) + seconds)


def loop_seconds(app: Any) -> float:
    """Loop time charged to `app` so far."""
    return float(getattr(app, ATTRIBUTE, 0.0))


class LoopShare:
    """A token bucket over loop time: an app earns `share` seconds of loop per second (at most
    `share * window` saved up) and spends what it uses. Its input may pass while it is not in
    debt; an expensive event overshoots and is paid back before the next one, so over time the
    app keeps to its share whatever its events cost.

    Time before the first input is not counted (starting the app is the server's business), and
    the debt is capped at `MAX_DEBT` windows, so that work the player did not ask for (table
    updates repainting their screen) can never hold their keys back for long."""

    def __init__(
        self,
        app: Any,
        share: float,
        window: float = WINDOW,
        clock: Callable[[], float] = time.monotonic,
        busy_fraction: Callable[[], float] | None = None,
    ) -> None:
        self._app = app
        self._busy = busy_fraction or busy
        self.share = share
        self.cap = share * window
        self._clock = clock
        self._balance = self.cap
        self._last: float | None = None
        self._used = 0.0

    def _update(self) -> None:
        now, used = self._clock(), loop_seconds(self._app)
        if self._last is not None:
            earned = min(self.cap, self._balance + (now - self._last) * self.share)
            self._balance = max(-MAX_DEBT * self.cap, earned - (used - self._used))
        self._last, self._used = now, used

    def allows(self) -> bool:
        """True while the app is not in debt, or while the loop is not busy (its debt is then
        forgiven: there was no one to wait for it)."""
        self._update()
        if self._balance > 0:
            return True
        if self._busy() < BUSY:
            self._balance = 0.001 * self.share
            return True
        return False

    def wait(self) -> float:
        """Seconds until the app is out of debt (or the loop is quiet: asked again by then)."""
        self._update()
        return 0.0 if self._balance > 0 else min(BUSY_SAMPLE, -self._balance / self.share + 0.001)
