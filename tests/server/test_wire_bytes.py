"""Bytes on the wire for real SSH clients: only changed cells are sent, and the client's screen
is still exactly what the app renders. Bounds are generous (the machine is noisy, sizes vary
with names and cards); the measured figures are in the comments."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import pytest

from harena.server.common.limits import ServerLimits
from harena.server.service.ssh_server import HarenaServer, ServerConfig
from harena.server.transport.hostkey import fingerprint
from harena.server.transport.session import live_sessions
from tests.sshscreen import ScreenClient
from tests.tui.harness import screen_text

NAMES = ("ann", "bob", "cat")


@pytest.fixture
async def seated(tmp_path: Path) -> AsyncIterator[tuple[HarenaServer, list[ScreenClient]]]:
    """A High Card table of three, every seat taken by a connected SSH player at 80x24."""
    server = HarenaServer(
        ServerConfig(
            port=0, keys_dir=tmp_path / "keys", data_dir=tmp_path / "data", limits=ServerLimits()
        )
    )
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in NAMES]
    table = server.lobby.create_table(fingerprint(keys[0]), NAMES[0], "highcard", len(NAMES))
    for seat, (name, key) in enumerate(zip(NAMES[1:], keys[1:], strict=False), start=1):
        table.sit(fingerprint(key), name, seat)
    await server.start()
    clients: list[ScreenClient] = []
    try:
        for name, key in zip(NAMES, keys, strict=False):
            client = await ScreenClient.connect(
                server.port, username=name, client_keys=[key], agent_path=None
            )
            await client.wait_for_text("Table 1")
            clients.append(client)
        for client in clients:
            await client.wait_until(lambda c=client: "online" in c.screen_text(), 5, "seats")
        await asyncio.gather(*(client.wait_quiet(0.3) for client in clients))
        yield server, clients
    finally:
        for client in clients:
            await client.close()
        await server.stop()


def app_screen(name: str) -> list[str]:
    """What the server-side app of `name` renders, line by line."""
    for session in live_sessions():
        if session.info is not None and session.info.username == name and session._app is not None:
            return [line.rstrip() for line in screen_text(session._app).splitlines()]
    raise AssertionError(f"no live session for {name}")


async def test_a_remote_move_sends_only_the_changed_cells(seated) -> None:
    _server, (ann, bob, cat) = seated
    for client in (ann, bob, cat):
        # First screen with the seat updates of the others connecting: ~1.3-2 KB (9 KB before).
        assert client.bytes_received < 5000, client.bytes_received
    before = [bob.bytes_received, cat.bytes_received]
    ann.send("1")
    for watcher in (bob, cat):
        await watcher.wait_for_text("seat 0 plays a card")
    await asyncio.gather(*(client.wait_quiet(0.3) for client in (ann, bob, cat)))
    sent = [bob.bytes_received - before[0], cat.bytes_received - before[1]]
    # A log line, a seat's state, the board: ~150-250 B (2.8 KB when widgets were repainted whole).
    assert max(sent) < 800, sent
    for name, client in zip(NAMES, (ann, bob, cat), strict=False):
        assert client.lines() == app_screen(name)


async def test_screens_stay_exact_through_moves_chat_and_screen_switches(seated) -> None:
    _server, (ann, bob, cat) = seated
    bob.send("c")
    await bob.wait_for_text("Enter sends")
    bob.send("wide 世界 characters, and a line long enough to wrap in the chat panel\r\x1b")
    await cat.wait_for_text("bob: wide")
    cat.send("?")  # a modal over the table while the others play
    await cat.wait_for_text("Keys: table")
    for client in (ann, bob):
        client.send("1")
    await asyncio.gather(*(client.wait_quiet(0.4) for client in (ann, bob, cat)))
    assert cat.lines() == app_screen("cat")
    cat.send("\x1b")
    await cat.wait_until(lambda: "Keys: table" not in cat.screen_text(), 5, "help closed")
    for _ in range(2):
        for client in (ann, bob, cat):
            client.send("1")
        await asyncio.sleep(0.3)
    cat.send("\x1b")  # to the lobby and back
    await cat.wait_for_text("Tables")
    before = cat.bytes_received
    cat.send("\r")
    await cat.wait_for_text("Table 1")
    await asyncio.gather(*(client.wait_quiet(0.4) for client in (ann, bob, cat)))
    assert cat.bytes_received - before < 4000  # a screen switch: ~1 KB
    for name, client in zip(NAMES, (ann, bob, cat), strict=False):
        assert client.lines() == app_screen(name), name
    idle = [client.bytes_received for client in (ann, bob, cat)]
    await asyncio.sleep(1.0)
    assert [client.bytes_received for client in (ann, bob, cat)] == idle  # idle: nothing
