"""Chaos: three node processes and NATS killed, paused (SIGSTOP/SIGCONT) and restarted at
seeded random moments while real SSH players play High Card on them; then, straight from the
stream and from the players' screens:

- no acknowledged move is lost (each "You chose" is a record of that seat in the stream);
- no refusal is sent for a move that was then made (every move in the stream is explained by an
  acknowledgement, an honest "may have been" or a key whose answer never came);
- each table has exactly one subscriber answering (one request, one answer) once faults settle;
- no screen stays stale: once the cluster settles, every player's screen shows what the stream
  holds within a few lease times (a bound for a noisy shared machine, not a measurement);
- no node logs an ERROR or a traceback for any of it (all expected events).

Faults go on until each kind (kill, pause, NATS restart) has happened once, in an order the seed
picks, and HARENA_CHAOS_SECONDS (default 15) have passed; HARENA_CHAOS_SEED sets the seed. A
longer run is `HARENA_CHAOS_SECONDS=600 pytest tests/server/cluster/test_chaos.py`.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import asyncssh

from harena.core.store import StoreError
from harena.core.table import Table
from harena.server.cluster.link import NatsUnavailable
from harena.server.cluster.node import DRAINED
from harena.server.cluster.table_store import JetStreamTables
from harena.server.transport.hostkey import fingerprint
from tests.server.cluster.answers import answers_to_one_request
from tests.server.cluster.test_failover import LEASE, start_node
from tests.sshscreen import ScreenClient

SECONDS = float(os.environ.get("HARENA_CHAOS_SECONDS", "15"))
KINDS = ("kill", "pause", "nats")
SEED = int(os.environ.get("HARENA_CHAOS_SEED", "37"))
PAIRS = 3
NODES = ("n1", "n2", "n3")
ANSWER_WAIT = 20.0  # longest a key waits for its answer (a pause, then requests of 5 s)
SETTLED_WITHIN = 3 * LEASE  # a screen shows the stream's state this soon after a settle
PER_IP = "100"  # every player here comes from 127.0.0.1, and reconnects often
MAYBE = ("may have been",)  # refusals that do not say nothing was made (remote.py, table_store.py)


@dataclass
class NodeProcess:
    name: str
    process: subprocess.Popen[bytes]
    port: int
    said: list[bytes] = field(default_factory=list)
    paused: bool = False

    def drain(self) -> None:
        """Read its output as it comes (a full pipe would stop the node), for the log check."""

        def read() -> None:
            assert self.process.stdout is not None
            for line in self.process.stdout:
                self.said.append(line)

        threading.Thread(target=read, daemon=True).start()


@dataclass
class Press:
    table: str
    identity: str
    choice: str  # "card:4"
    outcome: str  # "ack", "maybe", "refused", "unknown"
    said: str = ""
    at: str = ""  # when (seconds into the run) and through which node's port


@dataclass
class Player:
    name: str
    key: asyncssh.SSHKey
    identity: str
    table: str = ""
    client: ScreenClient | None = None
    port: int = 0  # the node it is connected to


class Chaos:
    def __init__(self, tmp_path: Any, nats: Any, hub: Any, rng: random.Random) -> None:
        self.tmp_path, self.nats, self.hub, self.rng = tmp_path, nats, hub, rng
        self.nodes: dict[str, NodeProcess] = {}
        self.presses: list[Press] = []
        self.playing = asyncio.Event()  # cleared while a checkpoint reads the screens
        self.busy = 0  # players waiting for an answer
        self.tables: list[str] = []
        self.events: list[str] = []
        self.began = time.monotonic()
        self.left: list[str] = []  # players whose screen left their table while it ran
        self.kinds = rng.sample(KINDS, len(KINDS))  # each kind once first, in the seed's order

    # -- nodes ------------------------------------------------------------------------------

    def start(self, name: str) -> None:
        process, port = start_node(self.tmp_path, self.nats, name, "--max-per-ip", PER_IP)
        node = self.nodes[name] = NodeProcess(name, process, port)
        node.drain()

    def ports(self) -> list[int]:
        live = [n.port for n in self.nodes.values() if not n.paused]
        return [*live, self.hub.port]

    async def fault(self) -> None:
        kind = self.kinds.pop() if self.kinds else self.rng.choice(KINDS)
        name = self.rng.choice(NODES)
        node = self.nodes[name]
        self.events.append(f"{time.monotonic() - self.began:.0f}s {kind} {name}")
        if kind == "kill":
            node.process.kill()
            node.process.wait()
            await asyncio.sleep(self.rng.uniform(0.2, 1.5))
            self.start(name)  # under the same name, as --workers does
        elif kind == "pause":
            node.paused = True
            node.process.send_signal(signal.SIGSTOP)
            await asyncio.sleep(LEASE * self.rng.uniform(0.5, 2.5))
            node.process.send_signal(signal.SIGCONT)
            node.paused = False
        else:
            self.nats.stop()
            await asyncio.sleep(self.rng.uniform(0.3, 2.0))
            self.nats.start()

    def stop_all(self) -> None:
        for node in self.nodes.values():
            node.process.send_signal(signal.SIGCONT)
            node.process.kill()
            node.process.wait()

    # -- tables -------------------------------------------------------------------------------

    def new_table(self, pair: tuple[Player, Player]) -> str:
        """Made on the hub and handed to the node processes (the hub claims none)."""
        first, second = pair
        table = self.hub.lobby.create_table(first.identity, first.name, "highcard", 2)
        table.sit(second.identity, second.name)
        self.hub.cluster.give_up(table.id, DRAINED)
        self.tables.append(table.id)
        first.table = second.table = table.id
        return table.id

    # -- players ------------------------------------------------------------------------------

    async def connect(self, player: Player) -> ScreenClient:
        while True:
            port = self.rng.choice(self.ports())
            try:
                client = await asyncio.wait_for(
                    ScreenClient.connect(
                        port, username=player.name, agent_path=None, client_keys=[player.key]
                    ),
                    5,
                )
                await client.wait_until(
                    lambda c=client: (
                        f"you: {player.name}" in c.lines()[0] or "new table" in c.screen_text()
                    ),
                    10,
                )
                if f"Table {player.table} " not in client.lines()[0]:
                    client.send("\r")  # in the lobby: their table waits for them, listed first
                    await client.wait_for_text(f"Table {player.table} ", 10)
                player.port = port
                return client
            except (OSError, TimeoutError, asyncssh.Error, AssertionError):
                await asyncio.sleep(0.5)

    async def play(self, player: Player) -> None:
        """Play `player`'s table to its end, reconnecting whenever their node goes."""
        while True:
            await self.playing.wait()
            if player.client is None or player.client.closed:
                player.client = await self.connect(player)
            client = player.client
            lines = client.lines()
            if f"Table {player.table} " not in lines[0]:
                self.left.append(f"{player.name} at {lines[0].strip()!r}: {lines[22].strip()!r}")
                await client.close()
                player.client = None
                continue
            listed = self.hub.lobby.tables.get(player.table)
            if listed is not None and listed.status == "over":
                return
            offered = next((line for line in lines if line.startswith("  1  play ")), None)
            if offered is None:
                await asyncio.sleep(0.2)
                continue
            await self.press(player, client, "card:" + offered.split()[2])
            await asyncio.sleep(self.rng.uniform(0.1, 0.8))

    async def press(self, player: Player, client: ScreenClient, choice: str) -> None:
        """Press 1 (`choice`) and read the answer on the status line. Counted as pressed from
        the moment it is sent (a key whose answer never came is "unknown", never forgotten); an
        acknowledgement counts only if it names this choice (not a late answer to another)."""
        before = client.lines()
        status_before = before[22]
        sent = time.monotonic()
        press = Press(player.table, player.identity, choice, "unknown")
        press.at = f"{player.name} {sent - self.began:.2f}s via {player.port}"
        self.presses.append(press)
        self.busy += 1
        try:
            client.send("1")
            try:  # the status line changes, or the prompt does (its answer may say the same)
                await client.wait_until(
                    lambda: client.closed or client.lines()[15:23] != before[15:23], ANSWER_WAIT
                )
                await client.wait_until(
                    lambda: client.closed or client.lines()[22] != status_before, 1.0
                )
            except TimeoutError:
                pass
            changed = not client.closed and client.lines()[22] != status_before
            press.said = client.lines()[22].strip() if changed else ""
            press.at += f", answered {time.monotonic() - self.began:.2f}s"
            if press.said == f"You chose: play {choice.removeprefix('card:')}":
                press.outcome = "ack"
            elif press.said.startswith("Error"):
                press.outcome = "maybe" if any(m in press.said for m in MAYBE) else "refused"
        finally:
            self.busy -= 1

    # -- checks -------------------------------------------------------------------------------

    async def checkpoint(self, players: list[Player], reader: Any, *, last: bool = False) -> None:
        """Players stop; once every table answers once, every screen shows the stream; then
        they play on (unless it is the `last`)."""
        self.playing.clear()
        stopped = time.monotonic()
        while self.busy and time.monotonic() - stopped < 2 * LEASE:
            await asyncio.sleep(0.05)
        self.events.append(f"(keys answered in {time.monotonic() - stopped:.1f}s)")
        await asyncio.gather(*(self.one_answer(reader, t) for t in set(self.tables)))
        began = time.monotonic()
        for player in players:
            client = player.client
            while client is not None and not client.closed:
                expected = self.board(reader, player.table)  # (a key under way may land)
                if all(line in client.screen_text() for line in expected):
                    break
                assert time.monotonic() - began < SETTLED_WITHIN, (
                    f"{player.name}'s screen is not showing {expected}:\n{client.screen_text()}"
                )
                await asyncio.sleep(0.1)
        self.events.append(f"(checked in {time.monotonic() - stopped:.1f}s)")
        if not last:
            self.playing.set()

    async def one_answer(self, reader: Any, table_id: str) -> None:
        """Exactly one subscriber answers for the table (waiting out a claim under way)."""
        deadline = time.monotonic() + 4 * LEASE
        while True:
            answers = await answers_to_one_request(reader, table_id, 0.3)
            assert len(answers) <= 1, f"table {table_id}: {len(answers)} answers {answers}"
            if answers:
                return
            assert time.monotonic() < deadline, f"table {table_id}: nobody answers"

    def board(self, reader: Any, table_id: str) -> list[str]:
        table = rebuilt(reader, table_id)
        state = table.game.state
        if table.game.result() is not None:
            return []
        played = ", ".join("yes" if p is not None else "no" for p in state.played)
        return [f"round: {state.round}", f"has played: {played}"]


