"""`harena serve --workers 2`: two processes share one SSH port through SO_REUSEPORT and one
local nats-server started (and stopped) under --data; players see one lobby whichever worker
the kernel hands them to."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

from harena.server.cluster.natsd import free_port
from tests.server.players import new_key
from tests.sshscreen import ScreenClient


def admin(data: Path, *command: str) -> str:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "harena.server.commands.cli",
            "admin",
            "--data",
            str(data),
            *command,
        ],
        capture_output=True,
        text=True,
        timeout=30,
    )
    return done.stdout


def admin_sessions(data: Path) -> str:
    return admin(data, "sessions")


async def test_two_workers_share_the_port_and_one_lobby(tmp_path):
    port = free_port()
    data = tmp_path / "data"
    process = subprocess.Popen(
        [sys.executable, "-m", "harena.server.commands.cli", "serve", "--workers", "2", "--port",
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
        # `harena admin --data DIR`, the folder given to `serve --workers`: every worker's
        # sessions, under its name; a shared command asks one worker
        every = admin_sessions(data)
        assert every.count("SHA256:") == 13
        assert [line for line in every.splitlines() if line.startswith("[")] == [
            f"[{w.name}]" for w in workers
        ]
        assert admin(data, "tables").startswith("1     carthage   waiting")
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(30)
    assert process.returncode == 0
    with socket.socket() as s:  # the local nats-server stopped with harena
        assert s.connect_ex(("127.0.0.1", int((data / "nats.port").read_text()))) != 0


def worker_pids(data: Path) -> dict[str, int]:
    """node name -> pid of the `harena serve` worker processes serving `data` (from /proc)."""
    found = {}
    for proc in Path("/proc").iterdir():
        try:
            argv = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"--node" in argv and str(data).encode() in b" ".join(argv):
            found[argv[argv.index(b"--node") + 1].decode()] = int(proc.name)
    return found


async def test_a_worker_killed_is_started_again_while_the_others_play_on(tmp_path):
    """kill -9 of one worker: the supervisor says so and starts it again; players on the other
    worker keep their screen; one whose connection died connects again and lands in their
    seat, the table (if it ran on the dead worker) taken over by the other."""
    port = free_port()
    data = tmp_path / "data"
    process = subprocess.Popen(
        [sys.executable, "-m", "harena.server.commands.cli", "serve", "--workers", "2", "--port",
         str(port), "--keys", str(tmp_path / "keys"), "--data", str(data), "--bot-delay", "0.05",
         "--max-per-ip", "20", "--lease-time", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )  # fmt: skip
    output: list[bytes] = []

    async def read_until(text: bytes, timeout: float, times: int = 1) -> None:
        """Read the supervisor's and workers' output until `text` was printed `times` times."""
        assert process.stdout is not None
        async with asyncio.timeout(timeout):
            while sum(text in line for line in output) < times:
                line = await asyncio.to_thread(process.stdout.readline)
                assert line, b"".join(output).decode()
                output.append(line)

    try:
        await read_until(b"listening on", 30, times=2)  # each worker prints it
        key = new_key()
        ann = await ScreenClient.connect(port, username="ann", agent_path=None, client_keys=[key])
        await ann.wait_for_text("new table")
        ann.send("n")
        await ann.wait_for_text("New table")
        ann.send("\r")
        await ann.wait_for_text("Table 1", timeout=10)
        watchers = [
            await ScreenClient.connect(port, username=f"p{i}", agent_path=None, client_keys=[new_key()])
            for i in range(8)
        ]  # fmt: skip
        for client in watchers:
            await client.wait_for_text("#1", timeout=10)
        pids = worker_pids(data)
        assert len(pids) == 2, pids
        victim = sorted(pids)[0]
        os.kill(pids[victim], signal.SIGKILL)
        await read_until(f"worker {victim} ended (killed by signal 9)".encode(), 10)
        await read_until(f"starting worker {victim} again".encode(), 10)
        await asyncio.sleep(1.0)
        alive = [c for c in watchers if not c.closed]
        assert alive and len(alive) < len(watchers) + 1  # the survivor's players kept their link
        for client in alive:  # and their screen still answers
            client.send("?")
            await client.wait_for_text("help", timeout=10)
        assert process.poll() is None  # the supervisor (and the survivor) play on
        for _ in range(100):  # the restarted worker serves again
            new = worker_pids(data)
            if victim in new and new[victim] != pids[victim]:
                break
            await asyncio.sleep(0.2)
        assert victim in new and new[victim] != pids[victim]
        if ann.closed:  # ann was on the dead worker: she comes back to her seat
            ann = await ScreenClient.connect(
                port, username="ann", agent_path=None, client_keys=[key]
            )
        await ann.wait_for_text("Table 1", timeout=30)
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(30)
    assert process.returncode == 0, b"".join(output).decode()[-2000:]
