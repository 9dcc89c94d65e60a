"""SSH load benchmark: real SSH clients (this process) against `harena serve` (another process).

    python bench/ssh_load.py [--scenario table10|busy100|connect50|spectate|lobby|all] [--quick]

Scenarios (the server is restarted for each, so memory figures start clean):
- table10: one table, 10 seated sessions; 30 moves (--moves), each by the seat whose turn it is.
- busy100: 100 sessions at 20 tables of 5; every table makes a move every 2 s for --seconds.
- connect50: 50 sessions connecting at once.
- spectate: one table of 5 players watched by --sessions spectators (100); --moves moves.
- lobby: --sessions players idle in the lobby (100) while a table's list line changes --moves
  times (a spectator comes and goes, made in the server: no connection's cost counted).

With HARENA_BENCH_PROFILE=path set, the server process runs under cProfile during the moves of
table10 and busy100 (the connections of connect50) and dumps its stats there (to find hot spots;
the figures are then inflated). HARENA_BENCH_VERBOSE=1 also prints every move's latency and the
server's GC pauses during the moves.

Prints: RSS per extra session, bytes for the first screen, bytes per remote update at 80x24,
latency from a keypress to the last client's screen showing its effect (median, p95), the same
measured inside the server (key received to last screen sent: without the clients' own SSH and
pyte work, which shares this process), server CPU per move (per connection for connect50), and
idle bytes/s. The workload is `bench/tally_game.py`, registered in the server process only.
Figures, not pass/fail: the machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

warnings.filterwarnings("ignore", message="DSA is deprecated")  # asyncssh on cryptography 51
import asyncssh  # noqa: E402

from tests.sshscreen import ScreenClient  # noqa: E402

SIZE = (80, 24)


# --- the server process -------------------------------------------------------------------------


def run_server(workdir: Path) -> None:
    """Child process: a real HarenaServer with the benchmark tables pre-seated."""
    import logging

    from bench.tally_game import install
    from harena.server.common.limits import ServerLimits
    from harena.server.hosting import loop_lag
    from harena.server.service.ssh_server import HarenaServer, ServerConfig

    logging.basicConfig(level=logging.WARNING)
    install()
    spec = json.loads((workdir / "tables.json").read_text())
    churned: list[Any] = []  # the table the lobby scenario changes (SIGHUP)
    ids: list[str] = []
    timing = record_timing()
    memory_path = os.environ.get("HARENA_BENCH_TRACEMALLOC")
    if memory_path:
        import tracemalloc

        tracemalloc.start(int(os.environ.get("HARENA_BENCH_TRACEMALLOC_FRAMES", "1")))

    async def main() -> None:
        config = ServerConfig(
            port=0,
            keys_dir=workdir / "keys",
            data_dir=None,
            # Every client connects from 127.0.0.1 at once: the per-address caps (connections,
            # and logins not done yet, like sshd's MaxStartups) would refuse most of them.
            limits=ServerLimits(
                max_per_ip=10_000,
                max_connections=10_000,
                max_startups=10_000,
                max_startups_per_ip=10_000,
                login_timeout=60,
            ),
        )
        server = HarenaServer(config)
        for players in spec:
            table = server.lobby.create_table(players[0], "p0", "tally", len(players))
            for seat, identity in enumerate(players[1:], start=1):
                table.sit(identity, f"p{seat}")
            churned[:] = [table]
            ids.append(table.id)
        await server.start()
        loop_lag.monitor().start()
        (workdir / "ids.json").write_text(json.dumps(ids))
        (workdir / "port").write_text(str(server.port))
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, stop.set)

        def dump_timing() -> None:
            timing["lag"] = loop_lag.monitor().samples_since(0.0)
            (workdir / "timing.json").write_text(json.dumps(timing))
            if memory_path:
                dump_memory(Path(memory_path))

        loop.add_signal_handler(signal.SIGUSR1, dump_timing)
        loop.add_signal_handler(signal.SIGHUP, churn_lobby, churned[0])
        profile_path = os.environ.get("HARENA_BENCH_PROFILE")
        if profile_path:
            loop.add_signal_handler(signal.SIGUSR2, toggle_profile, Path(profile_path))
        await stop.wait()
        await server.stop()

    asyncio.run(main())


def churn_lobby(table: Any) -> None:
    """SIGHUP in the server: a spectator comes to `table`, or goes: its line in every lobby
    session's list changes ("1 watching")."""
    watcher = "bench-watcher"
    if watcher in table.spectators:
        table.leave(watcher)
    else:
        table.watch(watcher, "watcher")


