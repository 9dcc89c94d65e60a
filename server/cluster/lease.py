"""Table leases in a JetStream KV bucket: create to claim, compare-and-set to renew, a TTL to
lapse. The bucket's TTL is the lease time, counted by the NATS servers alone: no node's clock
can stretch or cut a lease. Holding one only says who should run a table; the fenced append
(table_store.py) is what keeps a node that lost it from writing.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from nats.js import api
from nats.js.errors import BadRequestError, KeyNotFoundError, KeyWrongLastSequenceError
from nats.js.kv import KeyValue

from harena.server.cluster.link import NatsLink
from harena.server.cluster.options import LEASE_SECONDS

log = logging.getLogger(__name__)

WRONG_LAST_SEQUENCE = 10071  # JetStream's error code: the key was written since we last did


class Leases:
    """The cluster's lease bucket; `lease(name)` is one table's lease for this node."""

    def __init__(
        self,
        link: NatsLink,
        node: str,
        *,
        prefix: str = "harena",
        seconds: float = LEASE_SECONDS,
        replicas: int = 1,
    ) -> None:
        self.link = link
        self.node = node
        self.bucket = f"{prefix}_leases"
        self.seconds = seconds
        self.replicas = replicas
        self._kv: KeyValue | None = None
        # lease name -> monotonic time a claim or renewal of it was last heard (`follow`);
        # written on the NATS thread, read on the node's (one dict operation each)
        self._heard: dict[str, float] = {}

    def ensure(self) -> Leases:
        """Create the bucket, or use the one there (its TTL is the cluster's lease time)."""

        async def ensure() -> float:
            js = self.link.js
            assert js is not None
            try:
                kv = await js.key_value(self.bucket)
                return (await kv.status()).ttl or self.seconds
            except Exception:  # nats-py raises BucketNotFoundError or NotFoundError
                await js.create_key_value(
                    bucket=self.bucket,
                    history=1,
                    ttl=self.seconds,
                    storage=api.StorageType.FILE,
                    replicas=self.replicas,
                )
                return self.seconds

        ttl = self.link.call(ensure)
        if abs(ttl - self.seconds) > 0.001:
            log.info("lease time is the cluster's: %.1f s (asked for %.1f s)", ttl, self.seconds)
            self.seconds = ttl
        return self

    async def kv(self) -> KeyValue:
        """The bucket (looked up once: each look-up is a round trip)."""
        if self._kv is None:
            assert self.link.js is not None
            self._kv = await self.link.js.key_value(self.bucket)
        return self._kv

    def lease(self, name: str) -> KvLease:
        return KvLease(self, name)

    def follow(self) -> None:
        """Hear every claim, renewal and release of the cluster's leases from now on (a KV
        watch), so `renewed_lately` knows which leases a live node keeps renewing. A node's
        claim scan then leaves those alone instead of trying, every tick, a create per table
        that must fail while their owner lives (a round trip each, for every other node's
        tables)."""
        self.link.call(self.afollow)

    async def afollow(self) -> Any:
        """`follow` on the NATS thread; the watch (a node starts it again after a reconnect)."""
        watcher = await (await self.kv()).watchall()

        async def follow() -> None:
            async for entry in watcher:
                if entry is None:
                    continue  # the end of what the bucket held when the watch began
                if entry.operation is None:  # a claim or a renewal
                    self._heard[entry.key] = time.monotonic()
                else:  # released (deleted or purged): free at once
                    self._heard.pop(entry.key, None)

        self.link.spawn(follow())
        return watcher

    def renewed_lately(self, name: str) -> bool:
        """Whether a claim or renewal of `name` was heard within the lease time. Heard after
        the server stored it, so the server's TTL ends no later than one lease time after
        this: a lease not renewed since then may have lapsed and is worth trying; one renewed
        since has not. A watch that falls silent (NATS away) only makes every lease worth
        trying again, as without it."""
        heard = self._heard.get(name)
        return heard is not None and time.monotonic() - heard < self.seconds

    def holder(self, name: str) -> str | None:
        """The node holding `name`'s lease now, or None."""

        async def get() -> str | None:
            kv = await self.kv()
            try:
                entry = await kv.get(name)
            except KeyNotFoundError:
                return None
            return entry.value.decode() if entry.value else None

        return self.link.call(get)


class KvLease:
    """One table's lease as this node sees it (a `Lease`)."""

    def __init__(self, leases: Leases, name: str) -> None:
        self.leases = leases
        self.name = name
        self._revision: int | None = None
        self._renewed = 0.0  # monotonic time the last claim or renewal was *sent*

    @property
    def held(self) -> bool:
        # Measured from when the request left: the server's TTL started no earlier, so this
        # never believes in a lease the bucket has already let go.
        return self._revision is not None and (
            time.monotonic() - self._renewed < self.leases.seconds
        )

    def claim(self) -> bool:
        return self.leases.link.call(self.aclaim)

    def renew(self) -> bool:
        return self.leases.link.call(self.arenew)

    def release(self) -> None:
        self.leases.link.call(self.arelease)

    # The same, as coroutines for the NATS thread (the renewal of many leases at once).

    async def aclaim(self) -> bool:
        sent = time.monotonic()
        kv = await self._kv()
        try:
            revision = await kv.create(self.name, self.leases.node.encode())
        except (KeyWrongLastSequenceError, KeyNotFoundError):
            # Held by another node; or lapsing under our claim (nats-py's create reads a
            # lease it found taken, which the TTL may remove meanwhile): the next scan claims
            # it if nobody else did. A race lost, not a fault.
            return False
        self._revision, self._renewed = revision, sent
        return True

    async def arenew(self) -> bool:
        last = self._revision
        if last is None:
            return False
        sent = time.monotonic()
        kv = await self._kv()
        try:
            revision = await kv.update(self.name, self.leases.node.encode(), last=last)
        except KeyWrongLastSequenceError:
            if self._revision == last:  # (not claimed again meanwhile: `aclaim` after a lapse)
                self._revision = None
                log.warning(
                    "lease on %s lost (it lapsed, or another node holds it)",
                    self.name,
                    extra={"event": "lease-lost", "table": self.name},
                )
            return False
        self._revision, self._renewed = revision, sent
        return True

    async def arelease(self) -> None:
        last, self._revision = self._revision, None
        if last is None:
            return
        kv = await self._kv()
        try:
            await kv.delete(self.name, last=last)
        except KeyWrongLastSequenceError:
            pass  # not ours any more: nothing to give up
        except BadRequestError as exc:  # (what nats-py's delete raises for the same)
            if exc.err_code != WRONG_LAST_SEQUENCE:
                raise

    async def _kv(self) -> KeyValue:
        return await self.leases.kv()
