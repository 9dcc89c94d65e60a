"""Who a connection is (server/service/ssh_server.py PlayerConnection), checked without a network."""

from __future__ import annotations

import asyncssh

from harena.server.common.limits import ConnectionCounter, ServerLimits, StartupSlots
from harena.server.operations.operators import Bans
from harena.server.service.ssh_server import GUEST_PREFIX, PlayerConnection, ServerConfig
from harena.server.transport.hostkey import fingerprint


class FakeServer:
    """The server's bookkeeping around a connection, without a listener."""

    def __init__(self, allowed: asyncssh.SSHAuthorizedKeys | None = None) -> None:
        limits = ServerLimits()
        self.allowed_keys = allowed
        self.bans = Bans()
        self.config = ServerConfig()
        self.startups = StartupSlots(limits.max_startups, limits.max_startups_per_ip)
        self.connections = ConnectionCounter(limits.max_per_ip)
        self.identities = ConnectionCounter(limits.max_per_key)
        self.refused: dict[str, int] = {}


def key() -> asyncssh.SSHKey:
    return asyncssh.generate_private_key("ssh-ed25519")


def test_the_identity_is_the_key_that_completed_auth_not_the_first_offered():
    first, second = key(), key()
    conn = PlayerConnection(FakeServer())
    assert conn.validate_public_key("ann", first.convert_to_public())  # offered, never signed
    assert conn.validate_public_key("ann", second.convert_to_public())  # signed: completes
    conn.auth_completed()
    assert conn.identity == fingerprint(second) and not conn.guest


def test_a_client_that_falls_back_to_keyboard_interactive_is_a_guest():
    conn = PlayerConnection(FakeServer())
    conn.validate_public_key("ann", key().convert_to_public())  # queried, then the agent refused
    assert conn.get_kbdint_challenge("ann", "", "") is True
    conn.auth_completed()
    assert conn.guest and conn.identity.startswith(GUEST_PREFIX)


def test_guests_get_a_fresh_identity_per_connection():
    identities = set()
    for _ in range(3):
        conn = PlayerConnection(FakeServer())
        conn.get_kbdint_challenge("guest", "", "")
        conn.auth_completed()
        identities.add(conn.identity)
    assert len(identities) == 3


def test_an_allow_list_admits_listed_keys_only_and_no_guests():
    listed, stranger = key(), key()
    allowed = asyncssh.import_authorized_keys(listed.export_public_key().decode())
    conn = PlayerConnection(FakeServer(allowed))
    assert not conn.validate_public_key("eve", stranger.convert_to_public())
    assert conn.validate_public_key("ann", listed.convert_to_public())
    assert not conn.kbdint_auth_supported()
    assert not conn.password_auth_supported()


def test_forwarding_of_any_kind_is_refused():
    conn = PlayerConnection(FakeServer())
    assert conn.connection_requested("localhost", 22, "127.0.0.1", 5000) is False
    assert conn.server_requested("", 8080) is False
    assert conn.unix_connection_requested("/run/docker.sock") is False
    assert conn.unix_server_requested("/tmp/x") is False
