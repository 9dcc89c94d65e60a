"""Crash-safe, private persistence: per table an append-only record log plus snapshots.

Layout under the data folder (folders 0700, files 0600: they hold every seed and every move):

    tables/<id>/log          framed msgpack records, appended and fsynced one by one
    tables/<id>/snapshot     the latest snapshot, checksummed (temp file, fsynced, renamed)
    tables/<id>/review       the table's review once computed (core/review/), checksummed
    tables/<id>/log.torn-N   the torn tail of a record a crash left half-written
    tables/<id>/log.bad-N    bytes cut from the log because they were damaged or unusable
    tables/<id>/snapshot.bad-N  a snapshot that failed its checksum or disagreed with the log
    archive/<id>/            a table nobody touched for long: out of the lobby, files unchanged
    deleted/<id>-N/          a table an operator deleted: out of the lobby, files kept until
                             the operator removes them
    incoming/                an import being written (renamed into tables/ when complete)
    ratings.json             every rated identity's rating per game (core/ratings.py)
    players.json             per-key settings, e.g. the turn bell (core/players.py)

Each log record is framed as [4-byte length][4-byte CRC32][msgpack payload]; a snapshot file is
`SNAPSHOT_MAGIC`, a format byte and one such frame. CRC32 catches every single-bit flip and every
burst up to 32 bits, so damage is found, never replayed. This module only reads, writes and
sets bytes aside; what to keep after damage is decided by core/recovery.py. It is the only
module in core/ that touches files.
"""

from __future__ import annotations

import json
import logging
import os
import re
import stat
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack

log = logging.getLogger(__name__)

_FRAME = struct.Struct(">II")
MAX_RECORD = 16 * 1024 * 1024  # a length beyond this can only be garbage
MEND_LIMIT = 4096  # payloads up to this size get a flipped bit put back (8 x 4096 checksums)
_TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")

REVIEW_FILE = "review"
SNAPSHOT_MAGIC = b"harena-snapshot"
# 1: a bare msgpack map, no checksum (before issue 12); 2: magic, format byte, CRC32 frame.
SNAPSHOT_FORMAT = 2
DIR_MODE = 0o700
FILE_MODE = 0o600


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
    good_bytes: int  # end of the intact prefix
    problem: str | None  # what was wrong with the rest, if anything
    offsets: list[int] = field(default_factory=list)  # where each record's frame starts
    torn: bool = False  # the problem is an incomplete last frame (a crash mid-write)
    repairs: list[tuple[int, bytes]] = field(default_factory=list)  # (offset, mended frame)


class _BadFrame(Exception):
    def __init__(self, problem: str, torn: bool = False) -> None:
        super().__init__(problem)
        self.problem, self.torn = problem, torn


def decode_log(data: bytes, start: int = 0, *, repair: bool = True) -> LogRead:
    """Every intact record from `start`; stops at the first torn or corrupt frame that is not
    one flipped bit away from whole (`repair`: mend those, and say where in `repairs`)."""
    read = LogRead([], start, None)
    pos = start
    while pos < len(data):
        try:
            record, end = _read_frame(data, pos)
        except _BadFrame as bad:
            mended = _mend_frame(data, pos) if repair else None
            if mended is None:
                read.problem, read.torn = bad.problem, bad.torn
                break
            frame, record, end = mended
            read.repairs.append((pos, frame))
        read.records.append(record)
        read.offsets.append(pos)
        pos = read.good_bytes = end
    return read


def _read_frame(data: bytes, pos: int) -> tuple[dict[str, Any], int]:
    """The record framed at `pos` and where its frame ends; _BadFrame says what is wrong."""
    if len(data) - pos < _FRAME.size:
        raise _BadFrame(f"torn record header at byte {pos}", torn=True)
    length, crc = _FRAME.unpack_from(data, pos)
    begin = pos + _FRAME.size
    if length > MAX_RECORD:
        raise _BadFrame(f"impossible record length {length} at byte {pos}")
    if len(data) - begin < length:
        if _holds_a_frame(data, pos + 1):  # whole records follow: damage, not a crash
            raise _BadFrame(f"damaged record length {length} at byte {pos}")
        raise _BadFrame(
            f"torn record at byte {pos} ({len(data) - begin} of {length} bytes)", torn=True
        )
    payload = data[begin : begin + length]
    if zlib.crc32(payload) != crc:
        raise _BadFrame(f"checksum mismatch at byte {pos}")
    return _unpack(payload, pos), begin + length


