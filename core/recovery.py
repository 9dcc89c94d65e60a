"""What to rebuild a saved table from when its files are damaged: pure decisions, no files.

The log is the truth and the snapshot a shortcut, so a snapshot is used only when its checksum
holds and it agrees with the log (same record count at the same byte, same config, moves, seats,
start and chat). When the log itself is damaged before the snapshot's end (or lost), a verified
snapshot stands in for the damaged part, and the table's log is started afresh from it (a `base`
record) so the log alone can rebuild the table again; a record not shaped as a table writes
it (`check_record`) is never applied. docs/architecture.md ("Damaged saves") states the whole
policy; core/table/records.py carries it out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgpack

from harena.core.store import SNAPSHOT_FORMAT, LogRead, StoredTable, StoreError, decode_log

FIRST_RECORDS = ("create", "base")  # a log starts with one of these, or it cannot be replayed


@dataclass
class Start:
    """Where rebuilding begins and which saved records follow."""

    snapshot: dict[str, Any] | None  # a verified snapshot; None: the log's first record
    records: list[dict[str, Any]]  # records to apply after the snapshot (or all, from the log)
    offsets: list[int]  # where each of them starts in the log file, to cut there if it fails
    end: int  # where the last of them ends in the log file
    problem: str | None  # why the log's readable records stop at `end`, if they do
    torn: bool  # that problem is a record a crash left half-written
    rebase: bool  # the log before the snapshot is damaged or lost: start the log afresh
    counted: int  # records before `records` in the log (the snapshot's count, or 0)
    notes: list[str] = field(default_factory=list)  # what the operator should hear
    reject_snapshot: bool = False  # the snapshot file is bad: set it aside
    repairs: list[tuple[int, bytes]] = field(default_factory=list)  # frames mended on reading


@dataclass
class History:
    """What a table's records say, without playing the game: enough to check a snapshot."""

    config: Any
    actions: list[tuple[Any, Any]]
    seats: list[tuple[Any, Any, Any]]
    started: bool
    chat: list[tuple[Any, Any, Any]]


def plan(stored: StoredTable, chat_kept: int) -> Start:
    """Decide what to restore from; raises StoreError if nothing can rebuild the table."""
    start = _plan(stored, chat_kept)
    start.repairs = [*stored.log.repairs, *start.repairs]
    if start.repairs:
        at = ", ".join(str(offset) for offset, _ in start.repairs)
        start.notes.insert(
            0, f"mended a flipped bit in the record(s) at byte {at}, each confirmed by its checksum"
        )
    return start


def _plan(stored: StoredTable, chat_kept: int) -> Start:
    read = stored.log
    notes: list[str] = []
    snap, problem = stored.snapshot.data, stored.snapshot.problem
    if problem is not None:
        notes.append(f"snapshot unusable ({problem}); set aside, rebuilt from the log")
    if snap is not None and stored.snapshot.format != SNAPSHOT_FORMAT:
        if snap["records"] <= len(read.records):
            notes.append(
                "snapshot in the old format without a checksum; rebuilt from the log and rewritten"
            )
            snap = None
        else:
            # The intact log does not reach it: an unchecked snapshot still keeps more.
            notes.append(
                "snapshot in the old format without a checksum, and the log is damaged before it "
                f"({read.problem}); restored from that unchecked snapshot, later records lost"
            )
            return _only(snap, snap["records"], len(stored.data), notes)
    if snap is not None:
        start = _from_snapshot(stored, snap, chat_kept, notes)
        if start is not None:
            return start
    return from_log(stored, notes, reject_snapshot=problem is not None or snap is not None)


def from_log(stored: StoredTable, notes: list[str], *, reject_snapshot: bool = False) -> Start:
    """Replay the whole intact log (no usable snapshot)."""
    read = stored.log
    if not read.records or read.records[0].get("t") not in FIRST_RECORDS:
        if read.records:
            why = "the log's first record is not a create record"
        else:
            why = read.problem or "the log is empty"
        raise StoreError(
            f"cannot be rebuilt: {why}, and there is no usable snapshot; files left as they are"
        )
    return _then(None, 0, read, notes, reject_snapshot=reject_snapshot)


def _from_snapshot(
    stored: StoredTable, snap: dict[str, Any], chat_kept: int, notes: list[str]
) -> Start | None:
    read = stored.log
    count, at = snap["records"], snap.get("log_bytes")
    if not isinstance(at, int) or count < 1:
        notes.append("snapshot without a log position; set aside, rebuilt from the log")
        return None
    if at <= read.good_bytes:  # the intact log reaches the snapshot: check one against the other
        boundary = read.offsets[count] if count < len(read.records) else read.good_bytes
        if count > len(read.records) or boundary != at:
            notes.append(
                f"snapshot says {count} records in {at} bytes, the log disagrees; "
                "set aside, rebuilt from the log"
            )
            return None
        why = disagreement(
            history_of(read.records[:count], chat_kept), snapshot_history(snap, chat_kept)
        )
        if why is not None:
            notes.append(
                f"snapshot disagrees with the log ({why}); set aside, rebuilt from the log"
            )
            return None
        return _then(snap, count, read, notes, skip=count)
    if len(stored.data) < at:
        notes.append(
            f"the log holds {len(stored.data)} bytes, fewer than the {at} its snapshot covers "
            f"({read.problem or 'cut short'}); restored from the snapshot, records after it lost; "
            "the log is started afresh from the snapshot"
        )
        return _only(snap, count, len(stored.data), notes)
    tail = decode_log(stored.data, at)
    if tail.repairs:  # mended in memory; the log is started afresh anyway
        notes.append(f"mended a flipped bit after the snapshot, at byte {tail.repairs[0][0]}")
    notes.append(
        f"the log is damaged before its snapshot ({read.problem}); the snapshot stands in for "
        "everything before it; the log is started afresh from the snapshot"
    )
    return _then(snap, count, tail, notes, rebase=True)


