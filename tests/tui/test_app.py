"""HarenaApp as a whole: where it starts, subscriptions, terminal size, quiet screens."""

from __future__ import annotations

import asyncio

import pytest
from textual import events
from textual._context import active_app
from textual.widgets import Input

from harena.core.lobby import Lobby
from harena.tui.app import HarenaApp
from harena.tui.screens.lobby import LobbyScreen
from harena.tui.screens.table import TableScreen
from harena.tui.screens.take_over import TakeOverScreen
from harena.tui.screens.too_small import MIN_SIZE, TooSmallScreen
from harena.tui.widgets.status_line import StatusLine
from tests.tui.harness import screen_text, session, until


async def test_reconnecting_opens_straight_on_the_held_seat() -> None:
    lobby = Lobby()
    table = lobby.create_table("id-alice", "alice", "highcard", 2)
    table.sit("id-bob", "bob")
    table.act("id-alice", table.game.view(0)["prompts"][0]["choices"][0][0])
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        assert isinstance(app.screen, TableScreen) and app.screen.table is table
        text = screen_text(app)
        assert "you: alice" in text and "you play" in text  # the current view, mid-game
        await pilot.press("escape")
        assert isinstance(app.screen, LobbyScreen)


async def test_start_table_opens_that_table_and_a_missing_one_is_reported() -> None:
    lobby = Lobby()
    table = lobby.create_table("id-bob", "bob", "highcard", 2)
    async with session(lobby, "id-carol", "carol", start_table=table.id) as (app, _pilot):
        assert isinstance(app.screen, TableScreen)
        assert "watching" in screen_text(app)
    async with session(lobby, "id-carol", "carol", start_table="99") as (app, _pilot):
        assert isinstance(app.screen, LobbyScreen)
        assert app.screen.query_one(StatusLine).text == "Error: there is no table 99"


async def test_the_same_key_connected_twice_may_take_over() -> None:
    lobby = Lobby()
    lobby.connect("id-alice", "alice")  # the other session
    taken: list[bool] = []
    async with session(lobby, "id-alice", "alice", take_over=lambda: taken.append(True)) as (
        app,
        pilot,
    ):
        assert isinstance(app.screen, TakeOverScreen)
        text = screen_text(app)
        assert "connected in another session" in text and "same seat" in text
        await pilot.press("t")
        assert taken == [True]
        assert isinstance(app.screen, LobbyScreen)


async def test_without_a_take_over_hook_the_notice_only_informs() -> None:
    lobby = Lobby()
    lobby.connect("id-alice", "alice")
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        assert "take over here" not in screen_text(app)
        await pilot.press("t")
        assert isinstance(app.screen, TakeOverScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, LobbyScreen)


async def test_closing_an_app_leaves_no_subscription_behind() -> None:
    lobby = Lobby()
    table = lobby.create_table("id-bob", "bob", "highcard", 2)
    lobby_before, table_before = lobby.subscriber_count, table.subscriber_count
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        assert lobby.subscriber_count == lobby_before + 1
        await pilot.press("enter")  # sit: the table screen listens to the table, not the lobby
        assert table.subscriber_count == table_before + 1
        assert lobby.subscriber_count == lobby_before
        await pilot.press("question_mark")  # still listening under a modal
        assert table.subscriber_count == table_before + 1
        await pilot.press("escape", "escape")
        assert isinstance(app.screen, LobbyScreen)
        assert table.subscriber_count == table_before and lobby.subscriber_count == lobby_before + 1
        await pilot.press("enter", "question_mark")  # exit from deep inside
    assert (lobby.subscriber_count, table.subscriber_count) == (lobby_before, table_before)
    assert len(app.subscriptions) == 0


async def test_close_subscriptions_closes_everything_at_once() -> None:
    lobby = Lobby()
    table = lobby.create_table("id-bob", "bob", "highcard", 2)
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        await pilot.press("w")
        assert table.subscriber_count == 1
        app.close_subscriptions()
        assert table.subscriber_count == 0 and lobby.subscriber_count == 0


