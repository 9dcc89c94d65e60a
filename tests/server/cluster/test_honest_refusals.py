"""A refused key says only what is known, and the screen then shows the truth: "nothing was
saved" only when nothing was sent; "may have been done" when an answer never came, after which
the screen shows whether it was; a refusal for a stale screen redraws it from the owner."""

from __future__ import annotations

import asyncio
import logging

from tests.server.players import new_key, player
from tests.server.test_ssh_server import create_table


async def two_seated(owner, other):
    """ann on `owner` made table 1; bob, on `other`, sat at it."""
    ann = await player(owner, "ann", new_key())
    await create_table(ann)
    bob = await player(other, "bob", new_key())
    await bob.wait_for_text("High Card")
    bob.send("\r")
    await bob.wait_for_text("you: bob")
    await ann.wait_for_text("bob")
    return ann, bob


def no_tracebacks(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


async def test_a_key_on_the_owning_node_while_nats_is_away_says_nothing_was_saved(
    make_node, nats_server, caplog
):
    a = await make_node("a", lease=10.0)  # the outage is shorter than the lease
    ann, _ = await two_seated(a, a)
    nats_server.stop()
    while a.cluster.link.connected.is_set():
        await asyncio.sleep(0.02)

    ann.send("1")
    await ann.wait_for_text("unreachable: nothing was saved")
    assert "internal error" not in ann.screen_text()
    assert a.lobby.table("1").game.actions == []
    assert no_tracebacks(caplog) == []  # an outage is expected: no ERROR, no traceback
    nats_server.start()


async def test_a_move_whose_save_was_not_confirmed_may_have_been_made_and_the_screen_shows_it(
    make_node, caplog
):
    """The owner's append reaches JetStream but its acknowledgement never comes back: the
    player is not told "nothing was saved" (it was), and once the node finds the record in the
    stream, the table is rebuilt with the move and the screen shows it."""
    a = await make_node("a", lease=1.0)
    ann, _ = await two_seated(a, a)
    js = a.cluster.link.js
    publish = js.publish

    async def ack_lost(subject, *args, **kwargs):
        ack = await publish(subject, *args, **kwargs)
        if subject != "harena.table.1.log":
            return ack
        js.publish = publish  # once
        raise TimeoutError

    js.publish = ack_lost
    ann.send("1")
    await ann.wait_for_text("may have been made")
    assert "nothing was" not in ann.screen_text()
    await ann.wait_for_text("you play", timeout=10)  # the stream has it: so does her screen
    assert len(a.lobby.table("1").game.actions) == 1
    assert no_tracebacks(caplog) == []


async def test_a_stale_screen_refused_its_key_is_redrawn_from_the_owner(make_node):
    """bob's screen, on b, stopped hearing table 1's views (as after an owner that knows
    nothing of it: a takeover b did not hear of, a NATS restart). His move is made but not
    shown; his next key is refused as stale, and his screen is drawn again from the owner."""
    a = await make_node("a")
    b = await make_node("b")
    ann, bob = await two_seated(a, b)
    watchers = a.cluster.host._watchers["1"]
    for sub, _ in watchers.values():
        sub.close()
    watchers.clear()  # a no longer sends bob's views to b

    bob.send("1")  # made, but his screen is not told
    await bob.wait_for_text("You chose")
    assert [action.seat for action in a.lobby.table("1").game.actions] == [1]
    assert "you play" not in bob.screen_text()
    bob.send("1")  # stale: refused ...
    await bob.wait_for_text("moved on since your screen was drawn")
    await bob.wait_for_text("you play", timeout=5)  # ... and his screen shows his move
    ann.send("1")
    await bob.wait_for_text("revealed", timeout=5)  # and views come again
