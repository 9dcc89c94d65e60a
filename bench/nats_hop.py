"""What one message between two harena nodes costs in CPU, on each side.

    python bench/nats_hop.py [--rate 40,400] [--work 0,1000] [--seconds 20] [--quick]

A sender process publishes view-sized messages (a packed view of about 1 KB, in bursts of 3, as
a move's views to the seats on another node) at `--rate` messages a second, and a receiver
process, subscribed to 300 subjects (a seat each), unpacks every one on its event loop. Each
prints the CPU it used per message (the process's CPU time over the messages: the loop's own
wakeups included, as a node pays them). Both run with a node's GIL switch interval. `--work`:
microseconds of CPU the sender's loop spends between two messages of a burst, as a node
computes the next seat's view or draws a screen of its own between them (left out of the
figure): long enough, and the NATS thread takes the GIL in between.

Two ways, alternated: `thread` is harena's (server/cluster/link.py: the NATS client on a
thread of its own, `NatsLink.publish` handing it what a turn of the loop published in one hop,
`Inbox.post` handing what one read brought to the server's loop in one wakeup), and `loop` is
the NATS client on the server's own loop (no thread hop: what running it there would save;
docs/cluster.md). Run it from a copy of an older harena (the package on PYTHONPATH) for that
code's price. Figures, not pass/fail.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from harena.server.cluster import wire  # noqa: E402
from harena.server.cluster.natsd import LocalNats  # noqa: E402
from harena.server.cluster.node import SWITCH_INTERVAL  # noqa: E402

BURST = 3
END = "bench.end"  # the sender's last message: every view was sent before it
SUBJECTS = [f"bench.view.t{t}.{seat}" for t in range(60) for seat in range(5)]
VIEW = {
    "table": {"you": 1, "id": "t1", "seats": [["ann", "Ann", False, None, True]] * 5},
    "log": ["Ann played a card and moved two spaces"] * 20,
    "game": {"track": list(range(200))},
}


def busy(seconds: float) -> None:
    """Spend `seconds` of this thread's CPU (a view computed, a screen drawn)."""
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


async def send(mode: str, url: str, rate: float, seconds: float, work: float) -> dict[str, Any]:
    if mode == "thread":
        from harena.server.cluster.link import NatsLink, NatsSettings

        link = NatsLink(NatsSettings((url,), name="sender")).start()

        async def publish(subject: str, payload: bytes) -> None:
            link.publish(subject, payload, {"Harena-Now": "0"})  # returns at once: queued
    else:
        import nats

        nc = await nats.connect(url)

        async def publish(subject: str, payload: bytes) -> None:
            await nc.publish(subject, payload, headers={"Harena-Now": "0"})  # buffered

    await asyncio.sleep(1.0)  # the receiver's subscriptions settle
    cpu, began, sent, worked = time.process_time(), time.monotonic(), 0, 0.0
    while time.monotonic() - began < seconds:
        for n in range(BURST):
            if n and work:
                started = time.thread_time()
                busy(work)
                worked += time.thread_time() - started
            await publish(SUBJECTS[sent % len(SUBJECTS)], wire.pack(VIEW))
            sent += 1
        await asyncio.sleep(BURST / rate)
    used = time.process_time() - cpu - worked
    await publish(END, b"")
    await asyncio.sleep(0.5)
    return {"side": "sender", "messages": sent, "us": used / sent * 1e6}


