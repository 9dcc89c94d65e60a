"""Seats kept for a friend (core/table/kept.py, docs/server.md): the creator keeps a seat for a
player by the name the server knows them by; a bot may hold it until they sit; nobody else may
take it; the creator may release it."""

from __future__ import annotations

import pytest

from harena.core.engine import GameConfigError, IllegalAction
from harena.core.lobby import Lobby
from harena.core.store import Store


def _lobby(store: Store | None = None) -> Lobby:
    lobby = Lobby(store)
    for key, name in (("key-ann", "ann"), ("key-bob", "bob"), ("key-cat", "cat")):
        lobby.settings.name_for(key, name)
    return lobby


def test_a_bot_holds_the_kept_seat_until_the_friend_sits_and_takes_it_over() -> None:
    lobby = _lobby()
    table = lobby.create_table("key-ann", "ann", "highcard", 2, keep_for="bob")
    assert table.status == "playing"  # the bot plays for bob meanwhile
    assert table.seats[1].bot is not None and table.seats[1].kept_for == "key-bob"
    assert table.summary()["seats"][1]["kept"] == "bob"
    assert lobby.kept_for("key-bob") == [(table.id, 1)]
    table.act("key-ann", table.game.prompts_for(0)[0].choices[0].id)
    table.play_bot_step()
    assert table.sit("key-bob", "bob") == 1  # asked for no seat: lands in the kept one
    assert table.seats[1].identity == "key-bob" and table.seats[1].bot is None
    assert table.seats[1].kept_for is None and "kept" not in table.summary()["seats"][1]
    assert lobby.kept_for("key-bob") == []


def test_nobody_else_may_sit_in_a_kept_seat() -> None:
    lobby = _lobby()
    table = lobby.create_table("key-ann", "ann", "highcard", 3, keep_for="bob")
    with pytest.raises(IllegalAction, match="kept for bob"):
        table.sit("key-cat", "cat", 1)
    assert table.sit("key-cat", "cat") == 2  # the open seat, not the kept one


def test_a_kept_seat_without_a_bot_waits_and_the_game_starts_when_the_friend_sits() -> None:
    lobby = _lobby()
    table = lobby.create_table("key-ann", "ann", "highcard", 2, keep_for="bob", keep_with_bot=False)
    assert table.status == "waiting" and table.seats[1].free
    with pytest.raises(IllegalAction, match="no free seat"):
        table.sit("key-cat", "cat")
    table.sit("key-bob", "bob")
    assert table.status == "playing"


def test_the_creator_releases_a_kept_seat_and_then_anyone_may_take_it() -> None:
    lobby = _lobby()
    table = lobby.create_table("key-ann", "ann", "highcard", 2, keep_for="bob")
    with pytest.raises(IllegalAction, match="creator"):
        table.release_seat("key-cat", 1)
    assert table.release_seat("key-ann", 1) == "bob"
    assert table.seats[1].kept_for is None and table.seats[1].bot is not None  # the bot plays on
    assert table.sit("key-cat", "cat", 1) == 1


def test_a_seat_is_kept_only_for_a_name_the_server_knows() -> None:
    lobby = _lobby()
    with pytest.raises(GameConfigError, match="nobody on this server is called dan"):
        lobby.create_table("key-ann", "ann", "highcard", 2, keep_for="dan")
    with pytest.raises(GameConfigError, match="someone else"):
        lobby.create_table("key-ann", "ann", "highcard", 2, keep_for="ANN")
    assert not lobby.tables  # nothing was created


def test_a_kept_seat_survives_a_restart(tmp_path) -> None:
    lobby = _lobby(Store(tmp_path))
    table = lobby.create_table("key-ann", "ann", "highcard", 2, keep_for="bob")
    lobby.close()
    again = Lobby.open(Store(tmp_path)).run_here[table.id]
    assert (again.seats[1].kept_for, again.seats[1].kept_name) == ("key-bob", "bob")
    with pytest.raises(IllegalAction, match="kept for bob"):
        again.sit("key-cat", "cat", 1)
