"""A table's records: how a table is created, loaded, rebuilt, changed and snapshotted.

Every change to a table is a record (create, seat, start, act, hold, chat, stand_in, take_back,
close, keep, again, rematched). A record is saved (fsynced) before anyone hears of it, and the same records rebuild the
table after a restart: the log is the truth, snapshots only shorten the replay.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from harena.core import recovery
from harena.core.bots import BOT_NAMES
from harena.core.clocks import ClockPolicy, SeatTimes
from harena.core.codec import from_plain, to_plain
from harena.core.engine import Event, GameConfig, IllegalAction, game_class, make_config, restore
from harena.core.logstore import RecordLog, SnapshotStore, TableStore
from harena.core.privacy import Privacy
from harena.core.store import Store, StoredTable, StoreError
from harena.core.table.options import TableOptions
from harena.core.table.seats import CHAT_KEPT, ChatLine, Seat

if TYPE_CHECKING:
    from harena.core.table.front import Table

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 64  # records between snapshots


class TableRecords:
    """Where a table's records go: its log, and every `SNAPSHOT_EVERY` records a snapshot
    (`body` gives the table's state for one). Neither: a table in memory only (a test, an
    export)."""

    def __init__(
        self,
        table_id: str,
        store: SnapshotStore | None,
        table_log: RecordLog | None,
        body: Callable[[], dict[str, Any]],
    ) -> None:
        self.table_id = table_id
        self.store = store
        self.log = table_log
        self.count = 0  # records in the log
        self._body = body

    def append(self, record: dict[str, Any]) -> None:
        if self.log is not None:
            self.log.append(record)
        self.count += 1

    def changed(self) -> None:
        if self.store is not None and self.count % SNAPSHOT_EVERY == 0:
            self.save_snapshot()

    def save_snapshot(self) -> None:
        if self.store is None:
            return
        try:
            self.store.write_snapshot(self.table_id, self.snapshot_data())
        except StoreError:
            # The log alone restores everything; a missed snapshot only slows the next load.
            log.exception("table %s: snapshot failed", self.table_id)

    def snapshot_data(self) -> dict[str, Any]:
        """The snapshot: the table's state, how many records it covers and where they end."""
        return {
            "records": self.count,
            "log_bytes": self.log.size if self.log is not None else None,
            **self._body(),
        }

    def close(self) -> None:
        if self.log is not None:
            self.log.close()
            self.log = None


# -- create, load, rebuild ------------------------------------------------------------------------


def create(
    cls: type[Table],
    game_name: str,
    players: int,
    seed: int,
    options: dict[str, str] | None,
    *,
    store: TableStore | None,
    table_id: str | None,
    clock: Callable[[], float],
    creator: str | None,
    policy: ClockPolicy | None,
    privacy: Privacy | None = None,
    hints: bool = False,
    table_options: TableOptions | None = None,
) -> Table:
    """A new table, its create record saved (see `Table.create`)."""
    config = make_config(game_name, players, seed, options)
    policy = policy or ClockPolicy()
    if policy.bot is not None and policy.bot not in game_class(game_name).bots:
        raise IllegalAction(f"no bot {policy.bot!r} to stand in at {game_name}")
    if table_id is None:
        table_id = store.new_table_id() if store is not None else "local"
    table_log = store.create(table_id) if store is not None else None
    table = cls(
        table_id,
        game_class(game_name)(config),
        [Seat() for _ in range(players)],
        store=store,
        table_log=table_log,
        clock=clock,
    )
    table.creator = creator
    table.privacy = privacy.copy() if privacy is not None else None
    table.hints = hints
    table.times = SeatTimes(policy, players)
    table.table_options = table_options or TableOptions()
    table._save(
        {
            "t": "create",
            "config": to_plain(config),
            "at": clock(),
            "by": creator,
            "policy": policy.to_record(),
            **({"hints": True} if hints else {}),
            "table": table.table_options.to_record(),
        }
        | ({"privacy": privacy.to_record()} if privacy is not None else {})
    )
    table.save_snapshot()  # a second copy of the config, should the create record be damaged
    return table


