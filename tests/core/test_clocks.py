"""Move clocks and stand-ins (core/clocks.py, Table.expire): time is passed in, never read by
the rules; a bot plays for a player out of time until they take the seat back; and a table
saved mid-clock comes back with the same banks and waits (docs/rulings.md, move clocks)."""

from __future__ import annotations

from pathlib import Path

import pytest

from harena.core import clocks
from harena.core.clocks import BANK_GRACE, ClockPolicy
from harena.core.engine import IllegalAction
from harena.core.lobby import Lobby
from harena.core.store import Store
from harena.core.table import Table


class FakeClock:
    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def clocked(policy: ClockPolicy, clock: FakeClock, store: Store | None = None) -> Table:
    table = Table.create("highcard", 2, seed=5, store=store, clock=clock, policy=policy)
    table.sit("key-0", "ann")
    table.sit("key-1", "bob")
    return table


def first_choice(table: Table, seat: int) -> str:
    return table.game.prompts_for(seat)[0].choices[0].id


def test_a_decision_clock_runs_out_and_the_bot_plays_and_the_log_says_so():
    clock = FakeClock()
    table = clocked(ClockPolicy(per_decision=300), clock)
    assert table.deadlines() == {0: (clock.now + 300, "clock"), 1: (clock.now + 300, "clock")}
    table.act("key-1", first_choice(table, 1))  # bob decides in time
    clock.now += 299
    assert table.expire() == []
    clock.now += 1
    assert table.expire() == [0]
    assert table.seats[0].stand_in == "clock"
    assert "ann ran out of time: the random bot plays for them" in table.game.log_for(None)[-1]
    assert table.bots_to_move() == [0]
    table.play_bot(0)  # the bot's move ends the round
    assert table.game.state.round == 2
    assert table.bots_to_move() == [0]  # ... and it goes on playing for ann
    assert table.awaiting("key-0") is None  # nobody waits for ann while a bot plays for her


def test_taking_the_seat_back_stops_the_bot_and_starts_a_fresh_clock():
    clock = FakeClock()
    table = clocked(ClockPolicy(per_decision=60), clock)
    clock.now += 61
    assert table.expire() == [0, 1]
    clock.now += 5
    table.take_back("key-0")
    assert table.seats[0].stand_in is None
    assert table.bots_to_move() == [1]
    assert table.deadlines()[0] == (clock.now + 60, "clock")
    assert table.game.log_for(None)[-1] == "ann takes their seat back"
    with pytest.raises(IllegalAction, match="no bot is playing for you"):
        table.take_back("key-0")
    table.act("key-1", first_choice(table, 1))  # choosing takes the seat back too
    assert table.seats[1].stand_in is None


def test_a_bank_is_drawn_on_after_the_decision_clock_and_an_empty_one_leaves_a_grace():
    clock = FakeClock()
    table = clocked(ClockPolicy(per_decision=10, bank=100), clock)
    clock.now += 40  # 10 free, 30 from the bank
    table.act("key-0", first_choice(table, 0))
    assert table.times.banks == [70.0, 100.0]
    clock.now += 5
    table.act("key-1", first_choice(table, 1))  # 45 s: 35 from the bank
    assert table.times.banks == [70.0, 65.0]
    clock.now += 2
    table.act("key-1", first_choice(table, 1))  # within the decision clock: nothing from it
    assert table.times.banks == [70.0, 65.0]
    assert table.deadlines() == {0: (clock.now - 2 + 10 + 70, "clock")}
    clock.now += 78
    assert table.expire() == [0]
    assert table.times.banks[0] == 0.0
    table.take_back("key-0")
    assert table.deadlines()[0] == (clock.now + 10 + BANK_GRACE, "clock")


def test_a_player_gone_past_the_stand_in_time_is_played_for_only_when_awaited():
    clock = FakeClock()
    table = clocked(ClockPolicy(stand_in_after=3600), clock)
    assert table.deadlines() == {}  # both here: no clock at all
    table.set_connected("key-1", False)
    assert table.deadlines() == {1: (clock.now + 3600, "away")}
    clock.now += 3600
    assert table.expire() == [1]
    assert "bob is away" in table.game.log_for(None)[-1]


