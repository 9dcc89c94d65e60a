"""A finished table's review is kept in JetStream (issue 40: "computed once"): a game weighed on
one node is shown by another without a worker of its own; a review too large for NATS, or NATS
out of reach, costs only the keeping (docs/cluster.md)."""

from __future__ import annotations

import asyncio
import logging
import os

import pytest

from harena.core.review.kept import KeptReview
from harena.core.review.turns import ReviewBudget
from harena.core.review.verdict import Busy
from harena.core.store import StoreError
from harena.server.cluster.remote import RemoteTable
from harena.server.cluster.reviews import JetStreamReviews, TooLarge
from harena.server.runners.bot_workers import BotWorkers
from harena.server.runners.reviews import NO_WORKERS, Reviews
from harena.server.transport.hostkey import fingerprint
from tests.server.players import new_key
from tests.server.test_reviews import finished
from tests.server.test_ssh_commands import run
from tests.tui.review_tables import finished_table


async def test_a_review_weighed_on_one_node_is_shown_by_another_without_its_workers(make_node):
    a = await make_node("a")
    b = await make_node("b")
    a.reviews.budget = ReviewBudget(worlds=2, depth=4)
    b.reviews.workers = None  # b cannot weigh a game: it can only find what a kept
    key = new_key()
    table = finished_table(a.lobby, "carthage", 2, identity=fingerprint(key))
    for _ in range(200):
        if isinstance(b.lobby.tables.get(table.id), RemoteTable):
            break
        await asyncio.sleep(0.05)
    seen_on_b = b.lobby.tables[table.id]
    assert isinstance(seen_on_b, RemoteTable)
    assert await b.reviews.request(seen_on_b, 0) == Busy(NO_WORKERS)  # nothing kept yet

    review = await a.reviews.request(table, 0)
    assert not isinstance(review, Busy) and review.decisions

    assert await b.reviews.kept(seen_on_b, 0) == review
    assert await b.reviews.kept(seen_on_b, 1) is None  # only ann's decisions were weighed
    told: list[tuple[int, int]] = []
    assert await b.reviews.request(seen_on_b, 0, lambda d, t: told.append((d, t))) == review
    assert told and told[-1][0] == told[-1][1]

    status, out, err = await run(b, key, f"review {table.id}")  # ann asks b, over SSH
    assert status == 0 and not err
    assert "Where it turned for you" in out and NO_WORKERS not in out


async def test_a_review_too_large_for_nats_is_not_kept_and_a_damaged_one_is_weighed_again(
    make_link,
) -> None:
    link = make_link("a")
    shelf = JetStreamReviews(link, prefix="t")
    kept = KeptReview("carthage", 9, weighed={1, 2}, complete={0})
    await shelf.write_review("7", kept.to_plain())
    assert KeptReview.from_plain(await shelf.read_review("7"), "carthage", 9) == kept
    assert await shelf.read_review("8") is None

    noise = os.urandom(1_100_000)  # more than 1 MB even compressed: more than NATS takes
    with pytest.raises(TooLarge):
        await shelf.write_review("7", {**kept.to_plain(), "noise": noise})
    assert KeptReview.from_plain(await shelf.read_review("7"), "carthage", 9) == kept

    async def damage() -> None:
        kv = await shelf._bucket()
        await kv.put("7", b"not a review")

    await link.acall(damage)
    assert await shelf.read_review("7") is None


async def test_with_nats_out_of_reach_a_review_is_shown_and_only_not_kept(
    make_link, nats_server, caplog
) -> None:
    """An expected outage: a warning in the log (no traceback), the review weighed and shown."""
    link = make_link("a")
    shelf = JetStreamReviews(link, prefix="t", timeout=0.5)
    await shelf.write_review("1", KeptReview("carthage", 9).to_plain())  # the bucket made
    nats_server.stop()
    with pytest.raises(StoreError):
        await shelf.read_review("1")
    with pytest.raises(StoreError):
        await shelf.write_review("1", KeptReview("carthage", 9).to_plain())

    workers = BotWorkers(1)
    try:
        reviews = Reviews(workers, shelf, budget=ReviewBudget(worlds=2, depth=4))
        table = finished("1", 44)
        with caplog.at_level(logging.WARNING):
            review = await reviews.request(table, 0)
    finally:
        workers.close()
    assert not isinstance(review, Busy) and review.decisions
    warned = [r for r in caplog.records if r.name == "harena.server.runners.reviews"]
    assert [r.levelno for r in warned] == [logging.WARNING, logging.WARNING]
    assert all(r.exc_info is None for r in warned)
    assert "could not be read" in warned[0].getMessage()
    assert "could not be saved" in warned[1].getMessage()
