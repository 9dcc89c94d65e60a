"""A seat kept for a friend in the lobby (core/table/kept.py): kept from the create form, shown
as kept to everyone and as theirs to the friend, who lands in it with Enter; the creator
releases it with x."""

from __future__ import annotations

from harena.core.lobby import Lobby
from harena.tui.screens.create_table import CreateTableScreen
from harena.tui.screens.lobby import LobbyScreen
from harena.tui.screens.pick import PickScreen
from harena.tui.screens.table import TableScreen
from harena.tui.widgets.status_line import StatusLine
from tests.tui.harness import screen_text, session, until


def _lobby() -> Lobby:
    lobby = Lobby()
    for key, name in (("id-alice", "alice"), ("id-bob", "bob"), ("id-cat", "cat")):
        lobby.settings.name_for(key, name)
    return lobby


async def test_the_form_keeps_a_seat_the_lobby_shows_it_and_the_friend_lands_in_it() -> None:
    lobby = _lobby()
    lobby.connect("id-bob", "bob")  # online: the form offers his name
    async with session(lobby, "id-alice", "alice") as (alice, apilot):
        await apilot.press("n", "right")  # High Card, for two
        assert isinstance(alice.screen, CreateTableScreen)
        await apilot.press("up", "up")  # from the top round to "Keep a seat for"
        assert "> Keep a seat for < nobody >" in screen_text(alice)
        await apilot.press("right")
        assert "> Keep a seat for < bob >" in screen_text(alice)
        await apilot.press("enter")
        assert isinstance(alice.screen, TableScreen)
        table = lobby.run_here[alice.screen.table.id]
        assert table.seats[1].kept_for == "id-bob" and table.seats[1].bot is not None
    lobby.disconnect("id-bob")
    async with session(lobby, "id-cat", "cat") as (cat, cpilot):
        assert "alice, [bob]" in screen_text(cat) and "Seat kept for bob." in screen_text(cat)
        await cpilot.press("enter")  # no seat of his: the only other one is bob's
        assert isinstance(cat.screen, LobbyScreen)
        assert "no free seat" in cat.screen.query_one(StatusLine).text
    async with session(lobby, "id-bob", "bob") as (bob, bpilot):
        text = screen_text(bob)
        assert "FOR YOU" in text and "a seat is kept for you (Enter takes it)" in text
        await bpilot.press("enter")
        assert isinstance(bob.screen, TableScreen)
        assert table.seat_of("id-bob") == 1 and table.seats[1].bot is None


async def test_the_creator_releases_a_kept_seat_with_x() -> None:
    lobby = _lobby()
    table = lobby.create_table("id-alice", "alice", "highcard", 2, keep_for="bob")
    async with session(lobby, "id-alice", "alice") as (alice, pilot):
        if isinstance(alice.screen, TableScreen):  # (her table opened on arrival)
            await pilot.press("escape")
        await until(lambda: isinstance(alice.screen, LobbyScreen))
        await pilot.press("x")
        assert isinstance(alice.screen, PickScreen)
        assert "release the seat kept for bob" in screen_text(alice)
        await pilot.press("1")
        await until(lambda: table.seats[1].kept_for is None)
        assert "bob no longer waited for" in screen_text(alice)
