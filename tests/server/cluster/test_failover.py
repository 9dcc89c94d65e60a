"""kill -9 of the node running a table: another node claims it within the lease time, rebuilds
it from the stream, and play goes on with every acknowledged move kept."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path

from harena.server.cluster.natsd import LocalNats, free_port
from tests.server.players import new_key
from tests.server.test_ssh_server import create_table
from tests.sshscreen import ScreenClient

LEASE = 2.0
REPO = Path(__file__).resolve().parents[3]
NODE_MAIN = (  # harena's own command, with the tests' High Card game registered
    "import sys; from tests import fixture_game; fixture_game.install(); "
    "from harena.server.commands.cli import main; sys.exit(main(sys.argv[1:]))"
)


def start_node(
    tmp_path: Path, nats: LocalNats, name: str, *options: str
) -> tuple[subprocess.Popen, int]:
    """`harena serve --cluster` as its own process, on a free port (and `options`)."""
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-c",
            NODE_MAIN,
            "serve",
            "--port",
            str(port),
            "--keys",
            str(tmp_path / "keys"),
            "--data",
            str(tmp_path / f"data-{name}"),
            "--cluster",
            nats.url,
            "--node",
            name,
            "--lease-time",
            str(LEASE),
            *options,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        cwd=REPO,
    )
    assert process.stdout is not None
    said = []
    for line in process.stdout:  # the server says when it listens
        said.append(line)
        if b"listening on" in line:
            # Its log lines name the node (several nodes' logs end up side by side).
            assert any(f"[{name}] INFO".encode() in x and b"joined" in x for x in said), said
            return process, port
    raise AssertionError(f"node {name} did not start (exit {process.wait()})")


async def connect(port: int, name: str, key) -> ScreenClient:
    return await ScreenClient.connect(port, username=name, agent_path=None, client_keys=[key])


async def test_a_killed_owner_s_table_resumes_on_another_node_with_nothing_lost(
    tmp_path, nats_server, make_node
):
    b = await make_node("b", lease=LEASE)  # (it makes the cluster's host key)
    process, port = start_node(tmp_path, nats_server, "a")
    try:
        ann_key, bob_key = new_key(), new_key()
        ann = await connect(port, "ann", ann_key)
        await create_table(ann)
        bob = await connect(port, "bob", bob_key)
        await bob.wait_for_text("High Card")
        bob.send("\r")
        await ann.wait_for_text("bob")
        ann.send("1")  # acknowledged once ann's screen shows it
        await ann.wait_for_text("you play")
        acknowledged = next(line for line in ann.lines() if "you play" in line).strip()
        await asyncio.sleep(LEASE / 2)
        assert b.cluster.tables_held() == []  # a renews its lease: nobody else runs table 1

        process.kill()  # kill -9
        killed = time.monotonic()
        while b.cluster.tables_held() != ["1"]:
            assert time.monotonic() - killed < 3 * LEASE, "table 1 was never claimed"
            await asyncio.sleep(0.05)
        took = time.monotonic() - killed
        assert took <= LEASE * 7 / 6 + 0.5  # the lease lapses, the next scan claims it
        await ann.wait_closed()  # their connections were on the dead node

        ann = await connect(b.port, "ann", ann_key)
        bob = await connect(b.port, "bob", bob_key)
        await ann.wait_for_text("you: ann")
        await ann.wait_for_text(acknowledged)  # the acknowledged move survived
        await bob.wait_for_text("you: bob")
        bob.send("1")  # and play goes on
        await ann.wait_for_text("Round 2")
        table = b.lobby.table("1")
        assert [action.seat for action in table.game.actions] == [0, 1]
    finally:
        process.kill()
        process.wait()


async def test_a_node_restarted_under_its_name_takes_its_table_and_the_other_node_s_screens_follow(
    tmp_path, nats_server, make_node
):
    """kill -9 of node a (running the table), then a started again under the same name (as
    `--workers` does) claims it. bob, whose session is on node b, keeps his screen: it shows
    his next move, and a shows him connected (a new process knew nothing of his screen)."""
    b = await make_node("b", lease=LEASE)
    process, port = start_node(tmp_path, nats_server, "a")
    try:
        ann_key, bob_key = new_key(), new_key()
        ann = await connect(port, "ann", ann_key)
        await create_table(ann)
        bob = await connect(b.port, "bob", bob_key)
        await bob.wait_for_text("High Card")
        bob.send("\r")
        await ann.wait_for_text("bob")
        ann.send("1")
        await bob.wait_for_text("plays a card")
        b.cluster.draining = True  # b claims nothing: the restarted a must take the table
        first_run = b.lobby.tables["1"]._owner_run
        process.kill()
        process.wait()
        process, port = start_node(tmp_path, nats_server, "a")
        began = time.monotonic()
        while b.lobby.tables["1"]._owner_run == first_run:  # the new a claims the table
            assert time.monotonic() - began < 3 * LEASE, "the restarted node never claimed it"
            await asyncio.sleep(0.05)
        assert b.lobby.tables["1"]._owner_run[0] == "a"
        ann = await connect(port, "ann", ann_key)
        await ann.wait_for_text("you: ann", timeout=5 * LEASE)
        bob.send("1")  # bob plays through b, on the table a runs again
        await bob.wait_for_text("Round 2", timeout=5 * LEASE)
        await ann.wait_for_text("Round 2")
        assert "offline" not in ann.screen_text()
        assert not bob.closed
    finally:
        process.kill()
        process.wait()
