"""A table moving between the nodes of a cluster keeps its time: a reaction window under way
keeps the time it had left (a drain hands it over, as the move clocks), and a table taken over
from a node that died runs its clocks on from its last record instead of afresh."""

from __future__ import annotations

from harena.core.clocks import ClockPolicy
from harena.core.lobby import Lobby
from harena.core.store import Store
from harena.core.table import load_tables
from tests.core.test_windows import IDS, _lot_won, _table


def test_a_window_handed_over_keeps_the_time_it_had_left(tmp_path) -> None:
    store = Store(tmp_path)
    table, clock = _table(store=store)
    _lot_won(table, {1: "envy-of-the-forum", 2: "slander"})
    table.save_snapshot()  # (the fixture set the hands up outside the records)
    table.act(IDS[1], "pass")
    assert table.next_deadline() == clock.now + 10
    clock.now += 4
    running = table.running_clocks()  # a drain: what the next owner is handed
    assert running["window"] == 6
    table.close()
    clock.now += 100  # (the next node's clock says what it says)
    (moved,) = load_tables(store, clock=clock)
    assert moved.next_deadline() == clock.now + 10  # rebuilt alone: afresh, as a restart
    moved.resume_clocks(running)
    assert moved.next_deadline() == clock.now + 6


def test_a_window_taken_over_from_a_dead_node_runs_on_from_its_last_record(tmp_path) -> None:
    store = Store(tmp_path)
    table, clock = _table(store=store)
    _lot_won(table, {1: "envy-of-the-forum", 2: "slander"})
    table.save_snapshot()  # (the fixture set the hands up outside the records)
    table.act(IDS[1], "pass")  # a held answer: the last record
    table.close()
    clock.now += 100
    (moved,) = load_tables(store, clock=clock)
    moved.resume_after(3.0)  # the store says its last record is 3 s old
    assert moved.next_deadline() == clock.now + 7


def test_a_move_clock_taken_over_from_a_dead_node_runs_on_from_its_last_record(tmp_path) -> None:
    now = [1000.0]
    store = Store(tmp_path)
    lobby = Lobby(store, clock=lambda: now[0], new_seed=lambda: 3)
    policy = ClockPolicy(per_decision=60)
    table = lobby.create_table("id-ann", "ann", "highcard", 2, policy=policy)
    table.sit("id-bob", "bob")  # the last record: both clocks begin now
    now[0] += 20  # ann thinks for 20 s; then her node dies
    table.close()
    now[0] += 500  # another node's clock
    (moved,) = load_tables(store, clock=lambda: now[0])
    assert moved.deadlines()[0][0] == now[0] + 60  # afresh, as after a restart
    moved.resume_after(28.0)  # her 20 s, and the 8 s nobody ran the table
    assert moved.deadlines()[0][0] == now[0] + 32