def _unpack(payload: bytes, pos: int) -> dict[str, Any]:
    try:
        record = msgpack.unpackb(payload, raw=False, strict_map_key=False)
    except Exception as exc:  # msgpack raises several types for bad data
        raise _BadFrame(f"undecodable record at byte {pos}: {exc}") from None
    if not isinstance(record, dict):
        raise _BadFrame(f"record at byte {pos} is not a map")
    return record


def _mend_frame(data: bytes, pos: int) -> tuple[bytes, dict[str, Any], int] | None:
    """The frame at `pos` with one flipped bit put back, if exactly one single-bit change to
    its length, checksum or payload makes it whole: (frame, record, end), else None.

    Safe because CRC-32 (IEEE 802.3) has Hamming distance 4 up to 91,607 bits and 5 up to
    2,974 (Koopman, 2002): a record two bits away from whole (three, under 370 bytes) is never
    one bit away from a different whole record. The length is not checksummed: a flipped length
    bit picks another slice, which matches the checksum by chance once in 2**32."""
    if len(data) - pos < _FRAME.size:
        return None
    length, crc = _FRAME.unpack_from(data, pos)
    begin = pos + _FRAME.size
    room = len(data) - begin
    found: list[tuple[int, int, bytes]] = []
    for bit in range(32):  # the length took the flip
        n = length ^ (1 << bit)
        if 0 < n <= room and zlib.crc32(data[begin : begin + n]) == crc:
            found.append((n, crc, data[begin : begin + n]))
    if 0 < length <= room:
        payload = bytearray(data[begin : begin + length])
        actual = zlib.crc32(payload)
        if actual != crc and (actual ^ crc) & ((actual ^ crc) - 1) == 0:  # the checksum did
            found.append((length, actual, bytes(payload)))
        if length <= MEND_LIMIT:  # a payload bit did
            for i in range(length * 8):
                payload[i >> 3] ^= 1 << (i & 7)
                if zlib.crc32(payload) == crc:
                    found.append((length, crc, bytes(payload)))
                payload[i >> 3] ^= 1 << (i & 7)
    if len(found) != 1:
        return None
    n, crc, mended = found[0]
    try:
        record = _unpack(mended, pos)
    except _BadFrame:
        return None
    return _FRAME.pack(n, crc) + mended, record, begin + n


def _holds_a_frame(data: bytes, start: int) -> bool:
    """Whether a whole, checksummed record starts anywhere from `start` on."""
    for pos in range(start, len(data) - _FRAME.size):
        length, crc = _FRAME.unpack_from(data, pos)
        begin = pos + _FRAME.size
        if 0 < length <= len(data) - begin and zlib.crc32(data[begin : begin + length]) == crc:
            return True
    return False


def encode_snapshot(snapshot: dict[str, Any]) -> bytes:
    return SNAPSHOT_MAGIC + bytes([SNAPSHOT_FORMAT]) + encode_record(snapshot)


@dataclass
class SnapshotRead:
    data: dict[str, Any] | None  # None: no snapshot, or one that cannot be used
    format: int | None = None  # SNAPSHOT_FORMAT: checksum verified; 1: an old, unchecked one
    problem: str | None = None  # why `data` is None although a snapshot file exists


