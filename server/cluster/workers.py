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

from harena.server.hostkey import load_or_create_host_key

STOP_TIMEOUT = 20.0  # a worker restores its players' terminals within this after SIGTERM
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
    """Start the workers (and a local nats-server without --cluster); stop them all on
    SIGINT/SIGTERM or when one of them fails."""
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
    workers: list[subprocess.Popen[bytes]] = []
    stopping = False

    def stop(*_: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        for i in range(1, args.workers + 1):
            node = f"{host}-w{i}"
            command = worker_argv(argv, cluster, node, data / "workers" / node)
            workers.append(subprocess.Popen([sys.executable, "-m", "harena.server.cli", *command]))
        print(f"harena: {args.workers} workers share port {args.port}", flush=True)
        while not stopping:
            if any(w.poll() is not None for w in workers):
                print("harena: a worker stopped; stopping the others", file=sys.stderr)
                break
            time.sleep(0.2)
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_TIMEOUT
        for worker in workers:
            try:
                worker.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                worker.kill()
                worker.wait()
        if nats is not None:
            nats.stop()
    failed = [w.returncode for w in workers if w.returncode not in (0, -signal.SIGTERM)]
    return 0 if stopping and not failed else 1


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
