"""A table moves to the node most of its players are connected to (docs/cluster.md, table
affinity): nothing acknowledged is lost, and their screens follow it in place."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import pytest

from bench.ssh_load import connect, make_keys
from bench.tally_game import install as install_tally
from harena.core.engine import unregister
from harena.core.table import Table
from harena.server.cluster.table_store import JetStreamTables
from harena.server.transport.hostkey import fingerprint
from tests.server.cluster.test_notices import until
from tests.server.players import new_key, player


async def test_a_table_moves_to_the_node_its_players_are_on_and_their_screens_follow(
    make_node, make_link
) -> None:
    a = await make_node("a", affinity=1.0)
    b = await make_node("b", affinity=1.0)
    ann_key, bob_key = new_key(), new_key()
    ann_id, bob_id = fingerprint(ann_key), fingerprint(bob_key)
    table = a.lobby.create_table(ann_id, "ann", "highcard", 2)  # run by a
    table.sit(bob_id, "bob")
    ann = await player(b, "ann", ann_key)  # both players on b
    bob = await player(b, "bob", bob_key)
    for client, name in ((ann, "ann"), (bob, "bob")):
        await client.wait_for_text("High Card")
        client.send("\r")  # open their table (through a, at first)
        await client.wait_for_text(f"you: {name}")
    ann.send("1")  # a move made while a runs it
    await ann.wait_for_text("you play")

    await until(lambda: b.cluster.tables_held() == [table.id], "the table moved to b")
    assert a.cluster.tables_held() == []
    await until(
        lambda: all(isinstance(s._app.screen.table, Table) for s in b.all_sessions()),
        "the screens on b on the table itself, not through NATS",
    )
    assert "you play" in ann.screen_text()  # the same screen: never back in the lobby

    bob.send("1")  # played on b, where the table runs now
    await ann.wait_for_text("revealed")
    moved = b.lobby.table(table.id)
    assert [action.seat for action in moved.game.actions] == [0, 1]
    stream = JetStreamTables(make_link("reader"), node="reader").read(table.id)
    assert stream.count == moved.records.count  # nothing lost, nothing written twice


async def test_a_table_split_evenly_between_nodes_stays_where_it_is(make_node) -> None:
    a = await make_node("a", affinity=0.5)
    b = await make_node("b", affinity=0.5)
    ann_key, bob_key = new_key(), new_key()
    table = a.lobby.create_table(fingerprint(ann_key), "ann", "highcard", 2)
    table.sit(fingerprint(bob_key), "bob")
    ann = await player(a, "ann", ann_key)  # one player on each node
    bob = await player(b, "bob", bob_key)
    for client, name in ((ann, "ann"), (bob, "bob")):
        await client.wait_for_text("High Card")
        client.send("\r")
        await client.wait_for_text(f"you: {name}")
    await asyncio.sleep(3.0)  # several of a's lease renewals, each a look at where they are
    assert a.cluster.tables_held() == [table.id] and b.cluster.tables_held() == []


@pytest.fixture
def tally() -> Iterator[None]:
    """The benchmarks' endless Tally game, registered for one test only (the lobby's game list
    is everyone's)."""
    install_tally()
    yield
    unregister("tally")


async def test_tables_moving_while_their_players_connect_leave_no_screen_behind(
    make_node, tally
) -> None:
    """Players of five-seat tables connect at once, each to either node, while the tables move
    towards them (and back, as more arrive): a screen that opened on a table's stand-in just as
    the table moved follows it too, so every screen ends on the table its node lists, and
    every move shows on every screen. (The workload is the benchmarks' endless Tally.)"""
    a = await make_node("a", affinity=0.3, lease=1.5, max_per_ip=100)
    b = await make_node("b", affinity=0.3, lease=1.5, max_per_ip=100)
    rng = random.Random(1)
    seated: list[list[Any]] = []
    for t in range(8):
        keys = make_keys(5)
        table = (a, b)[t % 2].lobby.create_table(fingerprint(keys[0]), "p0", "tally", 5)
        for seat, key in enumerate(keys[1:], start=1):
            table.sit(fingerprint(key), f"p{seat}")
        nodes = [rng.choice((a, b)) for _ in keys]
        opened = await asyncio.gather(  # each: logged in, its table's screen shown and settled
            *(
                connect(node.port, key, f"p{s}")
                for s, (node, key) in enumerate(zip(nodes, keys, strict=True))
            )
        )
        seated.append([client for client, _, _ in opened])
    await asyncio.sleep(3.0)  # the last moves, and the screens following them

    for node in (a, b):
        for session in node.all_sessions():
            shown = session._app.screen.table
            assert node.lobby.tables.get(shown.id) is shown, (node.cluster.name, shown.id)
    for clients in seated:
        clients[0].send("1")
        for client in clients:
            await client.wait_until(
                lambda c=client: "total: 1" in c.screen_text(), 10, "the move everywhere"
            )
