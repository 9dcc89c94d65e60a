"""Tables into and out of a cluster: `harena cluster import --data DIR` (a single server's
data folder, whole), and `harena export` / `harena import` with `--cluster`.

A table written here is only written to the stream, under no lease: the cluster's nodes claim
it on their next scan, as they claim a dead node's tables, and it appears in every lobby.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from nats.js.errors import KeyWrongLastSequenceError

from harena.core.notices import NoticeLedger
from harena.core.privacy import is_private_id
from harena.core.store import Store, StoreError
from harena.core.table import Table
from harena.core.transfer import TransferError, checked_records, export_records
from harena.server.cluster.documents import compare_and_set
from harena.server.cluster.link import NatsLink, NatsUnavailable
from harena.server.cluster.options import ClusterSettings, cluster_settings
from harena.server.cluster.table_store import JetStreamLog, JetStreamTables
from harena.server.notices.delivery import FILE as NOTICES_FILE

DOCUMENTS = ("ratings.json", "players.json")
MERGE_TRIES = 20


@contextmanager
def cluster_tables(settings: ClusterSettings) -> Iterator[JetStreamTables]:
    link = NatsLink(settings.nats()).start()
    try:
        yield JetStreamTables(
            link, prefix=settings.prefix, replicas=settings.replicas, node=settings.node
        ).ensure()
    finally:
        link.close()


def all_records(tables: JetStreamTables, table_id: str) -> list[dict[str, Any]]:
    """Every record of a table from the first (an export carries the whole log)."""
    loaded = tables.read(table_id)
    if loaded.snapshot is None:
        return loaded.records

    async def read() -> list[dict[str, Any]]:
        return await tables._read_subject(tables.subject(table_id), 1, loaded.last_seq)

    return tables.link.call(read, timeout=60)


def write_table(tables: JetStreamTables, wanted: str | None, records: list[dict[str, Any]]) -> str:
    """Append `records` as a table with id `wanted` if no table has it, else a new id; the
    id it got. Fenced like any append: an id another writer took meanwhile is never mixed."""
    table_id = _reserve(tables, wanted)
    table = Table.rebuild(table_id, None, records)
    table_log = JetStreamLog(tables, table_id, last_seq=0, count=0)
    for record in records:
        table_log.append(record)
    table.attach(tables, table_log, table.touched)
    table.save_snapshot()
    return table_id


def _reserve(tables: JetStreamTables, wanted: str | None) -> str:
    if wanted is None:
        return tables.new_table_id()
    if is_private_id(wanted):
        # Not in the ids bucket: its count is where the next number starts (a private table
        # takes none, core/privacy.py), and a random id is nobody else's.
        return wanted

    async def create() -> bool:
        assert tables.link.js is not None
        ids = await tables.link.js.key_value(f"{tables.prefix}_ids")
        try:
            await ids.create(wanted, b"import")
            return True
        except KeyWrongLastSequenceError:
            return False

    return wanted if tables.link.call(create) else tables.new_table_id()


def import_data_dir(tables: JetStreamTables, data: Path, out: Any = sys.stdout) -> int:
    """Every live table of a single server's data folder, and its ratings and player settings,
    into the cluster; tables keep their ids where the cluster has none of the same."""
    store = Store(data)
    problems = 0
    renamed: dict[str, str] = {}
    for table_id in store.table_ids():
        try:
            records = store.read_records(table_id)
            checked_records(export_records(table_id, records))  # replays here as it did there
            new_id = write_table(tables, table_id, records)
        except (StoreError, TransferError) as exc:
            problems += 1
            print(f"harena: table {table_id} not imported: {exc}", file=out)
            continue
        renamed[table_id] = new_id
        moved = "" if new_id == table_id else f" as table {new_id} (its id was taken)"
        print(f"harena: table {table_id} imported{moved} ({len(records)} records)", file=out)
    for name in DOCUMENTS:
        document = store.read_document(name)
        if document is not None:
            _put_document(tables, name, document)
            print(f"harena: {name} imported", file=out)
    sent = store.read_document(NOTICES_FILE)
    if sent is not None:
        _merge_notices_sent(tables, NoticeLedger.from_data(sent), renamed)
        print(f"harena: {NOTICES_FILE} imported", file=out)
    return problems


async def _docs_bucket(tables: JetStreamTables) -> Any:
    from nats.js import api

    assert tables.link.js is not None
    try:
        return await tables.link.js.key_value(f"{tables.prefix}_docs")
    except Exception:
        return await tables.link.js.create_key_value(
            bucket=f"{tables.prefix}_docs", history=1, storage=api.StorageType.FILE
        )


def _put_document(tables: JetStreamTables, name: str, document: Any) -> None:
    payload = json.dumps(document, sort_keys=True).encode()

    async def put() -> None:
        kv = await _docs_bucket(tables)
        await kv.put(name, payload)

    tables.link.call(put)


def _merge_notices_sent(
    tables: JetStreamTables, sent: NoticeLedger, renamed: dict[str, str]
) -> None:
    """The single server's ledger of notices sent, added to the cluster's (by compare-and-set:
    the cluster's sender may record notices meanwhile), its tables under their new ids: the
    waits it told are not told again."""

    def merged(current: Any) -> Any:
        ledger = NoticeLedger.from_data(current)
        ledger.merge(sent, renamed)
        return ledger.to_data()

    async def attempt() -> bool:
        done, _ = await compare_and_set(await _docs_bucket(tables), NOTICES_FILE, merged)
        return done

    for _ in range(MERGE_TRIES):
        if tables.link.call(attempt):
            return
    raise StoreError(f"could not import {NOTICES_FILE}: the cluster's sender kept writing it")


# -- the command line ----------------------------------------------------------------------------


def run_cluster_import(args: argparse.Namespace) -> int:
    settings = _settings(args)
    if settings is None:
        print("harena: cluster import needs --cluster NATS_URL", file=sys.stderr)
        return 2
    try:
        with cluster_tables(settings) as tables:
            problems = import_data_dir(tables, args.data)
    except (NatsUnavailable, OSError, StoreError) as exc:
        print(f"harena: cannot import into the cluster: {exc}", file=sys.stderr)
        return 1
    return 1 if problems else 0


def run_cluster_export(args: argparse.Namespace, output: Path) -> int:
    settings = _settings(args)
    assert settings is not None
    try:
        with cluster_tables(settings) as tables:
            blob = export_records(args.table, all_records(tables, args.table))
        output.write_bytes(blob)
    except (StoreError, TransferError, NatsUnavailable, OSError) as exc:
        print(f"harena: cannot export table {args.table}: {exc}", file=sys.stderr)
        return 1
    print(f"harena: table {args.table} written to {output} ({len(blob)} bytes)")
    return 0


def run_cluster_import_file(args: argparse.Namespace, blob: bytes) -> int:
    settings = _settings(args)
    assert settings is not None
    try:
        records = checked_records(blob)
        with cluster_tables(settings) as tables:
            table_id = write_table(tables, None, records)
    except (StoreError, TransferError, NatsUnavailable, OSError) as exc:
        print(f"harena: cannot import {args.file}: {exc}", file=sys.stderr)
        return 1
    print(f"harena: imported as table {table_id} into the cluster; a node will run it")
    return 0


def _settings(args: argparse.Namespace) -> ClusterSettings | None:
    args.node = "harena-cli"  # the name of this connection in NATS monitoring
    return cluster_settings(args)
