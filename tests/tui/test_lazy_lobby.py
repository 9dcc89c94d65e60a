"""A seated player's session starts with the table screen only; the lobby is built on demand.
The first screen is Textual's default screen: no blank screen is made below it."""

from __future__ import annotations

from harena.core.lobby import Lobby
from harena.tui.screens.lobby import LobbyScreen
from harena.tui.screens.table import TableScreen
from tests.tui.harness import screen_text, session, until


async def test_the_lobby_is_built_when_first_needed_and_then_kept() -> None:
    lobby = Lobby()
    table = lobby.create_table("id-alice", "alice", "highcard", 2)
    table.sit("id-bob", "bob")
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        assert isinstance(app.screen, TableScreen)
        # Half of a session's start-up is composing screens: none for a lobby nobody sees yet.
        assert not any(isinstance(screen, LobbyScreen) for screen in app.screen_stack)
        await pilot.press("escape")
        await until(lambda: isinstance(app.screen, LobbyScreen))
        lobby_screen = app.screen
        assert "#1" in screen_text(app) and table.seat_of("id-alice") == 0
        await pilot.press("enter")  # back to the seat
        await until(lambda: isinstance(app.screen, TableScreen))
        await pilot.press("escape")
        await until(lambda: isinstance(app.screen, LobbyScreen))
        assert app.screen is lobby_screen  # the same lobby, below the table this time
        assert app.screen_stack == [lobby_screen]  # in the table's place: nothing below


async def test_the_first_screen_is_the_default_screen() -> None:
    """A session's start makes one screen, not a blank default one below the first."""
    lobby = Lobby()
    table = lobby.create_table("id-alice", "alice", "highcard", 2)
    table.sit("id-bob", "bob")
    async with session(lobby, "id-alice", "alice") as (app, _pilot):
        assert [type(screen) for screen in app.screen_stack] == [TableScreen]
        assert "alice" in screen_text(app)
    async with session(lobby, "id-cid", "cid") as (app, _pilot):  # no seat: the lobby
        assert [type(screen) for screen in app.screen_stack] == [LobbyScreen]
        assert "#1" in screen_text(app)
