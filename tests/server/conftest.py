"""Fixtures shared by the server tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from harena.server.common.limits import ServerLimits
from harena.server.operations.metrics_http import MetricsAddress
from harena.server.service.ssh_server import HarenaServer, ServerConfig
from harena.server.transport.ssh_address import SshAddress


@pytest.fixture
async def make_server(tmp_path: Path) -> AsyncIterator:
    servers: list[HarenaServer] = []

    async def start(
        *,
        data: str = "data",
        bot_delay: float = 0.05,
        operators: frozenset[str] = frozenset(),
        allow_file: Path | None = None,
        public_address: SshAddress | None = None,
        metrics: MetricsAddress | None = None,
        **limits: float,
    ) -> HarenaServer:
        """A server on a free port; `data` names its data folder (a second server on the same
        folder restores the first one's tables)."""
        config = ServerConfig(
            port=0,
            keys_dir=tmp_path / "keys",
            data_dir=tmp_path / data,
            limits=ServerLimits(**limits),
            bot_delay=bot_delay,
            operators=operators,
            allow_file=allow_file,
            public_address=public_address,
            metrics=metrics,
        )
        server = HarenaServer(config)
        await server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        await server.stop()