_profiler: list[Any] = []
_memory: list[Any] = []


def dump_memory(path: Path) -> None:
    """HARENA_BENCH_TRACEMALLOC=path: where the memory held since the last dump was allocated
    (the first dump is the baseline), by file and line, into `path`."""
    import tracemalloc

    snapshot = tracemalloc.take_snapshot().filter_traces(
        [tracemalloc.Filter(False, tracemalloc.__file__)]
    )
    if _memory:
        stats = snapshot.compare_to(_memory[0], "lineno")
        lines = [str(stat) for stat in stats[:60]]
        if tracemalloc.get_traceback_limit() > 1:  # where the biggest come from
            for stat in snapshot.compare_to(_memory[0], "traceback")[:30]:
                lines += [str(stat), *(f"    {line}" for line in stat.traceback.format())]
        total = sum(stat.size_diff for stat in stats)
        path.write_text(f"total {total / 1024:.0f} KiB\n" + "\n".join(lines) + "\n")
    _memory[:] = [snapshot]


def toggle_profile(path: Path) -> None:
    """SIGUSR2 in the server: start a cProfile, or stop it and dump its stats to `path`."""
    import cProfile

    if not _profiler:
        _profiler.append(cProfile.Profile())
        _profiler[0].enable()
        return
    profiler = _profiler.pop()
    profiler.disable()
    profiler.dump_stats(path)


def record_timing() -> dict[str, list[Any]]:
    """Server side: when each session received input and when it sent output (monotonic clock),
    so that server latency can be told apart from the clients' own work (pyte parsing)."""
    from harena.server.transport.session import AppSession

    timing: dict[str, list[Any]] = {"received": [], "sent": [], "gc": []}
    data_received, send = AppSession.data_received, AppSession._send
    gc_started: list[float] = []

    def gc_callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            gc_started[:] = [time.monotonic()]
        elif gc_started:
            now = time.monotonic()
            timing["gc"].append((f"gen{info['generation']}", now - gc_started[0], now))

    gc.callbacks.append(gc_callback)

    def timed_data_received(self: AppSession, data: bytes, datatype: object) -> None:
        timing["received"].append((self._identity, time.monotonic()))
        data_received(self, data, datatype)

    def timed_send(self: AppSession, data: bytes) -> None:
        send(self, data)
        timing["sent"].append((self._identity, time.monotonic()))

    AppSession.data_received = timed_data_received
    AppSession._send = timed_send
    return timing


def gc_total(timing: dict[str, list[Any]], since: float) -> str:
    """All the server's GC pauses that ended after `since`: how many, and their total."""
    pauses = [seconds for _kind, seconds, end in timing["gc"] if end > since]
    return f"{len(pauses)} collections, {sum(pauses) * 1000:.0f} ms in all"


def gc_pauses(timing: dict[str, list[Any]], since: float) -> list[tuple[str, int]]:
    """The server's GC pauses longer than 5 ms that ended after `since` (monotonic clock)."""
    return [
        (kind, round(seconds * 1000))
        for kind, seconds, end in timing["gc"]
        if end > since and seconds > 0.005
    ]


def loop_lag(timing: dict[str, list[Any]], since: float, until: float = float("inf")) -> str:
    """The server's event-loop lag (`server/hosting/loop_lag.py`: how late a timer due every
    50 ms ran) between `since` and `until`: percentiles and a histogram."""
    from harena.server.hosting.loop_lag import BUCKETS

    lags = [lag for at, lag in timing.get("lag", []) if since < at <= until]
    if not lags:
        return "n/a"
    counts = [0] * (len(BUCKETS) + 1)
    for lag in lags:
        counts[next((i for i, b in enumerate(BUCKETS) if lag <= b), len(BUCKETS))] += 1
    bounds = [f"<={b * 1000:g}" for b in BUCKETS] + [f">{BUCKETS[-1] * 1000:g}"]
    histogram = " ".join(f"{b}:{c}" for b, c in zip(bounds, counts, strict=True) if c)
    return f"{describe(lags, 'ms', 1000)} ({len(lags)} samples; ms buckets {histogram})"


