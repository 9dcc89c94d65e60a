"""Carthage bandwidth over SSH: the bytes each seat receives for a whole game at 80x24.

    python bench/carthage_bandwidth.py [--humans 2] [--bots 2] [--bot-delay 0.4] [--seed 7]

A real `HarenaServer` runs in another process with one Carthage table (sudden death from round
10, so every game ends): `--humans` seats are played by SSH clients in this process (xterm-256color,
80x24, screens rendered by pyte), which read only their screen and press keys as a player would
(Enter for the hex the cursor offers, 1 for the first choice, Enter again to confirm); the other
seats are the server's bots. A *remote move* is a burst of output that does not follow a key of
the seat's own (bench/ssh_seats.py: someone else's choice reaching this screen).

Prints, per seat: bytes for the first screen, bytes per remote move (median, p95, max), and idle
bytes/s (while the table waits for a human, and after the game). Targets (issue 6): first screen
under 12 KB at 256 colours, median remote move under 1 KB, idle seats 0 bytes/s.
Figures, not pass/fail: the machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

warnings.filterwarnings("ignore", message="DSA is deprecated")  # asyncssh on cryptography 51
import asyncssh  # noqa: E402

from bench.quick import parse_args  # noqa: E402
from bench.ssh_seats import (  # noqa: E402
    SIZE,
    connect_seats,
    idle_rate,
    pct,
    serve_seated_table,
    start_server,
    stop_server,
)
from tests.sshscreen import ScreenClient  # noqa: E402

# --- a player reading its screen ------------------------------------------------------------------


def carthage_key(client: ScreenClient) -> str:
    """Enter on the hex the cursor offers, else the first choice."""
    return "\r" if "Place your gladiator" in client.screen_text() else "1"


async def run(args: argparse.Namespace, workdir: Path) -> None:
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(args.humans)]
    spec = {
        "humans": [k.get_fingerprint("sha256") for k in keys],
        "bots": args.bots,
        "bot_delay": args.bot_delay,
        "seed": args.seed,
    }
    (workdir / "spec.json").write_text(json.dumps(spec))
    proc, port = start_server(Path(__file__).resolve(), workdir)
    try:
        seats, screens = await connect_seats(port, keys, "Carthage")
        first = [len(screen) for screen in screens]
        # Placement waits for a human (the Starting Player may be a bot: then wait for it).
        await asyncio.sleep(args.bot_delay * 3)
        await asyncio.gather(*(s.client.wait_quiet(0.3, 20) for s in seats))
        waiting = await idle_rate(seats, 2.0) if not any(s.has_choices() for s in seats) else None
        waiting_human = await idle_rate(seats, 2.0) if any(s.has_choices() for s in seats) else None
        start = time.monotonic()
        await asyncio.gather(*(s.play(carthage_key) for s in seats))
        end = time.monotonic()
        await asyncio.gather(*(s.client.wait_quiet(0.5, 20) for s in seats))
        after = await idle_rate(seats, 3.0)
        print(
            f"Carthage over SSH at {SIZE[0]}x{SIZE[1]}, xterm-256color: {args.humans} players, "
            f"{args.bots} bots, seed {args.seed}; the game took {end - start:.0f} s"
        )
        for i, seat in enumerate(seats):
            moves = seat.remote_moves(start, end)
            total = seat.bytes_between(start, end)
            print(
                f"  seat {i}: first screen {first[i] / 1024:.1f} KB; {len(moves)} remote moves: "
                f"median {statistics.median(moves):.0f} B, p95 {pct(moves, 95)} B, max {max(moves)} B; "
                f"{total / 1024:.0f} KB for the whole game"
            )
        if waiting_human is not None:
            print(f"  idle while the table waits for a human: {waiting_human:.1f} bytes/s per seat")
        if waiting is not None:
            print(f"  idle before the first move: {waiting:.1f} bytes/s per seat")
        print(f"  idle after the game: {after:.1f} bytes/s per seat")
        await asyncio.gather(*(s.client.close() for s in seats))
    finally:
        stop_server(proc)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        serve_seated_table(Path(sys.argv[2]), "carthage", "random", {"sudden_death": "10"})
        sys.exit(0)
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--humans", type=int, default=2, help="seats played by SSH clients (default: 2)"
    )
    parser.add_argument("--bots", type=int, default=2, help="bot seats (default: 2)")
    parser.add_argument("--bot-delay", type=float, default=0.4, help="seconds between bot moves")
    parser.add_argument("--seed", type=int, default=7, help="the game's seed")
    arguments = parse_args(parser, humans=2, bots=0, bot_delay=0.0)
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run(arguments, Path(tmp)))
