"""The server's backend is chosen once at start: one process here (the cluster's is proven by
tests/server/cluster/, which run every server on a node)."""

from __future__ import annotations

from pathlib import Path

import pytest

from harena.server.operations.admin import AdminCommands, AdminError
from harena.server.service.backend import LocalBackend
from harena.server.service.ssh_server import HarenaServer, ServerConfig


def test_one_process_keeps_its_own_tables_and_has_no_node(tmp_path: Path) -> None:
    server = HarenaServer(ServerConfig(keys_dir=tmp_path / "keys", data_dir=tmp_path / "data"))
    assert isinstance(server.backend, LocalBackend)
    assert server.cluster is None
    assert server.lobby.store is not None and server.lobby.store.root == tmp_path / "data"


@pytest.mark.parametrize("argv", [["nodes"], ["drain", "b"], ["drain"]])
def test_cluster_commands_outside_a_cluster_say_so(tmp_path: Path, argv: list[str]) -> None:
    server = HarenaServer(ServerConfig(keys_dir=tmp_path / "keys"))
    with pytest.raises(AdminError, match=r"^this server is not in a cluster \(docs/cluster.md\)$"):
        AdminCommands(server).run(argv, "test")
