"""`harena serve`'s cluster options (each one is also a config-file key, server/commands/config.py).

Kept apart from the cluster's code so that building the command line never imports nats-py:
`harena serve` without them needs neither NATS nor the `cluster` extra.
"""

from __future__ import annotations

import argparse
import os
import socket
from dataclasses import dataclass
from pathlib import Path
from typing import Any

LEASE_SECONDS = 8.0  # default lease time: a dead node's tables move within 7/6 of it (< 10 s)
AFFINITY_SECONDS = 0.0  # default: tables stay where they are (docs/cluster.md: not yet on)


@dataclass(frozen=True)
class ClusterSettings:
    """Everything a node needs to join a cluster."""

    servers: tuple[str, ...]  # NATS URLs (nats://, tls://; user:password@ accepted)
    node: str  # this node's name: in logs, in `harena admin nodes`, as the lease holder
    lease_seconds: float = LEASE_SECONDS
    replicas: int = 1  # JetStream replicas of the streams and buckets harena creates
    # A table moves to the node most of its players are connected to, once it has run this
    # long where it is (server/cluster/affinity.py); 0: tables stay where they are
    affinity_seconds: float = AFFINITY_SECONDS
    creds: str | None = None
    nkey_seed: str | None = None
    tls_ca: str | None = None
    tls_cert: str | None = None
    tls_key: str | None = None
    prefix: str = "harena"  # subjects, stream and bucket names: one cluster per NATS account

    def nats(self) -> Any:
        from harena.server.cluster.link import NatsSettings

        return NatsSettings(
            self.servers,
            creds=self.creds,
            nkey_seed=self.nkey_seed,
            tls_ca=self.tls_ca,
            tls_cert=self.tls_cert,
            tls_key=self.tls_key,
            name=f"harena-{self.node}",
        )


def default_node_name() -> str:
    return f"{socket.gethostname().split('.')[0]}-{os.getpid()}"


def add_nats_options(parser: argparse.ArgumentParser) -> argparse._ArgumentGroup:
    """How to reach the cluster's NATS (serve, export, import, cluster import)."""
    group = parser.add_argument_group("cluster (docs/cluster.md; needs harena[cluster])")
    group.add_argument(
        "--cluster",
        default=None,
        metavar="NATS_URL",
        help="the cluster sharing this NATS JetStream (comma-separated URLs)",
    )
    group.add_argument(
        "--replicas",
        type=int,
        default=1,
        choices=(1, 3, 5),
        help="JetStream replicas for harena's streams and buckets (default: %(default)s; R3 "
        "across three NATS servers in production)",
    )
    group.add_argument(
        "--nats-creds", default=None, metavar="FILE", help="NATS user credentials (.creds)"
    )
    group.add_argument("--nats-nkey", default=None, metavar="FILE", help="NATS nkey seed file")
    group.add_argument(
        "--nats-ca", default=None, metavar="FILE", help="CA bundle for NATS over TLS"
    )
    group.add_argument(
        "--nats-cert", default=None, metavar="FILE", help="client certificate for NATS (mTLS)"
    )
    group.add_argument(
        "--nats-key", default=None, metavar="FILE", help="client certificate's key for NATS"
    )
    return group


def add_cluster_options(serve: argparse.ArgumentParser) -> None:
    """`harena serve`'s: the NATS options, and this node's place in the cluster."""
    group = add_nats_options(serve)
    group.add_argument(
        "--node",
        default=None,
        metavar="NAME",
        help="this node's name in the cluster (default: host name and process id)",
    )
    group.add_argument(
        "--lease-time",
        type=float,
        default=LEASE_SECONDS,
        metavar="SECONDS",
        help="a stopped node's tables move to others within 7/6 of this (default: %(default)s)",
    )
    group.add_argument(
        "--table-affinity",
        type=float,
        default=AFFINITY_SECONDS,
        metavar="SECONDS",
        help="a table moves to the node most of its players are on once it has run this long "
        "where it is; 0: tables never move for that (default: %(default)s; experimental)",
    )
    group.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="run N harena processes sharing the port (SO_REUSEPORT) as one cluster; without "
        "--cluster they share a nats-server started under --data (default: %(default)s)",
    )
    group.add_argument(
        "--reuse-port",
        action="store_true",
        help="listen with SO_REUSEPORT, so several harena processes share the port",
    )


def add_cluster_commands(commands: Any) -> None:
    """`harena cluster import --data DIR --cluster URL`."""
    cluster = commands.add_parser(
        "cluster",
        help="move a single server's tables into a cluster",
        description="Operations on a harena cluster (docs/cluster.md).",
    )
    verbs = cluster.add_subparsers(dest="verb", metavar="VERB", required=True)
    imp = verbs.add_parser(
        "import",
        help="copy a data folder's tables, ratings and player settings into a cluster",
        description="Copy a single server's data folder (stopped) into a cluster: every live "
        "table keeps its id unless the cluster has one of the same; the nodes claim them.",
    )
    imp.add_argument("--data", type=Path, required=True, help="the single server's data folder")
    add_nats_options(imp)

    def run(args: argparse.Namespace) -> int:
        from harena.server.cluster.transfer import run_cluster_import

        return run_cluster_import(args)

    imp.set_defaults(run=run)


def cluster_settings(args: argparse.Namespace) -> ClusterSettings | None:
    """The settings `harena serve` was given, or None: no cluster (the embedded default)."""
    if not getattr(args, "cluster", None):
        return None
    return ClusterSettings(
        servers=tuple(url.strip() for url in args.cluster.split(",") if url.strip()),
        node=getattr(args, "node", None) or default_node_name(),
        lease_seconds=getattr(args, "lease_time", LEASE_SECONDS),
        affinity_seconds=getattr(args, "table_affinity", AFFINITY_SECONDS),
        replicas=args.replicas,
        creds=args.nats_creds,
        nkey_seed=args.nats_nkey,
        tls_ca=args.nats_ca,
        tls_cert=args.nats_cert,
        tls_key=args.nats_key,
    )
