"""Hostile clients against `harena serve` (issue 12): what the other players feel, and the caps.

    python bench/hostile.py [--scenario flood|toggle|cycles|caps|all] [--toggle-seconds 30]

Scenarios (a fresh server process for each, default limits unless said):
- flood: 4 players at one table take turns (keypress to every screen at the table) while 8
  hostile sessions (another address, one key each) send a 16 KB burst and then `jk` at the
  byte limit (2 KB/s), then the same with every screen one key opens from the lobby, opened
  and closed (`DIALOGS_AND_KEYS`; --floods picks some). Prints the players' p95 without and with the flood, the longest
  loop stall and GC pause, and the server's CPU.
- toggle: one session toggles each of those screens (a server for each), at its limit for
  --toggle-seconds; RSS growth while it runs and after it closes, the longest full
  collection and loop stall.
- cycles: --cycles connect/disconnect cycles; the longest collection and loop stall.
- caps: silent TCP sockets, connections past the per-address, per-key and global caps, channels
  past the per-connection cap: what each cap refused, and whether a real client still got in.

HARENA_BENCH_VERBOSE=1 makes the server log every full collection (kind, objects freed, ms).
The loop stall is measured inside the server (a 5 ms sleep that wakes late); figures, not
pass/fail: the machine is shared and noisy, compare within one run.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import signal
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

from bench.quick import parse_args  # noqa: E402
from bench.ssh_load import (  # noqa: E402
    ServerProcess,
    connect,
    describe,
    identity,
    make_keys,
    move,
)
from tests.sshscreen import ScreenClient  # noqa: E402

HOSTILE_ADDRESS = "127.0.0.2"
DIALOGS_AND_KEYS = (
    ("jk", b"jk"),
    ("??", b"?"),
    ("n Esc", b"n\x1b[27u"),
    ("q n", b"qn"),
    ("h Esc", b"h\x1b[27u"),
    ("r Esc", b"r\x1b[27u"),
    ("w Esc", b"w\x1b[27u"),
)
"""What the hostile sessions send in the lobby: the table list scrolled; then every screen one
key opens from the lobby, opened and closed: the help (`?` toggles it), the new-table dialog,
the quit question (answered no), the history, the leaderboard, and the players' table watched
and left. Esc is sent as CSI 27 u: a bare ESC followed by a key reads as Alt plus that key."""
STALL_TICK = 0.005


# --- the server process -------------------------------------------------------------------------


def run_server(workdir: Path) -> None:
    """Child process: a HarenaServer with `limits.json`'s limits, the tables of `tables.json`
    pre-seated, and a loop-stall monitor; SIGUSR1 dumps the figures to `timing.json`."""
    import logging

    from bench.tally_game import install
    from harena.server.common.limits import ServerLimits
    from harena.server.service.ssh_server import HarenaServer, ServerConfig

    logging.basicConfig(level=logging.ERROR)
    if os.environ.get("HARENA_BENCH_VERBOSE"):
        logging.getLogger("harena.server.hosting.gc_policy").setLevel(
            logging.INFO
        )  # each collection
        logging.getLogger("harena.server.hosting.dismantle").setLevel(logging.DEBUG)
    install()
    spec = json.loads((workdir / "tables.json").read_text())
    limits = json.loads((workdir / "limits.json").read_text())
    timing: dict[str, Any] = {
        "gc": record_gc_pauses(),
        "stalls": [],
        "slow": [],
        "loop": record_loop_time(),
    }
    if os.environ.get("HARENA_BENCH_VERBOSE"):
        record_slow_callbacks(timing["slow"])

    async def watch_stalls() -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(STALL_TICK)
            late = loop.time() - before - STALL_TICK
            if late > 0.002:
                timing["stalls"].append((late, time.monotonic()))

    async def main() -> None:
        config = ServerConfig(
            port=0, keys_dir=workdir / "keys", data_dir=None, limits=ServerLimits(**limits)
        )
        server = HarenaServer(config)
        for players in spec:
            table = server.lobby.create_table(players[0], "p0", "tally", len(players))
            for seat, player in enumerate(players[1:], start=1):
                table.sit(player, f"p{seat}")
        await server.start()
        (workdir / "port").write_text(str(server.port))
        loop = asyncio.get_running_loop()
        stop = asyncio.Event()
        loop.add_signal_handler(signal.SIGTERM, stop.set)

        def dump() -> None:
            timing["refused"] = server.refused
            (workdir / "timing.json").write_text(json.dumps(timing))
            for key in ("gc", "stalls", "slow", "loop"):
                timing[key].clear()  # each phase reads what came after its start only

        loop.add_signal_handler(signal.SIGUSR1, dump)
        watcher = loop.create_task(watch_stalls())
        await stop.wait()
        watcher.cancel()
        await server.stop()

    asyncio.run(main())


def record_gc_pauses(over: float = 0.001) -> list[Any]:
    """Server side: every collection longer than `over` seconds (generation, seconds, end).
    Only the long ones are kept: the lists must not grow the RSS this benchmark measures."""
    pauses: list[Any] = []
    started: list[float] = []

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[:] = [time.monotonic()]
        elif started:
            now = time.monotonic()
            if now - started[0] > over:
                pauses.append((f"gen{info['generation']}", now - started[0], now))

    gc.callbacks.append(callback)
    return pauses


def record_loop_time() -> dict[str, float]:
    """Server side: the loop's busy seconds by the player whose app a callback ran for ("" for
    none: the SSH layer, the server's own timers)."""
    import asyncio.events

    from textual._context import active_app

    seconds: dict[str, float] = {}
    run = asyncio.events.Handle._run

    def _run(self: asyncio.events.Handle) -> None:
        start = time.perf_counter()
        run(self)
        app = self._context.get(active_app)
        name = "" if app is None else getattr(app, "player_name", "?")
        seconds[name] = seconds.get(name, 0.0) + time.perf_counter() - start

    asyncio.events.Handle._run = _run
    return seconds


