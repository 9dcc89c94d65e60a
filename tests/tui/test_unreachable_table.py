"""A table that cannot be shown now (in a cluster: its node and the cluster's storage cannot
be reached) is not opened: the player lands in the lobby, told why, instead of the session
crashing while the table's screen is built."""

from __future__ import annotations

import asyncio

from harena.core.engine import IllegalAction
from harena.core.lobby import Lobby
from harena.server.hosting.dismantle import TOMBSTONE
from harena.tui.screens.lobby import LobbyScreen
from harena.tui.screens.table import TableScreen
from tests.tui.harness import screen_text, session

WHY = "the table cannot be reached now: nothing was changed; try again shortly"


def unreachable(identity: str | None) -> dict:
    raise IllegalAction(WHY)


async def test_a_seated_player_whose_table_cannot_be_shown_lands_in_the_lobby_told_why() -> None:
    lobby = Lobby()
    table = lobby.create_table("id-ann", "ann", "highcard", 2)
    table.sit("id-bob", "bob")  # playing: ann connecting goes straight to it
    table.view_for = unreachable  # type: ignore[method-assign]
    async with session(lobby, "id-ann", "ann") as (app, pilot):
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert not any(isinstance(s, TableScreen) for s in app.screen_stack)
        assert "cannot be reached now" in screen_text(app)


async def test_opening_from_the_lobby_a_table_that_cannot_be_shown_says_why() -> None:
    lobby = Lobby()
    table = lobby.create_table("id-bob", "bob", "highcard", 2)
    table.view_for = unreachable  # type: ignore[method-assign]
    async with session(lobby, "id-ann", "ann") as (app, pilot):
        app.open_table(table)
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert "cannot be reached now" in screen_text(app)


async def test_a_table_that_became_unreachable_as_its_screen_opened_says_why() -> None:
    """Its first view came, then NATS went away before the screen subscribed to its views (a
    chaos run crashed the session there)."""
    lobby = Lobby()
    table = lobby.create_table("id-bob", "bob", "highcard", 2)

    def subscribe(identity: str | None, callback: object) -> None:
        raise IllegalAction(WHY)

    table.subscribe = subscribe  # type: ignore[assignment,method-assign]
    async with session(lobby, "id-ann", "ann") as (app, pilot):
        app.open_table(table)
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert "cannot be reached now" in screen_text(app)


async def test_an_answer_that_comes_after_the_session_ended_is_dropped() -> None:
    """Another node's answer to a key may come seconds after the player left: by then the
    server has taken the app apart (server/hosting/dismantle.py clears it); the answer must not run."""
    lobby = Lobby()
    heard: list[str | None] = []
    async with session(lobby, "id-ann", "ann") as (app, pilot):
        answer = app.now_or_soon_here(heard.append)
        answer("while here")
        await pilot.pause()
    vars(app).clear()  # taken apart: only what dismantle leaves of a pump
    vars(app).update(TOMBSTONE)
    answer("too late")
    await asyncio.sleep(0.05)  # (it would run soon, in the app's context)
    assert heard == ["while here"]
