"""`harena serve --workers N`: N harena processes on one host, one SSH port, one cluster.

Each worker is `harena serve` itself, joined to a cluster as node `<host>-w<i>` and listening
with SO_REUSEPORT, so the kernel spreads new connections over the workers and every core of the
host plays. Without `--cluster` the workers' cluster is a nats-server started here, with its
JetStream files under `--data`/nats and `sync_interval: always`, stopped when harena stops. The
host key is made here before any worker starts, so all of them serve the same one.
"""

from __future__ import annotations

import argparse
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from harena.server.transport.hostkey import load_or_create_host_key

STOP_TIMEOUT = 20.0  # a worker restores its players' terminals within this after SIGTERM
STARTUP_GRACE = 10.0  # a worker that fails (not killed) sooner after its first start: setup
RESTARTS_ALLOWED = 5  # a worker ending this many times ...
RESTART_WINDOW = 120.0  # ... within this many seconds keeps failing: stop everything
RESTART_DELAYS = (0.5, 1.0, 2.0, 5.0, 10.0)  # before each restart in a row, then the last
NATS_PORT_FILE = "nats.port"  # the local nats-server keeps its port across restarts


def worker_argv(argv: list[str], cluster: str, node: str, data: Path) -> list[str]:
    """A worker's `harena serve` command line: ours without --workers, plus its place in the
    cluster (given last: it wins over the same options earlier and in a config file)."""
    kept: list[str] = []
    skip = False
    for arg in argv:
        if skip:
            skip = False
            continue
        if arg == "--workers":
            skip = True
            continue
        if arg.startswith("--workers="):
            continue
        kept.append(arg)
    return [
        *kept,
        "--workers",
        "1",
        "--cluster",
        cluster,
        "--node",
        node,
        "--data",
        str(data),
        "--reuse-port",
    ]


def run_workers(args: argparse.Namespace, argv: list[str]) -> int:
    """Start the workers (and a local nats-server without --cluster) and keep them running:
    a worker that ends is started again (`_look_after`); stop them all on SIGINT/SIGTERM, or
    when a worker cannot start or keeps ending."""
    from harena.server.cluster.natsd import LocalNats, NatsServerError

    if args.port == 0:
        print("harena: --workers needs a fixed --port to share", file=sys.stderr)
        return 2
    data = Path(args.data)
    data.mkdir(mode=0o700, parents=True, exist_ok=True)
    load_or_create_host_key(args.keys)
    nats: LocalNats | None = None
    cluster = args.cluster
    if not cluster:
        try:
            nats = LocalNats(data / "nats", port=_kept_port(data)).start()
        except NatsServerError as exc:
            print(f"harena: {exc}", file=sys.stderr)
            return 1
        (data / NATS_PORT_FILE).write_text(str(nats.port))
        cluster = nats.url
        print(f"harena: local nats-server on {cluster}, JetStream under {data / 'nats'}")
    host = socket.gethostname().split(".")[0]
    workers: dict[str, Worker] = {}
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        for i in range(1, args.workers + 1):
            node = f"{host}-w{i}"
            worker = worker_argv(argv, cluster, node, data / "workers" / node)
            if args.metrics is not None:  # one metrics port each: a scrape names its worker
                worker += ["--metrics", str(args.metrics.shifted(i - 1))]
            workers[node] = Worker(worker)
        print(f"harena: {args.workers} workers share port {args.port}", flush=True)
        while not stopping:
            if not _look_after(workers):
                break
            time.sleep(0.2)
    finally:
        processes = [w.process for w in workers.values()]
        for process in processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT
        for process in processes:
            try:
                process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        if nats is not None:
            nats.stop()
    workers_ended = [w.process.returncode for w in workers.values()]
    failed = [code for code in workers_ended if code not in (0, -signal.SIGTERM)]
    return 0 if stopping and not failed else 1


class Worker:
    """One worker process and the times it ended, to tell a crash from a crash loop."""

    def __init__(self, command: list[str]) -> None:
        self.command = command
        self.node = command[command.index("--node") + 1]
        self.ended: list[float] = []
        self.process = self._start()
        self.first_start = time.monotonic()
        self.restart_at: float | None = None

    def _start(self) -> subprocess.Popen[bytes]:
        return subprocess.Popen([sys.executable, "-m", "harena.server.commands.cli", *self.command])

    def restart(self) -> None:
        self.process = self._start()
        self.restart_at = None


def _look_after(workers: dict[str, Worker]) -> bool:
    """Start again a worker that ended (killed, crashed): the others play on, and its tables
    go to them when its leases lapse, as in any cluster. False: stop everything, because a
    worker could not start at all or keeps ending."""
    now = time.monotonic()
    for worker in workers.values():
        if worker.restart_at is not None:
            if now >= worker.restart_at:
                print(f"harena: starting worker {worker.node} again", file=sys.stderr, flush=True)
                worker.restart()
            continue
        code = worker.process.poll()
        if code is None:
            continue
        how = f"killed by signal {-code}" if code < 0 else f"exit status {code}"
        if code > 0 and not worker.ended and now - worker.first_start < STARTUP_GRACE:
            print(
                f"harena: worker {worker.node} could not start ({how}); stopping the others",
                file=sys.stderr,
            )
            return False
        worker.ended = [t for t in worker.ended if now - t < RESTART_WINDOW] + [now]
        if len(worker.ended) >= RESTARTS_ALLOWED:
            print(
                f"harena: worker {worker.node} ended {len(worker.ended)} times in "
                f"{RESTART_WINDOW:g} s ({how}); stopping the others",
                file=sys.stderr,
            )
            return False
        delay = RESTART_DELAYS[min(len(worker.ended), len(RESTART_DELAYS)) - 1]
        print(
            f"harena: worker {worker.node} ended ({how}); the others play on, and it starts "
            f"again in {delay:g} s",
            file=sys.stderr,
            flush=True,
        )
        worker.restart_at = now + delay
    return True


def _kept_port(data: Path) -> int | None:
    """The port the local nats-server had last time, if it is free (nodes' logs stay
    comparable); else a new one."""
    try:
        port = int((data / NATS_PORT_FILE).read_text())
    except (OSError, ValueError):
        return None
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return None
    return port
