"""What the bandwidth benchmarks share: a server in its own process, SSH seats that read their
screen and press keys, and the figures taken from each seat's byte timeline.

Each client's output is cut into bursts (bytes arriving less than `GAP` apart, never across one of its
own keys): a burst that does not follow a key of its own is one *remote update* (someone else's choice reaching this
screen). `Seat.regions` says where on the screen a burst's bytes were drawn, so a figure that
misses its target can be traced to the panel that costs it.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from wcwidth import wcwidth

from harena.tui.widgets.prompt_bar import CHANGE_GUARD
from tests.server.players import CHANGED, has_choices
from tests.sshscreen import ScreenClient

SIZE = (80, 24)
GAP = 0.12  # seconds of silence that end a burst (the bots wait --bot-delay between moves)
OWN = 0.5  # a burst starting this soon after the client's own key is its own move

Region = tuple[str, range, range]  # a name, its rows, its columns


def start_server(script: Path, workdir: Path) -> tuple[subprocess.Popen[bytes], int]:
    """Run `script --serve workdir` (which writes its port to workdir/port); returns it and the port."""
    proc = subprocess.Popen(
        [sys.executable, str(script), "--serve", str(workdir)], cwd=script.parents[1]
    )
    for _ in range(300):
        if (workdir / "port").exists() and (workdir / "port").read_text():
            return proc, int((workdir / "port").read_text())
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError("the server did not start")


def serve_seated_table(
    workdir: Path, game: str, bot_kind: str, options: dict[str, str] | None = None
) -> None:
    """The child process of `start_server`: a HarenaServer with one `game` table whose seats
    are the humans of workdir/spec.json (p0, p1, ...) then its bots, until SIGTERM; the table's
    options are `options`, or the spec's."""
    import json
    import logging
    import signal

    from harena.server.common.limits import ServerLimits
    from harena.server.service.ssh_server import HarenaServer, ServerConfig

    logging.basicConfig(level=logging.WARNING)
    spec = json.loads((workdir / "spec.json").read_text())

    async def main() -> None:
        config = ServerConfig(
            port=0,
            keys_dir=workdir / "keys",
            data_dir=None,
            limits=ServerLimits(max_per_ip=1000, login_timeout=60),
            bot_delay=spec["bot_delay"],
        )
        server = HarenaServer(config)
        humans = spec["humans"]
        server.lobby._new_seed = lambda: spec["seed"]  # the same game every run
        table = server.lobby.create_table(
            humans[0],
            "p0",
            game,
            len(humans) + spec["bots"],
            options or spec.get("options", {}),
            bots=0,
        )
        for seat, identity in enumerate(humans[1:], start=1):
            table.sit(identity, f"p{seat}")
        for seat in range(len(humans), len(humans) + spec["bots"]):
            table.set_bot(seat, bot_kind)
        await server.start()
        (workdir / "port").write_text(str(server.port))
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        await stop.wait()
        await server.stop()

    asyncio.run(main())


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


class Seat:
    """One SSH client: its byte timeline and the times it pressed keys."""

    def __init__(self, client: ScreenClient) -> None:
        self.client = client
        self.chunks: list[tuple[float, bytes]] = []
        self.keys: list[float] = []
        received = client._received

        def record(data: bytes, stderr: bool) -> None:
            self.chunks.append((time.monotonic(), data))
            received(data, stderr)

        client._received = record

    def press(self, key: str) -> None:
        self.keys.append(time.monotonic())
        self.client.send(key)

    def has_choices(self) -> bool:
        return has_choices(self.client)

    def over(self) -> bool:
        return "GAME OVER" in self.client.screen_text()

    async def play(self, key_for: Callable[[ScreenClient], str]) -> None:
        """Answer every prompt with `key_for(client)` (Enter when asked to confirm) until the
        game is over."""
        client = self.client
        while not self.over():
            await client.wait_until(lambda: self.has_choices() or self.over(), 120, "a prompt")
            await client.wait_quiet(GAP, 10)  # as a player, read the whole screen first
            if self.over():
                return
            if CHANGED in client.lines()[22]:
                await asyncio.sleep(CHANGE_GUARD)  # refused: read the new choices, press again
            before = client.bytes_received
            if "Press the same key again" in client.lines()[22]:
                self.press("\r")
            else:
                self.press(key_for(client))
            try:
                await client.wait_until(
                    lambda b=before: client.bytes_received != b, 10, "an answer"
                )
            except TimeoutError:
                if CHANGED not in client.lines()[22]:
                    raise
                continue  # refused again with the same message: the choices changed once more
            await client.wait_quiet(GAP * 1.5, 10)

    def bytes_between(self, since: float, until: float) -> int:
        return sum(len(data) for at, data in self.chunks if since <= at <= until)

    def bursts(self, since: float, until: float) -> list[tuple[float, bytes]]:
        """(start, bytes) of each burst of output between `since` and `until`. A key of the
        client's own ends a burst: what arrives after it answers the key, even when it follows
        the last bytes of someone else's move closely (the seats here answer at once)."""
        out: list[tuple[float, bytes]] = []
        last = -1.0
        for at, data in self.chunks:
            if not since <= at <= until:
                continue
            if out and at - last < GAP and not any(last < key <= at for key in self.keys):
                out[-1] = (out[-1][0], out[-1][1] + data)
            else:
                out.append((at, data))
            last = at
        return out

    def remote_updates(self, since: float, until: float) -> list[bytes]:
        return [
            data
            for start, data in self.bursts(since, until)
            if not any(0 <= start - key < OWN for key in self.keys)
        ]

    def remote_moves(self, since: float, until: float) -> list[int]:
        return [len(data) for data in self.remote_updates(since, until)]


