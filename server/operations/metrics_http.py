"""`--metrics HOST:PORT`: the metrics at `/metrics`, over HTTP, on the server's own event loop.

On the loop, not on prometheus_client's thread server, for two reasons. The figures read at a
scrape (sessions, tables, a node's leases) live in the loop's objects: read from another thread
they could change underfoot (a dict that grows while it is walked). And a thread would not spare
the players anything: it takes the same interpreter lock to render the text, at moments the
loop does not choose. Here a scrape costs the loop one rendering of a few dozen series (no label
per player or table, so its size does not grow with the load), and nothing else: the request is
read and the answer written by asyncio's transports, so a slow or stalled scraper waits alone,
and is cut off after `CLIENT_TIMEOUT`. At most `MAX_CLIENTS` scrapes are served at once.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
from typing import NamedTuple

from prometheus_client import CollectorRegistry
from prometheus_client.exposition import choose_encoder

log = logging.getLogger(__name__)

CLIENT_TIMEOUT = 10.0  # seconds to send the request, and to read the answer
MAX_CLIENTS = 8
MAX_HEAD = 8 * 1024  # bytes of request line and headers


class MetricsError(Exception):
    """The metrics cannot be served (the address is taken, or not ours)."""


class MetricsAddress(NamedTuple):
    """Where `/metrics` listens: `--metrics HOST:PORT` (`[::1]:9100` for IPv6)."""

    host: str
    port: int

    def __str__(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    def shifted(self, by: int) -> MetricsAddress:
        """The address of the `by`-th next port (`--workers`: one metrics port each)."""
        return MetricsAddress(self.host, self.port + by if self.port else 0)


def metrics_address(text: str) -> MetricsAddress:
    """`HOST:PORT`, as `--metrics` and the config file's `metrics` key take it."""
    host, sep, port = text.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(
            f"expected HOST:PORT (such as 127.0.0.1:9100), got {text!r}"
        )
    return MetricsAddress(host, int(port))


class MetricsEndpoint:
    """The HTTP listener of one server's registry."""

    def __init__(self, registry: CollectorRegistry, address: MetricsAddress) -> None:
        self.registry = registry
        self.address = address
        self._server: asyncio.Server | None = None
        self._clients = 0

    @property
    def port(self) -> int:
        """The port listened on (the one chosen, when asked for 0)."""
        assert self._server is not None
        return int(self._server.sockets[0].getsockname()[1])

    async def start(self) -> None:
        try:
            self._server = await asyncio.start_server(
                self._serve, self.address.host, self.address.port, limit=MAX_HEAD
            )
        except OSError as exc:
            raise MetricsError(
                f"cannot serve metrics on {self.address}: {exc.strerror or exc}"
            ) from exc
        log.info("metrics at http://%s/metrics", MetricsAddress(self.address.host, self.port))

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self._clients >= MAX_CLIENTS:
            writer.close()
            return
        self._clients += 1
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), CLIENT_TIMEOUT)
            writer.write(self.answer(head))
            await asyncio.wait_for(writer.drain(), CLIENT_TIMEOUT)
        except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, OSError):
            pass  # a scraper that stalled, left or sent too much: nobody else waited for it
        finally:
            self._clients -= 1
            writer.close()

    def answer(self, head: bytes) -> bytes:
        """The HTTP response to a request's head (request line and headers)."""
        lines = head.decode("latin-1").split("\r\n")
        method, _, rest = lines[0].partition(" ")
        path = rest.partition(" ")[0].partition("?")[0]
        headers = {
            name.strip().lower(): value.strip()
            for name, sep, value in (line.partition(":") for line in lines[1:])
            if sep
        }
        if method != "GET":
            return _response("405 Method Not Allowed", b"GET /metrics\n", "text/plain")
        if path != "/metrics":
            return _response("404 Not Found", b"the metrics are at /metrics\n", "text/plain")
        encoder, content_type = choose_encoder(headers.get("accept", ""))
        body = encoder(self.registry)
        return _response("200 OK", body, content_type)


def _response(status: str, body: bytes, content_type: str) -> bytes:
    head = (
        f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    return head.encode("latin-1") + body
