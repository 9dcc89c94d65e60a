"""One harena node of a cluster: the tables it runs under leases, and the lobby over them.

A node runs a table only while it holds the table's lease. It renews every lease a third of the
lease time; a table whose lease it loses, or whose log another node wrote to (fenced), leaves
its lobby at once (its screens are told it moved). Every sixth of the lease time it claims the
tables nobody holds (a node that stopped or died), rebuilds each from the stream, and their bots and
clocks go on as after a restart. A node stopping cleanly releases its leases, so others take its
tables at once instead of a lease time later.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from functools import partial
from typing import Any

import nats.errors
from nats.js import api
from nats.js.errors import KeyNotFoundError, KeyWrongLastSequenceError

from harena.core import players, ratings
from harena.core.lobby import MOVED, Lobby
from harena.core.store import StoreError
from harena.server.cluster import wire
from harena.server.cluster.affinity import nearer_node
from harena.server.cluster.documents import compare_and_set
from harena.server.cluster.host import TableHost
from harena.server.cluster.inbox import Inbox
from harena.server.cluster.lease import KvLease, Leases
from harena.server.cluster.link import CALL_TIMEOUT, NatsLink, NatsUnavailable
from harena.server.cluster.options import ClusterSettings
from harena.server.cluster.presence import NodeEntries
from harena.server.cluster.remote import UNANSWERED, UNREACHABLE, RemoteTable
from harena.server.cluster.table_store import READ_TIMEOUT, JetStreamLog, JetStreamTables, Opened
from harena.server.cluster.watches import KvWatches
from harena.server.common.logs import name_node

log = logging.getLogger(__name__)

DRAINED = f"{MOVED}: this one is being drained"
NEARER = f"{MOVED}, nearer its players"
TAKE_EVERY = 0.25  # seconds between a handed table's claims while its lease is still held
TAKE_TRIES = 8
DRAIN_MESSAGE = "harena: this node is being drained by an operator; connect again to play on, your seat is kept."

DOCUMENT_TRIES = 50  # compare-and-set attempts before a shared document's write gives up
SWITCH_INTERVAL = 0.0005  # seconds (Python's default is 0.005)
FULL_SCAN_EVERY = 2  # lease times between claim scans while every table listed is renewed
PROBE_EVERY = 1.0  # seconds between pings of an owner that let a question time out
TRANSIENT = ("nodes", "online", "connections")  # buckets of what each live node says of itself


class ClusterStore:
    """What the lobby and its tables ask of a `Store`, answered by the cluster: tables in
    JetStream (each new one under this node's lease), documents (ratings, player settings)
    in a KV bucket, deleted and archived tables marked so no node claims them again."""

    def __init__(self, node: ClusterNode) -> None:
        self.node = node
        self.tables = node.tables

    def new_table_id(self) -> str:
        return self.tables.new_table_id()

    def create(self, table_id: str) -> JetStreamLog:
        self.node.claim_new(table_id)
        return self.node.watched(self.tables.create(table_id))

    def write_snapshot(self, table_id: str, snapshot: dict[str, Any]) -> None:
        self.tables.write_snapshot(table_id, snapshot)

    def touched(self, table_id: str) -> float:
        return self.tables.touched(table_id)

    def delete(self, table_id: str) -> None:
        self.node.retire(table_id, "deleted")

    def archive(self, table_id: str) -> None:
        self.node.retire(table_id, "archived")

    def read_document(self, name: str) -> Any:
        async def get() -> bytes | None:
            kv = await self.node.bucket("docs")
            try:
                value: bytes | None = (await kv.get(_doc_key(name))).value
                return value
            except KeyNotFoundError:
                return None

        raw = self.node.link.call(get)
        return json.loads(raw) if raw else None

    def write_document(self, name: str, data: Any) -> None:
        """Replace the whole document: only for one nobody else writes (the operator's notice);
        a shared one (ratings, settings, bans) changes through `update_document`."""
        self.update_document(name, lambda _: data)

    def update_document(self, name: str, change: Callable[[Any], Any]) -> Any:
        """Compare-and-set on the KV revision: read the document, apply `change` to it, write it
        only if nobody wrote since; on a conflict read it again and apply `change` to the fresh
        one. So two nodes rating games at once both count (`change` is one game's delta, one
        key's setting), never the last writer's stale copy over the other's update."""
        key = _doc_key(name)

        async def attempt() -> tuple[bool, Any]:
            return await compare_and_set(await self.node.bucket("docs"), key, change)

        try:
            for _ in range(DOCUMENT_TRIES):
                done, data = self.node.link.call(attempt)
                if done:
                    return data
        except (NatsUnavailable, OSError) as exc:
            raise StoreError(f"could not save {name} to the cluster: {exc}") from exc
        raise StoreError(
            f"could not save {name}: {DOCUMENT_TRIES} writers in a row got there first"
        )


class ClusterNode:
    def __init__(
        self, settings: ClusterSettings, *, clock: Callable[[], float] = time.time
    ) -> None:
        self.settings = settings
        self.name = settings.node
        self._clock = clock
        self.link = NatsLink(settings.nats())
        self.tables: JetStreamTables
        self.leases: Leases
        self.lobby: Lobby | None = None
        self.held: dict[str, KvLease] = {}  # table id -> its lease, for every table run here
        # owner that let a question time out -> (its table, when)
        self._silent: dict[str, tuple[str, float]] = {}
        # owner node -> its wall clock less ours, as last heard live (a registry write or a view
        # as it happened): turns its "waiting since" instants into ours (`clock_offset`).
        self._clock_offsets: dict[str, float] = {}
        # table id -> the stand-in listed for it here while another node runs it (`_stand_in`)
        self.stand_ins: dict[str, RemoteTable] = {}
        self._arrived: dict[str, float] = {}  # table id -> when it began to run here (monotonic)
        self._given: dict[str, float] = {}  # table id -> until when it is left to the node given it
        self.refreshers: list[Callable[[], None]] = [self._forget_quiet_nodes]  # every renewal
        self._online_elsewhere: NodeEntries[dict[str, str]] = NodeEntries(settings.lease_seconds)
        self._buckets: dict[str, Any] = {}
        self._task: asyncio.Task[None] | None = None
        self._loop = asyncio.get_running_loop()  # where tables and sessions live
        self.inbox = Inbox.of(self._loop)
        self.host = TableHost(
            self.link, self.inbox, self.name, settings.prefix, clock=lambda: self._clock()
        )
        self.host.holds = self._holds
        self.host.lapsed = self._lapsed
        self._lapsing: set[str] = set()  # tables whose lapsed lease is being looked at
        self._reclaiming: set[str] = set()  # tables whose lapsed lease is being claimed again
        self._nats_back = 0.0  # when NATS last came back (monotonic): claims wait a lease
        self._scanned = 0.0  # when the last claim scan began (monotonic)
        self._watcher: Any = None
        # Every KV watch, opened again after NATS comes back; then the screens showing other
        # nodes' tables ask for their views again (views sent meanwhile were lost).
        self.watches = KvWatches(
            self.link, self.name, after=lambda: self.inbox.post(self._refresh_remote_views)
        )
        self.link.on_reconnect.append(self._reconnected)
        self.server: Any = None  # the HarenaServer this node serves (sessions, address)
        self.draining = False  # drained: runs no table, claims none
        self.started_at = clock()
        self.counts: Counter[str] = Counter()  # claims and renewals, by result (metrics)

    # -- joining and leaving ----------------------------------------------------------------------

    def start(self) -> ClusterNode:
        s = self.settings
        # The NATS thread answers within a move (JetStream's ack, another node's request): with
        # the default 5 ms GIL switch interval it waited up to 5 ms for each turn, while the
        # server's thread drew screens; the embedded default has no second thread and keeps it.
        name_node(self.name)
        self._switch_interval = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_INTERVAL)
        self.link.start()
        self.tables = JetStreamTables(
            self.link, prefix=s.prefix, replicas=s.replicas, node=self.name, clock=self._clock
        ).ensure()
        self.leases = Leases(
            self.link, self.name, prefix=s.prefix, seconds=s.lease_seconds, replicas=s.replicas
        ).ensure()
        for name in ("docs", "retired", "registry", "nodes", "online", "connections", "secrets"):
            self.link.call(partial(self._ensure_bucket, name))
        log.info(
            "node %s joined the cluster at %s (lease %.1f s)",
            self.name,
            ", ".join(s.servers),
            self.leases.seconds,
            extra={"event": "node-joined", "node": self.name},
        )
        return self

    def open_lobby(self, *, count_bots: bool = False) -> Lobby:
        """The lobby of this node, with every table nobody runs claimed into it."""
        lobby = Lobby(ClusterStore(self), clock=self._clock)  # type: ignore[arg-type]
        lobby.ratings.count_bots = count_bots
        self.lobby = lobby
        lobby.add_table_listener(self._serve_new)
        lobby.on_change(lambda: self._serve_new(None))
        self.watches.keep(self._follow_leases)
        self.claim_free()
        for table_id, data in self.watches.keep(self._watch_registry, self._rewatch_registry):
            self._registry_changed(table_id, data)
        self._share_lobby(lobby)
        self.watches.keep(self._hear_clocks)
        # A game rated or a setting changed on another node shows here at once.
        self.watch_document(ratings.FILE, lobby.ratings.replace)
        self.watch_document(players.FILE, lobby.settings.replace)
        self.watches.keep(self._watch_retired)
        return lobby

    async def _follow_leases(self) -> None:
        self.watches.adopt(await self.leases.afollow())

    def _stand_in(self, table_id: str) -> RemoteTable | None:
        """The stand-in this node listed for a table another node runs, while its lobby
        still lists it (not once the table was let go, or is run here)."""
        stand_in = self.stand_ins.get(table_id)
        listed = self.lobby.tables.get(table_id) if self.lobby is not None else None
        return stand_in if stand_in is not None and listed is stand_in else None

    def _refresh_remote_views(self) -> None:
        if self.lobby is not None:
            for table_id in list(self.stand_ins):
                if (stand_in := self._stand_in(table_id)) is not None:
                    stand_in.refresh()

    async def _rewatch_registry(self) -> None:
        present = await self._watch_registry()
        for table_id, data in present:
            self.inbox.post(partial(self._registry_changed, table_id, data))
        self.inbox.post(partial(self._registry_reconciled, {t for t, d in present if d}))

    def _registry_reconciled(self, listed: set[str]) -> None:
        """After a reconnect: a table run elsewhere that left the registry meanwhile (deleted)
        leaves the lobby here too."""
        if self.lobby is None:
            return
        for table_id in list(self.stand_ins):
            if self._stand_in(table_id) is not None and table_id not in listed:
                self.lobby.let_go(table_id, "deleted")

    async def _watch_retired(self) -> None:
        """A table deleted or archived on another node: if it runs here, it stops here."""
        watcher = await self.watches.open(await self.bucket("retired"))

        async def follow() -> None:
            async for entry in watcher:
                if entry is None or entry.operation or not entry.value:
                    continue
                why = entry.value.decode(errors="replace")[:40]
                self.inbox.post(partial(self._retired, entry.key, why))

        self.link.spawn(follow())

    def _retired(self, table_id: str, why: str) -> None:
        if table_id not in self.held or self.lobby is None:
            return
        lease = self.held.pop(table_id)
        if table_id in self.lobby.tables:
            self.lobby.let_go(table_id, why)
        self.host.forget(table_id)
        self._release(lease)
        log.info("table %s %s by another node", table_id, why, extra={"node": self.name})

    # -- one face to players ------------------------------------------------------------------

    def shared_host_key(self, local: Any) -> Any:
        """The cluster's one SSH host key: the first node's (create-if-absent, so two first
        nodes cannot both set it), so a player's known_hosts never warns when a balancer sends
        them to another node. It lives in the `secrets` bucket: NATS access is the key's guard."""
        import asyncssh

        async def exchange() -> bytes:
            kv = await self.bucket("secrets")
            try:
                await kv.create("hostkey", local.export_private_key())
            except KeyWrongLastSequenceError:
                pass  # another node set it first
            return bytes((await kv.get("hostkey")).value or b"")

        key = asyncssh.import_private_key(self.link.call(exchange))
        if key.get_fingerprint("sha256") != local.get_fingerprint("sha256"):
            log.warning(
                "node %s serves the cluster's host key %s, not its own %s",
                self.name,
                key.get_fingerprint("sha256"),
                local.get_fingerprint("sha256"),
            )
        return key

    # -- documents (ratings, settings, bans, the notice) ----------------------------------------

    def read_document(self, name: str) -> Any:
        return ClusterStore(self).read_document(name)

    def update_document(self, name: str, change: Callable[[Any], Any]) -> Any:
        return ClusterStore(self).update_document(name, change)

    def watch_document(self, name: str, changed: Callable[[Any], None]) -> None:
        """`changed(data)` on this loop whenever any node writes the document `name`."""

        async def watch() -> None:
            watcher = await self.watches.open(await self.bucket("docs"), _doc_key(name))

            async def follow() -> None:
                async for entry in watcher:
                    if entry is None or entry.operation or not entry.value:
                        continue
                    try:
                        data = json.loads(entry.value)
                    except ValueError:
                        log.warning("dropped a malformed %s", name)
                        continue
                    self.inbox.post(partial(changed, data))

            self.link.spawn(follow())

        self.watches.keep(watch)

    # -- the lobby's people, chat and notice, shared with the other nodes ----------------------

    def _share_lobby(self, lobby: Lobby) -> None:
        notice = ClusterStore(self).read_document("notice")
        if isinstance(notice, dict) and isinstance(notice.get("text"), str):
            lobby.notice = notice["text"]
        lobby.outbox = self._lobby_said
        self.link.call(self._hear_lobbies)  # (NATS subscribes again by itself on reconnect)
        self.watches.keep(self._watch_online)

    def _lobby_said(self, kind: str, what: dict[str, Any]) -> None:
        if kind == "online":
            self._publish_online()
            return
        payload = wire.pack({"node": self.name, "kind": kind, "what": what})
        self.link.publish(f"{self.settings.prefix}.lobby.{kind}", payload)
        if kind == "notice":
            ClusterStore(self).write_document("notice", what)

    def _publish_online(self) -> None:
        if self.lobby is None:
            return
        payload = json.dumps(self.lobby.online_here()).encode()

        async def put() -> None:
            kv = await self.bucket("online")
            await kv.put(self.name, payload)

        self.link.spawn(put())

    async def _hear_lobbies(self) -> None:
        assert self.link.nc is not None

        async def said(msg: Any) -> None:
            self.link.count("received", msg.subject)
            try:
                message = wire.unpack(msg.data)
                if message.get("node") == self.name:
                    return
                kind, what = message["kind"], message["what"]
                if kind not in ("chat", "notice") or not isinstance(what, dict):
                    raise wire.Malformed(f"lobby message {kind!r:.20}")
            except (wire.Malformed, KeyError, TypeError) as exc:
                log.warning("dropped a malformed lobby message (%s)", exc)
                return
            self.inbox.post(lambda: _quietly(lambda: self._hear(kind, what)))

        await self.link.nc.subscribe(f"{self.settings.prefix}.lobby.*", cb=said)

    async def _watch_online(self) -> None:
        """Who is connected to each other node (their `online` entries)."""
        watcher = await self.watches.open(await self.bucket("online"))

        async def follow() -> None:
            async for entry in watcher:
                if entry is None or entry.key == self.name:
                    continue
                try:
                    people = json.loads(entry.value) if entry.value and not entry.operation else {}
                except ValueError:
                    people = {}
                people = people if isinstance(people, dict) else {}
                self.inbox.post(partial(self._online_heard, entry.key, people))

        self.link.spawn(follow())

    def _online_heard(self, node: str, people: dict[str, str]) -> None:
        self._online_elsewhere.heard(node, people)
        self._hear_online()

    def _hear_online(self) -> None:
        merged = {i: n for people in self._online_elsewhere.fresh() for i, n in people.items()}
        self._hear("online", {"people": merged})

    def _forget_quiet_nodes(self) -> None:
        """A node killed outright says nothing more: its players leave the online list here
        once its entry is stale."""
        if self._online_elsewhere.prune():
            self._hear_online()

    def _hear(self, kind: str, what: dict[str, Any]) -> None:
        if self.lobby is not None:
            self.lobby.hear(kind, what)

    def _serve_new(self, _table: Any) -> None:
        """Tables made here (held, not served yet) are offered to the other nodes."""
        assert self.lobby is not None
        for table_id in self.held.keys() - self.host.tables.keys():
            table = self.lobby.run_here.get(table_id)
            if table is not None:
                self.host.serve(table)

    # -- the registry: every table of the cluster, as its owner last described it --------------

    async def _watch_registry(self) -> list[tuple[str, bytes | None]]:
        """Start watching the registry; what it holds now (later changes are posted)."""
        self._watcher = watcher = await self.watches.open(await self.bucket("registry"))
        first: list[tuple[str, bytes | None]] = []
        while True:
            entry = await watcher.updates(timeout=10)
            if entry is None:
                break
            first.append((entry.key, entry.value if entry.operation is None else None))

        async def follow() -> None:
            async for entry in watcher:
                if entry is None:
                    continue
                value = entry.value if entry.operation is None else None
                self.inbox.post(partial(self._registry_changed, entry.key, value, live=True))

        self.link.spawn(follow())
        return first

    def heard_clock(self, owner: str, owner_now: object) -> None:
        """`owner` said its clock read `owner_now` just now (a live message): remember how far
        it is from ours. The message's own delay (milliseconds) is counted in, which is well
        within what the offset is for: waits shown to the minute."""
        if isinstance(owner_now, (int, float)) and not isinstance(owner_now, bool):
            self._clock_offsets[owner] = float(owner_now) - self._clock()

    async def _hear_clocks(self) -> None:
        """Every node says its clock with each lease renewal (`describe`): heard live, that
        gives a node that just started every other node's offset within one renewal, before
        any table of theirs changes. Entries written before we watched are not live: skipped."""
        watcher = await self.watches.open(await self.bucket("nodes"))

        async def follow() -> None:
            live = False
            async for entry in watcher:
                if entry is None:
                    live = True
                elif live and entry.key != self.name and entry.value and not entry.operation:
                    try:
                        said = json.loads(entry.value)
                    except ValueError:
                        continue
                    if isinstance(said, dict):
                        self.inbox.post(partial(self.heard_clock, entry.key, said.get("now")))

        self.link.spawn(follow())

    def now(self) -> float:
        """This node's wall clock (the one its tables and announcements use)."""
        return self._clock()

    def clock_offset(self, owner: str) -> float:
        """How far `owner`'s wall clock is ahead of ours (0 until it was heard live)."""
        return self._clock_offsets.get(owner, 0.0)

    def _registry_changed(self, table_id: str, data: bytes | None, *, live: bool = False) -> None:
        lobby = self.lobby
        if lobby is None or table_id in self.host.tables:
            return  # ours: the lobby has the table itself
        stand_in = self._stand_in(table_id)
        if data is None:
            if stand_in is not None:
                lobby.let_go(table_id, "deleted")
            return
        try:
            state = wire.unpack(data)
            owner = state["owner"]
        except (wire.Malformed, KeyError, TypeError) as exc:
            log.warning("table %s: dropped a malformed registry entry (%s)", table_id, exc)
            return
        if owner == self.name:
            return  # what we said before we let it go: the next owner will say more
        if live:
            self.heard_clock(owner, state.get("now"))
        try:
            if stand_in is not None:
                stand_in.update(state)
            elif table_id not in lobby.tables:
                stand_in = self.stand_ins[table_id] = RemoteTable(self, table_id, state)
                lobby.list_table(stand_in)
        except (KeyError, TypeError, ValueError) as exc:
            log.warning("table %s: dropped a malformed registry entry (%s)", table_id, exc)

    def _relist(self, table_id: str) -> None:
        """List a table we just let go as its new owner last described it (that news came
        while it was still ours here, and was passed over)."""

        async def get() -> bytes | None:
            kv = await self.bucket("registry")
            try:
                value: bytes | None = (await kv.get(table_id)).value
                return value
            except KeyNotFoundError:
                return None

        def arrived(future: Any) -> None:
            if not future.cancelled() and future.exception() is None and future.result():
                self._registry_changed(table_id, future.result())
            # else NATS is away: the next registry news lists it

        if self.link.connected.is_set():
            self._on_loop(get(), arrived)

    # -- asking other nodes ---------------------------------------------------------------------

    def ask(
        self,
        table_id: str,
        op: str,
        identity: str | None,
        args: dict[str, Any],
        timeout: float,
        *,
        owner: str | None = None,
    ) -> dict[str, Any]:
        """Ask a table's owner, waiting for the answer (running posted work meanwhile).

        The wait holds this node's loop, so every session here waits with it: an owner that
        let a question time out (paused, partitioned) is asked no more such questions, which
        fail at once, until it answers a ping again (`_probe`). One wait per outage, not one
        per key or screen of every player here."""
        if owner is not None and owner in self._silent:
            return {"error": "down", "message": UNREACHABLE}
        future = self.link.spawn(self._request(table_id, op, identity, args, timeout))
        try:
            answer = self.inbox.wait(future, timeout + 1.0)
        except TimeoutError:
            answer = {"error": "down", "message": UNANSWERED, "silent": True}
        if owner is not None and answer.pop("silent", False):
            self._silent[owner] = (table_id, time.monotonic())
            log.warning(
                "node %s did not answer in %g s: not asked again until it does", owner, timeout
            )
            self.later(PROBE_EVERY, partial(self._probe, owner))
        return answer

    def _probe(self, owner: str) -> None:
        """Ping a silent owner (through the table it did not answer for) until it answers; at
        most for three lease times (a node of an older harena ignores a ping: its tables are then
        asked for real again, one wait per three lease times)."""
        if owner not in self._silent:
            return
        table_id, since = self._silent[owner]
        if time.monotonic() - since > 3 * self.settings.lease_seconds:
            del self._silent[owner]
            return

        def answered(answer: dict[str, Any]) -> None:
            if answer.get("silent"):
                self.later(PROBE_EVERY, partial(self._probe, owner))
            elif self._silent.pop(owner, None) is not None:  # an answer, or nobody there at once
                log.info("node %s answers again, or is gone", owner)

        self.remote_request(table_id, "ping", None, {}, answered, timeout=PROBE_EVERY)

    def remote_request(
        self,
        table_id: str,
        op: str,
        identity: str | None,
        args: dict[str, Any],
        answered: Callable[[dict[str, Any]], None] | None,
        *,
        timeout: float = 5.0,
    ) -> None:
        """Ask without waiting; `answered` hears the answer on this loop."""
        future = self.link.spawn(self._request(table_id, op, identity, args, timeout))
        if answered is not None:
            future.add_done_callback(
                lambda f: (
                    self.inbox.post(lambda: answered(f.result()))
                    if not f.cancelled() and f.exception() is None
                    else None
                )
            )

    async def _request(
        self, table_id: str, op: str, identity: str | None, args: dict[str, Any], timeout: float
    ) -> dict[str, Any]:
        assert self.link.nc is not None
        if not self.link.connected.is_set():
            return {"error": "down", "message": UNREACHABLE}
        payload = wire.pack({"op": op, "identity": identity, "args": args, "node": self.name})
        self.link.count("sent", self.host.request_subject(table_id))
        try:
            reply = await self.link.nc.request(
                self.host.request_subject(table_id), payload, timeout=timeout
            )
            return wire.unpack(reply.data)
        except wire.Malformed as exc:
            return {"error": "down", "message": f"a malformed answer ({exc})"}
        except Exception as exc:  # no responders, timeout, connection lost
            log.info("table %s: %s not answered (%s)", table_id, op, type(exc).__name__)
            silent = isinstance(exc, (TimeoutError, nats.errors.TimeoutError))
            # Nobody got it (no responders): nothing changed. Otherwise it may have been
            # delivered and done: say only that.
            unheard = isinstance(exc, nats.errors.NoRespondersError)
            why = UNREACHABLE if unheard else UNANSWERED
            return {"error": "down", "message": why, "silent": silent}

    def later(self, delay: float, work: Callable[[], None]) -> None:
        self._loop.call_later(delay, work)

    def listen(self, subject: str, arrived: Callable[[bytes, dict[str, str] | None], None]) -> Any:
        """Hear `subject` on this loop until `unlisten` (each message's data and headers). The
        subscription is made on the NATS thread, unwaited for (NATS may be away: the loop must
        not wait); it goes to the server before anything this node sends after it."""
        return self.link.subscribe(
            subject, lambda msg: self.inbox.post(lambda: arrived(msg.data, msg.headers))
        )

    def unlisten(self, sub: Any) -> None:
        self.link.unsubscribe(sub)

    def run(self, server: Any = None) -> None:
        """Renew leases and claim free tables from now on (on the running event loop); say
        who we are (address, load) for operators; answer operators' requests (drain)."""
        self.server = server
        self.link.call(self._serve_control)
        self._announce()
        self._task = self._loop.create_task(self._keep_up())

    def stop(self) -> None:
        """Leave the cluster cleanly: every lease released, so others take the tables now."""
        if self._task is not None:
            self._task.cancel()
        for table_id in list(self.host.tables):
            self._hand_over(table_id)
            self.host.stop_serving(table_id)
        for table_id, lease in list(self.held.items()):
            if not self.link.connected.is_set():
                break  # NATS away: the leases lapse by themselves (no stop waits for it)
            try:
                lease.release()
            except Exception:
                log.warning("could not release table %s's lease", table_id, exc_info=True)
        self.held.clear()
        self.link.close()
        sys.setswitchinterval(getattr(self, "_switch_interval", sys.getswitchinterval()))
        log.info("node %s left the cluster", self.name, extra={"event": "node-left"})

    # -- leases -----------------------------------------------------------------------------------

    def claim_new(self, table_id: str) -> None:
        lease = self.leases.lease(table_id)
        if not lease.claim():
            raise StoreError(f"table {table_id} is run by another node")
        self.counts["claim_new"] += 1
        self.held[table_id] = lease
        self._arrived[table_id] = time.monotonic()

    def watched(self, table_log: JetStreamLog) -> JetStreamLog:
        """A log whose fencing makes this node let its table go."""
        table_log.on_fenced = self._fenced
        return table_log

    def _fenced(self, table_id: str) -> None:
        self._loop.call_soon(self.give_up, table_id, MOVED)

    def claim_free(self) -> list[str]:
        """Claim and load every table no node holds (none yet, or its node died); their ids.
        Waits for NATS: for a node's start and for tests; the node's own scans, every sixth of
        the lease time, wait on the NATS thread (`_scan`)."""
        assert self.lobby is not None
        skip = self._not_to_claim()
        if skip is None:
            return []
        found = self.link.call(partial(self._aclaim_free, skip), timeout=READ_TIMEOUT)
        return [opened.table_id for lease, opened in found if self._install(lease, opened)]

    async def _scan(self) -> None:
        """`claim_free` without holding the loop: what NATS must answer (the tables, their
        leases, their records) is asked on the NATS thread while sessions go on here; only
        the rebuilt tables join the lobby here. Right after a NATS restart JetStream can take
        seconds to answer, which once froze every session of the node."""
        skip = self._not_to_claim()
        if skip is None:
            return
        self._scanned = time.monotonic()
        try:
            found = await self.link.acall(partial(self._aclaim_free, skip), timeout=READ_TIMEOUT)
        except (NatsUnavailable, StoreError) as exc:
            log.info("node %s: no claim scan this time (%s)", self.name, exc)
            return
        for lease, opened in found:
            self._install(lease, opened)

    def _reconnected(self) -> None:
        """(On the NATS thread.) NATS is back: each node takes back at once the leases that
        lapsed meanwhile on the tables it still runs, while no node claims another's for a
        lease time (else after an outage longer than the lease every table went to whichever
        node's scan came first, and its players' screens with it)."""
        self._nats_back = time.monotonic()
        self.inbox.post(self._reclaim_lapsed)

    def _reclaim_lapsed(self) -> None:
        for table_id, lease in list(self.held.items()):
            if not lease.held:
                self._reclaim(table_id, lease)

    def _scan_due(self) -> bool:
        """Whether a claim scan may find something: a table listed here that no renewal was
        heard for lately (its node died, or the lease watch is not hearing: NATS came back), or
        FULL_SCAN_EVERY lease times since the last scan (a table in the stream that no registry
        entry lists). A scan reads the stream's subjects and the retired bucket, every sixth of
        the lease on every node: with every owner alive it found nothing, and cost each node as
        much as a few moves (bench/cluster.py)."""
        if time.monotonic() - self._scanned >= FULL_SCAN_EVERY * self.leases.seconds:
            return True
        lobby = self.lobby
        return lobby is not None and any(
            not self.leases.renewed_lately(table_id)
            for table_id in lobby.tables.keys() - lobby.run_here.keys()
        )

    def _not_to_claim(self) -> set[str] | None:
        """The tables a claim scan leaves alone (run here, or handed to a node nearer their
        players); None: claim nothing (draining, no lobby yet, or NATS just came back)."""
        if self.draining or self.lobby is None:
            return None
        if time.monotonic() - self._nats_back < self.leases.seconds:
            return None  # the nodes that ran tables take their leases back first
        now = time.monotonic()
        self._given = {t: until for t, until in self._given.items() if until > now}
        return set(self.lobby.run_here) | set(self._given)

    async def _aclaim_free(self, skip: set[str]) -> list[tuple[KvLease, Opened]]:
        """On the NATS thread: every table nobody holds, claimed, read and fenced."""
        retired = set(await _keys_of(await self.bucket("retired")))
        found = []
        for table_id in await self.tables._table_ids():
            if table_id in retired or table_id in skip:
                continue
            if self.leases.renewed_lately(table_id):
                continue  # another node runs it, alive
            claimed = await self._aclaim(table_id)
            if claimed is not None:
                found.append(claimed)
        return found

    async def _aclaim(self, table_id: str) -> tuple[KvLease, Opened] | None:
        """On the NATS thread: the table's lease and its records, fenced for this node; None
        if another node holds it, or it cannot be read now (its lease is let go again)."""
        lease = self.leases.lease(table_id)
        if not await lease.aclaim():
            self.counts["claim_lost"] += 1  # (from the NATS thread: a count, nothing reads it back)
            return None
        try:
            return lease, await self.tables.aopen(table_id)
        except (StoreError, NatsUnavailable, TimeoutError, OSError, nats.errors.Error) as exc:
            self.counts["claim_failed"] += 1
            log.warning("table %s could not be taken over (%s)", table_id, exc)
        except Exception:
            log.exception("table %s could not be taken over", table_id)
            self.counts["claim_failed"] += 1
        try:
            await lease.arelease()
        except Exception:
            log.debug("ignored during clean-up", exc_info=True)
        return None

    def _claim_soon(self, table_id: str, then: Callable[[bool], None] | None = None) -> None:
        """Take one table if no node holds it, without holding the loop: `then(taken)` here."""

        def arrived(future: Any) -> None:
            claimed = None if future.cancelled() or future.exception() else future.result()
            taken = claimed is not None and self._install(*claimed)
            if then is not None:
                then(taken)

        if (
            self.lobby is None
            or table_id in self.lobby.run_here
            or not self.link.connected.is_set()
        ):
            if then is not None:
                then(False)
            return
        self._on_loop(self._aclaim(table_id), arrived, READ_TIMEOUT)

    def _install(self, lease: KvLease, opened: Opened) -> bool:
        """A table claimed and read: rebuild it, serve it, and move the screens here that showed
        it through NATS onto it. False (its lease let go) if it has no place here now."""
        table_id = opened.table_id
        if self.draining or self.lobby is None or table_id in self.lobby.run_here:
            self._release(lease)
            return False
        try:
            table = self.tables.build(opened, clock=self._clock)
        except Exception:
            log.exception("table %s could not be taken over", table_id)
            self._release(lease)
            return False
        self.counts["claim_taken"] += 1
        assert isinstance(table.records.log, JetStreamLog)
        self.watched(table.records.log)
        self.held[table_id] = lease
        self._arrived[table_id] = time.monotonic()
        stand_in = self._stand_in(table_id)
        if stand_in is not None:
            self.lobby.replace_table(table)
        else:
            self.lobby.add_table(table)
        self.host.serve(table)
        for listener in list(table.listeners):  # bots and clocks pick it up
            listener(table)
        if stand_in is not None:
            # Screens here showing its stand-in (which reached the last owner through NATS)
            # follow it in place to the table itself: from now on nothing crosses for them.
            stand_in.mark_removed(MOVED)
            stand_in.close()
        log.info(
            "table %s: now run by node %s",
            table_id,
            self.name,
            extra={"event": "table-claimed", "table": table_id, "node": self.name},
        )
        return True

    def _take(self, table_id: str, tries: int) -> None:
        """Claim a table handed to us, trying again a little later while its lease is still
        held (a release that lands after the hand-over's message)."""
        if self.draining or self.lobby is None or table_id in self.held:
            return
        self._claim_soon(table_id, partial(self._taken, table_id, tries))

    def _taken(self, table_id: str, tries: int, taken: bool) -> None:
        if taken or self.draining or table_id in self.held:
            return
        if tries > 1:
            self.later(TAKE_EVERY, lambda: self._take(table_id, tries - 1))
        else:
            log.warning(
                "table %s: handed to node %s, which could not take it (its lease is held): "
                "it is claimed once the lease lapses",
                table_id,
                self.name,
                extra={"event": "table-not-taken", "table": table_id, "node": self.name},
            )

    def move_tables_nearer(self) -> list[str]:
        """Hand each table most of whose players are connected to one other node to that node
        (server/cluster/affinity.py); the ids of those handed over."""
        lobby, wait = self.lobby, self.settings.affinity_seconds
        if lobby is None or wait <= 0 or self.draining:
            return []
        here_now = lobby.online_here().keys()
        moved = []
        for table_id in list(self.held):
            table = lobby.run_here.get(table_id)
            if table is None or not table.started or table.closed is not None:
                continue
            if time.monotonic() - self._arrived.get(table_id, 0.0) < wait:
                continue
            seated = {s.identity for s in table.seats if s.identity is not None and not s.bot}
            elsewhere = self.host.screens_elsewhere(table_id)
            target = nearer_node(seated & here_now, {n: p & seated for n, p in elsewhere.items()})
            if target is not None:
                self.move_table(table_id, target)
                moved.append(table_id)
        return moved

    def move_table(self, table_id: str, node: str) -> None:
        """Hand one table to `node` (a drain of one table: its clocks go with it, nothing
        acknowledged is lost) and ask it to take the table at once. Should it not, the lease
        is free and the table is claimed as any free one is; this node leaves it to others
        for three lease times."""
        self._given[table_id] = time.monotonic() + 3 * self.settings.lease_seconds
        self.give_up(table_id, NEARER)
        self.link.publish(self.control_subject(node), wire.pack({"op": "take", "table": table_id}))
        log.info(
            "table %s: handed to node %s, nearer its players",
            table_id,
            node,
            extra={"event": "table-moved-nearer", "table": table_id, "node": self.name},
        )

    def give_up(self, table_id: str, reason: str) -> None:
        if reason != MOVED:  # (a fenced node cannot write, and its clocks are not the table's)
            self._hand_over(table_id)
        self.host.stop_serving(table_id)
        lease = self.held.pop(table_id, None)
        self._arrived.pop(table_id, None)
        if lease is not None and lease.held:
            self._release(lease)
        if self.lobby is not None and table_id in self.lobby.tables:
            self.lobby.let_go(table_id, reason)
            self._relist(table_id)
            log.warning(
                "table %s: no longer run by node %s (%s)",
                table_id,
                self.name,
                reason,
                extra={"event": "table-released", "table": table_id, "node": self.name},
            )

    def _hand_over(self, table_id: str) -> None:
        """Leave the table's running clocks, as durations, for its next owner (a dead node
        leaves none: the next owner starts them afresh, as after a restart)."""
        table = self.lobby.run_here.get(table_id) if self.lobby is not None else None
        table_log = table.records.log if table is not None else None
        if table is not None and isinstance(table_log, JetStreamLog):
            running = table.running_clocks()  # (and a reaction window's time left)
            if (table.policy.active or "window" in running) and table.closed is None:
                _quietly(lambda: table_log.hand_over(running))

    def retire(self, table_id: str, why: str) -> None:
        """A deleted or archived table: marked so no node claims it, its records kept."""

        async def mark() -> None:
            kv = await self.bucket("retired")
            await kv.put(table_id, why.encode())

        self.link.call(mark)
        self.host.forget(table_id)
        lease = self.held.pop(table_id, None)
        self._arrived.pop(table_id, None)
        if lease is not None:
            _quietly(lease.release)

    async def _keep_up(self) -> None:
        """Every sixth of the lease time claim what nobody holds; every second tick renew.
        A dead node's lease lapses at most a lease time after its death, so its tables are
        claimed within 7/6 of the lease time (docs/cluster.md)."""
        tick = self.leases.seconds / 6
        renew = True
        scan: asyncio.Task[None] | None = None  # a claim scan, while NATS answers it
        while True:
            await asyncio.sleep(tick)
            try:
                if renew:
                    await self._renew_all()
                    self._announce()
                    self._publish_online()
                    for refresh in self.refreshers:
                        refresh()
                    self._settle_doubts()
                    self.move_tables_nearer()
                renew = not renew
                idle = scan is None or scan.done()
                if self.link.connected.is_set() and idle and self._scan_due():
                    scan = self._loop.create_task(self._scan())
            except asyncio.CancelledError:
                raise
            except (NatsUnavailable, StoreError) as exc:  # NATS away or slow: expected
                log.warning("node %s: keeping leases failed (%s); trying again", self.name, exc)
            except Exception:
                log.exception("node %s: keeping leases failed; trying again", self.name)

    def _settle_doubts(self) -> None:
        """A table whose last append was never confirmed: once NATS answers, see whether it
        landed (asked on the NATS thread; the loop does not wait). If it did the table is
        rebuilt from the stream here (its screens follow it and show the move); if not,
        nothing changes and nobody is told otherwise."""
        if not self.link.connected.is_set():
            return  # NATS still away: the next renewal asks again
        for table_id in list(self.held):
            table = self.lobby.run_here.get(table_id) if self.lobby is not None else None
            table_log = table.records.log if table is not None else None
            if isinstance(table_log, JetStreamLog) and table_log.in_doubt:
                self._on_loop(
                    table_log.alast_seq(), partial(self._doubt_answered, table_id, table_log)
                )

    def _on_loop(
        self,
        coro: Coroutine[Any, Any, Any],
        then: Callable[[Any], None],
        timeout: float = CALL_TIMEOUT,
    ) -> None:
        """Run `coro` on the NATS thread (for `timeout` at most) without waiting for it here;
        then `then(its future)` on this loop."""
        future = self.link.spawn(asyncio.wait_for(coro, timeout))
        future.add_done_callback(lambda f: self.inbox.post(partial(then, f)))

    def _doubt_answered(self, table_id: str, table_log: JetStreamLog, future: Any) -> None:
        if future.cancelled() or future.exception() is not None:
            return  # NATS still away: the next renewal asks again
        was_fenced = table_log.fenced
        table_log.settled(future.result())
        if table_log.fenced and not was_fenced:  # landed: let go (on_fenced), then take it back
            log.info("table %s: an unconfirmed move was stored; rebuilt", table_id)
            self._loop.call_soon(self._claim_soon, table_id)

    async def _renew_all(self) -> None:
        leases = dict(self.held)

        async def renew_all() -> dict[str, bool]:
            results = await asyncio.gather(
                *(lease.arenew() for lease in leases.values()), return_exceptions=True
            )
            return {t: r is True for t, r in zip(leases, results, strict=True)}

        try:
            renewed = await self.link.acall(renew_all)
        except Exception:
            renewed = {t: False for t in leases}
        self.counts.update(f"renewal_{'renewed' if ok else 'missed'}" for ok in renewed.values())
        for table_id, ok in renewed.items():
            if ok or self.held.get(table_id) is not leases[table_id]:
                continue
            if leases[table_id].held:
                continue  # not renewed this time (NATS slow or down) but not lapsed yet
            self._reclaim(table_id, leases[table_id])

    def _release(self, lease: KvLease) -> None:
        """Let a lease go without waiting (NATS away: it lapses by itself)."""
        if self.link.connected.is_set():
            self.link.spawn(lease.arelease())

    def _holds(self, table_id: str) -> bool:
        """Whether this node holds the table's lease as far as it can tell (a renewal sent
        within the lease time): past that, another node may run the table already."""
        lease = self.held.get(table_id)
        return lease is not None and lease.held

    def _lapsed(self, table_id: str) -> None:
        """A request came for a table whose lease lapsed here (this node was paused, or NATS
        was away): claim it again or let it go now, not at the next renewal."""
        lease = self.held.get(table_id)
        if lease is None or lease.held or table_id in self._lapsing:
            return
        self._lapsing.add(table_id)

        def settle() -> None:
            self._lapsing.discard(table_id)
            if self.held.get(table_id) is lease and not lease.held:
                self._reclaim(table_id, lease)

        self._loop.call_soon(settle)

    def _reclaim(self, table_id: str, lease: KvLease) -> None:
        """A lease that lapsed while NATS was away (or this node was paused): claim it again and
        fence the log again. Both succeed only if no other node took the table meanwhile, and
        then its screens never notice; else the table goes to whoever has it. Neither waits
        here: while NATS is away the table stays (its keys are told nothing was saved, as
        nothing can be; no other node can take it either) and is claimed again once NATS is
        back."""
        table = self.lobby.run_here.get(table_id) if self.lobby is not None else None
        table_log = table.records.log if table is not None else None
        if not isinstance(table_log, JetStreamLog):
            self.give_up(table_id, MOVED)
            return
        if table_id in self._reclaiming or lease.held or not self.link.connected.is_set():
            return  # under way, or done; or NATS away: the next renewal tries again
        self._reclaiming.add(table_id)
        fence = table_log.fence_later(self.name)

        async def again() -> int | None:
            if not await lease.aclaim():
                return None  # another node holds it
            try:
                return await fence()
            except BaseException:
                await lease.arelease()  # not fenced: claimed again at the next renewal
                raise

        self._on_loop(again(), partial(self._reclaimed, table_id, lease, table_log))

    def _reclaimed(
        self, table_id: str, lease: KvLease, table_log: JetStreamLog, future: Any
    ) -> None:
        self._reclaiming.discard(table_id)
        error = future.exception() if not future.cancelled() else None
        seq = future.result() if not future.cancelled() and error is None else None
        table_log.fence_done(seq, error)
        if self.held.get(table_id) is not lease:
            return  # let go meanwhile
        if seq is not None:
            log.info(
                "table %s: lease taken again after a lapse",
                table_id,
                extra={"event": "lease-reclaimed", "table": table_id, "node": self.name},
            )
        elif error is None or table_log.fenced:  # another node holds it, or wrote to it
            log.info("table %s: not taken again (run by another node)", table_id)
            self.give_up(table_id, MOVED)
        else:  # NATS away or slow: the table stays, and the next renewal tries again
            log.info("table %s: not taken again yet (%s)", table_id, type(error).__name__)

    # -- operators: who we are, and drain ------------------------------------------------------

    def describe(self) -> dict[str, Any]:
        """What operators see of this node (`harena admin nodes`)."""
        server = self.server
        listening = server is not None and server._listener is not None
        return {
            "node": self.name,
            "address": f"{server.config.host}:{server.port}" if listening else "",
            "tables": len(self.held),
            "sessions": len(server.all_sessions()) if server is not None else 0,
            "load": round(os.getloadavg()[0], 2),
            "since": self.started_at,
            "now": self._clock(),
            "draining": self.draining,
        }

    def _announce(self) -> None:
        payload = json.dumps(self.describe()).encode()

        async def put() -> None:
            kv = await self.bucket("nodes")
            await kv.put(self.name, payload)

        self.link.spawn(put())

    def nodes(self) -> list[dict[str, Any]]:
        """Every node that announced itself within three lease times."""

        async def read() -> list[bytes]:
            kv = await self.bucket("nodes")
            found = []
            for key in await _keys_of(kv):
                try:
                    entry = await kv.get(key)
                except KeyNotFoundError:
                    continue
                if entry.value:
                    found.append(entry.value)
            return found

        return sorted((json.loads(v) for v in self.link.call(read)), key=lambda n: n["node"])

    def control_subject(self, node: str) -> str:
        return f"{self.settings.prefix}.node.{node}.ctl"

    async def _serve_control(self) -> None:
        assert self.link.nc is not None

        async def arrived(msg: Any) -> None:
            self.link.count("received", msg.subject)
            self.inbox.post(lambda: self._control(msg))

        await self.link.nc.subscribe(self.control_subject(self.name), cb=arrived)
        await self.link.nc.flush()

    def _control(self, msg: Any) -> None:
        try:
            message = wire.unpack(msg.data)
            op = message.get("op")
        except wire.Malformed as exc:
            log.warning("node %s: dropped a malformed control message (%s)", self.name, exc)
            return
        if op == "take":  # another node handed us a table (move_table): claim it now
            table_id = message.get("table")
            if isinstance(table_id, str):
                self._take(table_id, TAKE_TRIES)
            return
        answer = {"ok": self.drain()} if op == "drain" else {"error": f"no operation {op!r:.40}"}
        if msg.reply:
            self.link.publish(msg.reply, wire.pack(answer))

    def drain(self) -> str:
        """Hand every table to the other nodes (released: they claim them at once, nothing
        acknowledged is lost) and close every session with a word on where to go."""
        self.draining = True
        tables = sorted(self.held)
        for table_id in tables:
            self.give_up(table_id, DRAINED)
        sessions = self.server.all_sessions() if self.server is not None else []
        for session in sessions:
            session.request_exit(DRAIN_MESSAGE)
        self._announce()
        log.warning(
            "node %s drained: %d tables handed over, %d sessions closed",
            self.name,
            len(tables),
            len(sessions),
            extra={"event": "node-drained", "node": self.name},
        )
        return f"node {self.name} drained: {len(tables)} tables handed over, {len(sessions)} sessions closed"

    def ask_node(self, node: str, op: str) -> dict[str, Any]:
        """An operator's request to another node (or this one), answered."""
        if node == self.name:
            return {"ok": self.drain()} if op == "drain" else {"error": f"no operation {op}"}

        async def request() -> dict[str, Any]:
            assert self.link.nc is not None
            reply = await self.link.nc.request(
                self.control_subject(node), wire.pack({"op": op}), timeout=10
            )
            return wire.unpack(reply.data)

        try:
            return self.inbox.wait(self.link.spawn(request()), 12)
        except Exception as exc:
            return {"error": f"node {node} did not answer ({type(exc).__name__})"}

    # -- buckets ----------------------------------------------------------------------------------

    async def _ensure_bucket(self, name: str) -> None:
        assert self.link.js is not None
        bucket = f"{self.settings.prefix}_{name}"
        try:
            self._buckets[name] = await self.link.js.key_value(bucket)
        except Exception:
            self._buckets[name] = await self.link.js.create_key_value(
                bucket=bucket,
                ttl=3 * self.settings.lease_seconds if name in TRANSIENT else None,
                history=1,
                storage=api.StorageType.FILE,
                replicas=self.settings.replicas,
            )

    async def bucket(self, name: str) -> Any:
        return self._buckets[name]

    def tables_held(self) -> list[str]:
        return sorted(self.held)


async def _keys_of(kv: Any) -> list[str]:
    try:
        return list(await kv.keys())
    except Exception:  # nats-py raises NoKeysError for an empty bucket
        return []


def _doc_key(name: str) -> str:
    return name.replace("/", "_")


def _quietly(action: Callable[[], Any]) -> None:
    try:
        action()
    except Exception:
        log.debug("ignored during clean-up", exc_info=True)
