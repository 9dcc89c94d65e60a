"""The per-address and per-key connection caps hold for the cluster: a client cannot open the
cap's worth on every node behind the balancer (server/cluster/connections.py)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import asyncssh
import pytest

from harena.server.cluster.connections import ClusterConnections, _counts
from harena.server.common.limits import ConnectionCounter
from harena.server.service.ssh_server import HarenaServer
from tests.server.players import new_key, player

REFUSED = (asyncssh.DisconnectError, asyncssh.ChannelOpenError, ConnectionError)


async def counted(server: HarenaServer, kind: str, key: str, want: int) -> None:
    """Wait until `server` counts `want` connections of `key` on the other nodes."""
    assert server.cluster is not None
    counter = server.connections if kind == "addresses" else server.identities
    for _ in range(200):
        if counter.elsewhere(key) == want:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{kind} {key}: {counter.elsewhere(key)} elsewhere, not {want}")


async def test_connections_of_one_address_are_capped_across_nodes(make_node) -> None:
    a = await make_node("a", max_per_ip=2)
    b = await make_node("b", max_per_ip=2)
    first = await player(a, "ann", new_key())
    second = await player(a, "bob", new_key())
    await counted(b, "addresses", "127.0.0.1", 2)
    with pytest.raises(REFUSED):  # on b, where this address has no connection yet
        third = await player(b, "cat", new_key())
        await third.wait_closed()
    assert b.refused["max_per_ip"] == 1

    await first.close()  # one goes: b lets one in again
    await counted(b, "addresses", "127.0.0.1", 1)
    again = await player(b, "cat", new_key())
    await again.wait_for_text("you are cat")
    await counted(a, "addresses", "127.0.0.1", 1)
    with pytest.raises(REFUSED):  # and a counts b's now
        fourth = await player(a, "dan", new_key())
        await fourth.wait_closed()
    await asyncio.gather(second.close(), again.close())


async def test_connections_of_one_key_are_capped_across_nodes(make_node) -> None:
    a = await make_node("a", max_per_key=1)
    b = await make_node("b", max_per_key=1)
    key = new_key()
    identity = key.get_fingerprint("sha256")
    ann = await player(a, "ann", key)
    await ann.wait_for_text("you are ann")
    await counted(b, "keys", identity, 1)
    with pytest.raises(REFUSED):
        twice = await player(b, "ann", key)
        await twice.wait_closed()
    assert b.refused["max_per_key"] == 1
    other = await player(b, "bob", new_key())  # another key is let in
    await other.wait_for_text("you are bob")
    await asyncio.gather(ann.close(), other.close())


async def test_a_node_that_stopped_no_longer_counts(make_node) -> None:
    a = await make_node("a", max_per_ip=1)
    b = await make_node("b", max_per_ip=1)
    ann = await player(a, "ann", new_key())
    await ann.wait_for_text("you are ann")
    await counted(b, "addresses", "127.0.0.1", 1)
    await ann.close()
    await a.stop()  # (its entry is put with no connections as its sessions close)
    await counted(b, "addresses", "127.0.0.1", 0)
    bob = await player(b, "bob", new_key())
    await bob.wait_for_text("you are bob")
    await bob.close()


def test_a_dead_node_s_counts_lapse_and_a_malformed_entry_is_dropped() -> None:
    """kill -9 leaves a node's entry behind: it counts for three lease times, as its presence
    in the lobby does, then no more. A malformed entry counts for nothing."""
    now = [100.0]
    node = SimpleNamespace(settings=SimpleNamespace(lease_seconds=2.0))
    shared = ClusterConnections(
        node,  # type: ignore[arg-type]
        {"addresses": ConnectionCounter(2)},
        clock=lambda: now[0],
    )
    shared._others.heard("gone", _counts(b'{"addresses": {"10.0.0.7": 2}, "keys": {}}'))
    assert shared.elsewhere("addresses", "10.0.0.7") == 2
    now[0] += 5.9
    assert shared.elsewhere("addresses", "10.0.0.7") == 2
    now[0] += 0.2  # three lease times since it last said anything
    assert shared.elsewhere("addresses", "10.0.0.7") == 0
    for raw in (b"not json", b'{"addresses": {"x": "many"}}', b"[1]", None):
        assert _counts(raw) is None