def decode_snapshot(raw: bytes) -> SnapshotRead:
    """A snapshot file's content, trusted only if its checksum holds (format 2); an old
    format-1 snapshot is returned with format 1 so the caller can check it against the log."""
    if raw.startswith(SNAPSHOT_MAGIC):
        version = raw[len(SNAPSHOT_MAGIC)] if len(raw) > len(SNAPSHOT_MAGIC) else None
        if version != SNAPSHOT_FORMAT:
            return SnapshotRead(None, problem=f"unknown snapshot format {version}")
        body = raw[len(SNAPSHOT_MAGIC) + 1 :]
        read = decode_log(body, repair=False)  # a bad snapshot is rebuilt exactly from the log
        if read.problem is not None or len(read.records) != 1:
            return SnapshotRead(None, problem=read.problem or "more than one frame")
        snap, version = read.records[0], SNAPSHOT_FORMAT
    else:
        try:
            snap = msgpack.unpackb(raw, raw=False, strict_map_key=False)
        except Exception as exc:
            return SnapshotRead(None, problem=f"unreadable snapshot ({exc})")
        version = 1
    if not isinstance(snap, dict) or not isinstance(snap.get("records"), int):
        return SnapshotRead(None, problem="unreadable snapshot (not a snapshot map)")
    return SnapshotRead(snap, version)


class TableLog:
    """The open, append-only log of one table."""

    def __init__(self, path: Path) -> None:
        self.path = path
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, FILE_MODE)
        os.fchmod(fd, FILE_MODE)  # whatever the umask, and for a log saved before 0600
        self._file = os.fdopen(fd, "ab", buffering=0)
        self.size = os.fstat(fd).st_size  # bytes of whole records: where the next one starts
        self.count = 0  # records in the file; set by the store when it opens an existing log

    def append(self, record: dict[str, Any]) -> None:
        """Durable on return: written, flushed and fsynced."""
        frame = memoryview(encode_record(record))
        try:
            written = 0
            while written < len(frame):  # an unbuffered write may take only part of it
                written += self._file.write(frame[written:])
            os.fsync(self._file.fileno())
        except OSError as exc:
            self._cut_back()
            raise StoreError(f"could not save to {self.path}: {exc.strerror or exc}") from exc
        self.size += len(frame)
        self.count += 1

    def _cut_back(self) -> None:
        """After a failed write, drop any partial frame so the next append starts clean."""
        try:
            os.truncate(self.path, self.size)
        except OSError:
            log.exception("could not trim %s after a failed write", self.path)

    def close(self) -> None:
        self._file.close()


@dataclass
class StoredTable:
    """What one table's folder holds, read but not yet judged."""

    table_id: str
    log: LogRead  # the intact records from the start of the log, and where and why they stop
    data: bytes  # the whole log file, to read on past damage the snapshot covers
    snapshot: SnapshotRead

    @property
    def records(self) -> list[dict[str, Any]]:
        return self.log.records


