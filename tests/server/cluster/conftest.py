"""A real nats-server with JetStream per test (a free localhost port, a temporary store), and
NATS links to it for the nodes a test plays."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from harena.server.cluster.link import NatsLink, NatsSettings
from harena.server.cluster.natsd import LocalNats


@pytest.fixture
def nats_server(tmp_path: Path) -> Iterator[LocalNats]:
    server = LocalNats(tmp_path / "nats").start()
    yield server
    server.stop()


@pytest.fixture
def make_link(nats_server: LocalNats) -> Iterator[Callable[[str], NatsLink]]:
    """`make_link("a")`: a connection named as node a would name it (closed after the test)."""
    links: list[NatsLink] = []

    def make(name: str = "node") -> NatsLink:
        link = NatsLink(NatsSettings((nats_server.url,), name=name)).start()
        links.append(link)
        return link

    yield make
    for link in links:
        link.close()
