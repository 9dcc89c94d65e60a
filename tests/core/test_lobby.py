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
