"""Finished tables' reviews kept in JetStream, so a game weighed on one node is shown by every
node, and after a restart, without weighing it again (server/runners/reviews.py).

One KV bucket, `<prefix>_reviews`, a key per table id, the newest review only (history 1); a
value is the review's plain data as msgpack, zlib-compressed (about 165 bytes a decision,
30 compressed: a 4-player Spartacus game's 350 decisions in 9 kB). NATS refuses a message over
its `max_payload` (1 MB by default): a review that does not fit even compressed (some 30,000
decisions) is not kept in the cluster, and the log says so; the node that weighed it keeps it
in memory, another weighs it again.

Every call is awaited on the NATS thread (`NatsLink.acall`), never on the server's loop. NATS
unreachable or slow is `StoreError`: the caller shows the review all the same and keeps it in
memory. Two nodes weighing the same table at once both write; the last write wins, and what the
other weighed is weighed again when next asked (it is rare: one review at a time per node, and
each reads the shelf before it starts).
"""

from __future__ import annotations

import logging
import zlib
from typing import Any

import msgpack
import nats.errors
from nats.js import api
from nats.js.errors import KeyDeletedError, KeyNotFoundError

from harena.core.review.kept import KeptShelf
from harena.core.store import StoreError
from harena.server.cluster.link import CALL_TIMEOUT, NatsLink, NatsUnavailable

log = logging.getLogger(__name__)

HEADROOM = 4096  # bytes of a KV put's message that are not the value (subject, headers)
NATS_TROUBLE = (NatsUnavailable, nats.errors.Error, OSError, TimeoutError)


class TooLarge(StoreError):
    """A review that NATS would refuse, even compressed."""


def pack(review: dict[str, Any]) -> bytes:
    return zlib.compress(msgpack.packb(review, use_bin_type=True), 6)


def unpack(value: bytes) -> dict[str, Any] | None:
    """The review a value holds; None for one that cannot be read (it is weighed again)."""
    try:
        review = msgpack.unpackb(zlib.decompress(value), raw=False, strict_map_key=False)
    except (zlib.error, ValueError, TypeError):  # (msgpack's errors are ValueErrors)
        return None
    return review if isinstance(review, dict) else None


class JetStreamReviews(KeptShelf):
    """The cluster's review shelf: the `reviews` KV bucket, created by the first node to keep
    one (replicated as the cluster's tables are)."""

    def __init__(
        self, link: NatsLink, *, prefix: str, replicas: int = 1, timeout: float = CALL_TIMEOUT
    ) -> None:
        self.link = link
        self.timeout = timeout  # what a request waits for NATS before the review goes unkept
        self.bucket = f"{prefix}_reviews"
        self.replicas = replicas
        self._kv: Any = None  # looked up once: each look-up is a round trip

    async def _bucket(self) -> Any:
        """On the NATS thread: the bucket, created if no node has yet."""
        if self._kv is None:
            js = self.link.js
            assert js is not None
            try:
                self._kv = await js.key_value(self.bucket)
            except Exception:  # nats-py raises BucketNotFoundError or NotFoundError
                self._kv = await js.create_key_value(
                    bucket=self.bucket,
                    history=1,
                    storage=api.StorageType.FILE,
                    replicas=self.replicas,
                )
        return self._kv

    async def read_review(self, table_id: str) -> dict[str, Any] | None:
        async def get() -> bytes | None:
            kv = await self._bucket()
            try:
                value: bytes | None = (await kv.get(table_id)).value
                return value
            except (KeyNotFoundError, KeyDeletedError):
                return None

        try:
            value = await self.link.acall(get, timeout=self.timeout)
        except NATS_TROUBLE as exc:
            raise StoreError(f"the cluster's storage (NATS) did not answer: {exc!r}") from exc
        if not value:
            return None
        review = unpack(value)
        if review is None:
            log.warning("table %s: its review in the cluster is damaged; weighed again", table_id)
        return review

    async def write_review(self, table_id: str, review: dict[str, Any]) -> None:
        value = pack(review)

        async def put() -> None:
            kv = await self._bucket()
            assert self.link.nc is not None
            limit = self.link.nc.max_payload - HEADROOM
            if len(value) > limit:
                raise TooLarge(
                    f"its review is {len(value)} bytes compressed, more than NATS takes "
                    f"({limit}): kept on this node only, in memory"
                )
            await kv.put(table_id, value)

        try:
            await self.link.acall(put, timeout=self.timeout)
        except TooLarge:
            raise
        except NATS_TROUBLE as exc:
            raise StoreError(f"the cluster's storage (NATS) did not answer: {exc!r}") from exc
