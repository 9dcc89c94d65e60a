"""Fixtures shared by the server tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from harena.server.limits import ServerLimits
from harena.server.ssh_server import HarenaServer, ServerConfig


@pytest.fixture
async def make_server(tmp_path: Path) -> AsyncIterator:
    servers: list[HarenaServer] = []

    async def start(
        *, operators: frozenset[str] = frozenset(), allow_file: Path | None = None, **limits: float
    ) -> HarenaServer:
        config = ServerConfig(
            port=0,
            keys_dir=tmp_path / "keys",
            data_dir=tmp_path / "data",
            limits=ServerLimits(**limits),
            bot_delay=0.05,
            operators=operators,
            allow_file=allow_file,
        )
        server = HarenaServer(config)
        await server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        await server.stop()
