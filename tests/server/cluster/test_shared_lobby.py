"""Every node's lobby shows the same people online, the same lobby chat and the same notice."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest

from harena.server.operations.admin import AdminCommands
from tests.server.players import new_key, player


async def test_people_chat_and_the_notice_are_the_same_on_every_node(make_node):
    a = await make_node("a")
    b = await make_node("b")
    ann = await player(a, "ann", new_key())
    bob = await player(b, "bob", new_key())
    for client in (ann, bob):
        await client.wait_for_text("Online (2)")
        assert "ann" in client.screen_text() and "bob" in client.screen_text()

    ann.send("c")
    await ann.wait_for_text("say>")
    ann.send("hello from a\r")
    await bob.wait_for_text("hello from a")

    AdminCommands(b).run(["notice", "back at 20:00"], "op")
    await ann.wait_for_text("back at 20:00")

    await bob.close()
    await ann.wait_for_text("Online (1)")
    c = await make_node("c")  # a node that joins later hears the notice too
    carol = await player(c, "carol", new_key())
    await carol.wait_for_text("back at 20:00")
    await carol.wait_for_text("Online (2)")


async def test_a_key_banned_on_one_node_is_refused_by_every_node(make_node):
    a = await make_node("a")
    b = await make_node("b")
    key = new_key()
    ann = await player(a, "ann", key)
    await ann.wait_for_text("you are ann")
    fingerprint = key.get_fingerprint("sha256")

    AdminCommands(b).run(["ban", fingerprint], "op")  # ann is not on b
    await ann.wait_closed()  # a closed her session
    assert "banned" in ann.stderr.decode()
    with pytest.raises(asyncssh.PermissionDenied, match="banned"):
        await player(a, "ann", key)
    assert a.bans.key_banned(fingerprint) and b.bans.key_banned(fingerprint)


async def test_the_players_of_a_node_gone_quiet_leave_the_online_list(make_node):
    """A node killed outright says nothing more (an expired KV entry is not announced): its
    players leave the other lobbies once its entry is three lease times old."""
    a = await make_node("a", lease=1.0)
    b = await make_node("b", lease=1.0)
    ann = await player(a, "ann", new_key())
    bob = await player(b, "bob", new_key())
    await bob.wait_for_text("Online (2)")
    assert a.cluster is not None and a.cluster._task is not None
    a.cluster._task.cancel()  # a stops renewing anything, as if killed (ann still connected)
    await bob.wait_for_text("Online (1)", 8)
    assert "ann" not in bob.screen_text()
    await asyncio.gather(ann.close(), bob.close())


async def test_a_node_builds_no_lobby_view_while_no_screen_shows_the_lobby(make_node, monkeypatch):
    """A node offers the tables made on it to the others on every lobby change, but builds the
    lobby's view only for the screens showing it: with every player at a table, a move at any
    table of the cluster builds none (it built one per change on every node)."""
    a = await make_node("a")
    b = await make_node("b")
    built: list[str] = []
    for node in (a, b):
        lobby = node.lobby
        view = lobby.view
        monkeypatch.setattr(
            lobby, "view", lambda lobby=lobby, view=view: [built.append("v"), view()][1]
        )
    assert a.lobby.subscriber_count == b.lobby.subscriber_count == 0
    table = a.lobby.create_table("key-ann", "Ann", "highcard", 2)
    while table.id not in b.lobby.tables:  # the registry told b
        await asyncio.sleep(0.02)
    table.sit("key-bob", "Bob")
    seat = table.game.awaited()[0]
    table.act(table.seats[seat].identity, table.game.prompts_for(seat)[0].choices[0].id)
    await asyncio.sleep(0.5)  # b hears the changes
    assert a.cluster.tables_held() == [table.id] and built == []

    ann = await player(b, "ann", new_key())  # a screen on the lobby: now it is built for it
    await ann.wait_for_text("#1")
    assert built


async def test_a_key_shows_the_name_it_first_chose_on_every_node(make_node):
    """Issue 36: one name per key, held in the players' document every node shares; the same
    key connecting to another node as `root@` is still ann there, and another key asking for
    ann on that node is ann~2."""
    a = await make_node("a")
    b = await make_node("b")
    key = new_key()
    ann = await player(a, "ann", key)
    await ann.wait_for_text("you are ann")
    await ann.close()
    await ann.wait_closed()
    again = await player(b, "root", key)
    await again.wait_for_text("you are ann")
    other = await player(b, "ann", new_key())
    await other.wait_for_text("you are ann~2")
    await asyncio.gather(again.close(), other.close())
