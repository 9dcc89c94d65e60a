"""A real nats-server with JetStream per test (a free localhost port, a temporary store), and
NATS links to it for the nodes a test plays."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

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


@pytest.fixture
async def make_node(tmp_path: Path, nats_server: LocalNats) -> AsyncIterator:
    """`await make_node("a")`: a harena server joined to the test's cluster as node a, on a
    free port, sharing one host key with every other node (as a cluster's nodes do). Its
    tables stay where they are unless `affinity` (seconds) says otherwise."""
    from harena.server.cluster.options import ClusterSettings
    from harena.server.common.limits import ServerLimits
    from harena.server.notices.delivery import NoticeConfig
    from harena.server.service.ssh_server import HarenaServer, ServerConfig

    servers: list[HarenaServer] = []

    async def start(
        name: str,
        *,
        lease: float = 2.0,
        bot_delay: float = 0.05,
        keys: str = "keys",
        notices: NoticeConfig | None = None,
        affinity: float = 0.0,
        metrics: Any = None,
        **limits: Any,
    ) -> HarenaServer:
        config = ServerConfig(
            port=0,
            keys_dir=tmp_path / keys,
            data_dir=tmp_path / f"data-{name}",
            bot_delay=bot_delay,
            cluster=ClusterSettings(
                (nats_server.url,), node=name, lease_seconds=lease, affinity_seconds=affinity
            ),
            notices=notices if notices is not None else NoticeConfig(),
            limits=ServerLimits(**limits),
            metrics=metrics,
        )
        server = HarenaServer(config)
        await server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        if server.cluster is not None and server.cluster.link.nc is not None:
            await server.stop()