def rebuilt(reader: Any, table_id: str) -> Table:
    loaded = JetStreamTables(reader, node="reader").read(table_id)
    return Table.rebuild(table_id, loaded.snapshot, loaded.records)


async def test_chaos_loses_nothing_answers_once_and_leaves_no_screen_stale(
    tmp_path, nats_server, make_node, make_link
):
    rng = random.Random(SEED)
    hub = await make_node(
        "hub", lease=LEASE, max_per_ip=int(PER_IP)
    )  # the test's own node: makes the host key, tables
    chaos = Chaos(tmp_path, nats_server, hub, rng)
    for name in NODES:
        chaos.start(name)
    hub.cluster.draining = True  # it claims nothing: the tables run on the node processes
    reader = make_link("reader")
    pairs = []
    for n in range(PAIRS):
        pair = []
        for who in ("a", "b"):
            key = asyncssh.generate_private_key("ssh-ed25519")
            pair.append(Player(f"p{n}{who}", key, fingerprint(key)))
        pairs.append((pair[0], pair[1]))
        chaos.new_table((pair[0], pair[1]))
    players = [p for pair in pairs for p in pair]
    chaos.playing.set()

    async def pair_plays(pair: tuple[Player, Player]) -> None:
        while True:
            await asyncio.gather(chaos.play(pair[0]), chaos.play(pair[1]))
            while True:
                try:
                    chaos.new_table(pair)
                    break
                except (StoreError, NatsUnavailable):  # NATS is down just now: a moment later
                    await asyncio.sleep(0.5)
            for player in pair:  # they connect again: straight to the new table
                if player.client is not None:
                    await player.client.close()
                player.client = None

    playing = [asyncio.ensure_future(pair_plays(pair)) for pair in pairs]
    try:
        ends = time.monotonic() + SECONDS
        while chaos.kinds or time.monotonic() < ends:
            await asyncio.sleep(rng.uniform(0.5, 2.0))
            await chaos.fault()
            await asyncio.sleep(1.5 * LEASE)  # claims and reconnections settle
            await chaos.checkpoint(players, reader)
            for task in playing:  # (a player's task that failed would play no more)
                if task.done():
                    task.result()
        await chaos.checkpoint(players, reader, last=True)
    finally:
        for task in playing:
            task.cancel()
        await asyncio.gather(*playing, return_exceptions=True)
        for player in players:
            if player.client is not None:
                await player.client.close()
        said = b"".join(line for node in chaos.nodes.values() for line in node.said)
        chaos.stop_all()

    (tmp_path / "nodes.log").write_bytes(said)  # (what to read when this fails)
    (tmp_path / "presses.txt").write_text("\n".join(map(str, chaos.presses)))
    outcomes = Counter(p.outcome for p in chaos.presses)
    refused = Counter(p.said for p in chaos.presses if p.outcome != "ack")
    print(f"chaos seed {SEED}: {chaos.events}; keys: {dict(outcomes)}; tables: {len(chaos.tables)}")
    print(f"not acknowledged: {dict(refused)}")
    # A screen follows its table wherever it runs: never back to the lobby while it is played.
    assert chaos.left == [], f"{chaos.left}; events: {chaos.events}"
    # Straight from the stream: every acknowledged move is there; every move there is explained.
    for table_id in set(chaos.tables):
        table = rebuilt(reader, table_id)
        for seat in table.seats:
            made = Counter(
                a.choice for a in table.game.actions if a.seat == table.seat_of(seat.identity)
            )
            mine = [p for p in chaos.presses if p.table == table_id and p.identity == seat.identity]
            acked = Counter(p.choice for p in mine if p.outcome == "ack")
            assert not acked - made, f"table {table_id}: acknowledged moves lost: {acked - made}"
            explained = sum(p.outcome != "refused" for p in mine)
            refusals = [p.said for p in mine if p.outcome == "refused"]
            assert sum(made.values()) <= explained, (
                f"table {table_id}, {seat.name}: {sum(made.values())} moves made, "
                f"{explained} explained; refused: {refusals}"
            )
    assert sum(p.outcome == "ack" for p in chaos.presses) >= PAIRS, chaos.presses  # it played
    errors = [line for line in said.splitlines() if b"] ERROR" in line or b"Traceback" in line]
    assert errors == [], f"{len(errors)} in {tmp_path / 'nodes.log'}; events: {chaos.events}"
