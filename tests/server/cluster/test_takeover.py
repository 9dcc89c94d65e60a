"""One server per table, whatever moved it: after a takeover one request on a table's subject
gets one answer (the new owner's), and a node whose lease lapsed answers nothing for the table
(a stale subscription next to the real owner's would tell players their moves failed)."""

from __future__ import annotations

import asyncio

from harena.core.lobby import MOVED
from tests.server.cluster.answers import answers_to_one_request


async def until(condition, timeout: float = 10.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.02)


async def test_a_table_taken_over_is_served_once(make_node, make_link):
    a = await make_node("a")
    b = await make_node("b")
    a.lobby.create_table("key-ann", "ann", "highcard", 2)
    probe = make_link("probe")
    assert len(await answers_to_one_request(probe, "1")) == 1  # a, which made it

    a.cluster.give_up("1", MOVED)  # released: b may claim it
    a.cluster.draining = True  # (and a does not claim it back)
    await until(lambda: b.cluster.claim_free() == ["1"] or b.cluster.tables_held() == ["1"])
    await b.cluster.link.acall(b.cluster.link.nc.flush)  # (b subscribes without waiting)
    assert len(await answers_to_one_request(probe, "1")) == 1  # b, once
    assert len(b.cluster.host._nats_subs) == 1

    b.cluster.host.serve(b.lobby.table("1"))  # serving a table served already changes nothing
    assert len(await answers_to_one_request(probe, "1")) == 1


async def test_a_node_whose_lease_lapsed_answers_nothing_for_the_table(make_node, make_link):
    """Node a stops renewing (as if paused): b takes the table. Until a notices, its
    subscription is still there, but it must not answer: one answer, b's."""
    a = await make_node("a", lease=1.0)
    b = await make_node("b", lease=1.0)
    a.lobby.create_table("key-ann", "ann", "highcard", 2)
    a.cluster._task.cancel()  # a renews no more and notices nothing
    await until(lambda: b.cluster.tables_held() == ["1"])
    assert "1" in a.cluster.host.tables  # a still believes it runs it

    answers = await answers_to_one_request(make_link("probe"), "1")
    assert answers == [{"ok": True}]


async def test_a_bot_of_a_node_that_lost_its_table_logs_no_error(make_node, caplog):
    """A paused node's bot wakes and moves: its append is fenced (another node runs the table
    now). An expected event: a warning, no traceback."""
    a = await make_node("a", lease=1.0, bot_delay=60.0)  # the bot moves only when told here
    b = await make_node("b", lease=1.0)
    table = a.lobby.create_table("key-ann", "ann", "highcard", 2, bots=1)
    a.cluster._task.cancel()  # as if paused: a renews nothing and notices nothing
    await until(lambda: b.cluster.tables_held() == ["1"])
    assert table.bots_to_move()
    a.bots._pending.pop("1").cancel()
    a.bots._pending["1"] = asyncio.get_running_loop().call_later(60, lambda: None)

    a.bots._move(table)  # the bot's move now: fenced out

    await until(lambda: a.cluster.tables_held() == [])  # a let the table go
    assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == []
    assert not [r for r in caplog.records if r.exc_info]
