"""Tables (core/table.py): seats, authorization, subscribers, chat and bots."""

from __future__ import annotations

import re
from typing import Any

import pytest

from harena.core.engine import IllegalAction, choices_stamp
from harena.core.store import Store, StoreError, TableLog
from harena.core.table import STALE_LIST, NotYourTurn, Table


def new_table(players: int = 2, **kw: Any) -> Table:
    return Table.create("highcard", players, seed=31, **kw)


def seated(players: int = 2, **kw: Any) -> Table:
    table = new_table(players, **kw)
    for seat in range(players):
        table.sit(f"key-{seat}", f"player{seat}")
    return table


def first_choice(table: Table, seat: int) -> str:
    return table.game.prompts_for(seat)[0].choices[0].id


def test_players_take_the_first_free_seat_and_keep_it():
    table = new_table(3)
    assert table.sit("key-a", "ann") == 0
    assert table.sit("key-b", "bob") == 1
    assert table.sit("key-a", "ann") == 0  # sitting again keeps the seat held
    with pytest.raises(IllegalAction, match="that seat is taken by bob"):
        table.sit("key-c", "cat", seat=1)
    assert table.sit("key-c", "cat") == 2
    with pytest.raises(IllegalAction, match="no free seat"):
        table.sit("key-d", "dan")


def test_the_game_waits_until_every_seat_is_taken():
    table = new_table(2)
    table.sit("key-0", "ann")
    assert table.status == "waiting"
    with pytest.raises(IllegalAction, match="every seat is taken"):
        table.act("key-0", first_choice(table, 0))
    table.sit("key-1", "bob")
    assert table.status == "playing"
    table.act("key-0", first_choice(table, 0))


def test_a_seat_cannot_act_for_another():
    table = seated(2)
    table.act("key-0", first_choice(table, 0))
    before = table.game.snapshot()
    # seat 1's legal choice, sent by seat 0's key, is judged as seat 0's move: refused
    with pytest.raises(IllegalAction, match="you have nothing to decide"):
        table.act("key-0", first_choice(table, 1))
    with pytest.raises(NotYourTurn, match="no seat"):
        table.act("key-stranger", first_choice(table, 1))
    assert table.game.snapshot() == before


def test_a_stale_screen_cannot_answer_the_next_prompt():
    table = seated(2)
    decision = table.view_for("key-0")["game"]["decision"]
    table.act("key-0", first_choice(table, 0), decision)
    table.act("key-1", first_choice(table, 1))
    before = table.game.snapshot()
    with pytest.raises(IllegalAction, match="moved on"):
        table.act("key-0", first_choice(table, 0), decision)  # the same keypress, twice
    assert table.game.snapshot() == before


def test_a_choice_from_a_list_that_changed_since_the_screen_was_drawn_is_refused():
    # issue 36: the screen sends the stamp of the list it showed; the stamp is made of the
    # seat's own prompt as its view has it, so it tells the table nothing hidden.
    table = seated(2)
    prompt = table.view_for("key-0")["game"]["prompts"][0]
    shown = choices_stamp(prompt["kind"], prompt["choices"])
    assert shown == table.game.prompts_for(0)[0].stamp
    elsewhere = choices_stamp(prompt["kind"], prompt["choices"][1:])  # a list with one less
    before = table.game.snapshot()
    with pytest.raises(IllegalAction, match="^" + re.escape(STALE_LIST) + "$"):
        table.act("key-0", first_choice(table, 0), 0, elsewhere)
    assert table.game.snapshot() == before
    table.act("key-0", first_choice(table, 0), 0, shown)
    assert table.game.version == 1


def test_every_subscriber_gets_the_view_for_its_own_seat():
    table = seated(2)
    got: dict[str, list[dict]] = {"key-0": [], "key-1": [], "watcher": []}
    table.watch("watcher", "wat")
    for identity, inbox in got.items():
        table.subscribe(identity, inbox.append)
    table.act("key-0", first_choice(table, 0))
    hands = table.game.state.hands
    assert got["key-0"][-1]["game"]["board"]["hand"] == hands[0]
    assert got["key-1"][-1]["game"]["board"]["hand"] == hands[1]
    assert got["watcher"][-1]["game"]["board"]["hand"] is None
    assert got["key-0"][-1]["table"]["you"] == 0 and got["watcher"][-1]["table"]["you"] is None
    assert got["key-1"][-1]["game"]["board"]["has_played"] == [True, False]


def test_a_view_is_built_once_per_seat_however_many_sessions_watch(monkeypatch):
    table = seated(2)
    for n in range(5):
        table.watch(f"watcher{n}", f"w{n}")
        table.subscribe(f"watcher{n}", lambda view: None)
    table.subscribe("key-0", lambda view: None)
    table.subscribe("key-0", lambda view: None)  # the same player in two terminals
    built: list[int | None] = []
    real_view = table.game.view
    monkeypatch.setattr(
        table.game, "view", lambda seat, **kw: built.append(seat) or real_view(seat, **kw)
    )
    table.act("key-0", first_choice(table, 0))
    assert sorted(built, key=str) == [0, None]


