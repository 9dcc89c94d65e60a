"""End-to-end test helpers: a real SSH client whose output lands on a `pyte` screen.

`ScreenClient` is what a player sees: it connects with the asyncssh client, requests a PTY
(term type, size, optional env such as COLORTERM), and feeds every byte it receives (stdout and
stderr, as a terminal would) into a pyte `Screen` + `ByteStream`. Tests then assert on the screen
text, on the raw bytes (`raw`) or on how many bytes arrived (`bytes_received`).

    async with open_test_server(lambda: AppSession(factory), tmp_path) as port:
        client = await ScreenClient.connect(port, term_type="xterm-256color")
        await client.wait_for_text("Welcome")
        client.send("q")
        await client.wait_closed()

`open_test_server` starts an asyncssh server on 127.0.0.1 with a free port, a fresh host key
written to `key_dir`, and no authentication (every login is accepted); the real server module
has its own listener. Both helpers are test-only: nothing in the product imports this module.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncssh
import pyte
from rich.cells import cell_len
from wcwidth import wcwidth


def row_text(screen: pyte.Screen, y: int) -> str:
    """Row `y` as `pyte.Screen.display` shows it (a wide character's second cell skipped)."""
    line = screen.buffer[y]
    text = "".join([line[x].data for x in range(screen.columns)])
    if text.isascii() or cell_len(text) == len(text):
        return text  # no wide character: no cell to skip (the common case, and much faster)
    out: list[str] = []
    skip = False
    for x in range(screen.columns):
        if skip:
            skip = False
            continue
        char = line[x].data
        out.append(char)
        skip = wcwidth(char[0]) == 2 if char else False
    return "".join(out)


class _ScreenSession(asyncssh.SSHClientSession):
    """Client session that forwards every received byte to its `ScreenClient`."""

    def __init__(self, client: ScreenClient) -> None:
        self._client = client

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self._client._received(data, stderr=datatype == asyncssh.EXTENDED_DATA_STDERR)

    def connection_lost(self, exc: Exception | None) -> None:
        self._client._lost()


class ScreenClient:
    """An SSH client with a PTY, rendering what it receives on a pyte screen."""

    def __init__(self, cols: int, rows: int) -> None:
        self.screen = pyte.Screen(cols, rows)
        self._stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        """Every byte received (stdout and stderr), in order."""
        self.stderr = bytearray()
        """Bytes received on the stderr stream only."""
        self.bytes_received = 0
        self.last_received_at = time.monotonic()
        self._changed = asyncio.Event()
        self._closed = asyncio.Event()
        self._rows: list[str] = []  # screen rows as text, kept up to date from `screen.dirty`
        self._conn: asyncssh.SSHClientConnection | None = None
        self._chan: asyncssh.SSHClientChannel[bytes] | None = None

    @classmethod
    async def connect(
        cls,
        port: int,
        host: str = "127.0.0.1",
        *,
        username: str = "player",
        term_type: str | None = "xterm-256color",
        size: tuple[int, int] = (80, 24),
        env: Mapping[str, str] | None = None,
        command: str | None = None,
        subsystem: str | None = None,
        window: int | None = None,
        **connect_options: Any,
    ) -> ScreenClient:
        """Connect and open a session. `term_type=None` opens a session without a PTY.

        `window` sets the client's SSH receive window (small values make a stuck client fill the
        server's buffer quickly). Extra keyword arguments go to `asyncssh.connect`.
        """
        client = cls(*size)
        options: dict[str, Any] = {"known_hosts": None, "username": username}
        options.update(connect_options)
        client._conn = await asyncssh.connect(host, port, **options)
        session_options: dict[str, Any] = {"encoding": None, "env": dict(env or {})}
        if term_type is not None:
            session_options.update(term_type=term_type, term_size=size)
        else:
            session_options.update(request_pty=False)
        if command is not None:
            session_options["command"] = command
        if subsystem is not None:
            session_options["subsystem"] = subsystem
        if window is not None:
            session_options["window"] = window
        client._chan, _ = await client._conn.create_session(
            lambda: _ScreenSession(client), **session_options
        )
        return client

    # ------------------------------------------------------------------ receiving

    def _received(self, data: bytes, stderr: bool) -> None:
        self.raw.extend(data)
        if stderr:
            self.stderr.extend(data)
        self.bytes_received += len(data)
        self.last_received_at = time.monotonic()
        self._stream.feed(data)
        self._changed.set()

    def _lost(self) -> None:
        self._closed.set()
        self._changed.set()

    @property
    def closed(self) -> bool:
        """True once the server closed the session (or `close()` was called)."""
        return self._closed.is_set()

    @property
    def exit_status(self) -> int | None:
        """Exit status sent by the server, if any."""
        return None if self._chan is None else self._chan.get_exit_status()

    def screen_text(self) -> str:
        """The visible screen, one line per row, trailing spaces removed."""
        return "\n".join(self.lines())

    def lines(self) -> list[str]:
        """The visible screen rows, trailing spaces removed.

        Only the rows pyte marked dirty are read again: `Screen.display` reads every cell
        (~2 ms at 80x24), which made the clients, not the server, the slowest part of a
        benchmark's keypress-to-screen latency."""
        screen = self.screen
        if len(self._rows) != screen.lines:
            self._rows = [""] * screen.lines
            dirty: Any = range(screen.lines)
        else:
            # pyte marks the cursor's row only, also when a combining mark at the start of a
            # row joins the last character of the row above.
            dirty = screen.dirty | {y - 1 for y in screen.dirty}
        for y in dirty:
            if 0 <= y < screen.lines:
                self._rows[y] = row_text(screen, y).rstrip()
        screen.dirty.clear()
        return list(self._rows)

    async def wait_until(
        self, predicate: Callable[[], bool], timeout: float = 5.0, what: str = "condition"
    ) -> None:
        """Wait until `predicate()` is true, re-checking after every received chunk."""
        deadline = time.monotonic() + timeout
        while not predicate():
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(f"{what} not met in {timeout}s; screen:\n{self.screen_text()}")
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), remaining)
            except TimeoutError:
                pass

    async def wait_for_text(self, text: str, timeout: float = 5.0) -> None:
        """Wait until `text` is visible somewhere on the screen."""
        await self.wait_until(lambda: text in self.screen_text(), timeout, f"text {text!r}")

    async def wait_quiet(
        self, quiet: float = 0.25, timeout: float = 5.0, since: float = 0.0
    ) -> None:
        """Wait until nothing has arrived for `quiet` seconds (the screen has settled), counting
        from `since` at the earliest (a `time.monotonic()`: when the server was asked to draw)."""
        deadline = time.monotonic() + timeout
        while True:
            idle = time.monotonic() - max(self.last_received_at, since)
            if idle >= quiet:
                return
            if time.monotonic() + (quiet - idle) > deadline:
                raise TimeoutError(f"output did not settle within {timeout}s")
            await asyncio.sleep(quiet - idle)

    async def wait_closed(self, timeout: float = 5.0) -> None:
        """Wait until the server has closed the session."""
        await asyncio.wait_for(self._closed.wait(), timeout)

    # ------------------------------------------------------------------ sending

    def send(self, data: bytes | str) -> None:
        """Type bytes (a str is utf-8 encoded), exactly as a terminal would send them."""
        assert self._chan is not None
        self._chan.write(data.encode("utf-8") if isinstance(data, str) else data)

    def resize(self, cols: int, rows: int) -> None:
        """Resize the local screen and tell the server (an SSH window-change request)."""
        assert self._chan is not None
        self.screen.resize(lines=rows, columns=cols)
        self._chan.change_terminal_size(cols, rows)

    def pause_reading(self) -> None:
        """Stop consuming output: the SSH window fills up, like a frozen client."""
        assert self._chan is not None
        self._chan.pause_reading()

    def resume_reading(self) -> None:
        assert self._chan is not None
        self._chan.resume_reading()

    async def close(self) -> None:
        """Close the connection and wait for it to go away."""
        if self._conn is not None:
            self._conn.close()
            await self._conn.wait_closed()
            self._conn = None
        self._closed.set()


