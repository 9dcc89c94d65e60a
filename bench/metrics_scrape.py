"""What `--metrics` costs the server's loop: one scrape (the census of sessions and tables, then
the text rendering) with many tables and sessions, and one observation on a hot path (a frame
sent, a screen built), against the same call with metrics off.

    python bench/metrics_scrape.py [--tables 400] [--sessions 2000] [--quick]

Sessions are stand-ins (an identity in the server's session list: the census reads nothing
else of them); tables are real, made through the lobby, half of them started.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from prometheus_client.exposition import generate_latest

from harena.server.operations.metrics import NO_METRICS, ServerMetrics
from harena.server.operations.metrics_http import MetricsAddress
from harena.server.service.ssh_server import HarenaServer, ServerConfig


class StandIn(NamedTuple):
    """A session as the census reads it."""

    identity: str
    number: int


async def run(tables: int, sessions: int, scrapes: int, observations: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        config = ServerConfig(
            port=0, keys_dir=Path(folder), bot_workers=0, metrics=MetricsAddress("127.0.0.1", 0)
        )
        server = HarenaServer(config)
        for i in range(tables):
            table = server.lobby.create_table(f"SHA256:p{i}a", f"a{i}", "carthage", 2)
            if i % 2:
                table.sit(f"SHA256:p{i}b", f"b{i}")
        for i in range(sessions):
            identity = f"SHA256:p{i // 2}{'ab'[i % 2]}"
            server.sessions[identity] = {StandIn(identity, i)}  # type: ignore[arg-type]
        metrics = server.metrics
        assert isinstance(metrics, ServerMetrics)

        began = time.perf_counter()
        for _ in range(scrapes):
            body = generate_latest(metrics.registry)
        scrape_ms = (time.perf_counter() - began) / scrapes * 1000

        def per_call(call: object) -> float:
            began = time.perf_counter()
            for _ in range(observations):
                call()  # type: ignore[operator]
            return (time.perf_counter() - began) / observations * 1e6

        key_at = time.perf_counter()
        on = per_call(lambda: metrics.frame_sent(240, key_at))
        off = per_call(lambda: NO_METRICS.frame_sent(240, key_at))
        built = per_call(lambda: metrics.screen_built(0.0004))
        print(f"{tables} tables, {sessions} sessions: {len(body)} bytes a scrape")
        print(f"  scrape (census + text): {scrape_ms:.2f} ms of the loop")
        print(f"  a frame sent: {on:.2f} us with metrics, {off:.2f} us without")
        print(f"  a screen built: {built:.2f} us")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=400)
    parser.add_argument("--sessions", type=int, default=2000)
    parser.add_argument("--quick", action="store_true", help="a tiny run (CI)")
    args = parser.parse_args()
    if args.quick:
        asyncio.run(run(20, 40, 5, 1000))
    else:
        asyncio.run(run(args.tables, args.sessions, 50, 100_000))


if __name__ == "__main__":
    main()
