"""Play again and seats kept for a friend over SSH (core/table/rematch.py, core/table/kept.py):
real SSH clients at 80x24 read through pyte. The first game is played to its end through the
table's API (quick, seeded by the server); everything after it, the players do by keys."""

from __future__ import annotations

import pytest

from harena.core.clocks import ClockPolicy
from harena.core.table.options import TableOptions
from harena.server.transport.hostkey import fingerprint
from tests.core.test_rematch import play_out
from tests.server.players import new_key, player
from tests.sshscreen import ScreenClient

POLICY = ClockPolicy(per_decision=600, bank=1800, window=0)  # carried to the rematch


async def play_again(client: ScreenClient, yes: bool = True, *, last: bool = False) -> None:
    """The player answers "play again?" from the end-of-game panel, by its key and the dialog's
    (the `last` to answer opens the rematch: nobody is waited for any more)."""
    await client.wait_for_text("m play again?")
    client.send("m")
    await client.wait_for_text("Play again?")
    client.send("y" if yes else "n")
    if not last:
        await client.wait_for_text("play again: yes" if yes else "play again: no")


async def test_both_players_play_again_and_the_rematch_carries_every_setting(make_server):
    server = await make_server(bot_delay=0)
    ann_key, bob_key = new_key(), new_key()
    ann_id, bob_id = fingerprint(ann_key), fingerprint(bob_key)
    options = {"sudden_death": "10", "gladiators": "by_seat"}
    old = server.lobby.create_table(ann_id, "ann", "carthage", 2, options, policy=POLICY)
    old.sit(bob_id, "bob")
    play_out(old)
    ann = await player(server, "ann", ann_key, command=f"table {old.id}")
    bob = await player(server, "bob", bob_key, command=f"table {old.id}")
    await play_again(ann)
    assert "waiting for bob" in ann.screen_text()
    await play_again(bob, last=True)
    await bob.wait_until(lambda: bool(old.rematch.next_table), 5, "the rematch")
    new_id = old.rematch.next_table
    assert new_id
    new = server.lobby.run_here[new_id]
    for client in (ann, bob):  # both carried to the new table
        await client.wait_for_text(f"Table {new_id}")
    assert [s.identity for s in new.seats] == [bob_id, ann_id]  # one seat further on
    assert new.game.config.options == old.game.config.options
    assert new.policy == POLICY and new.table_options == old.table_options
    assert new.status == "playing" and new.game.config.seed != old.game.config.seed
    await ann.close()
    await bob.close()


@pytest.mark.parametrize("declined", ["bot", "free"])
async def test_a_player_who_declines_leaves_a_bot_or_a_free_seat_as_the_creator_chose(
    make_server, declined
):
    server = await make_server(bot_delay=0)
    keys = [new_key() for _ in range(3)]
    ids = [fingerprint(k) for k in keys]
    options = {"length": "quick", "round_limit": "10"}
    old = server.lobby.create_table(
        ids[0], "ann", "spartacus", 3, options, policy=POLICY,
        table_options=TableOptions(declined=declined),
    )  # fmt: skip
    old.sit(ids[1], "bob")
    old.sit(ids[2], "cat")
    play_out(old)
    ann, bob, cat = [
        await player(server, name, key, command=f"table {old.id}")
        for name, key in zip(("ann", "bob", "cat"), keys, strict=True)
    ]
    await play_again(ann)
    await play_again(cat, yes=False)
    await play_again(bob, last=True)
    await bob.wait_until(lambda: bool(old.rematch.next_table), 5, "the rematch")
    new = server.lobby.run_here[old.rematch.next_table or ""]
    await ann.wait_for_text(f"Table {new.id}")
    await cat.wait_for_text(f"rematch: table #{new.id}")  # told, not carried
    # ann 0 -> 1, bob 1 -> 2, cat's seat (2 -> 0) a bot of the stand-in's level, or free
    assert [s.identity for s in new.seats] == [None, ids[0], ids[1]]
    if declined == "bot":
        assert new.seats[0].bot == new.stand_in_kind and new.status == "playing"
    else:
        assert new.seats[0].free and new.status == "waiting"
        await ann.wait_for_text("waiting")
    assert new.game.config.options == old.game.config.options and new.policy == POLICY
    for client in (ann, bob, cat):
        await client.close()


async def test_a_kept_seat_is_played_by_a_bot_until_the_friend_sits_in_it(make_server):
    server = await make_server(bot_delay=0)
    ann_key, bob_key, cat_key = new_key(), new_key(), new_key()
    bob = await player(server, "bob", bob_key)  # online: the form offers his name
    await bob.wait_for_text("Tables")
    ann = await player(server, "ann", ann_key)
    await ann.wait_for_text("Tables")
    ann.send("n")
    await ann.wait_for_text("New table")
    ann.send("\x1b[A\x1b[A\x1b[A")  # up thrice: from Game round to "Keep a seat for"
    await ann.wait_for_text("> Keep a seat for < nobody >")
    ann.send("\x1b[C")
    await ann.wait_for_text("> Keep a seat for < bob >")
    ann.send("\r")  # Carthage for two: the kept seat's bot plays at once
    await ann.wait_for_text("Table 1 · Carthage")
    table = next(iter(server.lobby.run_here.values()))
    assert table.seats[1].kept_for == fingerprint(bob_key) and table.seats[1].bot is not None
    await bob.wait_for_text("FOR YOU")
    cat = await player(server, "cat", cat_key)
    await cat.wait_for_text("[bob]")
    cat.send("\r")
    await cat.wait_for_text("no free seat")  # the only other seat is bob's
    bob.send("\r")
    await bob.wait_until(lambda: "you:" in bob.lines()[0] and "bob" in bob.lines()[0], 5, "seated")
    assert table.seat_of(fingerprint(bob_key)) == 1 and table.seats[1].bot is None
    assert table.seats[1].kept_for is None
    for client in (ann, bob, cat):
        await client.close()


async def test_an_answer_given_before_a_restart_counts_after_it(make_server):
    server = await make_server(bot_delay=0, data="restart")
    ann_key, bob_key = new_key(), new_key()
    ann_id, bob_id = fingerprint(ann_key), fingerprint(bob_key)
    old = server.lobby.create_table(ann_id, "ann", "carthage", 2, {"sudden_death": "10"})
    old.sit(bob_id, "bob")
    play_out(old)
    ann = await player(server, "ann", ann_key, command=f"table {old.id}")
    await play_again(ann)
    await ann.close()
    await server.stop()
    again = await make_server(bot_delay=0, data="restart")
    assert again.lobby.run_here[old.id].rematch.answers == {0: True}
    bob = await player(again, "bob", bob_key, command=f"table {old.id}")
    await bob.wait_for_text("m play again? (ann said yes)")  # ann's yes is still there
    await play_again(bob, last=True)
    await bob.wait_until(lambda: f"Table {int(old.id) + 1}" in bob.lines()[0], 5, "the rematch")
    new = again.lobby.run_here[str(int(old.id) + 1)]
    assert [s.identity for s in new.seats] == [bob_id, ann_id]
    await bob.close()
