"""Table leases in a KV bucket: one holder at a time, renewed by compare-and-set, lapsing by
the bucket's TTL; and a holder that slept through its lease can neither renew nor append."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest

from harena.core.table import Table
from harena.server.cluster.lease import Leases
from harena.server.cluster.table_store import Fenced, JetStreamTables

TTL = 1.0  # seconds: short, so a lapse is quick to wait for


def leases_for(make_link: Callable, node: str) -> Leases:
    return Leases(make_link(node), node, seconds=TTL).ensure()


def test_two_nodes_racing_for_a_lease_get_exactly_one_winner(make_link: Callable) -> None:
    contenders = [leases_for(make_link, f"n{i}").lease("table-1") for i in range(4)]
    results: list[bool] = []
    gate = threading.Barrier(len(contenders))

    def race(lease) -> None:
        gate.wait()
        results.append(lease.claim())

    threads = [threading.Thread(target=race, args=(c,)) for c in contenders]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    assert sorted(results) == [False, False, False, True]
    winner = next(c for c in contenders if c.held)
    assert contenders[0].leases.holder("table-1") == winner.leases.node


def test_a_renewed_lease_outlives_its_ttl_and_a_released_one_is_free_at_once(
    make_link: Callable,
) -> None:
    a, b = leases_for(make_link, "a"), leases_for(make_link, "b")
    mine, theirs = a.lease("t"), b.lease("t")
    assert mine.claim()
    deadline = time.monotonic() + 2.5 * TTL
    while time.monotonic() < deadline:
        assert mine.renew()
        assert not theirs.claim()
        time.sleep(TTL / 4)
    mine.release()
    assert not mine.held
    assert theirs.claim()


def test_a_lease_nobody_renews_lapses_and_its_old_holder_cannot_renew_it(
    make_link: Callable,
) -> None:
    a, b = leases_for(make_link, "a"), leases_for(make_link, "b")
    mine, theirs = a.lease("t"), b.lease("t")
    assert mine.claim()
    assert not theirs.claim()
    claimed_at = wait_to_claim(theirs)
    assert not mine.held  # it believed in the lease no longer than the bucket kept it
    assert claimed_at >= 0.5 * TTL  # (the server, not a clock of ours, decided when)
    assert not mine.renew()
    assert b.holder("t") == "b"


def test_the_loser_of_a_table_can_never_append_even_after_waking_up(
    make_link: Callable,
) -> None:
    """Node a runs a table under its lease, then stalls (paused, partitioned) past the TTL;
    node b claims the lease, rebuilds the table and plays on; a wakes and is refused."""
    link_a, link_b = make_link("a"), make_link("b")
    leases_a = Leases(link_a, "a", seconds=TTL).ensure()
    leases_b = Leases(link_b, "b", seconds=TTL).ensure()
    store_a = JetStreamTables(link_a, node="a").ensure()
    store_b = JetStreamTables(link_b, node="b").ensure()
    lease_a = leases_a.lease("1")
    assert lease_a.claim()
    table = Table.create("highcard", 2, 7, store=store_a, table_id="1")
    table.sit("key-ann", "Ann")
    table.sit("key-bob", "Bob")

    lease_b = leases_b.lease("1")
    wait_to_claim(lease_b)  # a sleeps through its lease
    taken = store_b.open_table("1")
    taken.act("key-ann", taken.game.prompts()[0].choices[0].id)

    with pytest.raises(Fenced):  # a wakes up: its append is refused by JetStream
        table.act("key-ann", table.game.prompts()[0].choices[-1].id)
    assert not lease_a.renew()
    assert not lease_a.claim()
    assert table.game.actions == []
    assert JetStreamTables(make_link("c"), node="c").read("1").count == taken.records.count


def wait_to_claim(lease) -> float:
    """Claim `lease` as soon as it is free; how long that took."""
    start = time.monotonic()
    while not lease.claim():
        assert time.monotonic() - start < 10 * TTL, "the lease never lapsed"
        time.sleep(0.05)
    return time.monotonic() - start


def test_a_follower_hears_which_leases_another_node_keeps_renewing(make_link: Callable) -> None:
    """`renewed_lately`: true while the holder renews, false once it releases (at once) or
    stops renewing (after a lease time): only then is a claim worth trying."""
    a, b = leases_for(make_link, "a"), leases_for(make_link, "b")
    a.follow()
    lease = b.lease("t")
    assert not a.renewed_lately("t")
    assert lease.claim()

    def until(condition: Callable[[], bool], within: float) -> None:
        deadline = time.monotonic() + within
        while not condition():
            assert time.monotonic() < deadline
            time.sleep(0.02)

    until(lambda: a.renewed_lately("t"), 1.0)
    for _ in range(8):  # two lease times of renewals: still lively
        assert lease.renew()
        time.sleep(TTL / 4)
        assert a.renewed_lately("t")
    lease.release()
    until(lambda: not a.renewed_lately("t"), 1.0)  # released: free at once
    assert lease.claim()
    until(lambda: a.renewed_lately("t"), 1.0)
    until(lambda: not a.renewed_lately("t"), 2 * TTL)  # not renewed: may have lapsed
    mine = a.lease("t")
    until(mine.claim, 2 * TTL)  # and it does, as soon as the server lets it go


def test_a_claim_on_a_lease_lapsing_under_it_is_lost_quietly(make_link, monkeypatch) -> None:
    """nats-py's create, finding the key taken, reads it to see whether it was deleted; a
    lease that lapses (TTL) between the two raises KeyNotFoundError: a lost race, not a fault."""
    from nats.js.errors import KeyNotFoundError

    assert leases_for(make_link, "a").lease("table-1").claim()
    other = leases_for(make_link, "b")
    kv = other.link.call(other.kv)

    async def lapsed(*args, **kwargs):
        raise KeyNotFoundError

    monkeypatch.setattr(kv, "_get", lapsed)
    assert other.lease("table-1").claim() is False
