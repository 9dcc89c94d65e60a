"""A move clock crosses nodes as durations, never as one machine's instants: a table handed to
a node whose wall clock is minutes off keeps exactly the time left it had (docs/cluster.md)."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from typing import Any

import pytest

from harena.core.clocks import ClockPolicy
from harena.core.table import Table
from harena.server.cluster.operations import nodes_text
from harena.server.cluster.remote import RemoteTable
from harena.server.cluster.table_store import JetStreamTables

CLOCK = 300.0  # seconds per decision


class Clock:
    """A wall clock a test moves by hand, `skew` seconds off the true time."""

    true_time = 1_000_000.0

    def __init__(self, skew: float = 0.0) -> None:
        self.skew = skew

    def __call__(self) -> float:
        return Clock.true_time + self.skew


def listed_wait(node: Any, identity: str, table_id: str, now: float) -> float | None:
    """How long `node`'s lobby says `table_id` has waited for `identity`, read at `now` on that
    node's clock (None: not listed as waiting)."""
    waits = dict(node.lobby.awaiting(identity, here=True))
    return None if table_id not in waits else now - waits[table_id]


def timed_table(store: JetStreamTables, clock: Clock) -> Table:
    table = Table.create(
        "highcard",
        2,
        7,
        store=store,
        table_id=store.new_table_id(),
        clock=clock,
        policy=ClockPolicy(per_decision=CLOCK),
    )
    table.sit("key-ann", "Ann")
    table.sit("key-bob", "Bob")
    return table


def time_left(table: Table, clock: Clock) -> dict[int, float]:
    """Seconds left on each awaited seat's clock, by the table's own node's clock."""
    return {seat: at - clock() for seat, (at, why) in table.deadlines().items() if why == "clock"}


@pytest.mark.parametrize("skew", [600.0, -600.0])
def test_a_table_handed_to_a_skewed_node_keeps_its_time_left(
    make_link: Callable, skew: float
) -> None:
    a_clock, b_clock = Clock(), Clock(skew)  # b's wall clock is ten minutes off
    a = JetStreamTables(make_link("a"), node="a", clock=a_clock).ensure()
    b = JetStreamTables(make_link("b"), node="b", clock=b_clock).ensure()
    table = timed_table(a, a_clock)
    awaited = table.game.awaited()
    assert awaited and time_left(table, a_clock) == dict.fromkeys(awaited, CLOCK)

    Clock.true_time += 100  # the players think for 100 s on node a
    before = time_left(table, a_clock)
    assert before == dict.fromkeys(awaited, CLOCK - 100)
    table.records.log.hand_over(table.running_clocks())  # type: ignore[union-attr]

    moved = b.open_table(table.id, clock=b_clock)

    assert time_left(moved, b_clock) == pytest.approx(before)
    Clock.true_time += 150  # the time goes on running on b's clock from there
    assert time_left(moved, b_clock) == pytest.approx(dict.fromkeys(awaited, CLOCK - 250))


def test_without_a_handoff_the_clocks_run_on_from_the_last_record(make_link: Callable) -> None:
    """A node that died left no handoff: the next node does not give every awaited player a
    whole clock again; their clocks run on from the table's last record, for as long as the
    stream's own clock says passed since (no node's clock is trusted: here b's is ten minutes
    off, and a's instants are not the stream's). A handoff followed by a record counts no
    more: the same holds from that record."""
    a_clock, b_clock = Clock(), Clock(-600.0)
    a = JetStreamTables(make_link("a"), node="a", clock=a_clock).ensure()
    b = JetStreamTables(make_link("b"), node="b", clock=b_clock).ensure()
    dead = timed_table(a, a_clock)
    stale = timed_table(a, a_clock)
    stale.records.log.hand_over(stale.running_clocks())  # type: ignore[union-attr]
    stale.say("key-ann", "Ann", "still here")  # a record after the handoff: clocks changed since
    time.sleep(0.5)  # the node dies; nobody runs the tables for half a second, by any clock

    for table in (dead, stale):
        moved = b.open_table(table.id, clock=b_clock)
        for left in time_left(moved, b_clock).values():
            assert CLOCK - 5 < left <= CLOCK - 0.5  # (the 5: a slow machine, not a bound)


async def test_a_drained_node_s_table_keeps_its_time_left_on_a_node_ten_minutes_ahead(
    make_node,
) -> None:
    a = await make_node("a")
    b = await make_node("b")
    b.cluster._clock = lambda: time.time() + 600  # b's wall clock: ten minutes ahead
    table = a.lobby.create_table(
        "key-ann", "Ann", "highcard", 2, policy=ClockPolicy(per_decision=CLOCK)
    )
    table.sit("key-bob", "Bob")
    awaited = table.game.awaited()
    await asyncio.sleep(2.0)  # someone thinks for two seconds on a
    left_on_a = {seat: at - time.time() for seat, (at, _) in table.deadlines().items()}
    assert all(left < CLOCK - 1.5 for left in left_on_a.values())

    a.cluster.drain()
    while b.cluster.tables_held() != [table.id]:
        await asyncio.sleep(0.02)
    moved = b.lobby.table(table.id)
    assert isinstance(moved, Table) and moved.game.awaited() == awaited
    left_on_b = {seat: at - b.cluster._clock() for seat, (at, _) in moved.deadlines().items()}
    for seat in awaited:  # what the move took, at most, and not a second more
        assert left_on_a[seat] - 1.0 < left_on_b[seat] <= left_on_a[seat]


