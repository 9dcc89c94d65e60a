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

Relies on (pinned with Textual, see server/textual_fixes): `Screen._on_timer_update`,
`Screen._dirty_widgets`, `App._batch_count`, `App._handle_exception`.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

_pending: weakref.WeakSet[Any] = weakref.WeakSet()


def repaint_soon(screen: Any) -> None:
    """Repaint `screen` once the running handler returns (once, however often asked)."""
    if screen in _pending:
        return
    _pending.add(screen)
    asyncio.get_running_loop().call_soon(_repaint, weakref.ref(screen))


def _repaint(ref: weakref.ref[Any]) -> None:
    screen = ref()
    if screen is None:
        return
    _pending.discard(screen)
    app = screen.app
    if not screen._dirty_widgets or not screen.is_attached:
        return
    if app._batch_count or not screen.is_current:
        screen.check_idle()  # as Textual does: the timer repaints it when it may
        return
    try:
        screen._on_timer_update()
    except Exception as error:  # the app's own error handling, as for any handler of its
        app._handle_exception(error)
