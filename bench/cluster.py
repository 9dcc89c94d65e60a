"""Cluster benchmark: harena nodes (child processes) sharing a local nats-server, real SSH
clients in this process.

    python bench/cluster.py [--scenario hop|failover|transfer|all] [--moves 30]

- hop: one table of two players run by node a. Keypress to the last of both screens showing
  the move, with both players connected to a (local), then both to node b (every move crosses
  to a and every view back). Prints median and p95 of each, and the difference of medians.
- failover: the same table, players on b; kill -9 of a; the time until a move is accepted again
  (b claims the table after a's lease lapses and rebuilds it). Lease: --lease seconds.
- transfer: a table of --transfer-moves moves written to JetStream; the time and bytes to move it
  to another node (read the newest snapshot and the records after it, rebuild, fence).

The workload is `bench/tally_game.py` (registered in the node processes). Figures, not
pass/fail: the machine is shared and noisy. Needs harena's cluster extra.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import asyncssh  # noqa: E402

from bench.ssh_load import connect, describe, identity, make_keys, move, shows_total  # noqa: E402
from harena.server.cluster.natsd import LocalNats  # noqa: E402


def run_node(workdir: Path, name: str, nats_url: str, lease: float) -> None:
    """Child process: node `name`; node a also creates the benchmark table."""
    import logging

    from bench.tally_game import install
    from harena.server.cluster.options import ClusterSettings
    from harena.server.limits import ServerLimits
    from harena.server.ssh_server import HarenaServer, ServerConfig

    logging.basicConfig(level=logging.WARNING)
    install()

    async def main() -> None:
        config = ServerConfig(
            port=0,
            keys_dir=workdir / "keys",
            data_dir=workdir / f"data-{name}",
            limits=ServerLimits(max_per_ip=10_000, login_timeout=60),
            cluster=ClusterSettings((nats_url,), node=name, lease_seconds=lease),
        )
        server = HarenaServer(config)
        if name == "a":
            players = json.loads((workdir / "players.json").read_text())
            table = server.lobby.create_table(players[0], "p0", "tally", len(players))
            for seat, who in enumerate(players[1:], start=1):
                table.sit(who, f"p{seat}")
        await server.start()
        (workdir / f"port-{name}").write_text(str(server.port))
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        await stop.wait()
        await server.stop()

    asyncio.run(main())


class Node:
    def __init__(self, workdir: Path, name: str, nats: LocalNats, lease: float) -> None:
        self.workdir, self.name = workdir, name
        (workdir / f"port-{name}").unlink(missing_ok=True)
        self.proc = subprocess.Popen(
            [sys.executable, __file__, "--node", name, str(workdir), nats.url, str(lease)],
            cwd=REPO,
        )

    async def port(self) -> int:
        path = self.workdir / f"port-{self.name}"
        for _ in range(400):
            if path.exists() and path.read_text():
                return int(path.read_text())
            await asyncio.sleep(0.05)
        raise RuntimeError(f"node {self.name} did not start")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()


async def moves(clients: list, count: int, start_total: int) -> list[float]:  # type: ignore[type-arg]
    latencies = []
    for n in range(count):
        actor = clients[n % len(clients)]
        latency, _ = await move(actor, [c for c in clients if c is not actor], start_total + n + 1)
        latencies.append(latency)
    return latencies


async def cluster_setup(workdir: Path, lease: float) -> tuple[LocalNats, Node, Node, list]:  # type: ignore[type-arg]
    workdir.mkdir(parents=True)
    nats = LocalNats(workdir / "nats").start()
    keys = make_keys(2)
    (workdir / "players.json").write_text(json.dumps([identity(k) for k in keys]))
    a = Node(workdir, "a", nats, lease)
    await a.port()
    b = Node(workdir, "b", nats, lease)
    await b.port()
    return nats, a, b, keys


async def hop(workdir: Path, count: int) -> None:
    nats, a, b, keys = await cluster_setup(workdir, 8.0)
    try:
        results = {}
        total = 0
        for label, node in (("local (players on the table's node)", a), ("across nodes", b)):
            port = await node.port()
            clients = [(await connect(port, k, f"p{i}"))[0] for i, k in enumerate(keys)]
            await moves(clients, 4, total)  # warm up
            total += 4
            results[label] = await moves(clients, count, total)
            total += count
            await asyncio.gather(*(c.close() for c in clients))
            await asyncio.sleep(0.5)
        print(f"hop: one table of 2 run by node a, {count} moves each way")
        for label, values in results.items():
            print(f"  keypress to last screen, {label}: {describe(values, 'ms', 1000)}")
        local, remote = (statistics.median(v) for v in results.values())
        print(f"  the cross-node hop adds {(remote - local) * 1000:.1f} ms (median)")
    finally:
        b.stop()
        a.stop()
        nats.stop()


async def failover(workdir: Path, lease: float) -> None:
    nats, a, b, keys = await cluster_setup(workdir, lease)
    try:
        port = await b.port()
        clients = [(await connect(port, k, f"p{i}"))[0] for i, k in enumerate(keys)]
        await moves(clients, 2, 0)
        a.proc.kill()  # kill -9
        killed = time.monotonic()
        actor = clients[0]  # seat 0 moves at an even total
        while True:
            actor.send("1")
            try:
                await actor.wait_until(lambda: shows_total(actor, 3), 0.5, "total 3")
                break
            except TimeoutError:
                if time.monotonic() - killed > 10 * lease:
                    raise
        took = time.monotonic() - killed
        print(f"failover: lease {lease:g} s; kill -9 of the table's node to the next accepted move")
        print(f"  {took:.2f} s (claimed within 7/6 of the lease, then rebuilt and answered)")
        await asyncio.gather(*(c.close() for c in clients))
    finally:
        b.stop()
        a.proc.wait()
        nats.stop()


def transfer(workdir: Path, count: int) -> None:
    from bench.tally_game import install
    from harena.core.table import Table
    from harena.server.cluster.link import NatsLink, NatsSettings
    from harena.server.cluster.table_store import JetStreamTables, encode

    install()
    nats = LocalNats(workdir / "nats").start()
    links = []
    try:
        for name in ("a", "b"):
            links.append(NatsLink(NatsSettings((nats.url,), name=name)).start())
        a = JetStreamTables(links[0], node="a").ensure()
        b = JetStreamTables(links[1], node="b").ensure()
        table = Table.create("tally", 2, 1, store=a, table_id=a.new_table_id())
        table.sit("k0", "p0")
        table.sit("k1", "p1")
        start = time.perf_counter()
        for n in range(count):
            table.act(f"k{n % 2}", "add:1")
        appended = time.perf_counter() - start
        loaded = b.read(table.id)
        read_bytes = len(encode(loaded.snapshot)) if loaded.snapshot else 0
        read_bytes += sum(len(encode(r)) for r in loaded.records)
        start = time.perf_counter()
        moved = b.open_table(table.id)
        took = time.perf_counter() - start
        assert moved.game.actions == table.game.actions
        print(f"transfer: a {count}-move table in JetStream (sync_interval: always, one server)")
        print(f"  appends: {appended / count * 1000:.2f} ms per acknowledged move")
        print(
            f"  moved to another node in {took * 1000:.1f} ms, reading {read_bytes} B "
            f"(newest snapshot + {len(loaded.records)} records after it)"
        )
    finally:
        for link in links:
            link.close()
        nats.stop()


async def main(args: argparse.Namespace) -> None:
    asyncssh.set_log_level("WARNING")
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        if args.scenario in ("hop", "all"):
            await hop(workdir / "hop", args.moves)
        if args.scenario in ("failover", "all"):
            await failover(workdir / "failover", args.lease)
        if args.scenario in ("transfer", "all"):
            transfer(workdir / "transfer", args.transfer_moves)


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "--node":
        run_node(Path(sys.argv[3]), sys.argv[2], sys.argv[4], float(sys.argv[5]))
        sys.exit(0)
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scenario", default="all", choices=["hop", "failover", "transfer", "all"])
    parser.add_argument("--moves", type=int, default=30, help="moves per hop run")
    parser.add_argument("--lease", type=float, default=8.0, help="lease time for failover")
    parser.add_argument("--transfer-moves", type=int, default=300)
    arguments = parser.parse_args()
    asyncio.run(main(arguments))
