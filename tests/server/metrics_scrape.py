"""Scraping a server's `/metrics` as Prometheus does: an HTTP GET, the text format parsed with
prometheus_client's own parser."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from prometheus_client.parser import text_string_to_metric_families

from harena.server.service.ssh_server import HarenaServer

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


async def get(port: int, path: str = "/metrics", accept: str = "") -> tuple[str, str, bytes]:
    """(status line, content type, body) of one GET."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    headers = f"Accept: {accept}\r\n" if accept else ""
    writer.write(f"GET {path} HTTP/1.1\r\nHost: harena\r\n{headers}\r\n".encode())
    data = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    fields = dict(line.split(": ", 1) for line in lines[1:])
    return lines[0], fields.get("Content-Type", ""), body


class Scrape:
    """One scrape's samples: `figures("harena_sessions", state="lobby")`."""

    def __init__(self, samples: Samples, types: dict[str, str]) -> None:
        self.samples = samples
        self.types = types

    def __call__(self, name: str, **labels: str) -> float:
        return self.samples[name, tuple(sorted(labels.items()))]

    def names(self) -> set[str]:
        return {name for name, _ in self.samples}


async def scrape(server: HarenaServer) -> Scrape:
    assert server.metrics_endpoint is not None
    status, _type, body = await get(server.metrics_endpoint.port)
    assert status == "HTTP/1.1 200 OK"
    samples: Samples = {}
    types: dict[str, str] = {}
    for family in text_string_to_metric_families(body.decode()):
        types[family.name] = family.type
        for sample in family.samples:
            samples[sample.name, tuple(sorted(sample.labels.items()))] = sample.value
    return Scrape(samples, types)


async def scrape_until(
    server: HarenaServer, holds: Callable[[Scrape], bool], what: str, timeout: float = 5.0
) -> Scrape:
    """Scrape until `holds(figures)` (a figure that follows a closing session moves a moment
    after the client sees it go)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        figures = await scrape(server)
        try:
            if holds(figures):
                return figures
        except KeyError:  # a labelled figure not counted even once yet
            pass
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"the metrics never showed {what}")
        await asyncio.sleep(0.05)