def test_a_table_without_a_clock_has_no_deadline_and_its_views_hold_no_time():
    clock = FakeClock()
    table = clocked(ClockPolicy(), clock)
    table.set_connected("key-1", False)
    clock.now += 10**7
    assert table.next_deadline() is None and table.expire() == []
    assert "deadlines" not in table.view_for("key-0")["table"]


def test_banks_waits_and_stand_ins_survive_a_restart_and_downtime_costs_nobody(tmp_path: Path):
    clock = FakeClock()
    store = Store(tmp_path)
    table = clocked(ClockPolicy(per_decision=0, bank=1000), clock, store)
    began = clock.now
    clock.now += 400
    table.act("key-0", first_choice(table, 0))  # 400 s from ann's bank
    clock.now += 2000
    assert table.expire() == [1]  # bob's 1000 s ran out
    table.close()
    clock.now += 50_000  # the server is down
    loaded = Table.load(store.load(table.id), store, clock=clock)
    assert loaded.times.banks == [600.0, 0.0]
    assert loaded.seats[1].stand_in == "clock"
    assert loaded.policy == ClockPolicy(bank=1000)
    # the game waits for bob since the round began; a bot plays for him, so no clock runs
    assert loaded.times.waiting_since == {1: began}
    assert loaded.deadlines() == {}
    assert loaded.awaiting("key-1") is None
    loaded.play_bot(1)
    # ann's next decision: waited for since the bot's move, her clock from then on
    assert loaded.deadlines() == {0: (clock.now + 600, "clock")}
    loaded.close()
    clock.now += 100
    again = Table.load(store.load(table.id), store, clock=clock)
    assert again.deadlines() == {0: (clock.now + 600, "clock")}  # restarted at load, not charged
    assert again.game.log_for(None) == loaded.game.log_for(None)
    again.close()


def test_the_lobby_lists_tables_awaiting_you_longest_first_and_tells_turn_listeners():
    clock = FakeClock()
    lobby = Lobby(clock=clock)
    heard: list[tuple[str, bool]] = []
    lobby.subscribe_turns("key-b", lambda table_id, waits: heard.append((table_id, waits)))
    first = lobby.create_table("key-a", "ann", "highcard", 2)
    clock.now += 10
    second = lobby.create_table("key-a", "ann", "highcard", 2)
    second.sit("key-b", "bob")
    clock.now += 10
    first.sit("key-b", "bob")
    assert heard == [(second.id, True), (first.id, True)]
    assert lobby.awaiting("key-b") == [(second.id, clock.now - 10), (first.id, clock.now)]
    first.act("key-b", first_choice(first, 1))
    assert heard[-1] == (first.id, False)
    assert [t for t, _ in lobby.awaiting("key-b")] == [second.id]
    lobby.delete_table(second.id, "deleted")
    assert heard[-1] == (second.id, False) and lobby.awaiting("key-b") == []


def test_the_countdown_is_coarse():
    assert [clocks.coarse(s) for s in (3 * 86400, 5 * 3600, 600, 119, 15, 3)] == [
        "3d",
        "5h",
        "10m",
        "110s",
        "10s",
        "<10s",
    ]


def test_a_log_from_before_records_had_times_loads_with_its_wait_counted_from_the_last_change(
    tmp_path: Path,
):
    clock = FakeClock()
    store = Store(tmp_path)
    table = clocked(ClockPolicy(), clock, store)
    table.close()
    old = [
        {k: v for k, v in r.items() if k != "at" or r["t"] == "create"}
        for r in store.read_records(table.id)
    ]
    store.replace_log(table.id, old)
    (tmp_path / "tables" / table.id / "snapshot").unlink()
    first = Table.load(store.load(table.id), store, clock=clock)
    assert first.awaiting("key-0") == first.touched == store.touched(table.id)
    first.close()
    clock.now += 500
    again = Table.load(store.load(table.id), None, clock=clock)  # an export reads it so
    assert (
        again.snapshot_data()["waiting"]
        == first.snapshot_data()["waiting"]
        == [[0, None], [1, None]]
    )
