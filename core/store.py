"""Crash-safe persistence: per table an append-only record log plus periodic snapshots.

Layout under the data folder:

    tables/<id>/log        framed msgpack records, appended and fsynced one by one
    tables/<id>/snapshot   the latest snapshot (written to a temp file, fsynced, renamed)
    archive/<id>/          a table nobody touched for long: out of the lobby, files unchanged
    deleted/<id>-N/        a table an operator deleted: out of the lobby, files kept until
                           the operator removes them
    incoming/              an import being written (renamed into tables/ when complete)

Each log record is framed as [4-byte length][4-byte CRC32][msgpack payload], so a record torn by
a crash or a full disk is recognised on load, set aside with a warning, and cut off; every record
before it is intact. This is the only module in core/ that touches files.
"""

from __future__ import annotations

import logging
import os
import re
import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack

log = logging.getLogger(__name__)

_FRAME = struct.Struct(">II")
MAX_RECORD = 16 * 1024 * 1024  # a length beyond this can only be garbage
_TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class StoreError(Exception):
    """Saving failed; the change it was meant to save did not happen."""


def default_data_dir() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("harena", appauthor=False))


def encode_record(record: dict[str, Any]) -> bytes:
    payload = msgpack.packb(record, use_bin_type=True)
    return _FRAME.pack(len(payload), zlib.crc32(payload)) + payload


@dataclass
class LogRead:
    records: list[dict[str, Any]]
    good_bytes: int  # length of the intact prefix
    problem: str | None  # what was wrong with the rest, if anything


def decode_log(data: bytes) -> LogRead:
    """Every intact record from the start; stops at the first torn or corrupt frame."""
    records: list[dict[str, Any]] = []
    pos = 0
    while pos < len(data):
        if len(data) - pos < _FRAME.size:
            return LogRead(records, pos, f"torn record header at byte {pos}")
        length, crc = _FRAME.unpack_from(data, pos)
        start = pos + _FRAME.size
        if length > MAX_RECORD:
            return LogRead(records, pos, f"impossible record length {length} at byte {pos}")
        if len(data) - start < length:
            return LogRead(records, pos, f"torn record at byte {pos} ({len(data) - start} of {length} bytes)")
        payload = data[start : start + length]
        if zlib.crc32(payload) != crc:
            return LogRead(records, pos, f"checksum mismatch at byte {pos}")
        try:
            record = msgpack.unpackb(payload, raw=False, strict_map_key=False)
        except Exception as exc:  # msgpack raises several types for bad data
            return LogRead(records, pos, f"undecodable record at byte {pos}: {exc}")
        if not isinstance(record, dict):
            return LogRead(records, pos, f"record at byte {pos} is not a map")
        records.append(record)
        pos = start + length
    return LogRead(records, pos, None)


