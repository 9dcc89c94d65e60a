"""Message pumps' asyncio events that make their waiter queue only when waited on.

Every Textual message pump (the app, each screen and widget) holds two `asyncio.Event`s: its
message queue's "ready" and its "mounted". Each makes an empty `collections.deque` for its
waiters when created (~380 bytes), and most are never waited on: a widget's mounted event is
waited on only by the one that mounts it, a queue's ready event only while the pump is idle. A
session has ~55 pumps: ~40 KB of empty deques.

`LeanEvent` is an `asyncio.Event` whose waiters are a shared empty tuple until `wait()` needs a
deque; `set()` and `clear()` read them unchanged (asyncio's own code), so it behaves the same.
`install()` makes Textual's queues (`textual._queue.Event`) and `MessagePump._mounted_event`
use it (pinned in textual_pins).
"""

from __future__ import annotations

import asyncio
import collections
from functools import cached_property
from typing import Any, Literal

from harena.server.hosting.textual_pins import patch


class LeanEvent(asyncio.Event):
    """`asyncio.Event` without a waiter deque until one waits."""

    _waiters: Any = ()  # read by asyncio's set(); a deque once wait() is called

    def __init__(self) -> None:
        self._value = False

    async def wait(self) -> Literal[True]:
        if not self._value and self._waiters == ():
            self._waiters = collections.deque()
        return await super().wait()


def _mounted_event(self: Any) -> asyncio.Event:
    return LeanEvent()


_installed = False


def install() -> None:
    """Textual's queues and mounted events made from now on are lean (idempotent)."""
    global _installed
    if _installed:
        return
    import textual._queue
    from textual.message_pump import MessagePump

    patch(textual._queue, "Event", LeanEvent)
    mounted = cached_property(_mounted_event)
    mounted.__set_name__(MessagePump, "_mounted_event")
    patch(MessagePump, "_mounted_event", mounted)
    _installed = True