async def connect_seats(port: int, keys: list[Any], title: str) -> tuple[list[Seat], list[bytes]]:
    """One SSH client per key (named p0, p1, ...), each at its table once `title` shows and its
    first screen is out; returns the seats and the bytes of each first screen."""
    seats, first = [], []
    for i, key in enumerate(keys):
        client = await ScreenClient.connect(
            port, username=f"p{i}", size=SIZE, client_keys=[key], agent_path=None, known_hosts=None
        )
        seat = Seat(client)
        await client.wait_until(lambda c=client: title in c.screen_text(), 20, "the table")
        await client.wait_quiet(0.5, 20)
        first.append(bytes(client.raw))
        seats.append(seat)
    return seats, first


def pct(values: list[int], p: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def idle_rate(seats: list[Seat], seconds: float) -> float:
    before = sum(s.client.bytes_received for s in seats)
    await asyncio.sleep(seconds)
    return (sum(s.client.bytes_received for s in seats) - before) / seconds / len(seats)


# --- where the bytes go ---------------------------------------------------------------------------


def cells_written(data: bytes) -> Iterable[tuple[int, int, int, str]]:
    """(row, column, bytes, text printed) for the output `data`, following the cursor the way
    the server's screen buffer moves it (CUP `ESC[y;xH`, `ESC[nC`, text); every byte is charged
    to the cell the cursor is on when it arrives (a colour change to the cell drawn after it)."""
    text = data.decode("utf-8", "replace")
    y = x = 0
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\x1b" and i + 1 < len(text) and text[i + 1] == "[":
            j = i + 2
            while j < len(text) and not ("@" <= text[j] <= "~"):
                j += 1
            params, final = text[i + 2 : j], text[j : j + 1]
            if final == "H":
                row, _, col = params.partition(";")
                y, x = int(row or 1) - 1, int(col or 1) - 1
            elif final == "C":
                x += int(params or 1)
            yield y, x, len(text[i : j + 1].encode()), ""
            i = j + 1
            continue
        yield y, x, len(char.encode("utf-8", "replace")), char if char >= " " else ""
        if char >= " ":
            x += max(wcwidth(char), 1)
        i += 1


def region_of(y: int, x: int, regions: list[Region]) -> str:
    return next((n for n, rows, cols in regions if y in rows and x in cols), "other")


def by_region(data: bytes, regions: list[Region]) -> dict[str, int]:
    """The bytes of `data` drawn in each region (the first that holds the cell), "other" else."""
    out = {name: 0 for name, _, _ in regions} | {"other": 0}
    for y, x, size, _ in cells_written(data):
        out[region_of(y, x, regions)] += size
    return out


def text_by_region(data: bytes, regions: list[Region]) -> dict[str, str]:
    """The characters `data` prints in each region, in order (a gap where the cursor jumps)."""
    out: dict[str, str] = {}
    last: tuple[int, int] | None = None
    for y, x, _, char in cells_written(data):
        if not char:
            continue
        name = region_of(y, x, regions)
        jump = last is not None and (y, x) != (last[0], last[1] + 1)
        out[name] = out.get(name, "") + ("|" if jump and name in out else "") + char
        last = (y, x)
    return out
