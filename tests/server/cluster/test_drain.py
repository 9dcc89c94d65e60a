"""`harena admin nodes` and `drain NODE` from any node: the drained node's tables move to the
others with no acknowledged move lost, its sessions are told and closed, and its players land
back in their seats through another node."""

from __future__ import annotations

import asyncio

from harena.server.operations.admin import AdminCommands
from tests.server.players import new_key, player
from tests.server.test_ssh_server import create_table


async def test_nodes_lists_the_cluster_and_drain_moves_a_node_s_tables(make_node):
    a = await make_node("a")
    b = await make_node("b")
    key = new_key()
    ann = await player(a, "ann", key)
    await create_table(ann)
    bob = await player(b, "bob", new_key())
    await bob.wait_for_text("High Card")
    bob.send("\r")
    await bob.wait_for_text("you: bob")
    ann.send("1")  # acknowledged once her screen shows it
    await ann.wait_for_text("you play")
    played = next(line for line in ann.lines() if "you play" in line).strip()

    nodes = AdminCommands(b).run(["nodes"], "op")
    assert "a " in nodes and "b " in nodes and "(this one)" in nodes
    assert f"127.0.0.1:{a.port}" in nodes

    said = AdminCommands(b).run(["drain", "a"], "op")
    assert "1 tables handed over, 1 sessions closed" in said  # (bob's session is on b)
    await ann.wait_closed()
    assert "drained" in ann.stderr.decode()
    while b.cluster.tables_held() != ["1"]:
        await asyncio.sleep(0.05)
    assert a.cluster.tables_held() == [] and a.cluster.claim_free() == []  # a claims nothing

    again = await player(b, "ann", key)
    await again.wait_for_text("you: ann")
    await again.wait_for_text(played)
    assert not bob.closed  # bob, on b, played on through it all


async def test_a_table_deleted_on_a_node_that_does_not_run_it_leaves_every_lobby(make_node):
    a = await make_node("a")
    b = await make_node("b")
    ann = await player(a, "ann", new_key())
    await create_table(ann)
    while "1" not in b.lobby.tables:
        await asyncio.sleep(0.02)

    AdminCommands(b).run(["delete", "1"], "op")  # b does not run it: a does
    await ann.wait_for_text("deleted", timeout=5)
    async with asyncio.timeout(10):  # both lobbies hear of it (b through the registry's watch)
        while "1" in a.lobby.tables or "1" in b.lobby.tables or a.cluster.tables_held():
            await asyncio.sleep(0.02)
    a.cluster.claim_free()
    b.cluster.claim_free()
    assert "1" not in a.lobby.tables and "1" not in b.lobby.tables  # nobody claims it again
