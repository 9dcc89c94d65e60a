"""A server on a cluster node: its tables, bans, connection counts and notices shared with the
other nodes through NATS JetStream (server/cluster/, docs/cluster.md). Imported only when
`harena serve --cluster` chose it: it needs nats-py."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from harena.core.lobby import Lobby
from harena.core.review.kept import KeptShelf
from harena.server.cluster.bans import shared_bans
from harena.server.cluster.connections import ClusterConnections
from harena.server.cluster.node import ClusterNode
from harena.server.cluster.notices import ClusterNoticeBook
from harena.server.cluster.operations import drain_node, nodes_text
from harena.server.cluster.options import ClusterSettings
from harena.server.cluster.reviews import JetStreamReviews
from harena.server.operations.admin import one_argument

if TYPE_CHECKING:
    import asyncssh

    from harena.server.common.limits import ConnectionCounter
    from harena.server.notices.delivery import NoticeBook
    from harena.server.operations.operators import Bans


class ClusterBackend:
    def __init__(self, settings: ClusterSettings, data_dir: Path | None) -> None:
        if data_dir is not None:  # the admin socket and bans still live here
            data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        self._node = ClusterNode(settings).start()
        self.node: ClusterNode | None = self._node

    def host_key(self, local: asyncssh.SSHKey) -> asyncssh.SSHKey:
        key: asyncssh.SSHKey = self._node.shared_host_key(local)
        return key

    def open_lobby(self, *, count_bots: bool) -> Lobby:
        return self._node.open_lobby(count_bots=count_bots)

    def bans(self, local: Bans) -> Bans:
        return shared_bans(self._node, local)  # one list for every node

    def share_connections(self, counters: dict[str, ConnectionCounter]) -> None:
        ClusterConnections(self._node, counters).start()

    def notice_book(self) -> NoticeBook | None:
        return ClusterNoticeBook(self._node)  # one sender for the cluster, presence on every node

    def review_shelf(self) -> KeptShelf | None:
        # In JetStream, so a review weighed on one node is every node's (and outlives restarts).
        s = self._node.settings
        return JetStreamReviews(self._node.link, prefix=s.prefix, replicas=s.replicas)

    def run(self, server: Any) -> None:
        self._node.run(server)

    def stop(self) -> None:
        self._node.stop()

    def nodes_text(self) -> str:
        return nodes_text(self._node)

    def drain(self, args: list[str]) -> str:
        return drain_node(self._node, one_argument(args, "drain NODE"))
