"""How `harena admin` (another process on the host) reaches the running server.

A Unix socket, `admin.sock` in the data folder, mode 0600: only the server's own user (and
root) may connect, as with the data it guards; the server also checks the peer's uid where the
system reports it. One request per connection: the client sends a JSON object (`argv`, and
`data` base64 for an import) and closes its side; the server answers one JSON object (`ok`,
`text`) and closes.

At start a socket that answers means another server already uses this data folder (two would
corrupt each other's logs): the second one refuses to start. A socket file nobody answers is
left over from a crash and is replaced.
"""

from __future__ import annotations

import asyncio
import base64
import json
import logging
import os
import socket
import struct
from pathlib import Path
from typing import TYPE_CHECKING

from harena.server.operations.admin import AdminCommands, AdminError

if TYPE_CHECKING:
    from harena.server.operations.admin import OperatedServer

log = logging.getLogger(__name__)

SOCKET_NAME = "admin.sock"
MAX_REQUEST = 64 * 1024 * 1024  # an import carries a whole table log
SUN_PATH_MAX = 107


class AdminSocketError(Exception):
    """The admin socket cannot be opened or reached; the message says why."""


def socket_path(data_dir: Path) -> Path:
    return data_dir / SOCKET_NAME


class AdminSocket:
    """The server's end."""

    def __init__(self, server: OperatedServer, path: Path) -> None:
        self.commands = AdminCommands(server)
        self.path = path
        self._server: asyncio.AbstractServer | None = None

    def check_free(self) -> None:
        """Raise if another server answers on this data folder (call before opening any table:
        a second server would cut what it takes for a torn record off the first one's logs)."""
        if len(os.fsencode(self.path)) > SUN_PATH_MAX:
            raise AdminSocketError(
                f"{self.path} is too long for a Unix socket; use a shorter --data"
            )
        if running(self.path):
            raise AdminSocketError(f"another harena server is running on {self.path.parent}")

    async def start(self) -> None:
        self.check_free()
        if self.path.exists() or self.path.is_symlink():
            self.path.unlink()  # left over from a crash: nobody answers on it
        self._server = await asyncio.start_unix_server(self._serve, path=str(self.path))
        os.chmod(self.path, 0o600)
        log.info("admin socket at %s", self.path)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
            self.path.unlink(missing_ok=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            uid = _peer_uid(writer)
            if uid not in (None, 0, os.getuid()):
                reply = {
                    "ok": False,
                    "text": "only the server's own user (or root) may run harena admin",
                }
            else:
                raw = await _read_request(reader)
                if raw == b"":
                    return  # a probe (`running`, another harena asking who is here): no reply
                reply = self._answer(raw or b"", f"admin (uid {uid})")
            writer.write(json.dumps(reply).encode() + b"\n")
            await writer.drain()
        except (ConnectionError, OSError) as exc:
            log.warning("admin socket: %s", exc)
        finally:
            writer.close()

    def _answer(self, raw: bytes, by: str) -> dict[str, object]:
        try:
            request = json.loads(raw)
            argv = [str(a) for a in request["argv"]]
            data = base64.b64decode(request["data"]) if request.get("data") else None
        except (ValueError, KeyError, TypeError) as exc:
            return {"ok": False, "text": f"bad request: {exc}"}
        try:
            return {"ok": True, "text": self.commands.run(argv, by, data)}
        except AdminError as exc:
            return {"ok": False, "text": str(exc)}
        except Exception:
            log.exception("admin command %r failed", argv)
            return {"ok": False, "text": "internal error: see the server's log"}


async def _read_request(reader: asyncio.StreamReader) -> bytes | None:
    """Everything the client sends before closing its side (None past the cap: a bad
    request)."""
    chunks, size = [], 0
    while chunk := await reader.read(65536):
        size += len(chunk)
        if size > MAX_REQUEST:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def _peer_uid(writer: asyncio.StreamWriter) -> int | None:
    """The connecting process's uid, where the system says (Linux); else the socket's mode is
    the only guard."""
    sock = writer.get_extra_info("socket")
    if sock is None or not hasattr(socket, "SO_PEERCRED"):
        return None
    _pid, uid, _gid = struct.unpack(
        "3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    )
    return int(uid)


def _answers(path: Path) -> bool:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(2)
        try:
            sock.connect(str(path))
        except OSError:
            return False
    return True


def running(path: Path) -> bool:
    """A server answers on this socket."""
    return path.exists() and _answers(path)


def send(
    path: Path, argv: list[str], data: bytes | None = None, timeout: float = 30
) -> tuple[bool, str]:
    """The client's end: run one command on the server at `path`; (ok, text)."""
    request = {"argv": argv, "data": base64.b64encode(data).decode() if data is not None else None}
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout)
        try:
            sock.connect(str(path))
        except FileNotFoundError:
            raise AdminSocketError(
                f"no server is running on {path.parent} (no {path.name})"
            ) from None
        except OSError as exc:
            raise AdminSocketError(
                f"cannot reach the server at {path}: {exc.strerror or exc}"
            ) from None
        sock.sendall(json.dumps(request).encode())
        sock.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    try:
        reply = json.loads(b"".join(chunks))
        return bool(reply["ok"]), str(reply["text"])
    except (ValueError, KeyError) as exc:
        raise AdminSocketError(f"the server's answer is unreadable: {exc}") from None
