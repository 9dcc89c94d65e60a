"""Runs the move clocks of every table: one `call_later` per table with a clock, at its next
deadline, when a bot stands in for whoever ran out of time (Table.expire).

Like the bot runner, it works only when a table changes or a deadline comes: a table without a
clock never schedules anything, so idle tables cost nothing. Deadlines are wall-clock times
(they survive restarts: core/table/clocks.py), turned into a delay when scheduled.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from harena.core.lobby import Lobby
from harena.core.store import StoreError
from harena.core.table_like import TableLike

log = logging.getLogger(__name__)

MAX_SLEEP = 3600.0  # re-check at least hourly: the wall clock may jump (suspend, NTP)


class ClockRunner:
    def __init__(self, lobby: Lobby, *, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._loop = asyncio.get_running_loop()
        self._pending: dict[str, tuple[float, asyncio.TimerHandle]] = {}
        lobby.add_table_listener(self._table_changed)
        for table in list(lobby.tables.values()):
            self._table_changed(table)

    def _table_changed(self, table: TableLike) -> None:
        deadline = table.next_deadline() if table.removed is None else None
        pending = self._pending.get(table.id)
        if pending is not None and pending[0] == deadline:
            return
        if pending is not None:
            pending[1].cancel()
            del self._pending[table.id]
        if deadline is None:
            return
        delay = min(max(deadline - self._clock(), 0.0), MAX_SLEEP)
        self._pending[table.id] = (deadline, self._loop.call_later(delay, self._expire, table))

    def _expire(self, table: TableLike) -> None:
        self._pending.pop(table.id, None)
        try:
            table.expire(self._clock())  # its notify schedules the next deadline and the bot
        except StoreError:
            log.exception("table %s: a stand-in could not be saved", table.id)
        except Exception:
            log.exception("table %s: its clock failed", table.id)
        if table.id not in self._pending:
            self._table_changed(table)  # nothing expired (the wall clock was early): wait on

    @property
    def pending(self) -> int:
        return len(self._pending)

    def close(self) -> None:
        for _, handle in self._pending.values():
            handle.cancel()
        self._pending.clear()