def server_latencies(timing: dict[str, list[list]], tables: list[list[str]]) -> list[float]:
    """For each keypress the server received: seconds until the last output it caused was sent
    to a session at the same table (before the next keypress at that table, within 2 s)."""
    table_of = {identity: index for index, players in enumerate(tables) for identity in players}
    received: dict[int, list[float]] = {}
    sent: dict[int, list[float]] = {}
    for identity, at in timing["received"]:
        received.setdefault(table_of.get(identity, -1), []).append(at)
    for identity, at in timing["sent"]:
        sent.setdefault(table_of.get(identity, -1), []).append(at)
    latencies = []
    for table, keys in received.items():
        keys.sort()
        outputs = sorted(sent.get(table, []))
        for index, start in enumerate(keys):
            end = min(keys[index + 1] if index + 1 < len(keys) else start + 2.0, start + 2.0)
            last = [at for at in outputs if start <= at < end]
            if last:
                latencies.append(max(last) - start)
    return latencies


class ServerProcess:
    """The server child process: `script --serve WORKDIR` (this file's `run_server` unless
    another benchmark brings its own)."""

    def __init__(
        self, tables: list[list[str]], workdir: Path, script: Path = Path(__file__)
    ) -> None:
        self.workdir = workdir
        (workdir / "tables.json").write_text(json.dumps(tables))
        (workdir / "port").unlink(missing_ok=True)
        self.proc = subprocess.Popen(
            [sys.executable, str(script.resolve()), "--serve", str(workdir)], cwd=REPO
        )

    async def port(self) -> int:
        for _ in range(300):
            path = self.workdir / "port"
            if path.exists() and path.read_text():
                return int(path.read_text())
            await asyncio.sleep(0.05)
        raise RuntimeError("the server did not start")

    def rss_kb(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def cpu_seconds(self, kernel: bool = False) -> float:
        """CPU time the server used so far: user and system, or system (`kernel`) only. On
        the loopback, the kernel's part includes delivering what the server sends to the
        clients (TCP receive, waking them): far more than a send costs over a real network."""
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        used = int(fields[12]) if kernel else int(fields[11]) + int(fields[12])
        return used / os.sysconf("SC_CLK_TCK")

    async def timing(self) -> dict[str, list[list]]:
        """The server's input/output timestamps so far (see `record_timing`)."""
        path = self.workdir / "timing.json"
        path.unlink(missing_ok=True)
        self.proc.send_signal(signal.SIGUSR1)
        for _ in range(100):
            await asyncio.sleep(0.05)
            if path.exists():
                try:
                    return json.loads(path.read_text())
                except ValueError:
                    continue  # still being written
        return {"received": [], "sent": []}

    def pin(self, cpu: int) -> None:
        """Keep every thread of the server on CPU `cpu` (Linux)."""
        for task in Path(f"/proc/{self.proc.pid}/task").iterdir():
            os.sched_setaffinity(int(task.name), {cpu})

    def sample_stacks(self, seconds: float) -> subprocess.Popen[bytes] | None:
        """With HARENA_BENCH_PYSPY=path, py-spy samples the server for `seconds` into `path`
        (flame graph SVG, or raw collapsed stacks if the path ends in .txt), at
        HARENA_BENCH_PYSPY_RATE samples a second (100)."""
        out = os.environ.get("HARENA_BENCH_PYSPY")
        if not out:
            return None
        spy = str(Path(sys.executable).with_name("py-spy"))
        kind = "raw" if out.endswith(".txt") else "flamegraph"
        return subprocess.Popen(
            [spy, "record", "-d", str(max(1, int(seconds))), "-f", kind, "--nonblocking"]
            + ["-r", os.environ.get("HARENA_BENCH_PYSPY_RATE", "100")]
            + ["-p", str(self.proc.pid), "-o", out],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def toggle_profile(self) -> None:
        """Start or stop the server's profiler (only with HARENA_BENCH_PROFILE set)."""
        if os.environ.get("HARENA_BENCH_PROFILE"):
            self.proc.send_signal(signal.SIGUSR2)

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


# --- clients --------------------------------------------------------------------------------------


def make_keys(n: int) -> list[asyncssh.SSHKey]:
    return [asyncssh.generate_private_key("ssh-ed25519") for _ in range(n)]


def identity(key: asyncssh.SSHKey) -> str:
    return key.get_fingerprint("sha256")


async def connect(port: int, key: asyncssh.SSHKey, name: str) -> tuple[ScreenClient, float, int]:
    """A seated player's session; returns it, seconds to a settled first screen, and its bytes."""
    start = time.monotonic()
    client = await ScreenClient.connect(
        port, username=name, size=SIZE, client_keys=[key], agent_path=None, known_hosts=None
    )
    await client.wait_until(lambda: "total" in client.screen_text(), 20, "the table screen")
    await client.wait_quiet(0.3, 20)
    return client, client.last_received_at - start, client.bytes_received


def shows_total(client: ScreenClient, total: int) -> bool:
    return re.search(rf"total\D{{0,3}}{total}\b", client.screen_text()) is not None


async def move(
    actor: ScreenClient, watchers: list[ScreenClient], total_after: int
) -> tuple[float, list[int]]:
    """The actor presses 1 (add 1); returns the time until every screen shows the new total and
    the bytes each watcher received for it."""
    before = [c.bytes_received for c in watchers]
    start = time.monotonic()
    actor.send("1")
    await asyncio.gather(
        *(
            c.wait_until(lambda c=c: shows_total(c, total_after), 10, f"total {total_after}")
            for c in [actor, *watchers]
        )
    )
    latency = time.monotonic() - start
    await asyncio.gather(*(c.wait_quiet(0.15, 10) for c in watchers))
    return latency, [c.bytes_received - b for c, b in zip(watchers, before, strict=False)]


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def describe(values: list[float], unit: str, scale: float = 1.0) -> str:
    if not values:
        return "n/a"
    return (
        f"median {statistics.median(values) * scale:.1f} {unit}, p95 {pct(values, 95) * scale:.1f} {unit}, "
        f"max {max(values) * scale:.1f} {unit}"
    )


async def idle_bytes(clients: list[ScreenClient], seconds: float = 3.0) -> float:
    await asyncio.gather(*(c.wait_quiet(0.3, 10) for c in clients))
    before = sum(c.bytes_received for c in clients)
    await asyncio.sleep(seconds)
    return (sum(c.bytes_received for c in clients) - before) / seconds


async def connect_all(
    port: int, keys: list[asyncssh.SSHKey], batch: int = 10
) -> tuple[list[ScreenClient], list[float], list[int]]:
    clients, times, first = [], [], []
    for i in range(0, len(keys), batch):
        results = await asyncio.gather(
            *(connect(port, k, f"p{i + j}") for j, k in enumerate(keys[i : i + batch]))
        )
        for client, seconds, nbytes in results:
            clients.append(client)
            times.append(seconds)
            first.append(nbytes)
    return clients, times, first


# --- scenarios ----------------------------------------------------------------------------------


async def table10(workdir: Path, moves: int) -> None:
    keys = make_keys(10)
    tables = [[identity(k) for k in keys]]
    server = ServerProcess(tables, workdir)
    try:
        port = await server.port()
        await asyncio.sleep(0.5)
        rss_empty = server.rss_kb()
        first, _secs, nbytes = await connect(port, keys[0], "p0")
        rss_one = server.rss_kb()
        rest, _, rest_bytes = await connect_all(port, keys[1:])
        clients = [first, *rest]
        rss_all = server.rss_kb()
        latencies, update_bytes = [], []
        cpu_before, kernel_before = server.cpu_seconds(), server.cpu_seconds(kernel=True)
        server.toggle_profile()
        moves_started = time.monotonic()
        for n in range(moves):
            actor = clients[n % 10]
            latency, sizes = await move(actor, [c for c in clients if c is not actor], n + 1)
            latencies.append(latency)
            update_bytes.extend(sizes)
        cpu = server.cpu_seconds() - cpu_before
        kernel = server.cpu_seconds(kernel=True) - kernel_before
        server.toggle_profile()
        served = server_latencies(await server.timing(), tables)
        if os.environ.get("HARENA_BENCH_VERBOSE"):
            print("  per move (ms), client:", [round(x * 1000) for x in latencies])
            print("  per move (ms), server:", [round(x * 1000) for x in served])
            print(
                "  GC pauses over 5 ms during the moves (ms):",
                gc_pauses(await server.timing(), moves_started),
            )
            print("  GC during the moves:", gc_total(await server.timing(), moves_started))
        idle = await idle_bytes(clients)
        print(f"table10: one table, 10 seated sessions, {moves} moves")
        print(
            f"  RSS: empty server {rss_empty / 1024:.1f} MB, first session +{(rss_one - rss_empty) / 1024:.2f} MB, "
            f"per extra session {(rss_all - rss_one) / 9 / 1024:.2f} MB"
        )
        print(
            f"  first screen at 80x24: {describe([float(b) for b in [nbytes, *rest_bytes]], 'B')}"
        )
        print(
            f"  bytes per remote update at 80x24: {describe([float(b) for b in update_bytes], 'B')}"
        )
        print(f"  keypress to last screen: {describe(latencies, 'ms', 1000)}")
        print(f"  (server side, key received to last screen sent: {describe(served, 'ms', 1000)})")
        print(
            f"  server CPU per move (10 screens): {cpu / moves * 1000:.1f} ms "
            f"(in the kernel {kernel / moves * 1000:.1f} ms)"
        )
        print(f"  idle: {idle:.1f} B/s over all 10 sessions")
        await asyncio.gather(*(c.close() for c in clients))
    finally:
        server.stop()


async def busy100(workdir: Path, seconds: float, sessions: int = 100, pin: bool = False) -> None:
    keys = make_keys(sessions)
    tables = [[identity(k) for k in keys[i : i + 5]] for i in range(0, sessions, 5)]
    server = ServerProcess(tables, workdir)
    try:
        port = await server.port()
        if pin:
            server.pin(0)
        await asyncio.sleep(0.5)
        rss_empty = server.rss_kb()
        connect_started = time.monotonic()
        cpu_before_connect = server.cpu_seconds()
        clients, connect_times, first = await connect_all(port, keys, batch=max(10, sessions // 40))
        connect_took = time.monotonic() - connect_started
        connect_cpu = server.cpu_seconds() - cpu_before_connect
        await asyncio.sleep(1.0)
        rss_all = server.rss_kb()
        latencies: list[float] = []
        update_bytes: list[int] = []
        cpu_before, kernel_before = server.cpu_seconds(), server.cpu_seconds(kernel=True)
        server.toggle_profile()
        spy = server.sample_stacks(seconds)
        moves_started = time.monotonic()
        deadline = time.monotonic() + seconds

        failures: list[int] = []

        async def run_table(t: int) -> int:
            seated = clients[t * 5 : t * 5 + 5]
            await asyncio.sleep(2.0 * t / len(tables))  # stagger the tables over the 2 s period
            n = 0
            while time.monotonic() < deadline:
                started = time.monotonic()
                actor = seated[n % 5]
                try:
                    latency, sizes = await move(actor, [c for c in seated if c is not actor], n + 1)
                except TimeoutError:
                    failures.append(t)  # a screen never showed it (10 s): counted, not fatal
                else:
                    latencies.append(latency)
                    update_bytes.extend(sizes)
                n += 1
                await asyncio.sleep(max(0.0, 2.0 - (time.monotonic() - started)))
            return n

        counts = await asyncio.gather(*(run_table(t) for t in range(len(tables))))
        moves_ended = time.monotonic()
        cpu = server.cpu_seconds() - cpu_before
        kernel = server.cpu_seconds(kernel=True) - kernel_before
        server.toggle_profile()
        if spy is not None:
            spy.wait()
        timing = await server.timing()
        served = server_latencies(timing, tables)
        moves = sum(counts)
        idle = await idle_bytes(clients)
        print(
            f"busy{sessions}: {sessions} sessions at {len(tables)} tables of 5, a move per table "
            f"every 2 s for {seconds:.0f} s ({moves} moves){'; server pinned to CPU 0' if pin else ''}"
        )
        print(
            f"  RSS: empty server {rss_empty / 1024:.1f} MB, with {sessions} sessions "
            f"{rss_all / 1024:.1f} MB, per session {(rss_all - rss_empty) / sessions / 1024:.2f} MB"
        )
        print(
            f"  connecting all (batches of {max(10, sessions // 40)}): {connect_took:.1f} s, "
            f"server CPU {connect_cpu / sessions * 1000:.1f} ms per session"
        )
        print(
            f"  first screen: {describe([float(b) for b in first], 'B')}; connect to settled screen {describe(connect_times, 'ms', 1000)}"
        )
        print(f"  bytes per remote update: {describe([float(b) for b in update_bytes], 'B')}")
        print(
            f"  keypress to last screen at the table: {describe(latencies, 'ms', 1000)}; "
            f"{len(failures)} moves not shown within 10 s; "
            f"{sum(c.closed for c in clients)} sessions closed"
        )
        if os.environ.get("HARENA_BENCH_VERBOSE"):
            print(
                "  GC pauses over 5 ms during the moves (ms):",
                gc_pauses(await server.timing(), moves_started),
            )
            print("  GC during the moves:", gc_total(await server.timing(), moves_started))
        print(f"  (server side, key received to last screen sent: {describe(served, 'ms', 1000)})")
        print(f"  server loop lag during the moves: {loop_lag(timing, moves_started, moves_ended)}")
        print(
            f"  server CPU per move (5 screens): {cpu / max(moves, 1) * 1000:.1f} ms "
            f"({cpu / max(moves, 1) / 5 * 1000:.2f} ms per screen update, "
            f"{kernel / max(moves, 1) / 5 * 1000:.2f} ms of it in the kernel); "
            f"server CPU use {cpu / (moves_ended - moves_started) * 100:.0f}% of one core"
        )
        print(f"  idle: {idle:.1f} B/s over all {sessions} sessions")
        await asyncio.gather(*(c.close() for c in clients))
    finally:
        server.stop()


async def watch(port: int, key: asyncssh.SSHKey, name: str, table_id: str) -> ScreenClient:
    """A spectator's session at table `table_id` (`ssh -t host table N`), its screen settled."""
    client = await ScreenClient.connect(
        port,
        username=name,
        size=SIZE,
        client_keys=[key],
        agent_path=None,
        known_hosts=None,
        command=f"table {table_id}",
    )
    await client.wait_until(lambda: "total" in client.screen_text(), 20, "the table screen")
    await client.wait_quiet(0.3, 20)
    return client


async def in_lobby(port: int, key: asyncssh.SSHKey, name: str) -> ScreenClient:
    """An idle player's session in the lobby, its screen settled."""
    client = await ScreenClient.connect(
        port, username=name, size=SIZE, client_keys=[key], agent_path=None, known_hosts=None
    )
    await client.wait_until(lambda: "#" in client.screen_text(), 20, "the lobby's list")
    await client.wait_quiet(0.3, 20)
    return client


def per_update(cpu: float, updates: int) -> str:
    return f"{cpu / max(updates, 1) * 1000:.2f} ms"


async def spectate(workdir: Path, moves: int, spectators: int = 100, pin: bool = False) -> None:
    """One table of 5 players and `spectators` watching it: every spectator's screen shows the
    same public view, so its work should be done once per move, not once per spectator."""
    keys = make_keys(5 + spectators)
    tables = [[identity(k) for k in keys[:5]]]
    server = ServerProcess(tables, workdir)
    try:
        port = await server.port()
        if pin:
            server.pin(0)
        table_id = json.loads((workdir / "ids.json").read_text())[0]
        players, _, _ = await connect_all(port, keys[:5])
        watchers: list[ScreenClient] = []
        for i in range(5, len(keys), 10):
            watchers += await asyncio.gather(
                *(watch(port, k, f"w{i + j}", table_id) for j, k in enumerate(keys[i : i + 10]))
            )
        await asyncio.sleep(1.0)
        latencies: list[float] = []
        update_bytes: list[int] = []
        cpu_before = server.cpu_seconds()
        server.toggle_profile()
        spy = server.sample_stacks(moves * 0.3)
        for n in range(moves):
            actor = players[n % 5]
            others = [c for c in players if c is not actor]
            latency, sizes = await move(actor, others + watchers, n + 1)
            latencies.append(latency)
            update_bytes.extend(sizes[len(others) :])
        cpu = server.cpu_seconds() - cpu_before
        server.toggle_profile()
        if spy is not None:
            spy.wait()
        print(f"spectate: one table of 5 players, {spectators} spectators, {moves} moves")
        print(f"  bytes per spectator update: {describe([float(b) for b in update_bytes], 'B')}")
        print(f"  keypress to last screen: {describe(latencies, 'ms', 1000)}")
        print(
            f"  server CPU per move ({5 + spectators} screens): {cpu / moves * 1000:.1f} ms "
            f"({per_update(cpu, moves * (5 + spectators))} per screen update)"
        )
        await asyncio.gather(*(c.close() for c in [*players, *watchers]))
    finally:
        server.stop()


async def lobby(workdir: Path, changes: int, sessions: int = 100, pin: bool = False) -> None:
    """`sessions` players idle in the lobby while one table's line changes `changes` times:
    everyone sees the same list, so it should be drawn once per change, not once per player."""
    keys = make_keys(sessions)
    tables = [[identity(k) for k in make_keys(2)]]  # nobody of them connects
    server = ServerProcess(tables, workdir)
    try:
        port = await server.port()
        if pin:
            server.pin(0)
        clients: list[ScreenClient] = []
        for i in range(0, sessions, 10):
            clients += await asyncio.gather(
                *(in_lobby(port, k, f"l{i + j}") for j, k in enumerate(keys[i : i + 10]))
            )
        await asyncio.sleep(1.0)
        latencies: list[float] = []
        update_bytes: list[int] = []
        cpu_before = server.cpu_seconds()
        server.toggle_profile()
        spy = server.sample_stacks(changes * 0.3)
        for n in range(changes):
            before = [c.bytes_received for c in clients]
            start = time.monotonic()
            server.proc.send_signal(signal.SIGHUP)
            watched = n % 2 == 0
            await asyncio.gather(
                *(
                    c.wait_until(
                        lambda c=c, w=watched: ("Watching: watcher" in c.screen_text()) == w,
                        10,
                        "the change",
                    )
                    for c in clients
                )
            )
            latencies.append(time.monotonic() - start)
            await asyncio.gather(*(c.wait_quiet(0.15, 10) for c in clients))
            update_bytes += [c.bytes_received - b for c, b in zip(clients, before, strict=True)]
        cpu = server.cpu_seconds() - cpu_before
        server.toggle_profile()
        if spy is not None:
            spy.wait()
        print(f"lobby: {sessions} players in the lobby, {changes} changes of a table's line")
        print(f"  bytes per lobby update: {describe([float(b) for b in update_bytes], 'B')}")
        print(f"  change to last screen: {describe(latencies, 'ms', 1000)}")
        print(
            f"  server CPU per change ({sessions} screens): {cpu / changes * 1000:.1f} ms "
            f"({per_update(cpu, changes * sessions)} per screen update)"
        )
        await asyncio.gather(*(c.close() for c in clients))
    finally:
        server.stop()


async def handshake(port: int, key: asyncssh.SSHKey, name: str) -> None:
    """An SSH connection that authenticates and closes without opening a session: the cost of
    the key exchange and authentication alone."""
    conn = await asyncssh.connect(
        "127.0.0.1", port, username=name, client_keys=[key], agent_path=None, known_hosts=None
    )
    conn.close()
    await conn.wait_closed()


async def connect50(workdir: Path, sessions: int = 50, pin: bool = False) -> None:
    keys = make_keys(sessions)
    tables = [[identity(k) for k in keys[i : i + 5]] for i in range(0, sessions, 5)]
    server = ServerProcess(tables, workdir)
    try:
        port = await server.port()
        if pin:
            server.pin(0)
        await asyncio.sleep(0.5)
        # The SSH key exchange and authentication alone (no session), in the same waves.
        cpu_before = server.cpu_seconds()
        await asyncio.gather(*(handshake(port, k, f"p{i}") for i, k in enumerate(keys)))
        await asyncio.sleep(0.5)  # the server's side of the closing
        handshake_cpu = server.cpu_seconds() - cpu_before
        rss_empty = server.rss_kb()
        if os.environ.get("HARENA_BENCH_TRACEMALLOC"):
            await server.timing()  # the baseline of the memory dump
        cpu_before = server.cpu_seconds()
        server.toggle_profile()
        spy = server.sample_stacks(max(1.0, sessions / 40))
        start = time.monotonic()
        results = await asyncio.gather(*(connect(port, k, f"p{i}") for i, k in enumerate(keys)))
        total = time.monotonic() - start
        server.toggle_profile()
        cpu = server.cpu_seconds() - cpu_before
        await asyncio.sleep(1.0)
        rss_all = server.rss_kb()
        if os.environ.get("HARENA_BENCH_TRACEMALLOC"):
            await server.timing()  # what the sessions hold
        if spy is not None:
            spy.wait()
        times = [r[1] for r in results]
        print(f"connect{sessions}: {sessions} sessions connecting at once")
        print(
            f"  every screen settled after {total:.2f} s; per session {describe(times, 'ms', 1000)}"
        )
        print(
            f"  server CPU per connection (SSH handshake, app start, first screen): {cpu / sessions * 1000:.1f} ms; "
            f"the SSH key exchange and authentication alone {handshake_cpu / sessions * 1000:.1f} ms, "
            f"harena's part {(cpu - handshake_cpu) / sessions * 1000:.1f} ms"
        )
        print(f"  RSS per session {(rss_all - rss_empty) / sessions / 1024:.2f} MB")
        await asyncio.gather(*(r[0].close() for r in results))
    finally:
        server.stop()


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        if args.quick:  # CI: every scenario completes and prints its figures, on a tiny load
            args.moves, args.seconds, sessions = 3, 2.0, 10
        else:
            sessions = args.sessions  # 0: each scenario's own
        if args.pin:  # the server gets CPU 0 (see ServerProcess.pin), the clients CPU 1
            os.sched_setaffinity(0, {1})
        if args.scenario in ("table10", "all"):
            await table10(workdir, args.moves)
        if args.scenario in ("busy100", "all"):
            await busy100(workdir, args.seconds, sessions or 100, args.pin)
        if args.scenario in ("connect50", "all"):
            await connect50(workdir, sessions or 50, args.pin)
        if args.scenario in ("spectate", "all"):
            await spectate(workdir, args.moves, sessions or 100, args.pin)
        if args.scenario in ("lobby", "all"):
            await lobby(workdir, args.moves, sessions or 100, args.pin)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        run_server(Path(sys.argv[2]))
        sys.exit(0)
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--scenario",
        default="all",
        choices=["table10", "busy100", "connect50", "spectate", "lobby", "all"],
    )
    parser.add_argument(
        "--moves", type=int, default=30, help="moves in table10 and spectate, changes in lobby"
    )
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the busy100 run")
    parser.add_argument(
        "--sessions",
        type=int,
        default=0,
        help="sessions for busy100, connect50 (100, 50), spectate and lobby (100)",
    )
    parser.add_argument(
        "--pin", action="store_true", help="the server on CPU 0, the clients on CPU 1 (Linux)"
    )
    parser.add_argument(
        "--quick", action="store_true", help="a tiny workload (CI): 3 moves, 10 sessions, 2 s"
    )
    asyncio.run(main(parser.parse_args()))
