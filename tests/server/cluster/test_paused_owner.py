"""SIGSTOP the node running a table past its lease: another node takes the table and play goes
on; SIGCONT the first: it cannot append, gives the table up, and its player follows the table
to its new owner."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from harena.core.table import Table
from harena.server.cluster.table_store import JetStreamTables
from tests.server.cluster.test_failover import LEASE, connect, start_node
from tests.server.players import new_key
from tests.server.test_ssh_server import create_table


async def test_a_paused_owner_is_fenced_out_and_its_player_follows_the_table(
    tmp_path, nats_server, make_node, make_link
):
    b = await make_node("b", lease=LEASE)
    process, port = start_node(tmp_path, nats_server, "a")
    try:
        ann_key, bob_key = new_key(), new_key()
        ann = await connect(port, "ann", ann_key)  # on a, which runs the table
        await create_table(ann)
        bob = await connect(b.port, "bob", bob_key)  # on b
        await bob.wait_for_text("High Card")
        bob.send("\r")
        await bob.wait_for_text("you: bob")
        await ann.wait_for_text("bob")

        os.kill(process.pid, signal.SIGSTOP)  # a stops: no renewal, no answer
        paused = time.monotonic()
        while b.cluster.tables_held() != ["1"]:
            assert time.monotonic() - paused < 3 * LEASE, "table 1 was never claimed"
            await asyncio.sleep(0.05)
        bob.send("1")  # bob's screen stayed open; his move is made by b now
        await bob.wait_for_text("you play")
        assert not bob.closed
        (bob_session,) = b.all_sessions()  # his screen follows the table itself: nothing crosses
        assert isinstance(bob_session._app.screen.table, Table)

        os.kill(process.pid, signal.SIGCONT)  # a wakes up, still believing it runs table 1
        # Without a key from ann: a finds its lease gone and her screen follows the table to
        # b at once (within a renewal), showing bob's move made meanwhile.
        await ann.wait_for_text("moved between nodes: play goes on", timeout=LEASE)
        await ann.wait_for_text("seat 1 plays a card", timeout=LEASE)
        assert "you: ann" in ann.screen_text()  # her screen followed the table to b, in place
        ann.send("1")  # now through b
        await bob.wait_for_text("revealed")

        table = b.lobby.table("1")
        assert [action.seat for action in table.game.actions] == [1, 0]
        stream = JetStreamTables(make_link("reader"), node="reader").read("1")
        assert stream.count == table.records.count  # nothing from a after b's fence
    finally:
        os.kill(process.pid, signal.SIGCONT)
        process.kill()
        process.wait()


@asynccontextmanager
async def a_table_on_node_a(
    tmp_path: Path, nats_server: Any, make_node: Any
) -> AsyncIterator[tuple[Any, subprocess.Popen[bytes]]]:
    """Node b (here; nobody takes a table over during the test) and node a (a process of its
    own, to pause), running table 1, which ann created on a."""
    b = await make_node("b", lease=30.0)
    process, port = start_node(tmp_path, nats_server, "a")
    try:
        ann = await connect(port, "ann", new_key())
        await create_table(ann)
        yield b, process
    finally:
        os.kill(process.pid, signal.SIGCONT)
        process.kill()
        process.wait()


async def test_a_key_sent_to_a_paused_owner_never_stalls_the_other_players_on_the_node(
    tmp_path, nats_server, make_node
):
    """bob, on b, plays at a table a runs; a is paused (SIGSTOP), so it answers nothing for
    the 5 s a request may wait. cat, also on b, keeps a live screen meanwhile (no client slows
    others), and bob is told his choice was not made once the wait is over."""
    async with a_table_on_node_a(tmp_path, nats_server, make_node) as (b, process):
        bob = await connect(b.port, "bob", new_key())
        cat = await connect(b.port, "cat", new_key())
        await bob.wait_for_text("High Card")
        bob.send("\r")
        await bob.wait_for_text("you: bob")
        await cat.wait_for_text("2/2 seated")

        os.kill(process.pid, signal.SIGSTOP)
        sent = time.monotonic()
        bob.send("1")
        await asyncio.sleep(0.2)
        cat.send("c")  # cat chats in the lobby: her own screen, on the same node's loop
        cat.send("still here")
        await cat.wait_for_text("still here", timeout=2.0)
        assert time.monotonic() - sent < 2.0  # long before the owner's 5 s are up
        # Not "nothing was changed": the paused owner got the key, and makes the move when it
        # wakes (its lease, 30 s, has not lapsed).
        await bob.wait_for_text("no answer yet: it may have been done", timeout=10)
        assert not bob.closed

        bob.send("c")  # a line of table chat: the same, it does not hold the node up
        bob.send("anyone?\r")
        said = time.monotonic()
        await asyncio.sleep(0.2)
        cat.send(" again\r")
        await cat.wait_for_text("still here again", timeout=2.0)
        assert time.monotonic() - said < 2.0

        os.kill(process.pid, signal.SIGCONT)  # a wakes and makes bob's move: his screen shows it
        await bob.wait_for_text("you play", timeout=10)


async def test_a_silent_owner_holds_up_its_node_once_not_once_per_player(
    tmp_path, nats_server, make_node
):
    """Opening a table another node runs waits for that node's answer, and the wait holds up
    every session on this node. Once the owner (paused) let one such question time out, the
    next fail at once; once it answers again, its tables open again."""
    async with a_table_on_node_a(tmp_path, nats_server, make_node) as (b, process):
        cat = await connect(b.port, "cat", new_key())
        dan = await connect(b.port, "dan", new_key())
        await cat.wait_for_text("High Card")
        await dan.wait_for_text("High Card")

        os.kill(process.pid, signal.SIGSTOP)
        cat.send("w")  # watch table 1: asks a, which cannot answer
        await cat.wait_for_text("no answer yet", timeout=10)
        asked = time.monotonic()
        dan.send("w")  # a second player's try fails at once
        await dan.wait_for_text("cannot be reached now", timeout=2.0)
        assert time.monotonic() - asked < 2.0

        os.kill(process.pid, signal.SIGCONT)
        deadline = time.monotonic() + 10
        while "· watching" not in dan.lines()[0]:  # the table screen's title
            assert time.monotonic() < deadline, dan.screen_text()
            await asyncio.sleep(1.0)
            dan.send("w")
