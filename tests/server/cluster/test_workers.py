"""`harena serve --workers 2`: two processes share one SSH port through SO_REUSEPORT and one
local nats-server started (and stopped) under --data; players see one lobby whichever worker
the kernel hands them to."""

from __future__ import annotations

import asyncio
import signal
import socket
import subprocess
import sys
from pathlib import Path

from harena.server.cluster.natsd import free_port
from tests.server.players import new_key
from tests.sshscreen import ScreenClient


def admin_sessions(data: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "harena.server.cli", "admin", "--data", str(data), "sessions"],
        capture_output=True,
        text=True,
        timeout=30,
    )
    return done.stdout


async def test_two_workers_share_the_port_and_one_lobby(tmp_path):
    port = free_port()
    data = tmp_path / "data"
    process = subprocess.Popen(
        [sys.executable, "-m", "harena.server.cli", "serve", "--workers", "2", "--port",
         str(port), "--keys", str(tmp_path / "keys"), "--data", str(data), "--bot-delay", "0.05", "--max-per-ip", "20"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        ready = 0
        while ready < 2:  # each worker prints its listening line
            line = await asyncio.to_thread(process.stdout.readline)
            assert line, "harena --workers exited early"
            ready += b"listening on" in line

        ann = await ScreenClient.connect(
            port, username="ann", agent_path=None, client_keys=[new_key()]
        )
        await ann.wait_for_text("new table")
        ann.send("n")
        await ann.wait_for_text("New table")
        ann.send("\r")  # the first game, its defaults
        await ann.wait_for_text("Table 1", timeout=10)

        others = [
            await ScreenClient.connect(port, username=f"p{i}", agent_path=None, client_keys=[new_key()])
            for i in range(12)
        ]  # fmt: skip
        for client in others:  # every worker lists the table, wherever it runs
            await client.wait_for_text("#1", timeout=10)
        workers = sorted((data / "workers").iterdir())
        assert len(workers) == 2
        served = [admin_sessions(w).count("SHA256:") for w in workers]
        assert sum(served) == 13 and all(n > 0 for n in served), served  # the kernel spread them
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(30)
    assert process.returncode == 0
    with socket.socket() as s:  # the local nats-server stopped with harena
        assert s.connect_ex(("127.0.0.1", int((data / "nats.port").read_text()))) != 0
