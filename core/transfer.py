"""`harena export` / `harena import`: one table as one file another server can load.

The file is msgpack: the table's whole record log (the truth) and a snapshot of the state those
records build (to check against). Exporting reads the log without writing (the server may be
appending: the framing stops at a half-written record), so it needs no running server. Importing
writes the records as a new table under a fresh id, rebuilds it from them alone and compares the
result with the snapshot: a server whose rules play the log differently refuses the import
instead of hosting a different game.
"""

from __future__ import annotations

from typing import Any

import msgpack

from harena.core.privacy import new_private_id
from harena.core.store import (
    SnapshotRead,
    Store,
    StoredTable,
    StoreError,
    decode_log,
    encode_record,
)
from harena.core.table import Table

FORMAT = "harena-table"
VERSION = 1


class TransferError(Exception):
    """A file that is not a table export, or a table this server cannot rebuild the same."""


def export_table(store: Store, table_id: str) -> bytes:
    """A live or archived table's records and the snapshot they rebuild."""
    try:
        records = store.read_records(table_id)
    except StoreError:
        try:
            records = store.read_records(table_id, archived=True)
        except StoreError:
            raise StoreError(f"there is no table {table_id}, live or archived") from None
    return export_records(table_id, records)


def export_records(table_id: str, records: list[dict[str, Any]]) -> bytes:
    """The export of a table with these records, wherever they were kept (files, a cluster)."""
    table = _rebuild(table_id, records)
    return msgpack.packb(
        {
            "format": FORMAT,
            "version": VERSION,
            "id": table_id,
            "records": records,
            "snapshot": table.snapshot_data(),
        },
        use_bin_type=True,
    )


def import_table(store: Store, blob: bytes) -> Table:
    """Save the exported table under a new id and load it; the new table is returned."""
    records = checked_records(blob)
    if records[0].get("privacy") is not None:  # a private table takes no number here either
        table_id = new_private_id(lambda taken: taken in store.table_ids())
    else:
        table_id = store.new_table_id()
    store.write_table(table_id, records)
    table = Table.load(store.load(table_id), store)
    table.save_snapshot()
    return table


def checked_records(blob: bytes) -> list[dict[str, Any]]:
    """An export's records, once they are shown to replay here to the game they were."""
    try:
        data = msgpack.unpackb(blob, raw=False, strict_map_key=False)
    except Exception as exc:  # msgpack raises several types for bad data
        raise TransferError(f"not a harena table export: {exc}") from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise TransferError("not a harena table export")
    if data.get("version") != VERSION:
        raise TransferError(
            f"export format version {data.get('version')} is not {VERSION}; use a matching harena"
        )
    records, snapshot = data.get("records"), data.get("snapshot")
    if not isinstance(records, list) or not records or not isinstance(snapshot, dict):
        raise TransferError("the export has no records")
    source = data.get("id")
    if _packed(_rebuild(source, records).snapshot_data()) != _packed(snapshot):
        raise TransferError(
            f"table {source} replays to a different game here (another rules version?)"
        )
    return records


def _rebuild(table_id: Any, records: list[dict[str, Any]]) -> Table:
    try:
        data = b"".join(encode_record(r) for r in records)
        return Table.load(
            StoredTable(str(table_id), decode_log(data), data, SnapshotRead(None)), None
        )
    except Exception as exc:
        raise TransferError(f"table {table_id} cannot be rebuilt from its records: {exc}") from exc


def _packed(data: Any) -> bytes:
    """Compared as msgpack: lists and tuples, as saved, are the same."""
    return msgpack.packb(data, use_bin_type=True)
