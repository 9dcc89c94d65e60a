"""Search bots think in worker processes (issue 27): the loop goes on meanwhile, a dead or
overrunning worker falls back to the heuristic bot for that decision (logged), a thought the
game moved past is thought again, and a table of search bots plays to the end."""

from __future__ import annotations

import asyncio
import logging

import pytest

from harena.core.engine import new_game
from harena.core.lobby import Lobby
from harena.core.search.bot import SearchBot
from harena.core.table import Table
from harena.server.runners.bot_runner import BotRunner
from harena.server.runners.bot_workers import BotWorkers


def _position():
    """A Carthage game where the seat to move has several choices."""
    game = new_game("carthage", 2, 3)
    while sum(len(p.choices) for p in game.prompts_for(game.awaited()[0])) < 2:
        seat = game.awaited()[0]
        game.act(seat, game.prompts_for(seat)[0].choices[0].id)
    return game


def _legal(game, seat: int) -> set[str]:
    return {c.id for p in game.prompts_for(seat) for c in p.choices}


async def test_a_thought_comes_from_a_worker_while_the_loop_goes_on() -> None:
    game = _position()
    seat = game.awaited()[0]
    workers = BotWorkers(1, seconds=0.3)
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.01)

    running = asyncio.ensure_future(ticker())
    try:
        thought = await workers.decide(game, seat, SearchBot(7))
    finally:
        running.cancel()
        workers.close()
    assert thought.fell_back is None and thought.choice in _legal(game, seat)
    assert ticks >= 5  # the loop ran other work while the bot thought


async def test_an_overrunning_worker_falls_back_to_the_heuristic_and_is_replaced(
    caplog: pytest.LogCaptureFixture,
) -> None:
    game = _position()
    seat = game.awaited()[0]
    workers = BotWorkers(1, seconds=0.5)
    workers.grace = -0.49  # the table's cap comes before the thought can
    bot = SearchBot(7)
    try:
        with caplog.at_level(logging.WARNING):
            late = await workers.decide(game, seat, bot)
        workers.grace = 0.5
        again = await workers.decide(game, seat, bot)
    finally:
        workers.close()
    assert late.fell_back == "timeout" and late.choice == SearchBot(7).choose(game.view(seat))
    assert "fell back to the heuristic bot (timeout)" in caplog.text
    assert again.fell_back is None and again.choice in _legal(game, seat)


async def test_a_worker_that_dies_mid_thought_falls_back_to_the_heuristic() -> None:
    game = _position()
    seat = game.awaited()[0]
    workers = BotWorkers(1, seconds=1.5)
    bot = SearchBot(7)
    try:
        await workers.start()
        thinking = asyncio.ensure_future(workers.decide(game, seat, bot))
        await asyncio.sleep(0.3)
        pool = workers._pool
        assert pool is not None
        for process in list(pool._processes.values()):
            process.kill()
        thought = await thinking
    finally:
        workers.close()
    assert thought.fell_back == "died" and thought.choice == SearchBot(7).choose(game.view(seat))
    assert workers.fallbacks == 1


async def test_a_table_of_search_bots_plays_on_through_the_workers() -> None:
    lobby = Lobby()
    table = Table.create("carthage", 2, 5)
    for seat in range(2):
        table.set_bot(seat, "search")
    lobby.add_table(table)
    workers = BotWorkers(2, seconds=0.1)
    await workers.start()
    runner = BotRunner(lobby, delay=0.001, workers=workers)
    try:
        for _ in range(12_000):  # a loaded machine: thoughts may overrun and fall back
            if table.game.version >= 30:
                break
            await asyncio.sleep(0.01)
    finally:
        runner.close()
    assert table.game.version >= 30


class CountingWorkers(BotWorkers):
    """Notes the move count of every position it is asked to think about."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.asked: list[int] = []

    async def decide(self, game, seat, bot, **kwargs):
        self.asked.append(game.version)
        return await super().decide(game, seat, bot, **kwargs)


async def test_a_thought_the_game_moved_past_is_dropped_and_thought_again(
    caplog: pytest.LogCaptureFixture,
) -> None:
    lobby = Lobby()
    table = Table.create("carthage", 2, 5)
    table.set_bot(0, "search")
    table.set_bot(1, "search")
    lobby.add_table(table)
    workers = CountingWorkers(1, seconds=0.4)
    await workers.start()
    runner = BotRunner(lobby, delay=0.001, workers=workers)
    try:
        for _ in range(5000):
            if runner.thinking:
                break
            await asyncio.sleep(0.002)
        assert runner.thinking == 1
        seat = table.bots_to_move()[0]
        moved = table.game.version
        table.play_bot(seat)  # the move is made on the loop while the worker thinks about it
        played = table.game.actions[moved]
        for _ in range(1000):
            if table.game.version > moved + 2:
                break
            await asyncio.sleep(0.01)
    finally:
        runner.close()
    assert table.game.actions[moved] == played  # the stale thought was not played after it
    assert workers.asked[:2] == [moved, moved + 1]  # ... but thought again, on the new position
    assert "could not move" not in caplog.text and "failed" not in caplog.text
