"""One NATS connection on a thread of its own, callable from synchronous code.

A table saves a record synchronously (core/logstore.py: durable on return), as it fsyncs a file
in the embedded default. In a cluster "durable" means JetStream acknowledged it, a network round
trip; running the NATS client on its own event loop lets the table wait for that acknowledgement
without the server's loop having to await (the wait costs the loop what an fsync costs it), and
the connection keeps its heartbeats and reconnects even while the server's loop is busy.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import ssl
import threading
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

import nats
from nats.aio.client import Client
from nats.js import JetStreamContext

from harena.server.cluster.inbox import Inbox

log = logging.getLogger(__name__)

T = TypeVar("T")

MESSAGE_KINDS = frozenset({"tbl", "view", "lobby", "node"})
"""The second word of harena's subjects (`<prefix>.view.<table>.<seat>`): a metrics label."""

CALL_TIMEOUT = 5.0  # longest a synchronous caller waits for NATS before it is told "unavailable"


class NatsUnavailable(Exception):
    """NATS did not answer in time (down, unreachable, or partitioned from us)."""


@dataclass(frozen=True)
class NatsSettings:
    """How to reach the cluster's NATS: its URL(s) and what nats-py accepts to log in."""

    servers: tuple[str, ...]
    creds: str | None = None  # a .creds file (JWT + nkey)
    nkey_seed: str | None = None  # a file holding an nkey seed
    tls_ca: str | None = None  # CA bundle that signed the NATS servers' certificates
    tls_cert: str | None = None  # client certificate (mutual TLS)
    tls_key: str | None = None
    name: str = "harena"  # the connection's name in NATS monitoring: the node's id

    def tls_context(self) -> ssl.SSLContext | None:
        if not (self.tls_ca or self.tls_cert or any(s.startswith("tls://") for s in self.servers)):
            return None
        context = ssl.create_default_context(cafile=self.tls_ca)
        if self.tls_cert:
            context.load_cert_chain(self.tls_cert, self.tls_key)
        return context