class _OpenTestServer(asyncssh.SSHServer):
    """Test server: no authentication, one session from `session_factory` per channel."""

    def __init__(self, session_factory: Callable[[], asyncssh.SSHServerSession]) -> None:
        self._session_factory = session_factory

    def begin_auth(self, username: str) -> bool:
        return False  # no auth needed

    def session_requested(self) -> asyncssh.SSHServerSession:
        return self._session_factory()


@asynccontextmanager
async def open_test_server(
    session_factory: Callable[[], asyncssh.SSHServerSession],
    key_dir: Path,
    **server_options: Any,
) -> AsyncIterator[int]:
    """Run an SSH server on 127.0.0.1 (free port) for the duration of the block; yields the port.

    Defaults: bytes channels (`encoding=None`), no line editor. `server_options` override them.
    """
    key_path = Path(key_dir) / "ssh_host_ed25519_key"
    if not key_path.exists():
        asyncssh.generate_private_key("ssh-ed25519").write_private_key(key_path)
    options: dict[str, Any] = {"encoding": None, "line_editor": False}
    options.update(server_options)
    server = await asyncssh.create_server(
        lambda: _OpenTestServer(session_factory),
        "127.0.0.1",
        0,
        server_host_keys=[str(key_path)],
        **options,
    )
    try:
        yield server.get_port()
    finally:
        server.close()
        await server.wait_closed()