async def receive(mode: str, url: str, seconds: float) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    got = [0]
    ended = asyncio.Event()

    def arrived(data: bytes, headers: dict[str, str] | None) -> None:
        wire.unpack(data)
        got[0] += 1

    if mode == "thread":
        from harena.server.cluster.inbox import Inbox
        from harena.server.cluster.link import NatsLink, NatsSettings

        link = NatsLink(NatsSettings((url,), name="receiver")).start()
        inbox = Inbox.of(loop)

        async def subscribe() -> None:
            assert link.nc is not None
            for subject in SUBJECTS:

                async def cb(msg: Any) -> None:
                    inbox.post(lambda: arrived(msg.data, msg.headers))

                await link.nc.subscribe(subject, cb=cb)

            async def end(msg: Any) -> None:
                inbox.post(ended.set)

            await link.nc.subscribe(END, cb=end)
            await link.nc.flush()

        link.call(subscribe)
    else:
        import nats

        nc = await nats.connect(url)
        for subject in SUBJECTS:

            async def cb(msg: Any) -> None:
                arrived(msg.data, msg.headers)

            await nc.subscribe(subject, cb=cb)

        async def end(msg: Any) -> None:
            ended.set()

        await nc.subscribe(END, cb=end)
        await nc.flush()
    print("ready", flush=True)
    cpu = time.process_time()
    await asyncio.wait_for(ended.wait(), seconds + 60.0)  # the sender's start, settling, run
    used = time.process_time() - cpu
    return {"side": "receiver", "messages": got[0], "us": used / max(1, got[0]) * 1e6}


def run_pair(mode: str, url: str, rate: float, seconds: float, work: float) -> tuple[float, float]:
    """CPU per message of the sender and of the receiver, in µs."""
    common = [mode, url, str(rate), str(seconds), str(work)]
    receiver = subprocess.Popen(
        [sys.executable, __file__, "--side", "receive", *common], stdout=subprocess.PIPE, text=True
    )
    assert receiver.stdout is not None
    receiver.stdout.readline()  # "ready"
    sender = subprocess.run(
        [sys.executable, __file__, "--side", "send", *common],
        capture_output=True,
        text=True,
        check=True,
    )
    out, _ = receiver.communicate(timeout=seconds + 30)
    sent, got = json.loads(sender.stdout), json.loads(out)
    if got["messages"] != sent["messages"]:
        print(f"    error: {sent['messages']} sent, {got['messages']} received")
    return sent["us"], got["us"]


def main(args: argparse.Namespace) -> None:
    print(f"nats_hop: view-sized messages ({len(wire.pack(VIEW))} bytes) in bursts of {BURST}")
    with tempfile.TemporaryDirectory() as tmp:
        nats = LocalNats(Path(tmp)).start()
        try:
            for work in (float(w) / 1e6 for w in args.work.split(",")):
                for rate in (float(r) for r in args.rate.split(",")):
                    figures: dict[str, list[tuple[float, float]]] = {"thread": [], "loop": []}
                    for _ in range(args.runs):
                        for mode in figures:
                            figures[mode].append(run_pair(mode, nats.url, rate, args.seconds, work))
                    for mode, runs in figures.items():
                        sender = statistics.median(s for s, _ in runs)
                        receiver = statistics.median(r for _, r in runs)
                        print(
                            f"  {rate:g} messages/s, {work * 1e6:g} µs of work between, NATS "
                            f"client on {mode:6}: sender {sender:.0f} µs and receiver "
                            f"{receiver:.0f} µs of CPU a message (median of {len(runs)}: "
                            f"{', '.join(f'{s:.0f}+{r:.0f}' for s, r in sorted(runs))})"
                        )
        finally:
            nats.stop()


if __name__ == "__main__":
    if len(sys.argv) == 8 and sys.argv[1] == "--side":
        side, mode, url, rate, seconds, work = sys.argv[2:]
        sys.setswitchinterval(SWITCH_INTERVAL)  # as a node sets it (ClusterNode.start)
        if side == "send":
            result = asyncio.run(send(mode, url, float(rate), float(seconds), float(work)))
        else:
            result = asyncio.run(receive(mode, url, float(seconds)))
        print(json.dumps(result), flush=True)
        sys.exit(0)
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rate", default="40,400", help="messages a second (comma-separated)")
    parser.add_argument(
        "--work",
        default="0,1000",
        help="µs of CPU the sender spends between two messages of a burst (comma-separated)",
    )
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--runs", type=int, default=3, help="runs of each way, alternated")
    parser.add_argument("--quick", action="store_true", help="CI: a tiny run")
    arguments = parser.parse_args()
    if arguments.quick:
        arguments.rate, arguments.work, arguments.seconds, arguments.runs = "40", "0", 2.0, 1
    main(arguments)