class NatsLink:
    """A connected NATS client and its JetStream context, running on a private thread."""

    def __init__(self, settings: NatsSettings) -> None:
        self.settings = settings
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self.loop.run_forever, name=f"nats-{settings.name}", daemon=True
        )
        self.nc: Client | None = None
        self.js: JetStreamContext | None = None
        self.connected = threading.Event()  # cleared while the connection is down
        self._closing = False
        self._outgoing: deque[tuple[str, bytes, dict[str, str] | None]] = deque()
        self._sending = False  # a batch of `_outgoing` is scheduled on the NATS thread
        self._turn_end_due = False  # the end of the server loop's turn will hand them over
        self.published = 0  # messages published, and the hops to the NATS thread that carried
        self.hand_overs = 0  # them: how many a hop carries (bench/cluster.py prints them)
        # (direction, kind) -> messages of harena's subjects (metrics; `count`)
        self.messages: Counter[tuple[str, str]] = Counter()
        # Called on the NATS thread after each reconnect (what NATS does not restore itself).
        self.on_reconnect: list[Callable[[], None]] = []

    def start(self, timeout: float = 10.0) -> NatsLink:
        self._thread.start()
        try:
            self._call(self._connect, timeout)
        except BaseException:
            self.close()
            raise
        return self

    async def _connect(self) -> None:
        s = self.settings

        async def disconnected() -> None:
            self.connected.clear()
            if not self._closing:
                log.warning("NATS connection lost; reconnecting", extra={"event": "nats-down"})

        async def reconnected() -> None:
            self.connected.set()
            log.info("NATS connection back", extra={"event": "nats-up"})
            for hook in list(self.on_reconnect):
                try:
                    hook()
                except Exception:
                    log.exception("a reconnect hook failed")

        async def error(exc: Exception) -> None:
            log.debug("NATS: %s", exc)

        self.nc = await nats.connect(
            list(s.servers),
            name=s.name,
            user_credentials=s.creds,
            nkeys_seed=s.nkey_seed,
            tls=s.tls_context(),
            allow_reconnect=True,
            max_reconnect_attempts=-1,  # a server keeps trying; actions are refused meanwhile
            reconnect_time_wait=0.5,
            connect_timeout=3,
            disconnected_cb=disconnected,
            reconnected_cb=reconnected,
            error_cb=error,
        )
        self.js = self.nc.jetstream(timeout=CALL_TIMEOUT)
        self.connected.set()

    def call(self, make: Callable[[], Awaitable[T]], *, timeout: float = CALL_TIMEOUT) -> T:
        """Run `make()` on the NATS thread and wait for its result (from any other thread).

        While the connection is down this fails at once: nats-py would hold the request until
        it reconnects or `timeout` passes, and a caller on the server's loop would hold every
        session of the node that long (a NATS restart froze them for seconds)."""
        if not self.connected.is_set():
            raise NatsUnavailable("NATS is unreachable (reconnecting)")
        return self._call(make, timeout)

    def _call(self, make: Callable[[], Awaitable[T]], timeout: float) -> T:
        if threading.current_thread() is self._thread:
            raise RuntimeError("NatsLink.call from the NATS thread would wait for itself")
        self._hand_over()  # what was published before goes first, as asked

        async def bounded() -> T:
            return await asyncio.wait_for(make(), timeout)

        future = asyncio.run_coroutine_threadsafe(bounded(), self.loop)
        try:
            return future.result(timeout + 1.0)
        except (TimeoutError, concurrent.futures.TimeoutError) as exc:
            future.cancel()
            raise NatsUnavailable(f"NATS did not answer within {timeout:g} s") from exc

    def spawn(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Start `coro` on the NATS thread without waiting for it (after `close`, drop it)."""
        if self.loop.is_closed() or not self._thread.is_alive():
            coro.close()
            future: concurrent.futures.Future[T] = concurrent.futures.Future()
            future.cancel()
            return future
        self._hand_over()  # what was published before goes first, as asked
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def subscribe(
        self, subject: str, arrived: Callable[[Any], None]
    ) -> concurrent.futures.Future[Any]:
        """Subscribe on the NATS thread without waiting (NATS may be away); `arrived(msg)` runs
        there for each message. The subscription reaches the server before anything published
        after this call (one connection, in order). Give the result to `unsubscribe`."""

        async def subscribe() -> Any:
            assert self.nc is not None

            async def cb(msg: Any) -> None:
                self.count("received", msg.subject)
                arrived(msg)

            return await self.nc.subscribe(subject, cb=cb)

        return self.spawn(subscribe())

    def unsubscribe(self, subscribing: concurrent.futures.Future[Any]) -> None:
        """End a subscription `subscribe` made (or is making)."""

        async def unsubscribe() -> None:
            try:
                sub = await asyncio.wrap_future(subscribing)
                await sub.unsubscribe()
            except Exception:  # never made, or the connection is gone: nothing to end
                log.debug("a subscription was not ended", exc_info=True)

        self.spawn(unsubscribe())

    def publish(self, subject: str, payload: bytes, headers: dict[str, str] | None = None) -> None:
        """Publish from any thread without waiting, in the order asked (with `call` and `spawn`
        too: what was published before them goes first).

        A message between nodes costs mostly wakeups: of the NATS thread here, of the other
        node's NATS thread and loop there. So what one turn of the server's loop publishes (a
        move's views to the seats shown elsewhere, its answer) goes to the NATS thread at the
        end of the turn, in one hop and one write to the socket, however often the NATS thread
        took the GIL meanwhile; and arrives at the other node in one read, which its inbox
        hands to its loop in one wakeup. Each message keeps its own subject: batching merges
        the hops, never two seats' views. From another thread, or while the loop waits in
        `Inbox.wait` (its turn does not end until the answer comes, which may need this
        message: two nodes asking each other), the message goes at once."""
        self._outgoing.append((subject, payload, headers))
        self.published += 1
        self.count("sent", subject)
        try:
            here: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        if here is None or here is self.loop or Inbox.waiting_on(here):
            self._hand_over()  # (with whatever this turn queued before)
        elif not self._turn_end_due:
            self._turn_end_due = True
            here.call_soon(self._turn_ended)

    def count(self, direction: str, subject: str) -> None:
        """One message sent or received, by its kind: the word after the prefix (`view`, `tbl`,
        `lobby`, `node`), `reply` for an answer to a request; from any thread."""
        word = subject.split(".", 2)[1] if "." in subject else ""
        kind = (
            word if word in MESSAGE_KINDS else "reply" if subject.startswith("_INBOX.") else "other"
        )
        self.messages[direction, kind] += 1

    def _turn_ended(self) -> None:
        self._turn_end_due = False
        self._hand_over()

    def _hand_over(self) -> None:
        """Give what is queued to the NATS thread (one hop, unless one is already under way)."""
        if self._sending or not self._outgoing:
            return
        self._sending = True
        self.hand_overs += 1
        try:
            self.loop.call_soon_threadsafe(self._start_sending)
        except RuntimeError:  # closed: nothing goes out any more
            self._outgoing.clear()

    def _start_sending(self) -> None:
        self.loop.create_task(self._send_outgoing())

    async def _send_outgoing(self) -> None:
        self._sending = False  # first: what is queued from here on schedules a new batch
        while self._outgoing:
            subject, payload, headers = self._outgoing.popleft()
            try:
                assert self.nc is not None
                await self.nc.publish(subject, payload, headers=headers)
            except Exception as exc:  # closed or draining: a view or an answer that is lost
                log.debug("NATS publish to %s dropped: %s", subject, exc)

    async def acall(self, make: Callable[[], Awaitable[T]], *, timeout: float = CALL_TIMEOUT) -> T:
        """`call` for a coroutine on another event loop (the server's): awaits, never blocks."""
        if not self.connected.is_set():
            raise NatsUnavailable("NATS is unreachable (reconnecting)")
        future = asyncio.run_coroutine_threadsafe(
            asyncio.wait_for(make(), timeout),
            self.loop,
        )
        try:
            return await asyncio.wrap_future(future)
        except TimeoutError as exc:
            raise NatsUnavailable(f"NATS did not answer within {timeout:g} s") from exc

    async def ping(self, timeout: float) -> None:
        """A PING/PONG with NATS through the NATS client's loop (metrics: the round trip)."""

        async def flush() -> None:
            assert self.nc is not None
            await self.nc.flush(max(1, round(timeout)))  # nats-py counts whole seconds

        await self.acall(flush, timeout=timeout)

    def close(self) -> None:
        self._closing = True
        if self._thread.is_alive():
            if self.nc is not None:
                try:
                    self._call(self._drain, 4.0)
                except Exception:
                    log.debug("NATS connection did not close cleanly", exc_info=True)
            self.loop.call_soon_threadsafe(self.loop.stop)
            self._thread.join(timeout=5)
        if not self.loop.is_running():
            self.loop.close()

    async def _drain(self) -> None:
        assert self.nc is not None
        if not self.nc.is_closed:
            try:
                await asyncio.wait_for(self.nc.close(), 2.0)
            except Exception:  # NATS away: the connection's own tasks are ended below
                log.debug("NATS connection did not close in time", exc_info=True)
        others = [
            t
            for t in asyncio.all_tasks()
            if t is not asyncio.current_task() and "bounded" not in t.get_coro().__qualname__  # type: ignore[union-attr]
        ]
        for task in others:  # watchers and the like: they end with the connection
            task.cancel()
        await asyncio.gather(*others, return_exceptions=True)
