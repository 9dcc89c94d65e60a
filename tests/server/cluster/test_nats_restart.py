"""NATS restarted mid-game: the nodes reconnect by themselves and play goes on, nothing lost;
a move made while NATS is away is refused with a clear message and changes nothing."""

from __future__ import annotations

import asyncio
import logging

from tests.server.cluster.test_honest_refusals import two_seated
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


class LoopStalls:
    """The longest the event loop went without running a task, while started (a sampler)."""

    def __init__(self) -> None:
        self.longest = 0.0
        self._task: asyncio.Task[None] | None = None

    async def _sample(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            asked = loop.time()
            await asyncio.sleep(0.01)
            self.longest = max(self.longest, loop.time() - asked - 0.01)

    def __enter__(self) -> LoopStalls:
        self._task = asyncio.get_running_loop().create_task(self._sample())
        return self

    def __exit__(self, *_: object) -> None:
        assert self._task is not None
        self._task.cancel()


async def test_a_nats_outage_longer_than_the_lease_never_holds_the_owners_sessions(
    make_node, nats_server, caplog
):
    """NATS stays away past the lease, so the owner's lease lapses: its players' keys still get
    an answer at once ("nothing was saved"), the table stays, and once NATS is back the owner
    takes its lease again and the same key is kept. The node's loop never waits for NATS
    meanwhile (it did: up to 20 s in the claim and relisting of a lapsed lease)."""
    caplog.set_level(logging.INFO, logger="harena.server.cluster")
    a = await make_node("a")
    b = await make_node("b")
    ann, bob = await two_seated(a, a)
    b.lobby.create_table("key-dan", "dan", "highcard", 2)  # another node's table, to scan
    with LoopStalls() as stalls:
        nats_server.stop()
        while a.cluster.link.connected.is_set():
            await asyncio.sleep(0.02)
        lease = a.cluster.held["1"]
        while lease.held:  # lapsed here
            await asyncio.sleep(0.05)
        await asyncio.sleep(1.0)  # a renewal or two fail meanwhile
        ann.send("1")
        await ann.wait_for_text("unreachable: nothing was saved", timeout=10)
        assert a.lobby.table("1").game.actions == []
        assert "1" in a.lobby.run_here  # the table stays while NATS is away

        nats_server.start()
        while not a.cluster.link.connected.is_set():
            await asyncio.sleep(0.05)
        async with asyncio.timeout(10):  # taken again, fenced again
            while not any(
                (getattr(r, "event", ""), getattr(r, "table", "")) == ("lease-reclaimed", "1")
                for r in caplog.records
            ):
                await asyncio.sleep(0.05)
        ann.send("1")
        await bob.wait_for_text("seat 0 plays a card", timeout=10)
    # A generous bound for a shared machine (a stall is 10 ms here); it was 5-20 s.
    assert stalls.longest < 3.0, f"the loop stalled {stalls.longest:.1f} s"
    assert [action.seat for action in a.lobby.table("1").game.actions] == [0]
    assert a.cluster.tables_held() == ["1"]  # its own table back, not b's (b runs it again)
    assert b.cluster.tables_held() == ["2"]
