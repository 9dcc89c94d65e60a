"""Where a server's shared state lives: in this process alone, or on a cluster node that shares
tables, bans, connection counts and notices with the other nodes through NATS JetStream
(docs/cluster.md). `choose_backend` picks one at start; `HarenaServer` asks it what it needs and
never which kind it holds.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from harena.core.lobby import Lobby
from harena.core.review.kept import FileShelf, KeptShelf
from harena.core.store import Store
from harena.server.operations.admin import AdminError, ClusterCommands

if TYPE_CHECKING:
    import asyncssh

    from harena.server.cluster.node import ClusterNode
    from harena.server.cluster.options import ClusterSettings
    from harena.server.common.limits import ConnectionCounter
    from harena.server.notices.delivery import NoticeBook
    from harena.server.operations.operators import Bans

NOT_IN_A_CLUSTER = "this server is not in a cluster (docs/cluster.md)"


class ServerBackend(ClusterCommands, Protocol):
    """What a server asks of where it runs, in the order it asks."""

    node: ClusterNode | None
    """The cluster node, in a cluster (tests and drills reach into it); None for one process."""

    def host_key(self, local: asyncssh.SSHKey) -> asyncssh.SSHKey:
        """The host key players see: this folder's, or the cluster's one key."""
        ...

    def open_lobby(self, *, count_bots: bool) -> Lobby: ...

    def bans(self, local: Bans) -> Bans:
        """The bans to enforce, given this data folder's."""
        ...

    def share_connections(self, counters: dict[str, ConnectionCounter]) -> None:
        """Make the per-address and per-key caps hold across every node there is."""
        ...

    def notice_book(self) -> NoticeBook | None:
        """Who sends notices and keeps their ledger; None: this server, from its data folder."""
        ...

    def review_shelf(self) -> KeptShelf | None:
        """Where finished tables' reviews are kept, awaited: the table's folder, or the
        cluster's JetStream (None: in memory while the server runs)."""
        ...

    def run(self, server: Any) -> None:
        """Called once the server listens (a node announces the address it serves)."""
        ...

    def stop(self) -> None: ...


class LocalBackend:
    """One server process: its tables in its data folder (none: nothing is saved)."""

    node: ClusterNode | None = None

    def __init__(self, data_dir: Path | None) -> None:
        self.data_dir = data_dir

    def host_key(self, local: asyncssh.SSHKey) -> asyncssh.SSHKey:
        return local

    def open_lobby(self, *, count_bots: bool) -> Lobby:
        if self.data_dir is None:
            return Lobby()
        return Lobby.open(Store(self.data_dir), count_bots=count_bots)

    def bans(self, local: Bans) -> Bans:
        return local

    def share_connections(self, counters: dict[str, ConnectionCounter]) -> None:
        pass  # the counters are the whole count

    def notice_book(self) -> NoticeBook | None:
        return None

    def review_shelf(self) -> KeptShelf | None:
        return None if self.data_dir is None else FileShelf(Store(self.data_dir))  # its folder

    def run(self, server: Any) -> None:
        pass

    def stop(self) -> None:
        pass

    def nodes_text(self) -> str:
        raise AdminError(NOT_IN_A_CLUSTER)

    def drain(self, args: list[str]) -> str:
        raise AdminError(NOT_IN_A_CLUSTER)


def choose_backend(cluster: ClusterSettings | None, data_dir: Path | None) -> ServerBackend:
    if cluster is None:
        return LocalBackend(data_dir)
    # Imported only here: the cluster needs nats-py, an optional dependency (harena[cluster]).
    from harena.server.service.cluster_backend import ClusterBackend

    return ClusterBackend(cluster, data_dir)