def _then(
    snap: dict[str, Any] | None,
    count: int,
    read: LogRead,
    notes: list[str],
    *,
    skip: int = 0,
    rebase: bool = False,
    reject_snapshot: bool = False,
) -> Start:
    """Restore `snap` (or the first record), then apply the records of `read` after `skip`."""
    return Start(
        snap,
        read.records[skip:],
        read.offsets[skip:],
        read.good_bytes,
        read.problem,
        read.torn,
        rebase,
        count,
        notes,
        reject_snapshot,
    )


def _only(snap: dict[str, Any], count: int, end: int, notes: list[str]) -> Start:
    """Restore `snap` alone; nothing after it survives, so the log starts afresh from it."""
    return Start(snap, [], [], end, None, False, True, count, notes)


def history_of(records: list[dict[str, Any]], chat_kept: int) -> History | None:
    """The table facts the records build up; None if a record is not shaped like one."""
    try:
        first = records[0]
        if first["t"] == "base":
            history = snapshot_history(first, chat_kept)
        else:
            config = first["config"]
            seats = [(None, "", None)] * config["players"]
            history = History(config, [], seats, False, [])
        if history is None:
            return None
        for record in records[1:]:
            kind = record["t"]
            if kind == "act":
                history.actions.append((record["seat"], record["choice"]))
            elif kind == "seat":
                history.seats[record["seat"]] = (record["identity"], record["name"], record["bot"])
            elif kind == "start":
                history.started = True
            elif kind == "chat":
                history.chat.append((record["at"], record["name"], record["text"]))
                del history.chat[:-chat_kept]
        return history
    except (KeyError, IndexError, TypeError):
        return None


def snapshot_history(snap: dict[str, Any], chat_kept: int) -> History | None:
    try:
        game = msgpack.unpackb(snap["game"], raw=False, strict_map_key=False)
        return History(
            game["config"],
            [tuple(a) for a in game["actions"]],
            [(s["identity"], s["name"], s["bot"]) for s in snap["seats"]],
            snap["started"],
            [(c["at"], c["name"], c["text"]) for c in snap["chat"]][-chat_kept:],
        )
    except Exception:  # a damaged game blob may fail in many ways; all mean "not usable"
        return None


def disagreement(log: History | None, snap: History | None) -> str | None:
    """What differs between the log's story and the snapshot's, or None."""
    if log is None:
        return "a record before it is malformed"
    if snap is None:
        return "it is malformed"
    for name in ("config", "actions", "seats", "started", "chat"):
        if getattr(log, name) != getattr(snap, name):
            return f"{name} differ"
    return None


_RECORD_FIELDS: dict[str, dict[str, tuple[type, ...]]] = {
    "act": {"seat": (int,), "choice": (str,)},
    "seat": {
        "seat": (int,),
        "identity": (str, type(None)),
        "name": (str,),
        "bot": (str, type(None)),
    },
    "chat": {"at": (int, float), "name": (str,), "text": (str,)},
    "start": {},
    "close": {"by": (str,), "reason": (str,)},  # an operator ended the game early
    "stand_in": {"seat": (int,), "why": (str,)},  # a bot plays for a player out of time
    "take_back": {"seat": (int,)},  # ... until the player takes the seat back
    "hold": {"seat": (int,), "choice": (str,)},  # an answer held in a reaction window
    "privacy": {"privacy": (dict,)},  # an invite-only table's new guest list (core/privacy.py)
    "keep": {"seat": (int,), "identity": (str, type(None)), "name": (str,)},  # for a friend
    "again": {"seat": (int,), "answer": (str,)},  # "yes"/"no" to a rematch
    "rematched": {"table": (str,)},  # the rematch's table
}


def check_record(record: dict[str, Any], seats: int) -> None:
    """A saved record is shaped as the table wrote it, or it is not applied."""
    fields = _RECORD_FIELDS.get(str(record.get("t")))
    if fields is None:
        raise ValueError(f"unknown table record {record.get('t')!r}")
    for name, types in fields.items():
        if not isinstance(record.get(name), types) or isinstance(record.get(name), bool):
            raise ValueError(f"{record['t']} record has a bad {name!r}")
    if (
        record["t"] in ("seat", "stand_in", "take_back", "hold", "keep", "again")
        and not 0 <= record["seat"] < seats
    ):
        raise ValueError(f"there is no seat {record['seat']}")
