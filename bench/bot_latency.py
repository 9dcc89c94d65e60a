"""Other players' keypress-to-screen while search bots think (issue 27).

    python bench/bot_latency.py [--bots 10] [--moves 30] [--mode workers|loop|none|all]

A real `harena serve` process (bench/ssh_load.py's machinery): two players over SSH at a
benchmark table take turns pressing a key, while `--bots` search bots play Carthage at other
tables of the same server (two per table, each deciding with the server's 1 s budget).
Modes: `workers` (the server's default: they think in bot_workers' process pool), `loop` (no
workers: each thinks on the server's loop, with its iteration budget, to show what the pool
spares), `none` (no search bots: the baseline). Prints the players' keypress-to-last-screen
median and p95 per mode, and how many bot moves were made meanwhile. Figures, not pass/fail.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from bench.ssh_load import (  # noqa: E402
    ServerProcess,
    connect,
    describe,
    identity,
    make_keys,
    move,
)


def run_server(workdir: Path) -> None:
    """Child process: a HarenaServer with the players' table and the search bots' tables."""
    import logging

    from bench.tally_game import install
    from harena.server.service.ssh_server import HarenaServer, ServerConfig

    logging.basicConfig(level=logging.WARNING)
    install()
    spec = json.loads((workdir / "tables.json").read_text())
    mode = json.loads((workdir / "mode.json").read_text())

    async def main() -> None:
        config = ServerConfig(
            port=0, keys_dir=workdir / "keys", data_dir=None, bot_delay=0.05,
            bot_workers=2 if mode["mode"] == "workers" else 0, bot_seconds=1.0,
        )  # fmt: skip
        server = HarenaServer(config)
        players = spec[0]
        table = server.lobby.create_table(players[0], "p0", "tally", len(players))
        for seat, who in enumerate(players[1:], start=1):
            table.sit(who, f"p{seat}")
        bot_tables = []
        for k in range(mode["bots"] // 2):
            bot_tables.append(
                server.lobby.create_table(
                    f"bots{k}", "bots", "carthage", 2, sit=False, bots=2, bot_kind="search"
                )
            )
        await server.start()
        (workdir / "port").write_text(str(server.port))
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        loop.add_signal_handler(
            signal.SIGUSR1,
            lambda: (workdir / "bot_moves.json").write_text(
                json.dumps(sum(t.game.version for t in bot_tables))
            ),
        )
        await stop.wait()
        await server.stop()

    asyncio.run(main())


async def bot_moves(server: ServerProcess, workdir: Path) -> int:
    path = workdir / "bot_moves.json"
    path.unlink(missing_ok=True)
    server.proc.send_signal(signal.SIGUSR1)
    for _ in range(100):
        await asyncio.sleep(0.05)
        if path.exists() and path.read_text():
            return int(json.loads(path.read_text()))
    return -1


async def run(workdir: Path, mode: str, bots: int, moves: int) -> None:
    keys = make_keys(2)
    tables = [[identity(k) for k in keys]]
    (workdir / "mode.json").write_text(json.dumps({"mode": mode, "bots": bots}))
    server = ServerProcess(tables, workdir, Path(__file__))
    try:
        port = await server.port()
        try:
            clients = [(await connect(port, key, f"p{k}"))[0] for k, key in enumerate(keys)]
        except TimeoutError:
            shown = bots if mode != "none" else 0
            print(f"{mode:<8} {shown:>3} search bots: the players' table screens did not come")
            print("         within 20 s (the server's loop was busy thinking)")
            return
        before = await bot_moves(server, workdir)
        for _ in range(120 if mode != "none" else 0):  # the bots get going (the pool starts)
            await asyncio.sleep(0.5)
            if await bot_moves(server, workdir) > before + bots:
                break
        before = await bot_moves(server, workdir)
        began = time.monotonic()
        latencies = []
        for n in range(moves):
            actor = clients[n % 2]
            latency, _ = await move(actor, [c for c in clients if c is not actor], n + 1)
            latencies.append(latency)
            await asyncio.sleep(0.2)  # a player's pace
        elapsed = time.monotonic() - began
        made = await bot_moves(server, workdir) - before
        shown = bots if mode != "none" else 0
        print(
            f"{mode:<8} {shown:>3} search bots: keypress to last screen {describe(latencies, 'ms', 1000)}"
        )
        print(f"         bot moves meanwhile: {made} in {elapsed:.1f} s")
        await asyncio.gather(*(c.close() for c in clients))
    finally:
        server.stop()


async def main(args: argparse.Namespace) -> None:
    modes = ("none", "workers", "loop") if args.mode == "all" else (args.mode,)
    if args.quick and args.mode == "all":
        modes = ("none", "workers")  # bots thinking on the loop hold players for seconds
    for mode in modes:
        with tempfile.TemporaryDirectory() as tmp:
            await run(Path(tmp), mode, 0 if mode == "none" else args.bots, args.moves)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        run_server(Path(sys.argv[2]))
        sys.exit(0)
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--bots", type=int, default=10)
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--mode", default="all", choices=("workers", "loop", "none", "all"))
    parser.add_argument(
        "--quick", action="store_true", help="CI: 2 bots, 3 moves, without and with workers"
    )
    parsed = parser.parse_args()
    if parsed.quick:
        parsed.bots, parsed.moves = 2, 3
    asyncio.run(main(parsed))
