"""Private tables in a cluster (issue 41): the shared registry carries a table's privacy and
guest list, so every node hides it from strangers, lists it to the invited, and takes its share
code; invitations made through another node reach the owner."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from harena.core.privacy import Privacy
from harena.server.transport.hostkey import fingerprint
from tests.server.cluster.test_remote_play import until
from tests.server.players import new_key, player


async def eventually(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "never came true"
        await asyncio.sleep(0.02)


def listed(view: dict) -> list[str]:
    return [t["id"] for t in view["tables"] + view["finished"]]


async def test_every_node_hides_a_private_table_and_takes_its_code(make_node):
    a = await make_node("a")
    b = await make_node("b")
    ann, eve, cat = new_key(), new_key(), new_key()
    table = a.lobby.create_table(fingerprint(ann), "ann", "highcard", 3, privacy=Privacy())
    there = await until(b, table.id)
    assert there.privacy == table.privacy
    assert listed(b.lobby.view()) == [] and listed(b.lobby.view(fingerprint(cat))) == []
    assert listed(b.lobby.view(fingerprint(ann))) == [table.id]

    # an invitation made through node b reaches the owner, and the registry brings it back
    there.invite(fingerprint(ann), "bob-key", "bob")
    assert table.privacy is not None and table.privacy.invited == {"bob-key": "bob"}
    await eventually(lambda: listed(b.lobby.view("bob-key")) == [table.id])
    assert b.lobby.view("bob-key")["tables"][0]["invited"] is True

    # a code made on a seats its holder through b
    code = there.add_code(fingerprint(ann))
    await eventually(lambda: b.lobby.table_with_code(code) is not None)
    eve_in = await player(b, "eve", eve, command=f"join {code}")
    await eve_in.wait_for_text("you: eve")
    assert table.seat_of(fingerprint(eve)) == 1
    await eve_in.close()

    # a stranger on b is told what a missing table gets
    stranger = await player(b, "cat", cat, command=f"table {table.id}")
    await stranger.wait_closed()
    missing = await player(b, "cat", cat, command="table 9")
    await missing.wait_closed()
    assert stranger.stderr.decode().replace(table.id, "9") == missing.stderr.decode()
    await asyncio.gather(stranger.close(), missing.close())

    # revoked on b: the code fails on a too
    there.revoke_codes(fingerprint(ann))
    assert a.lobby.table_with_code(code) is None
    await eventually(lambda: b.lobby.table_with_code(code) is None)


async def test_a_private_table_taken_over_by_another_node_stays_private(make_node):
    """The new owner rebuilds the table from the stream: its guest list and codes with it."""
    from harena.core.lobby import MOVED
    from harena.core.table import Table

    a = await make_node("a")
    b = await make_node("b")
    table = a.lobby.create_table("key-ann", "ann", "highcard", 3, privacy=Privacy("nobody"))
    table.invite("key-ann", "key-bob", "bob")
    code = table.add_code("key-ann")
    await until(b, table.id)
    a.cluster.give_up(table.id, MOVED)  # released: b may claim it
    a.cluster.draining = True
    await eventually(
        lambda: table.id in b.cluster.claim_free() or table.id in b.cluster.tables_held(), 10
    )
    owned = b.lobby.tables[table.id]
    assert isinstance(owned, Table) and owned.privacy == table.privacy
    assert owned.privacy is not None and owned.privacy.holds(code)
    assert listed(b.lobby.view("key-cat")) == [] and listed(b.lobby.view("key-bob")) == [table.id]
