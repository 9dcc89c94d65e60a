"""Play again in a cluster: a player on another node answers through the table's owner, whose
lobby opens the rematch as any table (the registry lists it on every node)."""

from __future__ import annotations

from harena.server.cluster.remote import RemoteTable
from harena.server.transport.hostkey import fingerprint
from tests.core.test_rematch import play_out
from tests.server.cluster.test_remote_play import until
from tests.server.players import new_key, player


async def test_a_player_on_another_node_plays_again_and_lands_at_the_rematch(make_node):
    a = await make_node("a")
    b = await make_node("b")
    ann_key, bob_key = new_key(), new_key()
    ann_id, bob_id = fingerprint(ann_key), fingerprint(bob_key)
    old = a.lobby.create_table(ann_id, "ann", "highcard", 2, {"rounds": "2"})
    old.sit(bob_id, "bob")
    play_out(old)
    assert isinstance(await until(b, old.id), RemoteTable)
    bob = await player(b, "bob", bob_key, command=f"table {old.id}")
    await bob.wait_for_text("m play again?")
    bob.send("m")
    await bob.wait_for_text("Play again?")
    bob.send("y")  # made on node b, recorded by node a
    await bob.wait_for_text("waiting for ann")
    assert old.rematch.answers == {1: True}
    old.answer_rematch(ann_id, True)
    new_id = old.rematch.next_table
    assert new_id and new_id in a.lobby.run_here  # opened by the owner, as any table
    new = a.lobby.run_here[new_id]
    assert [s.identity for s in new.seats] == [bob_id, ann_id]
    assert new.game.config.options == {"rounds": "2"}
    await until(b, new_id)
    # carried there, once node b lists it (its owner opened it a moment before)
    await bob.wait_until(lambda: f"Table {new_id}" in bob.lines()[0], 10, "the rematch")
    await bob.close()