def load(
    cls: type[Table], stored: StoredTable, store: Store | None, clock: Callable[[], float]
) -> Table:
    """A table from its files, repaired as far as they can be (see `Table.load`)."""
    start = recovery.plan(stored, CHAT_KEPT)
    table = None
    if start.snapshot is not None:
        try:
            table = _from_snapshot(cls, stored.table_id, start.snapshot, clock)
        except Exception as exc:  # a blob that passed its checksum but no longer restores
            start.notes.append(
                f"snapshot does not restore ({exc}); set aside, rebuilt from the log"
            )
            repairs, start = (
                start.repairs,
                recovery.from_log(stored, start.notes, reject_snapshot=True),
            )
            start.repairs = repairs
    records, offsets, before = start.records, start.offsets, start.counted
    if table is None:
        table = _from_first_record(cls, stored.table_id, records[0], clock)
        records, offsets, before = records[1:], offsets[1:], 1
    applied, failed = apply_saved(table, records)
    table.records.count = before + applied
    if failed is not None:
        start.notes.append(
            f"record {before + applied} at byte {offsets[applied]} cannot be applied "
            f"({failed}); it and the rest are set aside"
        )
    if store is None:
        for seat in table.seats:
            seat.connected = False
        table._restarted()
        return table
    try:
        _make_files_agree(table, store, start, offsets[applied] if failed else None)
    except OSError as exc:
        raise StoreError(
            f"damage found ({'; '.join(start.notes)}) but not repaired: {exc}"
        ) from exc
    table.touched = store.touched(stored.table_id)  # (the log exists now, repaired or not)
    table._restarted()
    return table


def rebuild(
    cls: type[Table],
    table_id: str,
    snapshot: dict[str, Any] | None,
    records: list[dict[str, Any]],
    clock: Callable[[], float],
) -> Table:
    """A table from a trusted snapshot and the records after it (see `Table.rebuild`)."""
    if snapshot is None:
        if not records or records[0].get("t") not in recovery.FIRST_RECORDS:
            raise StoreError("cannot be rebuilt: its first record is not a create record")
        table = _from_first_record(cls, table_id, records[0], clock)
        before, records = 1, records[1:]
    else:
        table = _from_snapshot(cls, table_id, snapshot, clock)
        before = snapshot["records"]
    applied, failed = apply_saved(table, records)
    if failed is not None:
        raise StoreError(f"record {before + applied} cannot be applied ({failed})")
    table.records.count = before + applied
    for seat in table.seats:
        seat.connected = False
    table._restarted()
    return table


def load_tables(store: Store, *, clock: Callable[[], float] = time.time) -> list[Table]:
    """Every saved table. Damage is repaired as far as it can be and logged; a table that
    nothing can rebuild is logged as an error with its files untouched, never deleted."""
    from harena.core.table.front import Table

    tables = []
    for table_id in store.table_ids():
        try:
            tables.append(Table.load(store.load(table_id), store, clock=clock))
        except StoreError as exc:  # known damage beyond repair: the reason is the whole story
            log.error("table %s could not be loaded: %s", table_id, exc)
        except Exception:
            log.exception("table %s could not be loaded; its files are left untouched", table_id)
    return tables


def _make_files_agree(
    table: Table, store: Store, start: recovery.Start, cut_at: int | None
) -> None:
    """Cut, mend or restart the log so it ends where the loaded table does, keeping every
    byte it removes beside it, then say what was done."""
    records = table.records
    records.store = store
    if start.reject_snapshot:
        start.notes.append(f"rejected snapshot kept as {store.set_snapshot_aside(table.id)}")
    if start.repairs and not start.rebase:
        start.notes.append(f"damaged log kept as {store.mend_log(table.id, start.repairs)}")
    if start.rebase:
        # One record holding the table as loaded: the log alone rebuilds it again.
        base = {"t": "base", **snapshot_body(table)}
        start.notes.append(
            f"old log kept as {store.replace_log(table.id, [base]) or 'nothing: there was none'}"
        )
        records.count = 1
    elif cut_at is None and start.problem is not None:
        stem = "log.torn" if start.torn else "log.bad"
        start.notes.append(
            f"{start.problem}; the rest is kept as {store.cut_log(table.id, start.end, stem)}"
        )
    elif cut_at is not None:
        start.notes.append(f"kept as {store.cut_log(table.id, cut_at, 'log.bad')}")
    records.log = store.open_log(table.id, records.count)
    for seat in table.seats:
        seat.connected = False
    if start.notes:
        log.warning("table %s: %s", table.id, "; ".join(start.notes))
        records.save_snapshot()  # the next load starts from a snapshot that agrees with the log


