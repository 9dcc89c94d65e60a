"""The lobby (core/lobby.py): tables, people online, reconnects and room chat."""

from __future__ import annotations

import pytest

from harena.core.engine import GameConfigError, IllegalAction
from harena.core.lobby import Lobby
from harena.core.store import Store


def test_creating_a_table_seats_the_creator_and_fills_bots():
    lobby = Lobby()
    table = lobby.create_table("key-a", "ann", "highcard", 3, bots=1)
    assert table.seat_of("key-a") == 0
    assert [s.bot for s in table.seats] == [None, "random", None]
    assert table.status == "waiting"
    listed = lobby.view()["tables"][0]
    assert listed["id"] == table.id and listed["title"] == "High Card"
    assert [s["free"] for s in listed["seats"]] == [False, False, True]


def test_bad_requests_get_clear_errors():
    lobby = Lobby()
    with pytest.raises(GameConfigError, match="do not fit"):
        lobby.create_table("key-a", "ann", "highcard", 2, bots=2)
    with pytest.raises(GameConfigError, match="no genius bot"):
        lobby.create_table("key-a", "ann", "highcard", 2, bots=1, bot_kind="genius")
    with pytest.raises(IllegalAction, match="no table 42"):
        lobby.table("42")


def test_subscribers_hear_when_the_table_list_changes_but_not_for_every_move():
    lobby = Lobby()
    heard: list[dict] = []
    lobby.subscribe(heard.append)
    table = lobby.create_table("key-a", "ann", "highcard", 2)
    assert heard and heard[-1]["tables"][0]["status"] == "waiting"
    table.sit("key-b", "bob")
    assert heard[-1]["tables"][0]["status"] == "playing"
    count = len(heard)
    table.act("key-a", table.game.prompts_for(0)[0].choices[0].id)
    assert len(heard) == count  # a move does not change the listing


def test_a_table_created_without_anyone_seated_is_announced():
    lobby = Lobby()
    heard: list[dict] = []
    lobby.subscribe(heard.append)
    lobby.create_table("key-a", "ann", "highcard", 2, sit=False)
    assert heard and len(heard[-1]["tables"]) == 1


def test_a_reconnecting_key_finds_its_seat_and_is_shown_connected_again():
    lobby = Lobby()
    table = lobby.create_table("key-a", "ann", "highcard", 2)
    lobby.connect("key-a", "ann")
    lobby.disconnect("key-a")
    assert table.seats[0].connected is False and table.seats[0].identity == "key-a"
    assert lobby.seat_held_by("key-a") == (table, 0)
    lobby.connect("key-a", "ann")
    assert table.seats[0].connected is True


def test_one_key_connected_twice_stays_connected_until_both_sessions_end():
    lobby = Lobby()
    table = lobby.create_table("key-a", "ann", "highcard", 2)
    lobby.connect("key-a", "ann")
    lobby.connect("key-a", "ann")
    assert lobby.sessions_of("key-a") == 2
    lobby.disconnect("key-a")
    assert table.seats[0].connected is True
    lobby.disconnect("key-a")
    assert table.seats[0].connected is False and lobby.view()["online"] == []


def test_a_guest_who_drops_gives_the_seat_up():
    lobby = Lobby()
    table = lobby.create_table("guest-1", "guest", "highcard", 2)
    lobby.connect("guest-1", "guest")
    lobby.disconnect("guest-1", guest=True)
    assert table.seats[0].free and lobby.seat_held_by("guest-1") is None


def test_room_chat_is_cleaned_and_shown_to_everyone():
    lobby = Lobby()
    lobby.connect("key-a", "ann")
    lobby.say("key-a", "ann", "anyone for \x1b[2Ja game?")
    assert lobby.view()["chat"] == [["ann", "anyone for [2Ja game?"]]
    assert lobby.view()["online"] == ["ann"]


def test_a_restarted_server_lists_every_saved_table(tmp_path):
    lobby = Lobby(Store(tmp_path))
    a = lobby.create_table("key-a", "ann", "highcard", 2, bots=1)
    b = lobby.create_table("key-b", "bob", "highcard", 3)
    lobby.close()
    again = Lobby.open(Store(tmp_path))
    assert sorted(again.tables) == sorted([a.id, b.id])
    assert again.seat_held_by("key-a")[0].id == a.id
    assert again.table(a.id).seats[1].bot == "random"


# -- a table's life -------------------------------------------------------------------------------


def play_to_the_end(table) -> None:
    while table.game.result() is None:
        for seat in list(table.game.awaited()):
            table.act(table.seats[seat].identity, table.game.prompts_for(seat)[0].choices[0].id)


def test_a_finished_game_leaves_the_main_list_for_the_finished_one_and_stays_readable():
    lobby = Lobby()
    table = lobby.create_table("key-a", "ann", "highcard", 2, {"rounds": "1"})
    table.sit("key-b", "bob")
    play_to_the_end(table)
    view = lobby.view()
    assert view["tables"] == []
    assert [t["id"] for t in view["finished"]] == [table.id]
    final = table.view_for(None)  # anyone may still read the final state and the log
    assert final["game"]["result"] is not None and final["game"]["log"]
    assert lobby.seat_held_by("key-a") is None  # a reconnect goes to the lobby, not the old game


