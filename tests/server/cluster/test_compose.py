"""The commands docs/deploy/compose.yaml runs start a working cluster: its three nodes' exact
command lines (the image's entrypoint plus each `command`), with only what Docker would give
them replaced by local ones (the NATS address, free ports, folders), run as nodes of a real
nats-server with JetStream; a real SSH client on each node sees the lobby, all three serve one
host key, and every metric the docs and the alert rules name is one a node serves. (No Docker
daemon here: this is as far as the machine allows.)"""

from __future__ import annotations

import re
from pathlib import Path

from harena.server.commands.cli import parse_args, server_config
from harena.server.service.ssh_server import HarenaServer
from tests.server.metrics_scrape import scrape
from tests.server.players import new_key, player
from tests.server.test_deploy_cluster import DEPLOY, ROOT, harena_services, node_argv


def local(argv: list[str], nats_url: str, folder: Path) -> list[str]:
    """`argv` with what Docker gives a container replaced by this machine's equivalent."""
    replaced = {
        "nats://nats:4222": nats_url,  # the `nats` service
        "0.0.0.0": "127.0.0.1",  # --host: the container's own network
        "2222": "0",  # --port: 2222 inside each container; here three share one host
        "0.0.0.0:9100": "127.0.0.1:0",  # --metrics: the same
        "/etc/harena/keys": str(folder / "keys"),  # the shared `keys` volume
        "/var/lib/harena": str(folder / "data"),  # the node's own data volume
    }
    return [replaced.get(arg, arg) for arg in argv]


def documented_metrics() -> set[str]:
    """Every metric named in docs/server.md's Metrics section and in the alert rules, as its
    family (a counter without `_total`, a histogram without `_bucket`)."""
    docs = (ROOT / "docs" / "server.md").read_text()
    section = docs.split("## Metrics", 1)[1].split("\n## ", 1)[0]
    text = section + (DEPLOY / "alerts.yaml").read_text()
    names = set(re.findall(r"\bharena_[a-z_]+", text))
    return {re.sub(r"_(total|bucket|count|sum)$", "", name) for name in names}


async def test_the_compose_nodes_commands_start_a_cluster_that_serves_players(
    nats_server, tmp_path
):
    nodes: list[HarenaServer] = []
    try:
        for name, service in harena_services().items():
            args = parse_args(local(node_argv(service), nats_server.url, tmp_path / name))
            node = HarenaServer(server_config(args))
            await node.start()
            nodes.append(node)
        assert len({node.fingerprint for node in nodes}) == 1  # one host key
        for node in nodes:
            client = await player(node, "ann", new_key())
            await client.wait_for_text("you are ann")
            await client.close()
        served: set[str] = set()
        for node in nodes:
            served |= set((await scrape(node)).types)
        assert documented_metrics() == {name for name in served if name.startswith("harena_")}
        assert {"harena_sessions", "harena_nats_connected"} <= documented_metrics()
    finally:
        for node in nodes:
            await node.stop()
