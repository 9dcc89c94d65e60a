"""Notices to players who are away, in a cluster: one sender, one ledger, presence everywhere.

Each node would judge "away" from its own sessions and keep its own ledger: a player connected
to another node would be told, and two nodes would tell the same wait twice. So:

* **One sender.** Only the node holding the lease `notices` (in the table leases' bucket, with
  their create-to-claim, renew-by-revision and TTL lapse: lease.py) checks for notices due.
  Every node not holding it tries to claim it every third of the lease time, so a sender that
  dies is replaced within a lease time and a third; one that stops cleanly lets it go at once.
* **One ledger, fenced.** What was sent is the document `notices.json` in the `docs` bucket.
  The sender reads it fresh at every check and records its notices with compare-and-set on the
  revision it read, before it delivers them. A sender that lost its lease without knowing it
  (paused, cut off) and a new one can both believe they send for a moment, but only the first
  to record a notice wins the revision: the other's write is refused and it sends nothing, so
  no notice goes out twice and none is lost when the sender changes.
* **Presence on every node.** Connected means a session open on any node: this node's own, and
  every other node's entry in the `online` bucket, read fresh at each check (an entry lapses
  three lease times after its node stopped refreshing it, so a dead node's players count as
  away again). While that bucket cannot be read, nobody is told.
* **Tables of every node**: the lobby lists the tables other nodes run, with their waits, from
  the registry (remote.py), so the runner sees every wait whichever node owns the table.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING, Any

from nats.js.errors import KeyDeletedError, KeyNotFoundError, KeyWrongLastSequenceError

from harena.core.notices import NoticeLedger
from harena.core.store import StoreError
from harena.server.notices.delivery import FILE

if TYPE_CHECKING:
    from harena.server.cluster.node import ClusterNode

log = logging.getLogger(__name__)

LEASE = "notices"
"""The sender's lease, a key of the leases bucket beside the tables' (table ids are numbers)."""


class ClusterNoticeBook:
    """A `NoticeBook` (server/notices/delivery.py) shared by every node of a cluster."""

    def __init__(self, node: ClusterNode) -> None:
        self.node = node
        self.lease = node.leases.lease(LEASE)
        self._revision: int | None = None  # of the ledger as last loaded; None: there was none
        self._task: asyncio.Task[None] | None = None
        self._was_sending = False

    # -- the sender's lease -------------------------------------------------------------------

    def start(self) -> None:
        """Claim the sender's lease if nobody holds it, and keep claiming or renewing it."""
        try:
            self.lease.claim()
        except Exception:
            log.warning("node %s: the notices' lease could not be asked for yet", self.node.name)
        self._said()
        self._task = asyncio.get_running_loop().create_task(self._keep())

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
        if not self.node.link.connected.is_set():
            return  # NATS away: the lease lapses by itself (no stop waits for a timeout)
        try:
            self.lease.release()  # another node sends from its next claim on, not a lease later
        except Exception:
            log.debug("the notices' lease was not released", exc_info=True)

    async def _keep(self) -> None:
        link = self.node.link
        while True:
            await asyncio.sleep(self.node.leases.seconds / 3)
            try:
                if self.lease._revision is not None:
                    if not await link.acall(self.lease.arenew):
                        await link.acall(self.lease.aclaim)  # it lapsed with nobody taking it
                else:
                    await link.acall(self.lease.aclaim)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # NATS away: the lease lapses and someone claims it later
                log.info("node %s: the notices' lease not renewed (%s)", self.node.name, exc)
            self._said()

    def _said(self) -> None:
        """Log when this node becomes, or stops being, the one that sends."""
        sending = self.lease.held
        if sending != self._was_sending:
            self._was_sending = sending
            log.info(
                "node %s %s the notices to players who are away",
                self.node.name,
                "sends" if sending else "no longer sends",
                extra={"event": "notices-sender", "node": self.node.name},
            )

    def sending(self) -> bool:
        return self.lease.held

    # -- who is connected, on any node ----------------------------------------------------------

    def online(self) -> set[str] | None:
        lobby = self.node.lobby
        here = set(lobby.online_here()) if lobby is not None else set()
        try:
            elsewhere = self.node.link.call(self._online_elsewhere)
        except Exception as exc:
            log.info("the other nodes' sessions could not be read (%s)", exc)
            return None
        return here | elsewhere

    async def _online_elsewhere(self) -> set[str]:
        kv = await self.node.bucket("online")
        try:
            nodes = list(await kv.keys())
        except Exception:  # nats-py raises NoKeysError for an empty bucket
            return set()
        found: set[str] = set()
        for name in nodes:
            if name == self.node.name:
                continue  # our own sessions are counted from the lobby, fresher than this
            try:
                entry = await kv.get(name)
            except (KeyNotFoundError, KeyDeletedError):
                continue  # it left (or lapsed) meanwhile
            people = json.loads(entry.value) if entry.value else {}
            if isinstance(people, dict):
                found |= {str(identity) for identity in people}
        return found

    # -- the ledger -----------------------------------------------------------------------------

    def load(self) -> NoticeLedger:
        try:
            revision, data = self.node.link.call(self._read)
        except Exception as exc:
            raise StoreError(f"the notices sent could not be read: {exc}") from exc
        self._revision = revision
        return NoticeLedger.from_data(data)

    async def _read(self) -> tuple[int | None, Any]:
        kv = await self.node.bucket("docs")
        try:
            entry = await kv.get(FILE)
        except (KeyNotFoundError, KeyDeletedError):
            return None, None
        return entry.revision, json.loads(entry.value) if entry.value else None

    def save(self, ledger: NoticeLedger) -> bool:
        payload = json.dumps(ledger.to_data(), sort_keys=True).encode()
        last = self._revision

        async def write() -> int | None:
            kv = await self.node.bucket("docs")
            try:
                if last is None:
                    revision: int = await kv.create(FILE, payload)
                else:
                    revision = await kv.update(FILE, payload, last=last)
            except KeyWrongLastSequenceError:
                return None
            return revision

        try:
            revision = self.node.link.call(write)
        except Exception as exc:
            raise StoreError(f"the notices sent could not be recorded: {exc}") from exc
        if revision is None:
            return False
        self._revision = revision
        return True