def _from_first_record(
    cls: type[Table], table_id: str, record: dict[str, Any], clock: Callable[[], float]
) -> Table:
    if record["t"] == "base":
        return _from_snapshot(cls, table_id, record, clock)
    config = from_plain(GameConfig, record["config"])
    table = cls(
        table_id,
        game_class(config.game)(config),
        [Seat() for _ in range(config.players)],
        clock=clock,
    )
    table.creator = record.get("by")
    table.privacy = Privacy.from_record(record.get("privacy"))
    table.hints = from_plain(bool, record.get("hints", False))
    table.times = SeatTimes(ClockPolicy.from_record(record.get("policy")), config.players)
    table.table_options = TableOptions.from_record(record.get("table"))
    return table


def _from_snapshot(
    cls: type[Table], table_id: str, snap: dict[str, Any], clock: Callable[[], float]
) -> Table:
    """A table from a snapshot or a base record (the same fields)."""
    table = cls(
        table_id,
        restore(snap["game"]),
        [from_plain(Seat, s) for s in snap["seats"]],
        clock=clock,
    )
    if len(table.seats) != table.game.players:
        raise ValueError(f"{len(table.seats)} seats for {table.game.players} players")
    table.started = from_plain(bool, snap["started"])
    table.closed = snap.get("closed")
    table.creator = snap.get("creator")
    table.privacy = Privacy.from_record(snap.get("privacy"))
    table.hints = from_plain(bool, snap.get("hints", False))
    table.chat = [from_plain(ChatLine, c) for c in snap["chat"]]
    table.times = SeatTimes.from_snapshot(snap, len(table.seats))
    table.held.saved = {int(seat): str(c) for seat, c in snap.get("held", {}).items()}
    table._notes = [(i, Event(text)) for i, text in snap.get("notes", [])]
    table.table_options = TableOptions.from_record(snap.get("table_options"))
    again = snap.get("rematch") or {}
    table.rematch.answers = {int(seat): bool(yes) for seat, yes in again.get("answers", [])}
    table.rematch.next_table = again.get("table")
    return table


# -- apply -----------------------------------------------------------------------------------------


def apply_saved(table: Table, records: list[dict[str, Any]]) -> tuple[int, str | None]:
    """Apply saved records in order until one cannot be: (how many applied, why not)."""
    for done, record in enumerate(records):
        try:
            recovery.check_record(record, len(table.seats))
            if record["t"] == "act":
                table.game.act(record["seat"], record["choice"])
                table.times.charge(record.get("used"))
                table.held.saved.pop(record["seat"], None)  # the window gave it, or moved on
            if record["t"] == "hold":
                table.held.saved[record["seat"]] = record["choice"]
                continue
            at = record.get("at")
            at = at if isinstance(at, (int, float)) and not isinstance(at, bool) else None
            if record["t"] == "act":
                table.times.decided(record["seat"], table._awaited(), at)
            else:
                apply_record(table, record)
                table.times.track(table._awaited(), at)
        except Exception as exc:  # a rules bug or a malformed record: stop, keep the rest
            return done, str(exc) or type(exc).__name__
    last_at = records[-1].get("at") if records else None
    if isinstance(last_at, (int, float)) and not isinstance(last_at, bool):
        table._last_clocks = table.times.running(last_at)  # as they stood (`resume_after`)
    return len(records), None


