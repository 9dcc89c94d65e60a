"""`harena admin nodes` and `harena admin drain NODE`, run on any node of a cluster."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from harena.server.cluster.node import ClusterNode


def nodes_text(node: ClusterNode) -> str:
    rows = node.nodes()
    if not rows:
        return "no nodes"
    now = node.now()
    lines = []
    for row in rows:
        offset = node.clock_offset(row["node"])  # its clock less ours, as last heard live
        up = _age(now - (float(row.get("since", now)) - offset))
        mark = " (this one)" if row["node"] == node.name else ""
        state = " draining" if row.get("draining") else ""
        lines.append(
            f"{row['node']:<16} {row.get('address', ''):<21} tables {row.get('tables', 0):<4} "
            f"sessions {row.get('sessions', 0):<5} load {row.get('load', 0):<5} up {up}{state}"
            f"{_skew(offset)}{mark}"
        )
    return "\n".join(lines)


def drain_node(node: ClusterNode, name: str) -> str:
    from harena.server.operations.admin import AdminError

    known = {row["node"] for row in node.nodes()}
    if name not in known:
        raise AdminError(f"no node {name!r}; see nodes")
    answer = node.ask_node(name, "drain")
    if "ok" not in answer:
        raise AdminError(str(answer.get("error", "the node did not answer")))
    return str(answer["ok"])


SKEW_SHOWN = 2.0
"""Seconds a node's clock may be off ours before `nodes` says so: the offset is heard through
NATS (milliseconds late) and a wait is shown to the minute, so less is noise."""


def _skew(offset: float) -> str:
    """` clock 10m ahead` / ` clock 5s behind`: what operators must fix (NTP) before clocks
    shown to players drift; leases and move clocks do not depend on it (docs/cluster.md)."""
    if abs(offset) < SKEW_SHOWN:
        return ""
    return f" clock {_age(abs(offset))} {'ahead' if offset > 0 else 'behind'}"


def _age(seconds: float) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds / size:.0f}{unit}"
    return f"{max(seconds, 0):.0f}s"
