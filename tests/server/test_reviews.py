"""A finished table's review and a learner's hint are weighed in the bot workers (issue 40):
progress comes back to the loop, the review is kept beside the table's records and weighed
once, a second table's request is refused politely while one runs, and a hint is refused
rather than kept waiting when every worker is busy."""

from __future__ import annotations

import asyncio
from pathlib import Path

from harena.core.engine import Game, replay
from harena.core.review import turns
from harena.core.review.turns import ReviewBudget
from harena.core.store import Store
from harena.core.table import Seat, Table
from harena.server.runners.bot_workers import BotWorkers
from harena.server.runners.reviews import BUSY_HINT, BUSY_REVIEWING, NOT_OVER, Busy, Reviews
from tests.core.review.test_turns import played

BUDGET = ReviewBudget(worlds=2, depth=8)


def finished(table_id: str, seed: int, store: Store | None = None) -> Table:
    game = played("carthage", 2, seed)
    if store is not None:
        store.create(table_id).close()  # the table's folder, as a table's first record makes
    return Table(table_id, game, [Seat(name=n) for n in ("ann", "bob")])


def in_play(game: Game) -> Table:
    return Table("5", game, [Seat(name="ann"), Seat(name="bob")])


async def test_a_review_is_weighed_in_the_workers_with_progress_and_kept_once(
    tmp_path: Path,
) -> None:
    store = Store(tmp_path)
    table = finished("3", 44, store)
    workers = BotWorkers(1)
    told: list[tuple[int, int]] = []
    try:
        reviews = Reviews(workers, store, budget=BUDGET)
        review = await reviews.request(table, 0, lambda done, total: told.append((done, total)))
        assert not isinstance(review, Busy)
        assert review.table_id == "3" and review.decisions
        assert {d.seat for d in review.decisions} == {0}
        total = told[-1][1]
        assert told[0] == (0, total) and told[-1] == (total, total) and len(told) > 2
        assert [done for done, _ in told] == sorted(done for done, _ in told)
        assert (tmp_path / "tables" / "3" / "review").exists()
        assert await reviews.kept(table, 0) == review and await reviews.kept(table, 1) is None

        # A server started afresh reads it back: nothing is weighed again.
        again = Reviews(workers, store, budget=BUDGET)
        later: list[tuple[int, int]] = []
        assert await again.kept(table, 0) == review
        assert await again.request(table, 0, lambda d, t: later.append((d, t))) == review
        assert later == [(total, total)]

        # Every seat's (the game revealed): seat 0's decisions are not weighed again.
        everyone: list[tuple[int, int]] = []
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.01)

        running = asyncio.ensure_future(ticker())
        try:
            whole = await again.request(table, None, lambda d, t: everyone.append((d, t)))
        finally:
            running.cancel()
        assert not isinstance(whole, Busy) and {d.seat for d in whole.decisions} == {0, 1}
        assert everyone[0][0] == total and everyone[-1][0] == everyone[-1][1] > total
        assert [d for d in whole.decisions if d.seat == 0] == list(review.decisions)
        assert ticks >= 5  # the loop went on while the workers weighed
    finally:
        workers.close()


async def test_another_tables_review_is_refused_while_one_runs_and_the_same_one_is_joined() -> None:
    workers = BotWorkers(1)
    first, second = finished("1", 44), finished("2", 45)
    try:
        reviews = Reviews(workers, budget=BUDGET)
        running = asyncio.ensure_future(reviews.request(first, 1))
        await asyncio.sleep(0)
        assert await reviews.request(second, 0) == Busy(BUSY_REVIEWING)
        joined = await reviews.request(first, 1)
        assert joined == await running and not isinstance(joined, Busy)
        assert reviews.running == 0
        assert not isinstance(await reviews.request(second, 0), Busy)  # free again
    finally:
        workers.close()


async def test_a_game_in_play_is_not_reviewed() -> None:
    game = played("carthage", 2, 44)
    running = replay(game.config, game.actions[:20])
    assert await Reviews(None).request(in_play(running), 0) == Busy(NOT_OVER)


async def test_a_hint_comes_from_a_worker_or_is_refused_when_they_are_busy() -> None:
    game = played("carthage", 2, 44)
    position = turns.decisions(game.config, game.actions, [0])[4]
    table = in_play(replay(game.config, game.actions[:position]))
    workers = BotWorkers(1)
    try:
        reviews = Reviews(workers)
        hint = await reviews.hint(table, 0)
        assert not isinstance(hint, Busy)
        assert (hint.choice, hint.label) in turns.offered(table.game, 0)
        async with workers._free:  # every worker taken (a bot thinking)
            assert await reviews.hint(table, 0) == Busy(BUSY_HINT)
    finally:
        workers.close()