def apply_record(table: Table, record: dict[str, Any]) -> None:
    """A table record (not a move: the game applies those) changes the table."""
    kind = record["t"]
    if kind == "seat":
        seat = table.seats[record["seat"]]
        seat.identity, seat.name, seat.bot = record["identity"], record["name"], record["bot"]
        seat.log_from = record.get("log_from", 0)  # older logs: the whole log, as before
        seat.stand_in = None
        if seat.identity is not None and seat.identity == seat.kept_for:
            seat.kept_for, seat.kept_name = None, ""  # the friend came: kept no longer
        table.bots.forget(record["seat"])
        if seat.identity is None:
            seat.connected = False
            table.times.gone_since.pop(record["seat"], None)
    elif kind == "stand_in":
        index, seat = record["seat"], table.seats[record["seat"]]
        seat.stand_in = record["why"]
        table.bots.forget(index)
        table.times.ran_out(index, record["why"])
        why = "ran out of time" if record["why"] == "clock" else "is away"
        note(
            table,
            f"{seat.name} {why}: the {BOT_NAMES.get(table.stand_in_kind or '', 'bot')} plays for them until they take the seat back",
        )
    elif kind == "take_back":
        index, seat = record["seat"], table.seats[record["seat"]]
        seat.stand_in = None
        table.bots.forget(index)
        table.times.taken_back(index, record.get("at", table._clock()))
        note(table, f"{seat.name} takes their seat back")
    elif kind == "keep":  # core/table/kept.py; identity None: released
        seat = table.seats[record["seat"]]
        seat.kept_for, seat.kept_name = record["identity"], record["name"]
    elif kind == "again":  # core/table/rematch.py: a player's answer to "play again?"
        table.rematch.answers[record["seat"]] = record["answer"] == "yes"
    elif kind == "rematched":
        table.rematch.next_table = record["table"]
    elif kind == "start":
        table.started = True
    elif kind == "close":
        table.closed = record["reason"]
    elif kind == "chat":
        table.chat.append(ChatLine(record["at"], record["name"], record["text"]))
        del table.chat[:-CHAT_KEPT]
    elif kind == "privacy":
        table.privacy = Privacy.from_record(record["privacy"])
    elif kind != "create":
        raise StoreError(f"unknown table record {kind!r}")


def note(table: Table, text: str) -> None:
    """A line of the table's own (a bot standing in) in the game's log, public."""
    event = Event(text)
    table._notes.append((len(table.game.events), event))
    table.game.events.append(event)


def restore_notes(table: Table) -> None:
    """The table's own lines again, after the game was rebuilt from its moves without them."""
    for index, event in table._notes:
        if index <= len(table.game.events) and event not in table.game.events[index : index + 1]:
            table.game.events.insert(index, event)


# -- snapshot --------------------------------------------------------------------------------------


def snapshot_body(table: Table) -> dict[str, Any]:
    """The table's state as a snapshot (or a base record) holds it."""
    window = table.held.open
    return {
        "started": table.started,
        "closed": table.closed,
        "creator": table.creator,
        **({"privacy": table.privacy.to_record()} if table.privacy is not None else {}),
        "seats": [
            to_plain(
                Seat(
                    s.identity,
                    s.name,
                    s.bot,
                    s.log_from,
                    s.stand_in,
                    kept_for=s.kept_for,
                    kept_name=s.kept_name,
                )
            )
            for s in table.seats
        ],
        "chat": [to_plain(c) for c in table.chat],
        "game": table.game.snapshot(),
        "notes": [[index, event.text] for index, event in table._notes],
        **table.times.to_snapshot(),
        **({"held": dict(window.held)} if window and window.held else {}),
        **({"hints": True} if table.hints else {}),
        "table_options": table.table_options.to_record(),
        **({"rematch": _rematch_body(table)} if table.rematch.answers else {}),
    }


def _rematch_body(table: Table) -> dict[str, Any]:
    answers = [[seat, yes] for seat, yes in sorted(table.rematch.answers.items())]
    return {"answers": answers, "table": table.rematch.next_table}
