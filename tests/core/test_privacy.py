"""Private tables (core/privacy.py, core/table/sharing.py, core/lobby.py): who may know one
exists, sit and watch; invitations by name; share codes; kept across a restart."""

from __future__ import annotations

import pytest

from harena.core.engine import IllegalAction
from harena.core.lobby import Lobby
from harena.core.privacy import Privacy, is_private_id, looks_like_code, new_code, normal_code
from harena.core.store import Store
from harena.core.table import load_tables


def private_table(lobby: Lobby, watchers: str = "invited"):
    return lobby.create_table("key-a", "ann", "highcard", 3, privacy=Privacy(watchers))


def listed_ids(view: dict) -> list[str]:
    return [t["id"] for t in view["tables"] + view["finished"]]


def test_a_private_table_is_listed_only_to_its_players_the_invited_and_operators():
    lobby = Lobby()
    public = lobby.create_table("key-c", "cat", "highcard", 2)
    table = private_table(lobby)
    lobby.private.is_operator = lambda identity: identity == "key-op"
    assert listed_ids(lobby.view()) == [public.id]
    assert listed_ids(lobby.view("key-x")) == [public.id]
    assert table.id in listed_ids(lobby.view("key-a"))
    assert table.id in listed_ids(lobby.view("key-op"))
    table.invite("key-a", "key-b", "bob")
    mine = next(t for t in lobby.view("key-b")["tables"] if t["id"] == table.id)
    assert mine["private"] and mine["invited"]
    assert listed_ids(lobby.view("key-x")) == [public.id]


def test_a_stranger_is_told_a_private_table_does_not_exist_word_for_word():
    lobby = Lobby()
    table = private_table(lobby)
    with pytest.raises(IllegalAction) as missing:
        lobby.table_for("key-x", "pzzzzzzz")
    with pytest.raises(IllegalAction) as hidden:
        lobby.table_for("key-x", table.id)
    assert str(hidden.value) == str(missing.value).replace("pzzzzzzz", table.id)
    for attempt in (table.sit, table.watch):
        with pytest.raises(IllegalAction, match=f"^there is no table {table.id}$"):
            attempt("key-x", "xena")
    assert table.seat_of("key-x") is None and "key-x" not in table.spectators


def test_the_invited_sit_and_watch_unless_the_creator_chose_that_nobody_watches():
    lobby = Lobby()
    table = private_table(lobby)
    table.invite("key-a", "key-b", "bob")
    table.invite("key-a", "key-w", "wes")
    table.watch("key-w", "wes")
    assert "key-w" in table.spectators
    assert table.sit("key-b", "bob") == 1
    closed = private_table(lobby, watchers="nobody")
    closed.invite("key-a", "key-b", "bob")
    with pytest.raises(IllegalAction, match="nobody watches"):
        closed.watch("key-b", "bob")
    closed.sit("key-b", "bob")  # a seat, yes
    with pytest.raises(IllegalAction, match="only the table's creator"):
        closed.invite("key-b", "key-x", "xena")


def test_private_tables_take_no_number_so_no_gap_betrays_them(tmp_path):
    store = Store(tmp_path)
    lobby = Lobby(store)
    first = lobby.create_table("key-a", "ann", "highcard", 2)
    hidden = private_table(lobby)
    second = lobby.create_table("key-c", "cat", "highcard", 2)
    assert (first.id, second.id) == ("1", "2")
    assert is_private_id(hidden.id) and not hidden.id.isdigit()
    memory = Lobby()
    memory.create_table("key-a", "ann", "highcard", 2)
    private_table(memory)
    assert memory.create_table("key-c", "cat", "highcard", 2).id == "2"


def test_privacy_invitations_and_codes_survive_a_restart(tmp_path):
    store = Store(tmp_path)
    lobby = Lobby(store)
    table = private_table(lobby, watchers="nobody")
    table.invite("key-a", "key-b", "bob")
    code = table.add_code("key-a")
    table.revoke_codes("key-a")
    fresh = table.add_code("key-a")
    lobby.close()
    (again,) = [t for t in load_tables(store) if t.id == table.id]
    assert again.privacy == table.privacy
    assert again.privacy.watchers == "nobody" and again.privacy.invited == {"key-b": "bob"}
    assert not again.privacy.holds(code) and again.privacy.holds(fresh)
    reopened = Lobby.open(store)
    assert listed_ids(reopened.view()) == []
    assert listed_ids(reopened.view("key-b")) == [table.id]


def test_a_code_seats_its_holder_and_a_wrong_revoked_or_expired_one_finds_nothing():
    lobby = Lobby()
    table = private_table(lobby)
    code = table.add_code("key-a")
    assert looks_like_code(code) and len(normal_code(code)) == 16
    assert lobby.table_with_code(code.upper().replace("-", "")) is table  # as typed
    assert lobby.table_with_code(new_code()) is None
    assert table.join_by_code("key-b", "bob", code) == 1
    assert table.privacy is not None and "key-b" in table.privacy.invited
    table.revoke_codes("key-a")
    assert lobby.table_with_code(code) is None
    with pytest.raises(IllegalAction, match="that code opens no table"):
        table.join_by_code("key-c", "cat", code)
    late = table.add_code("key-a")
    table.close_game("key-op", "enough")
    assert lobby.table_with_code(late) is None  # expired with the game


def test_codes_are_fresh_and_carry_80_bits():
    codes = {new_code() for _ in range(200)}
    assert len(codes) == 200
    assert all(looks_like_code(c) for c in codes)


def test_an_invitation_is_news_to_the_invited_lobby():
    lobby = Lobby()
    table = private_table(lobby)
    heard: dict[str, list[dict]] = {"key-b": [], "key-x": []}
    lobby.subscribe(heard["key-b"].append, "key-b")
    lobby.subscribe(heard["key-x"].append, "key-x")
    table.invite("key-a", "key-b", "bob")
    assert heard["key-b"] and table.id in listed_ids(heard["key-b"][-1])
    assert all(table.id not in listed_ids(view) for view in heard["key-x"])
    assert [t.id for t in lobby.invitations("key-b")] == [table.id]
    assert lobby.invitations("key-x") == []


def test_people_are_invited_by_the_name_the_server_knows_them_by():
    lobby = Lobby()
    lobby.connect("key-b", "bob")
    assert lobby.identity_named("BOB") == "key-b"
    assert lobby.identity_named("nobody") is None


def test_a_private_table_sits_in_the_listing_order_among_the_public_ones():
    lobby = Lobby()
    done = lobby.create_table("key-c", "cat", "highcard", 2)
    done.close_game("op", "closed")
    lobby.create_table("key-c", "cat", "highcard", 2)
    over = private_table(lobby)
    over.close_game("op", "closed")
    mine = private_table(lobby)
    lobby.create_table("key-c", "cat", "highcard", 2)
    view = lobby.view("key-a")
    assert [t["id"] for t in view["tables"]] == ["3", "2", mine.id]  # in play, newest first
    assert [t["id"] for t in view["finished"]] == ["1", over.id]


def test_the_log_alone_rebuilds_the_guest_list_when_the_snapshot_is_lost(tmp_path):
    store = Store(tmp_path)
    table = private_table(Lobby(store))
    table.invite("key-a", "key-b", "bob")
    code = table.add_code("key-a")
    table.close()
    (tmp_path / "tables" / table.id / "snapshot").unlink()
    (again,) = load_tables(store)
    assert again.privacy == table.privacy and again.privacy.holds(code)
