"""NATS restarted mid-game: the nodes reconnect by themselves and play goes on, nothing lost;
a move made while NATS is away is refused with a clear message and changes nothing."""

from __future__ import annotations

import asyncio

from tests.server.players import new_key, player
from tests.server.test_ssh_server import create_table


async def test_play_goes_on_after_nats_restarts_and_a_move_during_the_outage_is_refused(
    make_node, nats_server
):
    a = await make_node("a", lease=10.0)  # an outage shorter than the lease: a keeps the table
    b = await make_node("b", lease=10.0)
    ann = await player(a, "ann", new_key())
    await create_table(ann)
    bob = await player(b, "bob", new_key())
    await bob.wait_for_text("High Card")
    bob.send("\r")
    await bob.wait_for_text("you: bob")
    await ann.wait_for_text("bob")
    ann.send("1")
    await bob.wait_for_text("seat 0 plays a card")
    table = a.lobby.table("1")

    nats_server.stop()
    while a.cluster.link.connected.is_set():
        await asyncio.sleep(0.02)
    bob.send("1")  # through a's table: a cannot be reached
    await bob.wait_for_text("cannot be reached now", timeout=8)  # at most the 5 s request
    assert [action.seat for action in table.game.actions] == [0]

    nats_server.start()
    for node in (a, b):
        while not node.cluster.link.connected.is_set():
            await asyncio.sleep(0.05)
    await asyncio.sleep(0.5)
    bob.send("1")  # the same move again, now kept
    await ann.wait_for_text("revealed", timeout=10)
    await bob.wait_for_text("revealed", timeout=10)  # b hears the table's views again
    assert a.cluster.tables_held() == ["1"]
    assert [action.seat for action in a.lobby.table("1").game.actions] == [0, 1]
    a.lobby.create_table("key-cat", "cat", "highcard", 2)  # and b hears the registry again
    async with asyncio.timeout(10):
        while "2" not in b.lobby.tables:
            await asyncio.sleep(0.05)
