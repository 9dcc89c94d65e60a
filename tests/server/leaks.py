"""Leak checks: whatever no reference holds must be freed by a collection of everything.

`gc_policy` freezes what survives its collections (and each new session's objects), and frozen
garbage waits for its deep collection; a leak check wants to know about references, not when
the server would collect, so it unfreezes first."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager


async def all_taken_apart(timeout: float = 5.0) -> None:
    """Wait until every ended app and closed screen handed to `dismantle` has been taken apart
    (it holds them until then)."""
    from harena.server.hosting import dismantle

    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while dismantle.pending() and loop.time() < deadline:
        await asyncio.sleep(0.02)


def collect_all() -> int:
    gc.unfreeze()
    return gc.collect()


@contextmanager
def garbage_made(kind: Callable[[object], bool]) -> Iterator[list[object]]:
    """The cyclic garbage of `kind` made within (what was garbage before is collected first):
    the list is filled on leaving, by a collection of everything."""
    found: list[object] = []
    collect_all()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield found
        collect_all()
        found.extend(obj for obj in gc.garbage if kind(obj))
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


async def freed(refs: list[weakref.ref[object]], timeout: float = 3.0) -> list[str]:
    """What still holds any of `refs` once `timeout` has passed: [] when all were freed.

    A closing session's last callbacks (a lost connection's exception and its traceback, a
    Textual timer) may hold its app for a moment after the session ends, more so on a loaded
    machine; a leak is what still holds it after that. (No object is kept in a local between
    collections: that alone would keep it alive.)"""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        collect_all()
        if all(ref() is None for ref in refs) or loop.time() > deadline:
            break
        await asyncio.sleep(0.05)
    return [
        f"{type(obj).__name__} held by "
        + ", ".join(sorted({type(holder).__name__ for holder in gc.get_referrers(obj)}))
        for ref in refs
        if (obj := ref()) is not None
    ]
