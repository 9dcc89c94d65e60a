"""Which node a table should run on: the one most of its players are connected to.

With players spread over nodes (a balancer, or `--workers` sharing a port), a table's owner is
often not where its players are, and then every key of theirs is a request to the owner and
every view of theirs crosses NATS. An owner that sees another node holding strictly more of the
table's players than it does hands the table there (a drain of one table: nothing acknowledged
is lost, and every screen follows the table in place). Ties stay put, and a table that just
arrived stays a while (`--table-affinity` seconds; off by default while experimental), so a
table never bounces between nodes as players come and go.
"""

from __future__ import annotations

from collections.abc import Mapping, Set


def nearer_node(here: Set[str], elsewhere: Mapping[str, Set[str]]) -> str | None:
    """The node holding strictly more of a table's players than this one (`here`: the seated
    people connected to this node; `elsewhere`: node -> those with the table open there), the
    most if several; None if none does. A player counted here is not counted elsewhere."""
    counts = {node: len(set(people) - set(here)) for node, people in elsewhere.items()}
    best = max(sorted(counts), key=lambda node: counts[node], default=None)
    if best is None or counts[best] <= len(here):
        return None
    return best
