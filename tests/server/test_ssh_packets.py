"""The server sends one SSH packet per screen update: no empty SSH_MSG_IGNORE before each
(server/transport/ssh_packets.py), while the screen still arrives whole."""

from __future__ import annotations

from typing import Any

from asyncssh.connection import SSHClientConnection
from asyncssh.constants import MSG_IGNORE

from tests.server.session_apps import serve
from tests.sshscreen import ScreenClient


def count_ignores(client: ScreenClient) -> list[int]:
    """Count the SSH_MSG_IGNORE packets the client's connection receives from now on."""
    conn: Any = client._conn
    assert isinstance(conn, SSHClientConnection)
    counted = [0]
    handlers = type(conn)._packet_handlers
    handle = handlers[MSG_IGNORE]

    def process_ignore(self: Any, *args: Any) -> None:
        counted[0] += 1
        handle(self, *args)

    # asyncssh dispatches through a class-level table: this connection gets its own.
    conn._packet_handlers = {**handlers, MSG_IGNORE: process_ignore}
    return counted


async def test_screen_updates_come_without_ignore_packets(tmp_path):
    async with serve(tmp_path) as (port, _recorder):
        client = await ScreenClient.connect(port, username="alice")
        await client.wait_for_text("user=alice")
        ignores = count_ignores(client)
        before = client.bytes_received
        client.send("abc")
        await client.wait_for_text("keys: a b c")
        await client.wait_quiet(0.2)
        assert client.bytes_received > before  # the keys were echoed: packets did arrive
        assert ignores[0] == 0
        await client.close()
