"""Bans shared by every node of a cluster: one document in the cluster's KV bucket, watched by
every node, so a key or an address banned on one node is refused by all of them at once (and
its sessions anywhere are closed). The data folder's bans.json is still written, as a copy."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from harena.server.operations.operators import BANNED_KEY_MESSAGE, Bans, parse_address

if TYPE_CHECKING:
    from harena.server.cluster.node import ClusterNode

log = logging.getLogger(__name__)

KEY = "bans.json"


@dataclass
class ClusterBans(Bans):
    node: Any = field(default=None, repr=False)
    # The bans as last read from or written to the cluster: what this node changed since is
    # applied to the fresh document, so a ban made on another node meanwhile is kept.
    shared: dict[str, dict[str, str]] = field(
        default_factory=lambda: {"keys": {}, "addresses": {}}, repr=False
    )

    def _save(self) -> None:
        super()._save()
        if self.node is None:
            return
        mine = {"keys": dict(self.keys), "addresses": dict(self.addresses)}
        before = self.shared

        def change(fresh: Any) -> dict[str, dict[str, str]]:
            out: dict[str, dict[str, str]] = {"keys": {}, "addresses": {}}
            for kind in out:
                if isinstance(fresh, dict) and isinstance(fresh.get(kind), dict):
                    out[kind] = {str(k): str(v) for k, v in fresh[kind].items()}
                for lifted in before[kind].keys() - mine[kind].keys():
                    out[kind].pop(lifted, None)
                out[kind].update({k: v for k, v in mine[kind].items() if before[kind].get(k) != v})
            return out

        self.replace(self.node.update_document(KEY, change))

    def replace(self, data: Any) -> None:
        """The cluster's bans as another node saved them."""
        if not isinstance(data, dict):
            return
        try:
            keys = {str(k): str(v) for k, v in dict(data.get("keys", {})).items()}
            addresses = {
                str(parse_address(k)): str(v) for k, v in dict(data.get("addresses", {})).items()
            }
        except Exception as exc:
            log.warning("dropped a malformed bans document (%s)", exc)
            return
        self.keys, self.addresses = keys, addresses
        self.shared = {"keys": dict(keys), "addresses": dict(addresses)}
        Bans._save(self)  # the local copy follows


def shared_bans(node: ClusterNode, local: Bans) -> ClusterBans:
    """The cluster's bans, with this data folder's own added (a node's bans before it joined)."""
    bans = ClusterBans(local.path, dict(local.keys), dict(local.addresses), node=None)
    found = node.read_document(KEY)
    if isinstance(found, dict):
        before = (dict(bans.keys), dict(bans.addresses))
        bans.replace(found)
        bans.keys.update(before[0])
        bans.addresses.update(before[1])
    bans.node = node
    if local.keys or local.addresses:
        bans._save()
    node.watch_document(KEY, lambda data: _changed(node, bans, data))
    return bans


def _changed(node: ClusterNode, bans: ClusterBans, data: Any) -> None:
    bans.replace(data)
    server = node.server
    if server is None:
        return
    for session in server.all_sessions():
        if bans.key_banned(session.identity) or bans.address_banned(session.address):
            session.request_exit(BANNED_KEY_MESSAGE)
