"""Players' terminals for the SSH end-to-end tests: a real asyncssh client with a PTY whose
screen is read through pyte (tests/sshscreen.py)."""

from __future__ import annotations

import asyncssh

from harena.server.ssh_server import HarenaServer
from tests.sshscreen import ScreenClient


async def player(
    server: HarenaServer, name: str, key: asyncssh.SSHKey | None = None, **options
) -> ScreenClient:
    """A player's terminal: xterm-256color, 80x24, logged in with `key`, or as a guest without
    one (asyncssh's client only tries keyboard-interactive when it has a password to offer)."""
    auth = {"client_keys": [key]} if key else {"client_keys": [], "password": "-"}
    return await ScreenClient.connect(server.port, username=name, agent_path=None, **auth, **options)


def new_key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")
