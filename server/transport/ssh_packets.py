"""One SSH packet per write to a player, not two: no empty SSH_MSG_IGNORE before each.

asyncssh precedes every packet it sends once the keys are exchanged with an empty
SSH_MSG_IGNORE. That is the old countermeasure for CBC ciphers (it makes the next packet's IV
unpredictable); harena offers no CBC cipher (`ssh_server.ENCRYPTION_ALGS`: AES-GCM and AES-CTR
with the client's MAC), for which the packet hides nothing: it is empty, of fixed size, and sent
at the same moment as the packet it precedes. RFC 4253 (11.2) requires no implementation to
send one, and OpenSSH's server does not. It cost a second encryption, a second socket write
(a `send` system call) and ~36 bytes on the wire for every screen update of every player.

`install()` makes the server's connections skip that packet (asyncssh's client connections, as
in tests and benchmarks, are left alone). Relies on (pinned in textual_pins):
`SSHConnection.send_packet(pkttype, *args, handler)`, which sends it as
`self.send_packet(MSG_IGNORE, String(b""))`.
"""

from __future__ import annotations

from typing import Any

from asyncssh.connection import SSHConnection, SSHServerConnection
from asyncssh.constants import MSG_IGNORE

from harena.server.hosting.textual_pins import patch

EMPTY_STRING = b"\x00\x00\x00\x00"
"""`asyncssh.packet.String(b"")`: the only payload of the ignore packet asyncssh inserts."""

_installed = False


def install() -> None:
    """Skip the empty ignore packet on server connections (idempotent)."""
    global _installed
    if _installed:
        return
    send_packet = SSHConnection.send_packet

    def _send_packet(self: SSHConnection, pkttype: int, *args: bytes, handler: Any = None) -> None:
        if (
            pkttype == MSG_IGNORE
            and args == (EMPTY_STRING,)
            and isinstance(self, SSHServerConnection)
        ):
            return
        send_packet(self, pkttype, *args, handler=handler)

    patch(SSHConnection, "send_packet", _send_packet)
    _installed = True