class TableLog:
    """The open, append-only log of one table."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file = open(path, "ab", buffering=0)
        self.count = 0  # records in the file; set by the store when it opens an existing log

    def append(self, record: dict[str, Any]) -> None:
        """Durable on return: written, flushed and fsynced."""
        frame = encode_record(record)
        try:
            self._file.write(frame)
            os.fsync(self._file.fileno())
        except OSError as exc:
            self._cut_back()
            raise StoreError(f"could not save to {self.path}: {exc.strerror or exc}") from exc
        self.count += 1

    def _cut_back(self) -> None:
        """After a failed write, drop any partial frame so the next append starts clean."""
        try:
            size = self._good_size()
            os.truncate(self.path, size)
        except OSError:
            log.exception("could not trim %s after a failed write", self.path)

    def _good_size(self) -> int:
        return decode_log(self.path.read_bytes()).good_bytes

    def close(self) -> None:
        self._file.close()


@dataclass
class StoredTable:
    table_id: str
    snapshot: dict[str, Any] | None
    records: list[dict[str, Any]]  # the whole log, oldest first


class Store:
    """All saved tables under one data folder."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.tables_dir = self.root / "tables"
        self.tables_dir.mkdir(parents=True, exist_ok=True)

    def table_ids(self) -> list[str]:
        return sorted(
            p.name for p in self.tables_dir.iterdir() if p.is_dir() and (p / "log").exists()
        )

    def new_table_id(self) -> str:
        """The next free id: short, so players can say "table 12"."""
        taken = {p.name for p in self.tables_dir.iterdir()}
        # Never reuse the id of an archived or deleted table: "table 12" stays one game.
        for kept in ("archive", "deleted"):
            if (self.root / kept).is_dir():
                taken |= {p.name.rpartition("-")[0] if kept == "deleted" else p.name for p in (self.root / kept).iterdir()}
        n = len(taken) + 1
        while str(n) in taken:
            n += 1
        return str(n)

    def _dir(self, table_id: str) -> Path:
        if not _TABLE_ID.match(table_id):
            raise StoreError(f"bad table id {table_id!r}")
        return self.tables_dir / table_id

    def touched(self, table_id: str) -> float:
        """When the table's log was last written (its last change)."""
        return (self._dir(table_id) / "log").stat().st_mtime

    def read_records(self, table_id: str, *, archived: bool = False) -> list[dict[str, Any]]:
        """The intact records of a table's log, read only (the server may be appending)."""
        folder = self._archive_dir(table_id) if archived else self._dir(table_id)
        try:
            return decode_log((folder / "log").read_bytes()).records
        except FileNotFoundError:
            raise StoreError(f"there is no {'archived ' if archived else ''}table {table_id}") from None

    def archive(self, table_id: str) -> Path:
        """Move a table out of the lobby into archive/, files untouched."""
        return self._move(table_id, self.root / "archive", numbered=False)

    def delete(self, table_id: str) -> Path:
        """Move a table into deleted/ (an operator's delete never destroys a game by itself)."""
        return self._move(table_id, self.root / "deleted", numbered=True)

    def _archive_dir(self, table_id: str) -> Path:
        self._dir(table_id)  # checks the id
        return self.root / "archive" / table_id

    def _move(self, table_id: str, into: Path, *, numbered: bool) -> Path:
        into.mkdir(exist_ok=True)
        target = into / table_id
        if numbered or target.exists():
            target = _free_name(into, table_id)
        try:
            os.replace(self._dir(table_id), target)
            _fsync_dir(into)
            _fsync_dir(self.tables_dir)
        except OSError as exc:
            raise StoreError(f"could not move table {table_id} to {into}: {exc.strerror or exc}") from exc
        return target

    def write_table(self, table_id: str, records: list[dict[str, Any]]) -> None:
        """A new table folder with these records (an import): written and fsynced aside, then
        renamed in, so a crash never leaves half a table."""
        target = self._dir(table_id)
        incoming = self.root / "incoming"
        incoming.mkdir(exist_ok=True)
        folder = _free_name(incoming, table_id)
        folder.mkdir()
        try:
            with open(folder / "log", "wb") as f:
                f.write(b"".join(encode_record(r) for r in records))
                f.flush()
                os.fsync(f.fileno())
            _fsync_dir(folder)
            if target.exists():
                raise StoreError(f"table {table_id} exists already")
            os.replace(folder, target)
            _fsync_dir(self.tables_dir)
        except OSError as exc:
            raise StoreError(f"could not write table {table_id}: {exc.strerror or exc}") from exc
        finally:
            if folder.exists():
                for leftover in folder.iterdir():
                    leftover.unlink()
                folder.rmdir()

    def create(self, table_id: str) -> TableLog:
        folder = self._dir(table_id)
        folder.mkdir(exist_ok=False)
        table_log = TableLog(folder / "log")
        _fsync_dir(self.tables_dir)
        return table_log

    def open_log(self, table_id: str, count: int) -> TableLog:
        table_log = TableLog(self._dir(table_id) / "log")
        table_log.count = count
        return table_log

    def load(self, table_id: str) -> StoredTable:
        """Read a table back. A torn tail is moved aside to `log.torn-N` and cut off."""
        folder = self._dir(table_id)
        path = folder / "log"
        data = path.read_bytes()
        read = decode_log(data)
        if read.problem is not None:
            aside = _free_name(folder, "log.torn")
            aside.write_bytes(data[read.good_bytes :])
            os.truncate(path, read.good_bytes)
            log.warning(
                "table %s: %s; kept %d records, set %d bytes aside in %s",
                table_id, read.problem, len(read.records), len(data) - read.good_bytes, aside.name,
            )
        return StoredTable(table_id, self._read_snapshot(folder, len(read.records)), read.records)

    def _read_snapshot(self, folder: Path, record_count: int) -> dict[str, Any] | None:
        path = folder / "snapshot"
        if not path.exists():
            return None
        try:
            snap = msgpack.unpackb(path.read_bytes(), raw=False, strict_map_key=False)
            if not isinstance(snap, dict) or not isinstance(snap.get("records"), int):
                raise ValueError("not a snapshot")
        except Exception as exc:
            log.warning("%s: unreadable snapshot (%s); replaying the whole log", folder.name, exc)
            return None
        if snap["records"] > record_count:
            # The snapshot is ahead of the surviving log (its tail was torn): it describes
            # records we no longer have, so it cannot be trusted to agree with the log.
            log.warning("%s: snapshot is ahead of the log; replaying the whole log", folder.name)
            return None
        return snap

    def write_snapshot(self, table_id: str, snapshot: dict[str, Any]) -> None:
        """Atomic: readers see the old snapshot or the new one, never half of one."""
        folder = self._dir(table_id)
        tmp = folder / "snapshot.tmp"
        data = msgpack.packb(snapshot, use_bin_type=True)
        try:
            with open(tmp, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, folder / "snapshot")
            _fsync_dir(folder)
        except OSError as exc:
            raise StoreError(f"could not write snapshot for table {table_id}: {exc}") from exc


def _free_name(folder: Path, stem: str) -> Path:
    n = 1
    while (folder / f"{stem}-{n}").exists():
        n += 1
    return folder / f"{stem}-{n}"


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