async def test_a_countdown_shown_through_a_skewed_node_shows_the_owner_s_time_left(
    make_node,
) -> None:
    a = await make_node("a")
    b = await make_node("b")
    b.cluster._clock = lambda: time.time() - 600  # b's wall clock: ten minutes behind
    table = a.lobby.create_table(
        "key-ann", "Ann", "highcard", 2, policy=ClockPolicy(per_decision=CLOCK)
    )
    table.sit("key-bob", "Bob")
    while not isinstance(b.lobby.tables.get(table.id), RemoteTable):
        await asyncio.sleep(0.02)
    remote = b.lobby.tables[table.id]
    seen: list[dict] = []
    remote.subscribe("key-bob", seen.append)  # the first view: the owner's answer

    def left(view: dict, now: float) -> dict[int, float]:
        return {seat: at - now for seat, at, _ in view["table"]["deadlines"]}

    def assert_same_time_left(view: dict) -> None:
        on_b = left(view, b.cluster._clock())
        on_a = {seat: at - time.time() for seat, (at, _) in table.deadlines().items()}
        assert on_b.keys() == on_a.keys() and on_b
        for seat, seconds in on_a.items():
            assert abs(on_b[seat] - seconds) < 1.0

    assert_same_time_left(remote.view_for("key-bob"))
    await asyncio.sleep(1.0)
    seat = table.game.awaited()[0]
    identity = table.seats[seat].identity
    table.act(identity, table.game.prompts_for(seat)[0].choices[-1].id)  # a view is published
    while not seen:
        await asyncio.sleep(0.02)
    assert_same_time_left(seen[-1])


async def test_a_wait_listed_through_a_skewed_node_is_as_long_as_on_the_owner(make_node) -> None:
    """The lobby's "waited 12m" (and `ssh host status`) read when a table began to wait for a
    player: an instant on the owner's clock, turned into the reading node's by how far the
    owner's clock was heard to be from it (docs/cluster.md). The instant itself, which names
    the wait in the notices' ledger, stays the owner's."""
    a = await make_node("a")
    b = await make_node("b")
    b.cluster._clock = lambda: time.time() - 600  # b's wall clock: ten minutes behind
    table = a.lobby.create_table("key-ann", "Ann", "highcard", 2)
    table.sit("key-bob", "Bob")
    seat = table.game.awaited()[0]
    identity = table.seats[seat].identity
    assert identity is not None
    await asyncio.sleep(1.0)  # the table has waited a second for them
    table.say("key-ann", "Ann", "your move")  # the owner writes the registry again, live

    deadline = time.monotonic() + 5
    while (on_b := listed_wait(b, identity, table.id, b.cluster._clock())) is None or on_b < 1.0:
        assert time.monotonic() < deadline, f"b lists a wait of {on_b}"
        await asyncio.sleep(0.02)
    on_a = listed_wait(a, identity, table.id, time.time())
    assert on_a is not None and abs(on_b - on_a) < 0.5
    assert b.lobby.awaiting(identity) == a.lobby.awaiting(identity)  # the same wait, everywhere


async def test_a_node_started_after_a_table_last_changed_learns_its_owner_s_clock(
    make_node,
) -> None:
    """A node that just started lists a table from the registry as its owner last wrote it,
    not live: it learns the owner's clock from the owner's next announcement (one every lease
    renewal), not at the table's next change, and shows the wait as long as the owner does.
    Operators see the skew in `harena admin nodes`."""
    a = await make_node("a")
    table = a.lobby.create_table("key-ann", "Ann", "highcard", 2)
    table.sit("key-bob", "Bob")
    identity = table.seats[table.game.awaited()[0]].identity
    assert identity is not None
    await asyncio.sleep(0.5)  # the registry entry is written, and the table waits
    b = await make_node("b")
    b.cluster._clock = lambda: time.time() - 600  # b's wall clock: ten minutes behind

    deadline = time.monotonic() + 10
    while (on_b := listed_wait(b, identity, table.id, b.cluster.now())) is None or abs(on_b) > 60:
        assert time.monotonic() < deadline, f"b lists a wait of {on_b}"
        await asyncio.sleep(0.02)
    on_a = listed_wait(a, identity, table.id, time.time())
    assert on_a is not None and abs(on_b - on_a) < 0.5
    assert b.lobby.awaiting(identity) == a.lobby.awaiting(identity)  # the owner's instant

    while "clock 10m behind" not in nodes_text(a.cluster):
        assert time.monotonic() < deadline, nodes_text(a.cluster)
        await asyncio.sleep(0.02)
    lines = {line.split()[0]: line for line in nodes_text(b.cluster).splitlines()}
    assert "clock 10m ahead" in lines["a"] and "clock" not in lines["b"]
    assert re.search(r" up \d+s ", lines["a"])  # a started seconds ago, on b's clock too
