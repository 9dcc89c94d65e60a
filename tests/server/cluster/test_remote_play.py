"""A player on one node plays a table another node runs, through the screen; what crosses the
wire between the nodes is exactly what each seat's local view holds."""

from __future__ import annotations

import asyncio
from typing import Any

from harena.server.cluster import wire
from harena.server.cluster.remote import RemoteTable
from tests.core.secrecy import first_difference
from tests.server.players import new_key, player
from tests.server.test_ssh_server import create_table


async def sit_from_lobby(client) -> None:
    await client.wait_for_text("High Card")
    client.send("\r")
    await client.wait_for_text("Table 1")


def wire_tap(link) -> list[tuple[str, dict[str, Any]]]:
    """Every view published between nodes, as (subject, view)."""
    seen: list[tuple[str, dict[str, Any]]] = []

    async def tap() -> None:
        async def cb(msg) -> None:
            seen.append((msg.subject, wire.unpack(msg.data)))

        await link.nc.subscribe("harena.view.>", cb=cb)
        await link.nc.flush()

    link.call(tap)
    return seen


async def test_a_player_on_one_node_plays_a_table_run_by_another(make_node, make_link):
    a = await make_node("a")
    b = await make_node("b")
    tapped = wire_tap(make_link("tap"))
    ann = await player(a, "ann", new_key())
    await create_table(ann)
    assert isinstance(b.lobby.tables.get("1") or await until(b, "1"), RemoteTable)

    bob = await player(b, "bob", new_key())
    await sit_from_lobby(bob)
    await ann.wait_for_text("bob")
    owner_table = a.lobby.table("1")
    assert owner_table.seats[1].name == "bob"
    hands = [list(h) for h in owner_table.game.state.hands]
    await bob.wait_for_text("hand: " + ", ".join(map(str, hands[1])))
    assert "hand: " + ", ".join(map(str, hands[0])) not in bob.screen_text()

    ann.send("1")
    await bob.wait_for_text("seat 0 plays a card")
    assert f"you play {hands[0][0]}" not in bob.screen_text()
    bob.send("1")  # bob's move, made on node b, run by node a
    await ann.wait_for_text(f"seat 1 {hands[1][0]}")  # revealed, round over
    await bob.wait_for_text(f"you play {hands[1][0]} face down")
    assert [action.seat for action in owner_table.game.actions] == [0, 1]

    # What crossed the wire: only seat 1's subject (bob's node shows no other seat) and
    # spectators', each message exactly a view the owner would show that seat locally.
    remote = b.lobby.table("1")
    assert set(remote._nats_subs) == {"1"}
    bob_identity = owner_table.seats[1].identity
    for _ in range(250):  # the tap hears the last view a moment after bob's node did
        if tapped and tapped[-1][1] == owner_table.view_for(bob_identity):
            break
        await asyncio.sleep(0.02)
    by_subject: dict[str, dict[str, Any]] = {}
    for subject, view in tapped:
        key = subject.rsplit(".", 1)[1]
        assert key == ("spec" if view["table"]["you"] is None else str(view["table"]["you"]))
        by_subject[key] = view
    assert set(by_subject) <= {"1", "spec"} and "1" in by_subject
    assert first_difference(by_subject["1"], owner_table.view_for(bob_identity)) is None


async def test_spectators_on_two_nodes_see_the_same_screen_byte_for_byte(make_node):
    a = await make_node("a")
    b = await make_node("b")
    ann = await player(a, "ann", new_key())
    await create_table(ann)
    bob = await player(a, "bob", new_key())
    await sit_from_lobby(bob)
    await until(b, "1")

    here = await player(a, "eve", new_key())
    there = await player(b, "eve", new_key())
    for eve in (here, there):
        await eve.wait_for_text("High Card")
        eve.send("w")
        await eve.wait_for_text("Table 1")
    ann.send("1")
    for eve in (here, there):
        await eve.wait_for_text("seat 0 plays a card")
    await asyncio.sleep(0.3)  # both quiet
    assert here.lines() == there.lines()
    assert bytes(here.screen_text(), "utf-8") == bytes(there.screen_text(), "utf-8")


async def until(node, table_id: str, timeout: float = 5.0):
    """The table as `node`'s lobby lists it, once the registry brought it there."""
    deadline = asyncio.get_running_loop().time() + timeout
    while table_id not in node.lobby.tables:
        assert asyncio.get_running_loop().time() < deadline, f"table {table_id} never listed"
        await asyncio.sleep(0.02)
    return node.lobby.tables[table_id]
