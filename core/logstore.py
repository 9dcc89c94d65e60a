"""What a table needs from wherever its records are kept, and what a lease promises.

core/ states these interfaces; core/store.py keeps records in files (the embedded default) and
server/cluster/ keeps them in NATS JetStream, with network I/O the core never sees. A table
calls them synchronously: `append` returns only once the record is durable (fsynced, or
acknowledged by JetStream), so a change is never shown before it is kept.
"""

from __future__ import annotations

from typing import Any, Protocol


class RecordLog(Protocol):
    """One table's append-only record log."""

    count: int  # records in the log (set by whoever opens it)

    @property
    def size(self) -> int:
        """Where the next record goes: bytes in a file, the last stream sequence in JetStream.
        A snapshot keeps it (as `log_bytes`) to say which records it covers."""
        ...

    def append(self, record: dict[str, Any]) -> None:
        """Durable on return; raises StoreError (and keeps nothing) if it cannot be."""
        ...

    def close(self) -> None: ...


class SnapshotStore(Protocol):
    """Where a table's snapshots go; `Store` (files) and the cluster's JetStream store both."""

    def write_snapshot(self, table_id: str, snapshot: dict[str, Any]) -> None: ...

    def touched(self, table_id: str) -> float:
        """When the table's log was last written."""
        ...


class TableStore(SnapshotStore, Protocol):
    """Where new tables are made: a free id, then an empty log that is durable before the
    table is seen."""

    def new_table_id(self) -> str: ...

    def create(self, table_id: str) -> RecordLog: ...


class Lease(Protocol):
    """Exclusive ownership of one thing for a while, measured by a third party's clock alone
    (so clock skew between holders cannot stretch or cut it). Holding a lease is advice: what
    makes a stale holder harmless is the fenced append of its RecordLog, not the lease."""

    @property
    def held(self) -> bool:
        """Whether the last claim or renewal succeeded and has not been lost since."""
        ...

    def claim(self) -> bool:
        """Take the lease if nobody holds it; True if it is ours now."""
        ...

    def renew(self) -> bool:
        """Extend a held lease; False (and not held any more) if someone else has it now."""
        ...

    def release(self) -> None:
        """Give it up at once, so another may claim it without waiting for it to lapse."""
        ...
