"""Repaint a screen as soon as the handler that changed it returns, not at its timer's next tick.

Textual repaints a screen from an interval timer that resumes when something changed: a task
switch into the timer, an `asyncio.sleep` of one period, a tick, then the repaint. At a table
every session repaints once per move, so that round trip was paid ten times a move, and each
screen waited at least one period. Widgets that mark themselves dirty directly (`RowsWidget`)
schedule the screen's repaint with `loop.call_soon` instead: it runs once the current handler
returns (all the changes of one view make one repaint) and does what the timer's tick does
(`Screen._on_timer_update`: layout if needed, then render and paint the dirty widgets). The
timer still runs for everything else Textual refreshes; a tick that finds nothing dirty does
nothing.

Relies on (pinned in server/hosting/textual_pins): `Screen._on_timer_update`,
`Screen._dirty_widgets`, `App._batch_count`, `App._handle_exception`.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

_pending: weakref.WeakKeyDictionary[Any, weakref.WeakSet[Any]] = weakref.WeakKeyDictionary()
"""Screen -> widgets to repaint. They join the screen's dirty widgets only when it repaints: a
screen that goes idle meanwhile would otherwise resume its timer for a tick with nothing left
to do."""


def repaint_soon(screen: Any, widget: Any) -> None:
    """Repaint `widget` (marked dirty already) with its screen once the running handler returns
    (one repaint for all the widgets a handler changed)."""
    widgets = _pending.get(screen)
    if widgets is not None:
        widgets.add(widget)
        return
    _pending[screen] = weakref.WeakSet([widget])
    asyncio.get_running_loop().call_soon(_repaint, weakref.ref(screen))


def _repaint(ref: weakref.ref[Any]) -> None:
    screen = ref()
    if screen is None:
        return
    widgets = _pending.pop(screen, None)
    if not widgets or not screen.is_attached:
        return
    screen._dirty_widgets.update(widgets)
    app = screen.app
    if app._batch_count or not screen.is_current:
        screen.check_idle()  # as Textual does: the timer repaints it when it may
        return
    try:
        screen._on_timer_update()
    except Exception as error:  # the app's own error handling, as for any handler of its
        app._handle_exception(error)