async def test_views_arrive_in_the_receiving_apps_own_context(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[tuple[object, object]] = []
    original = TableScreen.show

    def record(self: TableScreen, view: dict) -> None:
        seen.append((self.app, active_app.get()))
        original(self, view)

    monkeypatch.setattr(TableScreen, "show", record)
    lobby = Lobby()
    table = lobby.create_table("id-alice", "alice", "highcard", 2)
    table.sit("id-bob", "bob")
    async with session(lobby, "id-alice", "alice") as (_alice, apilot):
        async with session(lobby, "id-bob", "bob") as (bob, _bpilot):
            await apilot.press("1")  # alice's app changes the table; bob's app hears it
            await until(lambda: sum(owner is bob for owner, _ in seen) >= 2)  # mount, then the move
    assert seen and all(owner is current for owner, current in seen)


async def test_a_view_for_a_screen_that_crashes_on_it_ends_that_app_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A view is shown outside Textual's message dispatch: an error in showing it is still
    the app's to handle, as an error in a message handler would be."""
    lobby = Lobby()
    table = lobby.create_table("id-alice", "alice", "highcard", 2)
    table.sit("id-bob", "bob")
    async with session(lobby, "id-alice", "alice") as (alice, apilot):
        with pytest.raises(RuntimeError, match="drawing failed"):  # Pilot re-raises it at exit
            async with session(lobby, "id-bob", "bob") as (bob, _bpilot):
                await until(
                    lambda: (
                        isinstance(bob.screen, TableScreen)
                        and isinstance(alice.screen, TableScreen)
                    )
                )

                def crash(view: dict) -> None:
                    raise RuntimeError("drawing failed")

                monkeypatch.setattr(bob.screen, "show", crash)
                await apilot.press("1")
                await until(lambda: bob._exception is not None)
        assert alice._exception is None and isinstance(alice.screen, TableScreen)
        await apilot.press("c")  # alice's app still answers
        await until(lambda: alice.focused is not None and "Input" in type(alice.focused).__name__)


async def test_a_small_terminal_shows_only_the_enlarge_message_until_resized() -> None:
    assert MIN_SIZE == (80, 24)
    lobby = Lobby()
    lobby.create_table("id-alice", "alice", "highcard", 2)
    async with session(lobby, "id-alice", "alice", size=(60, 20)) as (app, pilot):
        assert isinstance(app.screen, TooSmallScreen)

        def shown() -> list[tuple[int, str]]:
            return [
                (row, line)
                for row, line in enumerate(screen_text(app).splitlines())
                if line.strip()
            ]

        [(row, line)] = shown()
        assert line.strip() == "Please enlarge your terminal to at least 80x24 (now 60x20)"
        assert 5 <= row <= 14
        await pilot.resize_terminal(100, 23)
        await until(lambda: "(now 100x23)" in screen_text(app))
        await pilot.resize_terminal(80, 24)
        await until(lambda: isinstance(app.screen, TableScreen))
        await until(
            lambda: "you: alice" in screen_text(app) and "Please enlarge" not in screen_text(app)
        )
        assert len(screen_text(app).splitlines()) == 24


async def test_nothing_repaints_on_its_own() -> None:
    lobby = Lobby()
    lobby.create_table("id-alice", "alice", "highcard", 2)
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        assert app.animation_level == "none" and not app.ENABLE_COMMAND_PALETTE
        await pilot.press("c")  # a focused input is where a blinking cursor would repaint
        assert all(not i.cursor_blink for i in app.screen.query(Input))
        await pilot.pause()
        paints = 0
        display = app._display

        def counting(screen: object, renderable: object) -> None:
            nonlocal paints
            paints += renderable is not None
            display(screen, renderable)

        app._display = counting
        await asyncio.sleep(1.2)
        assert paints == 0


async def test_the_app_never_acts_on_the_server_machine(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = HarenaApp(Lobby(), "id-alice", "alice")
    app.open_url("https://example.com")
    assert app.save_screenshot() == ""
    assert app.deliver_screenshot() is None
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("turns", [0, 2, 5, 20])
async def test_a_session_ending_while_a_table_opens_ends_cleanly(turns: int) -> None:
    """A client that presses `w` and drops at once: the app exits mid-mount without a crash."""
    lobby = Lobby()
    table = lobby.create_table("id-bob", "bob", "highcard", 2)
    app = HarenaApp(lobby, "id-alice", "alice")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.post_message(events.Key("w", "w"))
        for _ in range(turns):  # stop at various points of pushing the table screen
            await asyncio.sleep(0)
        app.exit()
    assert app._exception is None
    assert (lobby.subscriber_count, table.subscriber_count) == (0, 0)


async def test_a_turn_heard_as_the_session_ends_is_dropped_quietly() -> None:
    """A table's "your turn" may reach the loop after the player's app has left (the chaos
    test's "No screens on stack" in HarenaApp._turn_changed): it is dropped, nothing raised."""
    lobby = Lobby()
    table = lobby.create_table("id-ann", "ann", "highcard", 2)
    errors: list[dict[str, object]] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _loop, context: errors.append(context))
    try:
        async with session(lobby, "id-ann", "ann", start_table=table.id) as (app, _pilot):
            relay = app._turn_relay()
        relay(table.id, True)  # the app has exited: its screens are gone
        await asyncio.sleep(0.01)
    finally:
        loop.set_exception_handler(None)
    assert errors == []