def record_slow_callbacks(slow: list[Any], over: float = 0.02) -> None:
    """Server side: every loop callback that ran longer than `over` seconds (what, ms, when)."""
    import asyncio.events

    run = asyncio.events.Handle._run

    def _run(self: asyncio.events.Handle) -> None:
        start = time.perf_counter()
        run(self)
        took = time.perf_counter() - start
        if took > over:
            slow.append((repr(self)[:160], round(took * 1000), time.monotonic()))

    asyncio.events.Handle._run = _run


def start_server(workdir: Path, tables: list[list[str]], **limits: Any) -> ServerProcess:
    (workdir / "limits.json").write_text(json.dumps({"login_timeout": 60, **limits}))
    return ServerProcess(tables, workdir, script=Path(__file__))


def longest(values: list[Any], since: float, index: int = 0, when: int = -1) -> float:
    """The longest of `values[i][index]` whose time `values[i][when]` is after `since` (ms)."""
    return max((v[index] for v in values if v[when] > since), default=0.0) * 1000


def print_slowest(timing: dict[str, Any], since: float, indent: str) -> None:
    """With HARENA_BENCH_VERBOSE, the five slowest loop callbacks and collections since `since`."""
    if os.environ.get("HARENA_BENCH_VERBOSE"):
        slow = sorted((s for s in timing["slow"] if s[-1] > since), key=lambda s: -s[1])
        print(f"{indent}slowest callbacks (ms):", [(what, ms) for what, ms, _ in slow[:5]])
        pauses = sorted((p for p in timing["gc"] if p[-1] > since), key=lambda p: -p[1])
        longest_ms = [(kind, round(seconds * 1000)) for kind, seconds, _ in pauses[:5]]
        print(f"{indent}longest collections (ms):", longest_ms)


def gc_longest(timing: dict[str, Any], since: float, until: float = float("inf")) -> float:
    return (
        max((seconds for _kind, seconds, end in timing["gc"] if since < end <= until), default=0.0)
        * 1000
    )


# --- clients ------------------------------------------------------------------------------------


async def hostile(port: int, name: str, address: str = HOSTILE_ADDRESS) -> ScreenClient:
    client = await ScreenClient.connect(
        port, username=name, client_keys=[make_keys(1)[0]], agent_path=None, local_addr=(address, 0)
    )
    await client.wait_for_text("you are", 20)
    return client


