"""Drives the bots at every table, at a pace a human can follow.

A bot move is scheduled with `loop.call_later` only when a table changes and a bot seat has a
decision, or may deal (a bribe or an ask while it waits, see Table.bot_deal): nothing runs
while tables are idle, so idle screens cost nothing. Deals go at the same pace as decisions, one
per delay, and a deal comes before a bot's decision; a human decides whenever they like.
"""

from __future__ import annotations

import asyncio
import logging

from harena.core.engine import IllegalAction
from harena.core.lobby import Lobby
from harena.core.store import StoreError
from harena.core.table import Table

log = logging.getLogger(__name__)


class BotRunner:
    def __init__(self, lobby: Lobby, delay: float = 0.8) -> None:
        self.delay = delay
        self._loop = asyncio.get_running_loop()
        self._pending: dict[str, asyncio.TimerHandle] = {}
        lobby.add_table_listener(self._table_changed)
        for table in lobby.tables.values():
            self._table_changed(table)

    def _table_changed(self, table: Table) -> None:
        if table.id in self._pending or not (table.bots_to_move() or table.may_deal()):
            return
        self._pending[table.id] = self._loop.call_later(self.delay, self._move, table)

    def _move(self, table: Table) -> None:
        del self._pending[table.id]
        try:
            table.play_bot_step()  # its notify re-schedules the next bot move
        except (IllegalAction, StoreError):
            log.exception("table %s: a bot could not move", table.id)
        except Exception:
            log.exception("table %s: a bot failed; bots at this table stop", table.id)

    @property
    def pending(self) -> int:
        return len(self._pending)

    def close(self) -> None:
        for handle in self._pending.values():
            handle.cancel()
        self._pending.clear()
