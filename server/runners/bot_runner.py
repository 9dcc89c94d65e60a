"""Drives the bots at every table, at a pace a human can follow.

A bot move is scheduled with `loop.call_later` only when a table changes and a bot seat has a
decision, or may deal (a bribe or an ask while it waits, see Table.bot_deal): nothing runs
while tables are idle, so idle screens cost nothing. Deals go at the same pace as decisions, one
per delay, and a deal comes before a bot's decision; a human decides whenever they like. While a
human is asked to pay (a bot asked them), bots wait DEAL_WAIT delays before each move instead
(about 10 s at the default pace), so a bot Host that asks a fee to spare cannot turn the thumb
before the human could read the ask; once they pay, the bots go on at their pace.

A bot that thinks (the search bot) decides in a worker process (`bot_workers`): the table waits
for nothing else meanwhile, and if the game moved on before the thought came back (a human
took the seat, a deal was made) the thought is dropped and the bot thinks again.
"""

from __future__ import annotations

import asyncio
import logging

from harena.core.engine import IllegalAction
from harena.core.lobby import Lobby
from harena.core.search.bot import SearchBot
from harena.core.store import StoreError
from harena.core.table_like import TableLike
from harena.server.runners.bot_workers import BotWorkers

log = logging.getLogger(__name__)

DEAL_WAIT = 12  # delays a bot waits for a human asked to pay


class BotRunner:
    def __init__(self, lobby: Lobby, delay: float = 0.8, workers: BotWorkers | None = None) -> None:
        self.delay = delay
        self.workers = workers  # None: thinking bots decide on the loop (local play, tests)
        self._thinking: dict[str, asyncio.Task[None]] = {}
        self._closed = False
        self.deal_wait = DEAL_WAIT * delay
        self._waiting: set[str] = set()  # tables whose next move waits for a human asked to pay
        self._loop = asyncio.get_running_loop()
        self._pending: dict[str, asyncio.TimerHandle] = {}
        lobby.add_table_listener(self._table_changed)
        for table in lobby.tables.values():
            self._table_changed(table)

    def _table_changed(self, table: TableLike) -> None:
        asked = table.humans_asked()
        if table.id in self._waiting and not asked:  # they answered: no need to wait on
            self._pending.pop(table.id).cancel()
            self._waiting.discard(table.id)
        if table.id in self._pending or table.id in self._thinking:
            return
        if not (table.bots_to_move() or table.may_deal()):
            return
        if asked:
            self._waiting.add(table.id)
        self._pending[table.id] = self._loop.call_later(
            self.deal_wait if asked else self.delay, self._move, table
        )

    def _move(self, table: TableLike) -> None:
        del self._pending[table.id]
        self._waiting.discard(table.id)
        off_loop = None if self.workers is None else lambda seat: self._think(table, seat)
        try:
            table.play_bot_step(off_loop)  # its notify re-schedules the next bot move
        except StoreError as exc:  # expected: storage away, or (a cluster) the table moved
            log.warning("table %s: a bot could not move (%s)", table.id, exc)
        except IllegalAction:
            log.exception("table %s: a bot could not move", table.id)
        except Exception:
            log.exception("table %s: a bot failed; bots at this table stop", table.id)

    def _think(self, table: TableLike, seat: int) -> None:
        self._thinking[table.id] = asyncio.ensure_future(self._thought(table, seat))

    async def _thought(self, table: TableLike, seat: int) -> None:
        assert self.workers is not None
        version = table.game.version
        try:
            bot = table.bot_of(seat)
            log_from = table.seats[seat].log_from
            assert isinstance(bot, SearchBot)  # only search bots think off the loop
            thought = await self.workers.decide(table.game, seat, bot, log_from=log_from)
            if table.game.version == version and seat in table.bots_to_move():
                table.play_bot(seat, thought.choice)
        except StoreError as exc:
            log.warning("table %s: a thinking bot could not move (%s)", table.id, exc)
        except IllegalAction:
            log.exception("table %s: a thinking bot could not move", table.id)
        except Exception:
            log.exception("table %s: a thinking bot failed", table.id)
        finally:
            self._thinking.pop(table.id, None)
            if not self._closed:
                self._table_changed(table)  # the next move, or the same one thought again

    @property
    def thinking(self) -> int:
        return len(self._thinking)

    @property
    def pending(self) -> int:
        return len(self._pending)

    def close(self) -> None:
        for handle in self._pending.values():
            handle.cancel()
        self._pending.clear()
        self._closed = True
        for task in self._thinking.values():
            task.cancel()
        self._thinking.clear()
        if self.workers is not None:
            self.workers.close()
        self._waiting.clear()