def test_the_creator_may_remove_a_player_before_the_start_and_nobody_else_may():
    lobby = Lobby()
    table = lobby.create_table("key-a", "ann", "highcard", 4, bots=1)
    table.sit("key-b", "bob", 2)
    with pytest.raises(IllegalAction, match="only the table's creator"):
        table.remove_player("key-b", 1)
    with pytest.raises(IllegalAction, match="your own seat"):
        table.remove_player("key-a", 0)
    assert table.remove_player("key-a", 2) == "bob"
    assert table.seats[2].free and table.seat_of("key-b") is None
    assert table.spectators == {"key-b": "bob"}  # bob watches on: he may still chat
    assert table.remove_player("key-a", 1) == "random bot"
    table.sit("key-b", "bob", 2)
    table.set_bot(1, "random")
    table.set_bot(3, "random")  # full: the game starts
    with pytest.raises(IllegalAction, match="has started"):
        table.remove_player("key-a", 1)


def test_the_creator_survives_a_restart(tmp_path):
    lobby = Lobby(Store(tmp_path))
    table = lobby.create_table("key-a", "ann", "highcard", 3)
    table.sit("key-b", "bob")
    lobby.close()
    again = Lobby.open(Store(tmp_path)).table(table.id)
    assert again.creator == "key-a"
    assert again.remove_player("key-a", 1) == "bob"


def test_a_closed_table_takes_no_moves_or_players_and_stays_closed_after_a_restart(tmp_path):
    lobby = Lobby(Store(tmp_path))
    table = lobby.create_table("key-a", "ann", "highcard", 2)
    table.sit("key-b", "bob")
    lobby.close_table(table.id, "key-op", "closed by an operator")
    with pytest.raises(IllegalAction, match="this table was closed"):
        table.act("key-a", table.game.prompts_for(0)[0].choices[0].id)
    assert table.bots_to_move() == [] and lobby.view()["finished"][0]["status"] == "closed"
    lobby.close()
    again = Lobby.open(Store(tmp_path))
    assert again.table(table.id).status == "closed"


def test_untouched_tables_are_archived_never_deleted(tmp_path):
    now = [1_000_000.0]
    store = Store(tmp_path)
    lobby = Lobby(store, clock=lambda: now[0])
    old = lobby.create_table("key-a", "ann", "highcard", 2)
    now[0] += 20 * 86400
    fresh = lobby.create_table("key-b", "bob", "highcard", 2)
    watched = lobby.table(fresh.id)
    now[0] += 15 * 86400  # old: 35 days untouched; fresh: 15
    assert lobby.archive_idle(30 * 86400) == [old.id]
    assert old.id not in lobby.tables and watched.id in lobby.tables
    assert (tmp_path / "archive" / old.id / "log").exists()
    assert store.read_records(old.id, archived=True)[0]["t"] == "create"
    assert lobby.create_table("key-c", "cy", "highcard", 2).id not in (
        old.id,
        fresh.id,
    )  # ids not reused
    assert old.id not in Lobby.open(Store(tmp_path)).tables


def test_a_table_someone_is_looking_at_is_not_archived(tmp_path):
    now = [1_000_000.0]
    lobby = Lobby(Store(tmp_path), clock=lambda: now[0])
    table = lobby.create_table("key-a", "ann", "highcard", 2)
    table.subscribe("key-a", lambda view: None)
    now[0] += 40 * 86400
    assert lobby.archive_idle(30 * 86400) == []


def test_a_deleted_table_tells_its_subscribers_and_its_files_move_aside(tmp_path):
    lobby = Lobby(Store(tmp_path))
    table = lobby.create_table("key-a", "ann", "highcard", 2)
    heard: list[dict] = []
    table.subscribe("key-a", heard.append)
    lobby.delete_table(table.id, "deleted by an operator")
    assert heard[-1]["table"]["removed"] == "deleted by an operator"
    assert lobby.view()["tables"] == [] and table.id not in Lobby.open(Store(tmp_path)).tables
    assert (tmp_path / "deleted" / f"{table.id}-1" / "log").exists()


def test_the_notice_is_in_every_lobby_view_and_cleaned():
    lobby = Lobby()
    heard: list[dict] = []
    lobby.subscribe(heard.append)
    lobby.set_notice("restart\nat 20:00")
    assert heard[-1]["notice"] == "restart at 20:00"
    lobby.set_notice("")
    assert lobby.view()["notice"] == ""


def test_the_tables_waiting_for_a_player_are_the_same_as_a_scan_of_every_table_move_by_move():
    """`awaiting` reads an index of the tables waiting for each player, kept as tables change
    (asked on every view a screen shows, it must not scan every table): at every step of two
    tables played to the end, and after a third is deleted, it says what a scan of every table
    says."""
    lobby = Lobby()
    people = ["key-a", "key-b", "key-c"]
    tables = [lobby.create_table(people[i], f"p{i}", "highcard", 2) for i in range(3)]
    for i, table in enumerate(tables):
        table.sit(people[(i + 1) % 3], f"p{(i + 1) % 3}")

    def scanned(identity: str) -> list[tuple[str, float]]:
        found = [
            (t.id, since)
            for t in lobby.tables.values()
            if (since := t.awaiting(identity)) is not None
        ]
        return sorted(found, key=lambda pair: (pair[1], pair[0]))

    def check() -> None:
        for identity in people:
            assert lobby.awaiting(identity) == scanned(identity)

    check()
    assert any(lobby.awaiting(p) for p in people)
    lobby.delete_table(tables[2].id, "deleted")
    check()
    steps = 0
    while any(t.status == "playing" for t in tables[:2]):
        for table in tables[:2]:
            if table.status != "playing":
                continue
            seat = table.game.awaited()[0]
            identity = table.seats[seat].identity
            table.act(identity, table.game.prompts_for(seat)[0].choices[0].id)
            check()
        steps += 1
        assert steps < 200
    assert all(lobby.awaiting(p) == [] for p in people)