def test_a_failing_subscriber_does_not_stop_the_others(caplog):
    table = seated(2)
    heard = []

    def broken(view: dict) -> None:
        raise RuntimeError("session crashed")

    table.subscribe("key-0", broken)
    table.subscribe("key-1", heard.append)
    table.act("key-0", first_choice(table, 0))
    assert len(heard) == 1 and "subscriber failed" in caplog.text


def test_a_closed_subscription_hears_nothing_more():
    table = seated(2)
    heard: list[dict] = []
    sub = table.subscribe("key-0", heard.append)
    assert table.subscriber_count == 1
    sub.close()
    table.act("key-0", first_choice(table, 0))
    assert heard == [] and table.subscriber_count == 0


def test_chat_is_cleaned_bounded_and_only_for_people_at_the_table():
    table = seated(2)
    table.say("key-0", "ann", "hello\x1b[31m\nthere\x07  " + "x" * 500)
    line = table.view_for("key-1")["table"]["chat"][-1]
    assert line[0] == "ann" and line[1].startswith("hello [31m there x")
    assert "\x1b" not in line[1] and len(line[1]) == 300
    table.say("key-1", "bob", "   ")  # blank lines are dropped
    assert len(table.chat) == 1
    with pytest.raises(IllegalAction, match="sit or watch"):
        table.say("key-stranger", "eve", "hi")
    table.watch("key-w", "wat")
    table.say("key-w", "wat", "gg")
    assert table.view_for(None)["table"]["chat"][-1] == ["wat", "gg"]


def test_connection_state_is_shown_to_others():
    table = seated(2)
    table.set_connected("key-1", False)
    seats = table.view_for("key-0")["table"]["seats"]
    assert [s["connected"] for s in seats] == [True, False]
    table.sit("key-1", "bob")  # the same key coming back
    assert table.view_for("key-0")["table"]["seats"][1]["connected"] is True


def test_bots_fill_empty_seats_and_play_to_the_end():
    table = new_table(3)
    table.sit("key-0", "ann")
    table.set_bot(1, "random")
    table.set_bot(2, "random")
    with pytest.raises(IllegalAction, match="no bot 'genius'"):
        table.set_bot(0, "genius")
    assert table.status == "playing"
    while table.game.result() is None:
        for seat in table.bots_to_move():
            table.play_bot(seat)
        if table.game.prompts_for(0):
            table.act("key-0", first_choice(table, 0))
    assert table.status == "over"
    assert all(a.seat in (0, 1, 2) for a in table.game.actions)


def test_a_human_may_take_over_a_bot_seat():
    table = new_table(2)
    table.sit("key-0", "ann")
    table.set_bot(1, "random")
    assert table.sit("key-1", "bob", seat=1) == 1
    assert table.seats[1].bot is None and table.bots_to_move() == []


def test_an_action_is_on_disk_before_any_subscriber_hears_of_it(tmp_path):
    store = Store(tmp_path)
    table = seated(2, store=store)
    log_path = tmp_path / "tables" / table.id / "log"
    sizes: list[int] = []
    table.subscribe("key-0", lambda view: sizes.append(log_path.stat().st_size))
    before = log_path.stat().st_size
    table.act("key-0", first_choice(table, 0))
    assert sizes and sizes[0] > before


def test_a_move_that_cannot_be_saved_is_not_made(tmp_path, monkeypatch):
    table = seated(2, store=Store(tmp_path))
    before = table.game.snapshot()
    heard: list[dict] = []
    table.subscribe("key-1", heard.append)

    def disk_full(self: TableLog, record: dict) -> None:
        raise StoreError("could not save: No space left on device")

    monkeypatch.setattr(TableLog, "append", disk_full)
    with pytest.raises(StoreError, match="No space left"):
        table.act("key-0", first_choice(table, 0))
    assert table.game.snapshot() == before and heard == []


def test_a_seat_whose_view_did_not_change_is_not_sent_it_again():
    """A step hidden from a seat (here: the target of a Scheme still being prepared in
    secret) sends that seat nothing: not the same view again, not a repaint."""
    table = Table.create("spartacus", 3, seed=5, options={"length": "advanced"})
    for seat in range(3):
        table.sit(f"key-{seat}", f"p{seat}")
    game = table.game
    while game.state.phase.value == "houses":
        seat = game.awaited()[0]
        table.act(
            f"key-{seat}",
            next(c.id for p in game.prompts_for(seat) if not p.standing for c in p.choices),
        )
    schemer = game.state.intrigue.turn
    other = (schemer + 1) % 3
    heard: list[dict] = []
    table.subscribe(f"key-{other}", heard.append)
    scheme = next(
        c.id
        for p in game.prompts_for(schemer)
        if not p.standing
        for c in p.choices
        if c.id.startswith("scheme:")
    )
    table.act(f"key-{schemer}", scheme)
    after_scheme = len(heard)
    target = next(
        c.id
        for p in game.prompts_for(schemer)
        if not p.standing
        for c in p.choices
        if c.id.startswith("target:")
    )
    table.act(f"key-{schemer}", target)
    assert after_scheme == 1 and len(heard) == 1  # the target is the schemer's secret
