"""Search bots think in worker processes, so the server's event loop never waits for them.

A thinking bot's decision goes to a process pool (forkserver, else spawn: a fork of a server
with live sockets and threads is unsafe) as the game's snapshot, the seat and a seed; the
worker restores the game, the search bot decides within its wall-clock budget, and the choice
comes back to the loop. The seed is the bot's own mixed with the game's move count, so the same
position gets the same thought (in iterations; a time budget depends on the machine).

What goes wrong falls back to the heuristic bot for that decision, logged: a worker that dies
(the pool is rebuilt), one that overruns the table's hard cap (its processes are ended and the
pool rebuilt), any error in the thought. Nothing is kept between decisions, so a server that
restarts mid-thought simply thinks again.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

from harena.core.engine import Game, Rng, restore
from harena.core.search.bot import Budget, SearchBot

log = logging.getLogger(__name__)

T = TypeVar("T")

DEFAULT_SECONDS = 1.0  # a thinking bot's wall-clock budget per decision
UNBOUNDED = 1_000_000  # iterations: the clock ends a worker's thought
GRACE = 0.5
STARTUP = 60.0  # seconds a new pool may take to start its processes (a loaded machine)  # past the budget, seconds allowed for the snapshot, the restore and the reply


@dataclass(frozen=True)
class Thought:
    choice: str
    seconds: float
    fell_back: str | None = None  # why the heuristic decided instead ("timeout", "died", ...)


def think(blob: bytes, seat: int, seed: int, budget: Budget, log_from: int) -> str:
    """In the worker: the search bot's choice for `seat` in the game `blob` was taken of."""
    game = restore(blob)
    return SearchBot(seed, budget).decide(game, seat, log_from=log_from)


def thought_seed(bot_seed: int, version: int) -> int:
    """The seed of one decision: the bot's, moved on by how far the game is."""
    return Rng.from_seed(bot_seed * 1_000_003 + version).next64()


NICENESS = 10  # workers yield the CPU to the server's loop (players' keys come first)


def lower_priority() -> None:
    """In a new worker: run below the server, so thinking never slows its screens."""
    import os

    os.nice(NICENESS)


def warm() -> bool:
    """In a new worker: load the games and the bots before the first thought is timed."""
    from harena.core.engine import available_games

    available_games()
    return True


def _context() -> multiprocessing.context.BaseContext:
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" not in methods:
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["harena.server.runners.bot_workers"])  # workers start loaded
    return context


def _tracker_running() -> None:
    """Start multiprocessing's resource tracker with the process's real stderr. It hands
    `sys.stderr`'s descriptor to its process, and a running Textual app (`harena play`) has
    replaced `sys.stderr` with a capture whose descriptor is no real one: the pool's first
    lock would then fail with "bad value(s) in fds_to_keep"."""
    from multiprocessing import resource_tracker

    shown, sys.stderr = sys.stderr, sys.__stderr__
    try:
        resource_tracker.ensure_running()
    finally:
        sys.stderr = shown


class BotWorkers:
    """A pool of `workers` processes for thinking bots. `seconds`: the budget of each thought
    (a table may ask for less, never more than `hard_cap`)."""

    def __init__(
        self, workers: int = 2, seconds: float = DEFAULT_SECONDS, hard_cap: float | None = None
    ) -> None:
        self.workers = workers
        self.seconds = seconds
        self.hard_cap = hard_cap if hard_cap is not None else 2 * seconds
        self.grace = GRACE
        self.fallbacks = 0
        self.on_thought: Callable[[Thought], None] | None = None  # told each thought (metrics)
        self._pool: ProcessPoolExecutor | None = None
        self._starting = asyncio.Lock()
        self._free = asyncio.Semaphore(workers)  # a thought's clock starts when a worker is free

    async def _executor(self) -> ProcessPoolExecutor:
        """The pool, started and warmed (outside any thought's time) on first use."""
        async with self._starting:
            if self._pool is None:
                _tracker_running()
                pool = ProcessPoolExecutor(
                    self.workers, mp_context=_context(), initializer=lower_priority
                )
                loop = asyncio.get_running_loop()
                warming = [loop.run_in_executor(pool, warm) for _ in range(self.workers)]
                await asyncio.wait_for(asyncio.gather(*warming), STARTUP)
                self._pool = pool
            return self._pool

    async def start(self) -> None:
        """Start the processes now rather than at the first thought."""
        await self._executor()

    def _rebuild(self) -> None:
        """End the pool's processes (one is stuck or dead); the next thought starts a new one."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        for process in list(getattr(pool, "_processes", {}).values()):
            process.kill()
        pool.shutdown(wait=False, cancel_futures=True)

    async def decide(
        self, game: Game, seat: int, bot: SearchBot, *, log_from: int = 0,
        seconds: float | None = None,
    ) -> Thought:  # fmt: skip
        """The bot's choice for `seat`, thought in a worker; the heuristic's if that fails."""
        began = time.perf_counter()
        budget_s = min(seconds if seconds is not None else self.seconds, self.hard_cap)
        budget = Budget(
            iterations=UNBOUNDED, depth=bot.budget.depth,
            margin=bot.budget.margin, seconds=budget_s,
        )  # fmt: skip
        loop = asyncio.get_running_loop()
        why: str | None = None
        async with self._free:  # waiting for a worker is not thinking time
            try:
                pool = await self._executor()
                future = loop.run_in_executor(
                    pool, think, game.snapshot(), seat,
                    thought_seed(bot.seed, game.version), budget, log_from,
                )  # fmt: skip
                choice = await asyncio.wait_for(future, timeout=budget_s + self.grace)
                return self._told(Thought(choice, time.perf_counter() - began))
            except TimeoutError:
                why = "timeout"
                self._rebuild()
            except BrokenProcessPool:
                why = "died"
                self._rebuild()
            except Exception as exc:  # a thought that fails must not take the table down
                why = f"{type(exc).__name__}: {exc}"
        self.fallbacks += 1
        log.warning("a search bot at seat %d fell back to the heuristic bot (%s)", seat, why)
        choice = bot.choose(game.view(seat, log_from=log_from))
        return self._told(Thought(choice, time.perf_counter() - began, why))

    def _told(self, thought: Thought) -> Thought:
        if self.on_thought is not None:
            self.on_thought(thought)
        return thought

    @property
    def busy(self) -> bool:
        """Every worker is taken (a thought or other work waits for one, or would)."""
        return self._free.locked()

    async def run(self, timeout: float, work: Callable[..., T], *args: Any) -> T:
        """`work(*args)` in a worker once one is free, as a thought takes one (so thoughts and
        other work, a game's review, take turns); TimeoutError past `timeout` seconds of work
        and BrokenProcessPool if the worker died (either way the pool is rebuilt)."""
        async with self._free:
            pool = await self._executor()
            future = asyncio.get_running_loop().run_in_executor(pool, work, *args)
            try:
                return await asyncio.wait_for(future, timeout)
            except (TimeoutError, BrokenProcessPool):
                self._rebuild()
                raise

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
