"""Spartacus bandwidth over SSH: the bytes each seat receives for a whole game at 80x24.

    python bench/spartacus_bandwidth.py [--humans 3] [--bots 1] [--bot-delay 0.4] [--seed 7]
                                        [--length quick] [--round-limit 10] [--show 6] [--show-top 6]

A real `HarenaServer` runs in another process with one Spartacus table: `--humans` seats are
played by SSH clients in this process (xterm-256color, 80x24, screens rendered by pyte) that
read only their screen and press 1, the first choice, whenever they are asked (bench/ssh_seats.py);
the other seats are the server's heuristic bots. A *remote update* is a burst of output that
does not follow a key of the seat's own: someone else's move reaching this screen.

Prints, per seat: bytes for the first screen, bytes per remote update (median, p95, max), the
bytes for the whole game; idle bytes/s (while the table waits for a human, and after the game);
then where the bytes are drawn (the panels at 80x24) for the first screen and for the remote
updates, and which panels the largest updates touch. Targets: first screen under 4 KB, median
remote update under 400 B, p95 under 1 KB, idle 0 B/s. Figures, not pass/fail: the machine is
shared and noisy.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
import tempfile
import time
import warnings
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

warnings.filterwarnings("ignore", message="DSA is deprecated")  # asyncssh on cryptography 51
import asyncssh  # noqa: E402

from bench.quick import parse_args  # noqa: E402
from bench.ssh_seats import (  # noqa: E402
    SIZE,
    Region,
    by_region,
    connect_seats,
    idle_rate,
    pct,
    serve_seated_table,
    start_server,
    stop_server,
    text_by_region,
)
from tests.server.players import choices_shown  # noqa: E402
from tests.sshscreen import ScreenClient  # noqa: E402

LEFT, RIGHT = range(0, 46), range(46, 80)  # the board's columns at 80x24 (tui/boards/spartacus)
ALL = range(0, 80)


def regions(players: int) -> list[Region]:
    """The panels at 80x24 (rows include each panel's title border)."""
    houses = players + 1
    return [
        ("header", range(0, 1), ALL),
        ("Houses", range(1, 1 + houses), LEFT),
        ("House/Arena", range(1 + houses, 15), LEFT),
        ("Phase", range(1, 8), RIGHT),
        ("Log", range(8, 13), RIGHT),
        ("Chat", range(13, 15), RIGHT),
        ("prompt text", range(15, 16), ALL),  # the prompt, or whom the table waits for
        ("choices", range(16, 21), ALL),
        ("say line", range(21, 22), ALL),
        ("status", range(22, 23), ALL),
        ("key bar", range(23, 24), ALL),
    ]


# --- the figures ------------------------------------------------------------------------------------


def first_key(client: ScreenClient) -> str:
    """The first choice, but leave the Open Market when offered (the first is a trade draft,
    whose first choice toggles a card: pressing 1 for ever would never close the market)."""
    for key, text in choices_shown(client).items():
        if text.startswith("Close"):
            return key
    return "1"


def breakdown(title: str, bursts: list[bytes], areas: list[Region]) -> None:
    """Bytes per panel over `bursts`: in all, per burst (mean), and in how many bursts."""
    total: Counter[str] = Counter()
    touched: Counter[str] = Counter()
    for data in bursts:
        for name, size in by_region(data, areas).items():
            total[name] += size
            touched[name] += size > 0
    whole = sum(total.values()) or 1
    print(f"  {title}: {len(bursts)} bursts, {whole} B")
    for name, size in total.most_common():
        if size:
            print(
                f"    {name:<12} {size:>8} B {100 * size / whole:5.1f}%  "
                f"{size / max(len(bursts), 1):7.0f} B per burst, in {touched[name]} of them"
            )


async def run(args: argparse.Namespace, workdir: Path) -> None:
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(args.humans)]
    options = {"length": args.length, "round_limit": str(args.round_limit)}
    spec = {
        "humans": [k.get_fingerprint("sha256") for k in keys],
        "bots": args.bots,
        "bot_delay": args.bot_delay,
        "seed": args.seed,
        "options": options,
    }
    (workdir / "spec.json").write_text(json.dumps(spec))
    players = args.humans + args.bots
    areas = regions(players)
    proc, port = start_server(Path(__file__).resolve(), workdir)
    try:
        seats, first = await connect_seats(port, keys, "Spartacus")
        # Idle: once a human is asked (the bot may choose its House first), nothing may arrive.
        for _ in range(200):
            if any(s.has_choices() for s in seats):
                break
            await asyncio.sleep(0.05)
        await asyncio.gather(*(s.client.wait_quiet(0.3, 20) for s in seats))
        waiting_human = await idle_rate(seats, 2.0)
        start = time.monotonic()
        await asyncio.gather(*(s.play(first_key) for s in seats))
        end = time.monotonic()
        await asyncio.gather(*(s.client.wait_quiet(0.5, 20) for s in seats))
        after = await idle_rate(seats, 3.0)
        # A spectator opens the finished table from the lobby (w): a full screen, every panel filled.
        again = await ScreenClient.connect(
            port,
            username="watcher",
            size=SIZE,
            client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
            agent_path=None,
            known_hosts=None,
        )
        await again.wait_until(lambda: "Tables" in again.screen_text(), 20, "the lobby")
        await again.wait_quiet(0.5, 20)
        again.send("f")  # finished tables are listed apart from the main list
        await again.wait_quiet(0.5, 20)
        lobby = len(again.raw)
        again.send("w")
        await again.wait_until(lambda: "GAME OVER" in again.screen_text(), 20, "the table")
        await again.wait_quiet(0.5, 20)
        full = bytes(again.raw[lobby:])
        await again.close()
        ended = re.search(r"Round \d+", seats[0].client.screen_text())
        print(
            f"Spartacus over SSH at {SIZE[0]}x{SIZE[1]}, xterm-256color: {args.humans} players, "
            f"{args.bots} bots, seed {args.seed}, {options}; the game took {end - start:.0f} s"
        )
        print(f"  the game ended in {ended.group(0) if ended else 'round ?'}")
        updates: list[bytes] = []
        for i, seat in enumerate(seats):
            mine = seat.remote_updates(start, end)
            updates += mine
            moves = [len(data) for data in mine]
            print(
                f"  seat {i}: first screen {len(first[i]) / 1024:.1f} KB; {len(moves)} remote updates: "
                f"median {statistics.median(moves):.0f} B, p95 {pct(moves, 95)} B, max {max(moves)} B; "
                f"{seat.bytes_between(start, end) / 1024:.0f} KB for the whole game"
            )
        sizes = [len(data) for data in updates]
        print(
            f"  all seats: {len(sizes)} remote updates, median {statistics.median(sizes):.0f} B, "
            f"p95 {pct(sizes, 95)} B"
        )
        print(f"  idle while the table waits for a human: {waiting_human:.1f} bytes/s per seat")
        print(f"  idle after the game: {after:.1f} bytes/s per seat")
        print(f"  a spectator opening the finished table from the lobby: {len(full) / 1024:.1f} KB")
        print("Where the bytes are drawn (panels at 80x24):")
        breakdown("first screens", first, areas)
        breakdown("remote updates", updates, areas)
        top = sorted(updates, key=len)[-max(1, len(updates) // 20) :]  # the largest 5%
        breakdown("largest 5% of remote updates", top, areas)
        breakdown("the spectator's full screen", [full], areas)
        print("Remote updates without one panel's bytes (what that panel costs):")
        split = [by_region(data, areas) for data in updates]
        for name, _, _ in areas:
            rest = [len(data) - parts[name] for data, parts in zip(updates, split, strict=False)]
            print(
                f"    without {name:<12} median {statistics.median(rest):5.0f} B, p95 {pct(rest, 95):5} B"
            )
        if args.show:
            print(
                f"{args.show} remote updates around the median, as drawn ('|': the cursor jumps):"
            )
            ordered = sorted(updates, key=len)
            middle = len(ordered) // 2
            shown = ordered[max(0, middle - args.show // 2) : middle + (args.show + 1) // 2]
            print_updates(shown, areas)
        if args.show_top:
            print(f"the {args.show_top} largest remote updates, as drawn:")
            print_updates(sorted(updates, key=len)[-args.show_top :], areas)
        await asyncio.gather(*(s.client.close() for s in seats))
    finally:
        stop_server(proc)


def print_updates(updates: list[bytes], areas: list[Region]) -> None:
    for data in updates:
        print(f"  {len(data)} B:")
        for name, text in text_by_region(data, areas).items():
            print(f"    {name:<12} {by_region(data, areas)[name]:>5} B  {text!r}")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--serve":
        serve_seated_table(Path(sys.argv[2]), "spartacus", "heuristic")
        sys.exit(0)
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--humans", type=int, default=3, help="seats played by SSH clients (default: 3)"
    )
    parser.add_argument("--bots", type=int, default=1, help="heuristic bot seats (default: 1)")
    parser.add_argument("--bot-delay", type=float, default=0.4, help="seconds between bot moves")
    parser.add_argument("--seed", type=int, default=7, help="the game's seed")
    parser.add_argument("--length", default="quick", choices=("quick", "standard", "advanced"))
    parser.add_argument(
        "--show", type=int, default=0, help="print this many median updates as drawn"
    )
    parser.add_argument(
        "--show-top", type=int, default=0, help="print this many of the largest updates"
    )
    parser.add_argument("--round-limit", type=int, default=10, choices=(10, 20, 30, 50))
    arguments = parse_args(parser, humans=2, bots=1, bot_delay=0.0)
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run(arguments, Path(tmp)))
