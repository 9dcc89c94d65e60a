"""Table logs and snapshots in one JetStream stream, a subject per table, every append fenced.

    <prefix>.table.<id>.log    the table's records, in order (msgpack maps, as in a file log)
    <prefix>.table.<id>.snap   its snapshots; only the newest counts (older ones are purged)

Each append carries `Nats-Expected-Last-Subject-Sequence`: the sequence of the last record this
node knows on the table's subject. A node that claims a table appends an `owner` record first
(a fence): from then on every append of a previous owner that has not seen it is refused by
JetStream itself, whatever that node believes about its lease, even after a pause or a partition.
The `owner` records are the store's own and never reach the table; so are `handoff` records, the
running clocks (as durations) of a node that let the table go cleanly (drained, stopped), which
the next owner takes up so a move neither adds nor takes time whatever the two machines' clocks
say. A snapshot carries the stream
sequence of the last record it covers (in `log_bytes`, where a file snapshot keeps the byte
offset), so a rebuild reads the newest snapshot and only the records after it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import msgpack
from nats.js import api
from nats.js.errors import APIError, BadRequestError, KeyWrongLastSequenceError, NotFoundError

from harena.core.store import MAX_RECORD, StoreError
from harena.core.table import Table
from harena.server.cluster.link import NatsLink, NatsUnavailable

log = logging.getLogger(__name__)

WRONG_LAST_SEQUENCE = 10071  # JetStream's error code: the subject moved on since we last wrote
APPEND_TIMEOUT = 3.0
READ_TIMEOUT = 30.0  # reading a long table back may take a while; it is not on a player's key


NOT_SAVED = "the cluster's storage (NATS) is unreachable: nothing was saved"
IN_DOUBT = "not confirmed: the choice may have been made; your screen will show it"
"""Said to a player when an append was sent and never confirmed (it may be in the stream)."""


class Fenced(StoreError):
    """Another node has written to this table since we last did: it is theirs now."""


@dataclass
class Opened:
    """A table read from the stream and fenced for this node, to rebuild (`build`)."""

    table_id: str
    loaded: Loaded
    fence_seq: int  # the stream sequence of our fence: where the next append is fenced
    fenced_at: float | None  # when the stream stored it (None: handed over, or not known)


@dataclass
class Loaded:
    """What the stream holds for one table."""

    snapshot: dict[str, Any] | None
    records: list[dict[str, Any]]  # the table's records after the snapshot (no owner records)
    last_seq: int  # the subject's last sequence: where the next append is fenced
    count: int  # table records in the whole log
    touched: float  # when its last record was written (the stream's clock)
    handover: dict[str, Any] | None = None  # the last node's running clocks, if it handed over
    last_record_time: float | None = None  # when the stream stored the last table record


def _fenced_headers(node: str, table_id: str, last_seq: int) -> dict[str, str]:
    """An append that lands only on a subject whose last record is `last_seq`; the same id for
    every retry of it, so JetStream keeps one copy (deduplication)."""
    return {
        "Nats-Expected-Last-Subject-Sequence": str(last_seq),
        "Nats-Msg-Id": f"{node}:{table_id}:{last_seq}",
    }


def encode(record: dict[str, Any]) -> bytes:
    return msgpack.packb(record, use_bin_type=True)


def decode(data: bytes) -> dict[str, Any]:
    record = msgpack.unpackb(data, raw=False, strict_map_key=False)
    if not isinstance(record, dict):
        raise StoreError("a record in the stream is not a map")
    return record


class JetStreamTables:
    """Every table's records and snapshots in one stream (the `TableStore` of a cluster)."""

    def __init__(
        self,
        link: NatsLink,
        *,
        prefix: str = "harena",
        replicas: int = 1,
        node: str = "node",
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.link = link
        self.prefix = prefix
        self.stream = f"{prefix.upper()}_TABLES"
        self.replicas = replicas
        self.node = node
        self._clock = clock

    # -- setup ------------------------------------------------------------------------------------

    def ensure(self) -> JetStreamTables:
        """Create the stream and the id bucket if this is the cluster's first node."""
        self.link.call(self._ensure)
        return self

    async def _ensure(self) -> None:
        js = self.link.js
        assert js is not None
        await js.add_stream(
            name=self.stream,
            subjects=[f"{self.prefix}.table.>"],
            storage=api.StorageType.FILE,
            num_replicas=self.replicas,
            allow_direct=True,
            max_msg_size=MAX_RECORD,
            allow_rollup_hdrs=True,
        )
        await js.create_key_value(
            bucket=f"{self.prefix}_ids",
            history=1,
            storage=api.StorageType.FILE,
            replicas=self.replicas,
        )

    def subject(self, table_id: str, kind: str = "log") -> str:
        return f"{self.prefix}.table.{table_id}.{kind}"

    # -- TableStore -------------------------------------------------------------------------------

    def new_table_id(self) -> str:
        """The next id no node has taken: short, so players can say "table 12"."""
        return self.link.call(self._new_table_id)

    async def _new_table_id(self) -> str:
        assert self.link.js is not None
        ids = await self.link.js.key_value(f"{self.prefix}_ids")
        status = await ids.status()
        n = status.values + 1
        while True:
            try:
                await ids.create(str(n), self.node.encode())
                return str(n)
            except KeyWrongLastSequenceError:
                n += 1

    def create(self, table_id: str) -> JetStreamLog:
        """A new table's log: its first append is fenced on an empty subject, so two nodes can
        never both create one table."""
        return JetStreamLog(self, table_id, last_seq=0, count=0)

    def write_snapshot(self, table_id: str, snapshot: dict[str, Any]) -> None:
        """Unfenced: a snapshot only says what its records were (a stale owner's is a true,
        older one), and the rebuild reads on from the last record it covers."""
        try:
            self.link.call(lambda: self._write_snapshot(table_id, encode(snapshot)))
        except (NatsUnavailable, APIError) as exc:
            raise StoreError(f"could not write snapshot for table {table_id}: {exc}") from exc

    async def _write_snapshot(self, table_id: str, payload: bytes) -> None:
        assert self.link.js is not None
        # A rollup keeps only this message on the subject: the older snapshots go.
        await self.link.js.publish(
            self.subject(table_id, "snap"), payload, headers={"Nats-Rollup": "sub"}
        )

    def touched(self, table_id: str) -> float:
        return self.link.call(lambda: self._last_time(table_id))

    async def _last_time(self, table_id: str) -> float:
        assert self.link.js is not None
        try:
            msg = await self.link.js.get_last_msg(self.stream, self.subject(table_id))
        except NotFoundError:
            raise StoreError(f"there is no table {table_id}") from None
        return msg.time.timestamp() if msg.time is not None else self._clock()

    # -- reading ----------------------------------------------------------------------------------

    def table_ids(self) -> list[str]:
        """Every table with a log in the stream."""
        return self.link.call(self._table_ids, timeout=READ_TIMEOUT)

    async def _table_ids(self) -> list[str]:
        assert self.link.js is not None
        info = await self.link.js.stream_info(
            self.stream, subjects_filter=f"{self.prefix}.table.*.log"
        )
        subjects = info.state.subjects or {}
        return sorted((s.split(".")[-2] for s in subjects), key=_id_order)

    def read(self, table_id: str, *, timeout: float = READ_TIMEOUT) -> Loaded:
        """The newest snapshot and every record after it; StoreError if there is no table (or
        NATS did not give it within `timeout`)."""
        try:
            return self.link.call(lambda: self._read(table_id), timeout=timeout)
        except NatsUnavailable as exc:
            raise StoreError(f"could not read table {table_id}: {exc}") from exc

    async def _read(self, table_id: str) -> Loaded:
        js = self.link.js
        assert js is not None
        try:
            last = await js.get_last_msg(self.stream, self.subject(table_id))
        except NotFoundError:
            raise StoreError(f"there is no table {table_id}") from None
        snapshot: dict[str, Any] | None = None
        try:
            snap_msg = await js.get_last_msg(self.stream, self.subject(table_id, "snap"))
            snapshot = decode(snap_msg.data or b"")
        except NotFoundError:
            pass
        start = snapshot["log_bytes"] + 1 if snapshot is not None else 1
        stored: list[float] = []
        found = await self._read_subject(self.subject(table_id), start, last.seq or 0, stored)
        # A handoff counts only if no table record came after it (clocks changed since).
        handover = found[-1] if found and found[-1].get("t") == "handoff" else None
        records = [r for r in found if r.get("t") != "handoff"]
        before = snapshot["records"] if snapshot is not None else 0
        touched = last.time.timestamp() if last.time is not None else self._clock()
        return Loaded(
            snapshot,
            records,
            last.seq or 0,
            before + len(records),
            touched,
            handover,
            stored[-1] if stored else None,
        )

    async def _read_subject(
        self, subject: str, start: int, last: int, stored: list[float] | None = None
    ) -> list[dict[str, Any]]:
        """The table records on `subject` from stream sequence `start` through `last` (and in
        `stored`, when the stream stored each: its own clock)."""
        js = self.link.js
        assert js is not None
        records: list[dict[str, Any]] = []
        if start > last:
            return records
        sub = await js.subscribe(
            subject,
            stream=self.stream,
            ordered_consumer=True,
            config=api.ConsumerConfig(
                deliver_policy=api.DeliverPolicy.BY_START_SEQUENCE, opt_start_seq=start
            ),
        )
        try:
            while True:
                msg = await sub.next_msg(timeout=5.0)
                record = decode(msg.data)
                if record.get("t") != "owner":
                    records.append(record)
                    if stored is not None:
                        stored.append(msg.metadata.timestamp.timestamp())
                if msg.metadata.sequence.stream >= last:
                    return records
        finally:
            await sub.unsubscribe()

    def open_table(self, table_id: str, *, clock: Callable[[], float] = time.time) -> Table:
        """Rebuild a table from the stream and fence it: from here on only this node appends.
        Raises StoreError if it cannot be rebuilt, Fenced if another node wrote meanwhile."""
        try:
            claimed = self.link.call(lambda: self.aopen(table_id), timeout=READ_TIMEOUT)
        except NatsUnavailable as exc:
            raise StoreError(f"could not read table {table_id}: {exc}") from exc
        return self.build(claimed, clock=clock)

    async def aopen(self, table_id: str) -> Opened:
        """What `open_table` asks of NATS, on the NATS thread (a claim scan waits for it there,
        never on the server's loop): the table's records, fenced, and when the fence landed."""
        js = self.link.js
        assert js is not None
        loaded = await self._read(table_id)
        payload = encode({"t": "owner", "node": self.node, "at": self._clock()})
        headers = _fenced_headers(self.node, table_id, loaded.last_seq)
        try:
            ack = await asyncio.wait_for(
                js.publish(self.subject(table_id), payload, headers=headers), APPEND_TIMEOUT
            )
        except APIError as exc:
            if exc.err_code == WRONG_LAST_SEQUENCE:
                raise Fenced(f"table {table_id} is run by another node now") from exc
            raise StoreError(f"could not fence table {table_id}: {exc}") from exc
        fenced_at = None
        if loaded.handover is None and loaded.last_record_time is not None:
            try:  # its node died (it handed nothing over): when the stream stored our fence
                msg = await js.get_msg(self.stream, ack.seq)
                fenced_at = msg.time.timestamp() if msg.time is not None else None
            except Exception as exc:
                log.info("could not read when message %d was stored (%s)", ack.seq, exc)
        return Opened(table_id, loaded, ack.seq, fenced_at)

    def build(self, opened: Opened, *, clock: Callable[[], float] = time.time) -> Table:
        """The table `aopen` read, rebuilt (on the server's loop, where tables live)."""
        loaded = opened.loaded
        table = Table.rebuild(opened.table_id, loaded.snapshot, loaded.records, clock=clock)
        table_log = JetStreamLog(
            self, opened.table_id, last_seq=opened.fence_seq, count=loaded.count
        )
        table.attach(self, table_log, loaded.touched)
        if loaded.handover is not None:
            table.resume_clocks(loaded.handover)
        elif loaded.last_record_time is not None and opened.fenced_at is not None:
            # Its node died (it handed nothing over): the clocks run on from the last record,
            # for as long as the stream says (its clock alone: no node's clock is trusted).
            table.resume_after(opened.fenced_at - loaded.last_record_time)
        return table

    def delete(self, table_id: str) -> None:
        """Remove a table's records and snapshots from the stream (an import's undo, tests)."""
        self.link.call(lambda: self._purge(table_id))

    async def _purge(self, table_id: str) -> None:
        assert self.link.js is not None
        for kind in ("log", "snap"):
            await self.link.js.purge_stream(self.stream, subject=self.subject(table_id, kind))


class JetStreamLog:
    """One table's fenced log (a `RecordLog`): appends go through only while nobody else wrote."""

    def __init__(self, tables: JetStreamTables, table_id: str, *, last_seq: int, count: int):
        self.tables = tables
        self.table_id = table_id
        self.subject = tables.subject(table_id)
        self.last_seq = last_seq
        self.count = count
        self.fenced = False  # another node took the table: nothing more goes in from here
        self._doubt: str | None = None  # id of an append whose fate we never heard
        self._closed = False
        self._fencing = False  # a fence is under way on the NATS thread (`fence_later`)
        self.on_fenced: Callable[[str], None] | None = None  # told the table's id, once

    @property
    def size(self) -> int:
        return self.last_seq

    def fence(self, node: str) -> None:
        """Claim the table's log: an owner record that no previous owner's append can pass."""
        self._append({"t": "owner", "node": node, "at": self.tables._clock()})

    def fence_later(self, node: str) -> Callable[[], Awaitable[int]]:
        """`fence` as a coroutine for the NATS thread, which the server's loop does not wait
        for (a lease taken again after a lapse, while the table's screens go on): until
        `fence_done` the log refuses appends, sending nothing ("nothing was saved")."""
        self._fencing = True
        payload = encode({"t": "owner", "node": node, "at": self.tables._clock()})
        headers = _fenced_headers(self.tables.node, self.table_id, self.last_seq)
        link = self.tables.link

        async def publish() -> int:
            assert link.js is not None
            ack = await asyncio.wait_for(
                link.js.publish(self.subject, payload, headers=headers), APPEND_TIMEOUT
            )
            return int(ack.seq)

        return publish

    def fence_done(self, seq: int | None, error: BaseException | None = None) -> None:
        """The fence of `fence_later` landed at `seq` (None: not sent, or its fate unknown; then
        the next append tells). An error saying another node wrote fences this log."""
        self._fencing = False
        if seq is not None:
            self.last_seq = seq
        elif isinstance(error, APIError) and error.err_code == WRONG_LAST_SEQUENCE:
            self._set_fenced()

    def hand_over(self, running: dict[str, Any]) -> None:
        """Before letting the table go: its running clocks, as durations, for the next owner."""
        self._append({"t": "handoff", "node": self.tables.node, **running})

    def append(self, record: dict[str, Any]) -> None:
        self._append(record)
        self.count += 1

    def _append(self, record: dict[str, Any]) -> None:
        if self._closed:
            raise StoreError(f"table {self.table_id}'s log is closed")
        if self.fenced:
            raise Fenced(f"table {self.table_id} is run by another node now")
        link = self.tables.link
        if not link.connected.is_set() or self._fencing:  # nothing is sent: this is known
            raise StoreError(NOT_SAVED)
        if self._doubt is not None:
            self._settle_doubt()
        payload = encode(record)
        headers = _fenced_headers(self.tables.node, self.table_id, self.last_seq)
        msg_id = headers["Nats-Msg-Id"]
        js = link.js
        assert js is not None
        try:
            ack = link.call(
                lambda: js.publish(self.subject, payload, headers=headers, stream=None),
                timeout=APPEND_TIMEOUT,
            )
        except APIError as exc:
            if exc.err_code == WRONG_LAST_SEQUENCE:
                self._set_fenced()
                log.warning(
                    "table %s: another node wrote to it; this node stops running it",
                    self.table_id,
                    extra={"event": "table-fenced", "table": self.table_id},
                )
                raise Fenced(f"table {self.table_id} is run by another node now") from exc
            raise StoreError(f"could not save to table {self.table_id}: {exc}") from exc
        except (NatsUnavailable, asyncio.CancelledError, OSError, BadRequestError) as exc:
            # Sent, never confirmed: it may have been stored. The table takes it back; the
            # node settles the doubt as soon as NATS answers (`settle`) and the screens then
            # show what the stream holds.
            self._doubt = msg_id
            log.warning("table %s: an append was not confirmed (%s)", self.table_id, exc)
            raise StoreError(IN_DOUBT) from exc
        except Exception as exc:  # nats-py raises its own errors for a dropped connection
            self._doubt = msg_id
            log.warning("table %s: an append was not confirmed (%s)", self.table_id, exc)
            raise StoreError(IN_DOUBT) from exc
        self.last_seq = ack.seq

    @property
    def in_doubt(self) -> bool:
        """An append was sent and never confirmed: the stream may hold a record we do not."""
        return self._doubt is not None and not self.fenced and not self._closed

    async def alast_seq(self) -> int:
        """On the NATS thread: the sequence of the last record on the table's subject."""
        link = self.tables.link
        assert link.js is not None
        msg = await link.js.get_last_msg(self.tables.stream, self.subject)
        return int(msg.seq or 0)

    def settled(self, last_seq: int) -> None:
        """The subject's last record is `last_seq`: if an unconfirmed append landed (or another
        node wrote), this log is fenced and its table must be rebuilt from the stream, which
        shows the move; if not, the doubt is over and nothing changed."""
        if not self.in_doubt:
            return
        if last_seq == self.last_seq:
            self._doubt = None  # it never landed
        else:
            self._set_fenced()

    def _settle_doubt(self) -> None:
        """An earlier append timed out: if it landed after all, this node's table lacks a
        record the stream has, and must be rebuilt before it appends again."""
        try:
            last_seq = self.tables.link.call(self.alast_seq, timeout=APPEND_TIMEOUT)
        except Exception as exc:
            raise StoreError(NOT_SAVED) from exc
        self.settled(last_seq)
        if self.fenced:
            raise Fenced(f"table {self.table_id} must be reloaded from the stream")

    def _set_fenced(self) -> None:
        self.fenced = True
        if self.on_fenced is not None:
            self.on_fenced(self.table_id)

    def close(self) -> None:
        self._closed = True


def _id_order(table_id: str) -> tuple[int, str]:
    return (int(table_id), "") if table_id.isdigit() else (1 << 62, table_id)
