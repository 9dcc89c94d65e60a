"""harena servers joined in a cluster, played through real SSH clients read with pyte."""

from __future__ import annotations

import asyncio

from tests.server.players import new_key, player
from tests.server.test_ssh_server import create_table


async def test_a_node_that_stops_hands_its_tables_to_another_where_the_player_sits_again(
    make_node,
):
    a = await make_node("a")
    b = await make_node("b")
    key = new_key()
    ann = await player(a, "ann", key)
    await create_table(ann)
    bob = await player(a, "bob", new_key())
    await bob.wait_for_text("High Card")
    bob.send("\r")
    await ann.wait_for_text("bob")
    ann.send("1")  # ann plays a card: acknowledged, so in the stream
    await bob.wait_for_text("seat 0 plays a card")
    assert a.cluster.tables_held() == ["1"] and b.cluster.tables_held() == []

    await a.stop()  # a leaves cleanly: its lease is released, b need not wait it out
    await ann.wait_closed()
    b.cluster.claim_free()  # (or its next scan, a sixth of the lease time later)
    assert b.cluster.tables_held() == ["1"]

    again = await player(b, "ann", key)
    await again.wait_for_text("Table 1")
    await again.wait_for_text("you: ann")
    await again.wait_for_text("you play")
    table = b.lobby.table("1")
    assert [a.seat for a in table.game.actions] == [0]


async def test_every_node_serves_the_cluster_s_one_host_key(make_node):
    a = await make_node("a", keys="keys-a")
    b = await make_node("b", keys="keys-b")  # its own keys folder: a key of its own there
    assert a.fingerprint == b.fingerprint
    client = await player(b, "ann", new_key())
    await client.wait_for_text("you are ann")
    assert client._conn.get_server_host_key().get_fingerprint("sha256") == a.fingerprint


async def test_a_node_never_tries_to_claim_the_tables_a_live_node_runs(make_node, monkeypatch):
    """The claim scan runs every sixth of the lease time on every node; a table whose owner
    keeps renewing its lease is not even tried (each try is a round trip to NATS)."""
    from harena.server.cluster.lease import KvLease

    a = await make_node("a", lease=2.0)
    b = await make_node("b", lease=2.0)
    ann = await player(a, "ann", new_key())
    await create_table(ann)
    while "1" not in b.lobby.tables:
        await asyncio.sleep(0.02)
    tried: list[str] = []
    real = KvLease.aclaim

    async def counting(self: KvLease) -> bool:
        if self.leases is b.cluster.leases:
            tried.append(self.name)
        return await real(self)

    monkeypatch.setattr(KvLease, "aclaim", counting)
    await asyncio.sleep(2 * 2.0)  # a dozen of b's scans
    b.cluster.claim_free()
    assert [name for name in tried if name.isdigit()] == []  # (not the notice sender's lease)
    assert a.cluster.tables_held() == ["1"]