async def flood(client: ScreenClient, pattern: bytes, until: float, rate: float = 1900.0) -> None:
    """A 16 KB burst, then `pattern` at `rate` bytes/s (under the 2048 B/s limit)."""
    client.send(pattern * (16000 // len(pattern)))
    chunk = pattern * max(1, int(rate / 10 / len(pattern)))
    while time.monotonic() < until and not client.closed:
        client.send(chunk)
        await asyncio.sleep(0.1)


async def table_moves(
    players: list[ScreenClient], seconds: float, first_total: int
) -> tuple[list[float], int]:
    """Players take turns for `seconds`, a move every 0.3 s; keypress to every screen, per move."""
    latencies: list[float] = []
    total = first_total
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        actor = players[(total) % len(players)]
        total += 1
        latency, _ = await move(actor, [p for p in players if p is not actor], total)
        latencies.append(latency)
        await asyncio.sleep(0.3)
    return latencies, total


# --- scenarios ----------------------------------------------------------------------------------


async def flood_scenario(workdir: Path, seconds: float, floods: str) -> None:
    keys = make_keys(4)
    server = start_server(workdir, [[identity(k) for k in keys]])
    try:
        port = await server.port()
        players = [(await connect(port, key, f"p{i}"))[0] for i, key in enumerate(keys)]
        quiet, total = await table_moves(players, seconds / 2, 0)
        print(
            "flood: 4 players at one table, a move every 0.3 s; 8 hostile sessions from another address"
        )
        print(f"  no flood:               keypress to every screen {describe(quiet, 'ms', 1000)}")
        for label, pattern in chosen(floods):
            attackers = await asyncio.gather(*(hostile(port, f"h{i}") for i in range(8)))
            await server.timing()  # the figures start afresh: the flood's, not the logins'
            cpu_before, since = server.cpu_seconds(), time.monotonic()
            until = since + seconds
            flooding = [asyncio.ensure_future(flood(a, pattern, until)) for a in attackers]
            await asyncio.sleep(0.1)  # the moves measured include the 16 KB bursts landing
            latencies, total = await table_moves(players, seconds - 0.6, total)
            await asyncio.gather(*flooding)
            cpu = (server.cpu_seconds() - cpu_before) / (time.monotonic() - since)
            timing = await server.timing()
            print(
                f"  8 sessions flooding {label:<5}  keypress to every screen {describe(latencies, 'ms', 1000)}"
            )
            print(
                f"      longest loop stall {longest(timing['stalls'], since):.0f} ms, longest GC pause "
                f"{gc_longest(timing, since):.0f} ms, server CPU {cpu * 100:.0f}% of a core"
            )
            elapsed = time.monotonic() - since
            hostile_share = {n: t / elapsed for n, t in timing["loop"].items() if n.startswith("h")}
            print(
                f"      loop busy: busiest hostile session {max(hostile_share.values(), default=0) * 100:.1f}%, "
                f"the 8 together {sum(hostile_share.values()) * 100:.0f}%, "
                f"outside any app {timing['loop'].get('', 0.0) / elapsed * 100:.0f}%"
            )
            print_slowest(timing, since, "      ")
            await asyncio.gather(*(a.close() for a in attackers))
            await asyncio.sleep(4.0)  # their apps end and are collected before the next phase
        await asyncio.gather(*(p.close() for p in players))
    finally:
        server.stop()


def chosen(floods: str) -> list[tuple[str, bytes]]:
    """The patterns named by --floods (labels without spaces: `nEsc`), all when empty."""
    names = {f.replace(" ", "") for f in floods.split(",") if f}
    return [
        (label, keys)
        for label, keys in DIALOGS_AND_KEYS
        if not names or label.replace(" ", "") in names
    ]


async def toggle_scenario(workdir: Path, seconds: float, floods: str) -> None:
    for label, pattern in chosen(floods):
        if label == "jk":
            continue
        await toggle_one(workdir, seconds, label, pattern)


async def toggle_one(workdir: Path, seconds: float, label: str, pattern: bytes) -> None:
    server = start_server(workdir, [])
    try:
        port = await server.port()
        warm = await hostile(port, "warm")  # the first session's one-off costs (imports, CSS)
        await warm.close()
        await asyncio.sleep(3.0)
        rss_start = server.rss_kb()
        since = time.monotonic()
        client = await hostile(port, "toggler")
        samples = []
        until = time.monotonic() + seconds
        task = asyncio.ensure_future(flood(client, pattern, until))
        while time.monotonic() < until:
            await asyncio.sleep(min(5.0, max(0.1, until - time.monotonic())))
            samples.append(server.rss_kb())
        await task
        rss_during = server.rss_kb()
        await client.close()
        await asyncio.sleep(4.0)  # the session's collection
        rss_after = server.rss_kb()
        timing = await server.timing()
        print(f"toggle: one session sending {label} at 1.9 KB/s for {seconds:.0f} s")
        print(
            f"  RSS {rss_start / 1024:.1f} MB at start, +{(max(samples) - rss_start) / 1024:.1f} MB at most, "
            f"+{(rss_during - rss_start) / 1024:.1f} MB at the end, +{(rss_after - rss_start) / 1024:.1f} MB after it closed"
        )
        print(f"  RSS every 5 s (MB): {[round(s / 1024, 1) for s in samples]}")
        print(
            f"  longest GC pause {gc_longest(timing, since):.0f} ms, longest loop stall "
            f"{longest(timing['stalls'], since):.0f} ms"
        )
    finally:
        server.stop()


async def cycles_scenario(workdir: Path, cycles: int) -> None:
    server = start_server(workdir, [])
    try:
        port = await server.port()
        since = time.monotonic()
        started = time.monotonic()
        for i in range(cycles):
            client = await hostile(port, f"c{i}")
            await client.close()
        ended = time.monotonic()
        await asyncio.sleep(3.0)
        timing = await server.timing()
        print(
            f"cycles: {cycles} connect/disconnect cycles in {ended - started:.1f} s (refused: {timing['refused']})"
        )
        print(
            f"  while they ran: longest GC pause {gc_longest(timing, since, ended):.0f} ms, longest "
            f"loop stall {longest(timing['stalls'], since):.0f} ms; in the 3 s after (no session left: "
            f"when a deep collection may run): longest GC pause {gc_longest(timing, ended):.0f} ms"
        )
        print_slowest(timing, since, "  ")
    finally:
        server.stop()


async def refused(attempt: Any) -> bool:
    try:
        await attempt
    except (asyncssh.Error, OSError, TimeoutError):
        return True
    return False


async def caps_scenario(workdir: Path) -> None:
    server = start_server(workdir, [], max_connections=40)
    try:
        port = await server.port()
        # Silent sockets from one address, then a real client from the same address.
        sockets = [
            await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.3", 0))
            for _ in range(10)
        ]
        await asyncio.sleep(0.3)
        try:
            real = await hostile(port, "real", "127.0.0.3")
            got_in = True
            await real.close()
        except Exception:
            got_in = False
        for _reader, writer in sockets:
            writer.close()
        # Past the per-address cap (8), one after another (a burst of more than
        # --max-startups-per-ip at once would push the oldest pending logins out).
        clients = []
        for i in range(12):
            try:
                clients.append(await hostile(port, f"a{i}", "127.0.0.4"))
            except Exception:
                pass
        # Past the per-key cap (4).
        key = make_keys(1)[0]
        same_key = []
        for i in range(6):
            try:
                same_key.append(
                    await ScreenClient.connect(
                        port,
                        username="k",
                        client_keys=[key],
                        agent_path=None,
                        local_addr=(f"127.0.2.{i + 1}", 0),
                    )
                )
            except asyncssh.Error:
                pass
        # Past the channel cap (2) on one connection.
        conn = clients[0]._conn
        channels = 0
        for _ in range(4):
            try:
                await conn.create_session(
                    asyncssh.SSHClientSession, term_type="xterm", encoding=None
                )
                channels += 1
            except asyncssh.ChannelOpenError:
                pass
        # Past the global cap (40 for this run), from many addresses.
        many = []
        for i in range(40):
            try:
                many.append(await hostile(port, f"g{i}", f"127.0.3.{i + 1}"))
            except Exception:
                pass
        timing = await server.timing()
        print("caps: what each cap refused (max_startups: pending logins pushed out by newer ones)")
        print(
            f"  10 silent sockets, then a real client from the same address: "
            f"{'got in' if got_in else 'LOCKED OUT'}"
        )
        print(f"  12 connections from one address: {len(clients)} served")
        print(f"  6 connections of one key: {len(same_key)} served")
        print(f"  4 more channels on one connection: {channels} opened")
        print(
            f"  40 more connections from 40 addresses with --max-connections 40 and "
            f"{len(clients) + len(same_key)} open: {len(many)} served"
        )
        print(f"  refused by each cap: {timing['refused']}")
        for client in [*clients, *same_key, *many]:
            await client.close()
    finally:
        server.stop()


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        if args.scenario in ("flood", "all"):
            await flood_scenario(workdir, args.flood_seconds, args.floods)
        if args.scenario in ("toggle", "all"):
            await toggle_scenario(workdir, args.toggle_seconds, args.floods)
        if args.scenario in ("cycles", "all"):
            await cycles_scenario(workdir, args.cycles)
        if args.scenario in ("caps", "all"):
            await caps_scenario(workdir)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        run_server(Path(sys.argv[2]))
        sys.exit(0)
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--scenario", default="all", choices=["flood", "toggle", "cycles", "caps", "all"]
    )
    parser.add_argument("--flood-seconds", type=float, default=12.0, help="length of each flood")
    parser.add_argument(
        "--toggle-seconds", type=float, default=30.0, help="length of the toggling run"
    )
    parser.add_argument(
        "--floods",
        default="",
        help="the key patterns to flood and toggle, e.g. 'nEsc,qn' (default: all)",
    )
    parser.add_argument("--cycles", type=int, default=200, help="connect/disconnect cycles")
    asyncio.run(
        main(parse_args(parser, flood_seconds=1.0, toggle_seconds=2.0, floods="nEsc", cycles=5))
    )