class Store:
    """All saved tables under one data folder."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.tables_dir = self.root / "tables"
        if not self.root.exists():
            _make_dir(self.root)  # ours: private; an existing folder is the operator's
        if not self.tables_dir.exists():
            _make_dir(self.tables_dir)
        _make_private(self.tables_dir, DIR_MODE)

    def table_ids(self) -> list[str]:
        """Every table folder, even one whose files are gone: load() says what is missing."""
        return sorted(
            p.name for p in self.tables_dir.iterdir() if p.is_dir() and _TABLE_ID.match(p.name)
        )

    def new_table_id(self) -> str:
        """The next free id: short, so players can say "table 12"."""
        taken = {p.name for p in self.tables_dir.iterdir()}
        # Never reuse the id of an archived or deleted table: "table 12" stays one game.
        for kept in ("archive", "deleted"):
            if (self.root / kept).is_dir():
                taken |= {
                    p.name.rpartition("-")[0] if kept == "deleted" else p.name
                    for p in (self.root / kept).iterdir()
                }
        # Counted from the numbered ones only: a private table's id (core/privacy.py) must not
        # push the next number on, or a gap in the lobby's list would betray it.
        taken = {name for name in taken if name.isdigit()}
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
            raise StoreError(
                f"there is no {'archived ' if archived else ''}table {table_id}"
            ) from None

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
            raise StoreError(
                f"could not move table {table_id} to {into}: {exc.strerror or exc}"
            ) from exc
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
        """A new table's folder and empty log, both durable before anyone can see the table."""
        folder = self._dir(table_id)
        _make_dir(folder, exist_ok=False)
        table_log = TableLog(folder / "log")
        _fsync_dir(folder)  # the log's name in the new folder
        _fsync_dir(self.tables_dir)  # the new folder's name
        return table_log

    def open_log(self, table_id: str, count: int) -> TableLog:
        table_log = TableLog(self._dir(table_id) / "log")
        table_log.count = count
        return table_log

    def load(self, table_id: str, *, archived: bool = False) -> StoredTable:
        """Read a table's folder (an archived one's with `archived`) as it is, making it private
        on the way; changes nothing else."""
        folder = self._archive_dir(table_id) if archived else self._dir(table_id)
        _make_private(folder, DIR_MODE)
        for path in folder.iterdir():
            _make_private(path, DIR_MODE if path.is_dir() else FILE_MODE)
        if not (folder / "log").exists() and not (folder / "snapshot").exists():
            raise StoreError("its folder holds neither a log nor a snapshot")
        data = (folder / "log").read_bytes() if (folder / "log").exists() else b""
        snap = SnapshotRead(None)
        if (folder / "snapshot").exists():
            snap = decode_snapshot((folder / "snapshot").read_bytes())
        return StoredTable(table_id, decode_log(data), data, snap)

    def cut_log(self, table_id: str, at: int, stem: str) -> str:
        """Move the log's bytes from `at` on into a new `<stem>-N` file and cut them off;
        returns that file's name. The bytes are kept, the log ends with a whole record."""
        folder = self._dir(table_id)
        path = folder / "log"
        data = path.read_bytes()
        aside = _free_name(folder, stem)
        _write_private(aside, data[at:])
        os.truncate(path, at)
        _fsync_file(path)
        _fsync_dir(folder)
        return aside.name

    def mend_log(self, table_id: str, repairs: list[tuple[int, bytes]]) -> str:
        """Write mended frames over their damaged bytes, keeping the damaged log whole as
        `log.bad-N` (its name is returned). Frames keep their size, so nothing moves."""
        folder = self._dir(table_id)
        path = folder / "log"
        aside = _free_name(folder, "log.bad")
        _write_private(aside, path.read_bytes())
        fd = os.open(path, os.O_WRONLY)
        try:
            for offset, frame in repairs:
                os.pwrite(fd, frame, offset)
            os.fsync(fd)
        finally:
            os.close(fd)
        _fsync_dir(folder)
        return aside.name

    def replace_log(self, table_id: str, records: list[dict[str, Any]]) -> str | None:
        """Start the log afresh with `records`, keeping the old log whole as `log.bad-N`
        (its name is returned; None if there was none). Atomic: a crash leaves the old log or
        the new one."""
        folder = self._dir(table_id)
        aside = _free_name(folder, "log.bad")
        tmp = folder / "log.new"
        _write_private(tmp, b"".join(encode_record(r) for r in records))
        had_log = (folder / "log").exists()
        if had_log:
            os.link(folder / "log", aside)
        os.replace(tmp, folder / "log")
        _fsync_dir(folder)
        return aside.name if had_log else None

    def set_snapshot_aside(self, table_id: str) -> str:
        """Keep a rejected snapshot for whoever investigates, out of the next load's way."""
        folder = self._dir(table_id)
        aside = _free_name(folder, "snapshot.bad")
        os.replace(folder / "snapshot", aside)
        _fsync_dir(folder)
        return aside.name

    def read_document(self, name: str) -> Any:
        """A server-wide JSON file under the data folder (ratings, player settings); None if
        there is none. A damaged one is set aside as `NAME.bad-N` and read as none, logged."""
        path = self._document(name)
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            aside = _free_name(self.root, f"{name}.bad")
            os.replace(path, aside)
            log.error(
                "%s could not be read (%s); kept as %s, started afresh", path, exc, aside.name
            )
            return None

    def write_document(self, name: str, data: Any) -> None:
        """Atomic and private, as a snapshot is."""
        path = self._document(name)
        tmp = path.with_name(path.name + ".tmp")
        try:
            _write_private(tmp, json.dumps(data, sort_keys=True, indent=1).encode("utf-8"))
            os.replace(tmp, path)
            _fsync_dir(self.root)
        except OSError as exc:
            raise StoreError(f"could not write {path}: {exc.strerror or exc}") from exc

    def update_document(self, name: str, change: Callable[[Any], Any]) -> Any:
        """Apply `change` (the fresh document, or None, to the new one) and save the result;
        returns it. One process owns a data folder, so read-change-write cannot race here; a
        cluster's store re-reads and re-applies on a conflicting write (server/cluster/node.py).
        """
        data = change(self.read_document(name))
        self.write_document(name, data)
        return data

    def _document(self, name: str) -> Path:
        if not _TABLE_ID.match(name.replace(".", "_")):
            raise StoreError(f"bad document name {name!r}")
        return self.root / name

    def _table_or_archived(self, table_id: str) -> Path:
        folder = self._dir(table_id)
        archived = self._archive_dir(table_id)
        return archived if not folder.is_dir() and archived.is_dir() else folder

    def read_review(self, table_id: str) -> dict[str, Any] | None:
        """A finished table's stored review (core/review/), live or archived; None if there is
        none or it cannot be trusted (its checksum fails: it is computed again)."""
        try:
            raw = (self._table_or_archived(table_id) / REVIEW_FILE).read_bytes()
        except FileNotFoundError:
            return None
        read = decode_log(raw, repair=False)
        if read.problem is not None or len(read.records) != 1:
            log.warning("table %s: its stored review is damaged (%s)", table_id, read.problem)
            return None
        return read.records[0]

    def write_review(self, table_id: str, review: dict[str, Any]) -> None:
        """Beside the table's records, atomic as a snapshot is; computed once, kept."""
        folder = self._table_or_archived(table_id)
        tmp = folder / (REVIEW_FILE + ".tmp")
        try:
            _write_private(tmp, encode_record(review))
            os.replace(tmp, folder / REVIEW_FILE)
            _fsync_dir(folder)
        except OSError as exc:
            raise StoreError(f"could not write the review of table {table_id}: {exc}") from exc

    def write_snapshot(self, table_id: str, snapshot: dict[str, Any]) -> None:
        """Atomic: readers see the old snapshot or the new one, never half of one."""
        folder = self._dir(table_id)
        tmp = folder / "snapshot.tmp"
        try:
            _write_private(tmp, encode_snapshot(snapshot))
            os.replace(tmp, folder / "snapshot")
            _fsync_dir(folder)
        except OSError as exc:
            raise StoreError(f"could not write snapshot for table {table_id}: {exc}") from exc


def _free_name(folder: Path, stem: str) -> Path:
    n = 1
    while (folder / f"{stem}-{n}").exists():
        n += 1
    return folder / f"{stem}-{n}"


def _make_dir(path: Path, exist_ok: bool = True) -> None:
    path.mkdir(mode=DIR_MODE, parents=True, exist_ok=exist_ok)
    os.chmod(path, DIR_MODE)  # mkdir's mode is filtered by the umask


def _make_private(path: Path, mode: int) -> None:
    """Owner-only access for a file or folder of ours that an older version left readable."""
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode):
        return  # never follow a link out of the data folder
    if stat.S_IMODE(info.st_mode) != mode:
        try:
            os.chmod(path, mode)
        except OSError as exc:  # not ours to change: say so, and still serve the table
            log.warning("could not make %s private (%s)", path, exc.strerror or exc)


def _write_private(path: Path, data: bytes) -> None:
    """Write a new 0600 file and fsync it."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, FILE_MODE)
    try:
        os.fchmod(fd, FILE_MODE)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_dir(path: Path) -> None:
    _fsync_file(path)
