"""The lobby screen: listing tables and people, creating, sitting, watching, chatting."""

from __future__ import annotations

import re
import types

import pytest

from harena.core.lobby import Lobby
from harena.tui.screens.create_table import CreateTableScreen
from harena.tui.screens.help import HelpScreen
from harena.tui.screens.lobby import LobbyScreen
from harena.tui.screens.table import TableScreen
from harena.tui.widgets.status_line import StatusLine
from tests.tui.harness import screen_text, session, until


async def test_the_lobby_lists_tables_and_who_is_online() -> None:
    lobby = Lobby()
    lobby.connect("id-bob", "bob")
    lobby.create_table("id-bob", "bob", "highcard", 3, bots=1)
    async with session(lobby, "id-alice", "alice") as (app, _pilot):
        assert isinstance(app.screen, LobbyScreen)
        text = screen_text(app)
        assert "#1" in text and "High Card" in text and "waiting" in text
        assert "2/3 seated" in text and "bob, bot, -" in text
        assert "Online (2)" in text and "alice" in text
        # A table created elsewhere appears without a key press.
        lobby.create_table("id-bob", "bob", "highcard", 2)
        await until(lambda: "#2" in screen_text(app))


async def test_a_table_line_too_long_for_80_columns_ends_in_an_ellipsis() -> None:
    """A watched table's line is longer than the list at 80x24: it ends in "…", not in
    "1 watchi" (the screen audit, issue 36)."""
    lobby = Lobby()
    table = lobby.create_table("id-bob", "bob", "carthage", 2, bots=1)
    table.watch("id-sue", "sue")
    async with session(lobby, "id-alice", "alice") as (app, _pilot):
        (line,) = [row for row in screen_text(app).splitlines() if "#1" in row]
        assert line.rstrip().endswith("1 watch…"), line


async def test_creating_a_table_with_bots_through_the_modal_lands_on_the_table() -> None:
    lobby = Lobby()
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        await pilot.press("n")
        assert isinstance(app.screen, CreateTableScreen)
        # Game (High Card is after Carthage), Players, Rounds, Bots, Bot kind: three players,
        # two bots.
        await pilot.press("right", "down", "right", "down", "down", "right", "right", "enter")
        assert isinstance(app.screen, TableScreen)
        table = app.screen.table
        assert [s.bot for s in table.seats] == [None, "random", "random"]
        assert table.seat_of("id-alice") == 0
        text = screen_text(app)
        assert "you: alice" in text and "random bot" in text and "bot" in text
        assert "Round 1: play a card face down" in text


async def test_escape_cancels_the_create_modal() -> None:
    lobby = Lobby()
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        await pilot.press("n", "escape")
        assert isinstance(app.screen, LobbyScreen)
        assert lobby.tables == {}


async def test_the_create_modal_is_one_screen_per_app_and_opens_fresh_each_time() -> None:
    # One dialog per app, shown again (bench/hostile.py --scenario flood): every open must
    # still look and act like a new one.
    lobby = Lobby()
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        await pilot.press("n")
        first = app.screen
        default = screen_text(app)
        await pilot.press("right", "down", "right")  # another game, another player count
        assert screen_text(app) != default
        await pilot.press("escape", "n")
        assert app.screen is first
        assert screen_text(app) == default
        await pilot.press("right", "enter")  # High Card for two, made by the reused dialog
        assert isinstance(app.screen, TableScreen)
        assert app.screen.table.game.config.game == "highcard" and len(app.screen.table.seats) == 2


async def test_a_second_app_takes_the_free_seat_from_the_lobby() -> None:
    lobby = Lobby()
    async with session(lobby, "id-alice", "alice") as (alice, apilot):
        await apilot.press("n", "right", "enter")  # High Card for two, no bots
        assert isinstance(alice.screen, TableScreen)
        table = alice.screen.table
        async with session(lobby, "id-bob", "bob") as (bob, bpilot):
            assert "1/2 seated" in screen_text(bob)
            await bpilot.press("enter")
            assert isinstance(bob.screen, TableScreen)
            assert table.seat_of("id-bob") == 1 and table.status == "playing"
            await until(lambda: "bob" in screen_text(alice) and "playing" in screen_text(alice))


async def test_no_free_seat_is_said_clearly() -> None:
    lobby = Lobby()
    lobby.connect("id-bob", "bob")
    lobby.create_table("id-bob", "bob", "highcard", 2, bots=1)
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        await pilot.press("enter")
        assert isinstance(app.screen, LobbyScreen)
        assert (
            app.screen.query_one(StatusLine).text
            == "Error: no free seat at this table; press w to watch it"
        )
        assert "Error: no free seat at this table; press w to watch it" in screen_text(app)


async def test_lobby_chat_reaches_the_other_app() -> None:
    lobby = Lobby()
    async with session(lobby, "id-alice", "alice") as (alice, apilot):
        async with session(lobby, "id-bob", "bob") as (bob, _bpilot):
            await apilot.press("c", *"hi bob", "enter", "escape")
            await until(lambda: "alice: hi bob" in screen_text(bob))
            # Keys work again once the input is left: q asks to quit.
            await apilot.press("q")
            assert "Quit harena?" in screen_text(alice)
            await apilot.press("n")
            assert isinstance(alice.screen, LobbyScreen)


async def test_one_yes_no_screen_per_app_asks_each_question_in_its_own_words() -> None:
    lobby = Lobby()
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        await pilot.press("n", "right", "enter")  # High Card for two: alice is seated
        assert isinstance(app.screen, TableScreen)
        await pilot.press("l")
        asked = app.screen
        assert "Leave your seat?" in screen_text(app)
        await pilot.press("n", "escape")  # kept the seat, back to the lobby
        assert isinstance(app.screen, LobbyScreen)
        await pilot.press("q")
        assert app.screen is asked
        text = screen_text(app)
        assert "Quit harena?" in text and "Leave your seat?" not in text
        await pilot.press("n")
        assert isinstance(app.screen, LobbyScreen) and app.is_running


async def test_chat_text_is_never_read_as_markup() -> None:
    lobby = Lobby()
    lobby.say("id-bob", "bob", "[@click=app.quit]free gold[/] [b]x")
    async with session(lobby, "id-alice", "alice") as (app, _pilot):
        assert "bob: [@click=app.quit]free gold[/] [b]x" in screen_text(app)


async def test_question_mark_opens_help_listing_the_lobby_keys() -> None:
    lobby = Lobby()
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = screen_text(app)
        for key, what in [
            ("↑↓", "select a table"),
            ("Enter", "free seat"),
            ("w", "watch"),
            ("n", "create a table"),
            ("c", "chat"),
            ("q", "quit"),
        ]:
            assert any(key in line and what in line for line in text.splitlines()), (key, what)
        await pilot.press("escape")
        assert isinstance(app.screen, LobbyScreen)


async def test_quit_asks_first_and_then_exits() -> None:
    lobby = Lobby()
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        await pilot.press("q", "y")
        await until(lambda: not app.is_running)


def test_table_screens_open_a_burst_at_once_then_one_per_gap() -> None:
    from harena.tui.table_pace import BURST, GAP, JITTER, TablePace

    now = [0.0]
    pace = TablePace(clock=lambda: now[0], rand=lambda: 0.5)
    for _ in range(BURST):
        assert pace.wait() == 0
        pace.take()
    assert pace.wait() == GAP
    assert pace.delay() == GAP + 0.5 * JITTER * GAP  # waiting sessions spread out
    now[0] += GAP / 2
    assert pace.wait() == GAP / 2
    now[0] += GAP / 2
    assert pace.wait() == 0


def test_table_screens_of_every_app_take_build_slots_in_turn() -> None:
    from harena.tui.table_pace import BuildSlots

    now = [0.0]
    slots = BuildSlots(slot=0.06, clock=lambda: now[0], rand=lambda: 0.5)
    assert slots.take()
    for _ in range(100):  # asked again and again while taken: nothing is booked ahead
        assert not slots.take()
    assert slots.retry() == pytest.approx(0.06 + 0.5 * 0.06)  # waiting apps spread out
    now[0] += 0.06
    assert slots.take()
    slots.claim()  # a build that cannot wait (a session's first screen) takes the next slot
    now[0] += 0.06
    assert not slots.take()
    now[0] += 0.06
    assert slots.take()


async def test_two_players_opening_tables_at_once_have_them_built_one_after_the_other(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # bench/hostile.py --scenario flood (w Esc): eight clients each within their own pace still
    # built their table screens in the same loop turns, and every other player waited for all.
    from harena.tui.table_pace import BUILDS

    monkeypatch.setattr(BUILDS, "slot", 0.5)
    lobby = Lobby()
    lobby.connect("id-bob", "bob")
    lobby.create_table("id-bob", "bob", "highcard", 2)
    async with (
        session(lobby, "id-alice", "alice") as (alice, alice_keys),
        session(lobby, "id-carol", "carol") as (carol, carol_keys),
    ):
        monkeypatch.setattr(BUILDS, "_free_at", 0.0)  # whatever an earlier test built is done
        await alice_keys.press("w")
        await carol_keys.press("w")
        assert isinstance(alice.screen, TableScreen)
        assert isinstance(carol.screen, LobbyScreen)  # the slot is alice's: carol's waits
        await until(lambda: isinstance(carol.screen, TableScreen), timeout=5.0)
        assert "Opening table" not in screen_text(carol)


async def test_watching_and_leaving_faster_than_the_pace_waits_its_turn_and_then_opens() -> None:
    # bench/hostile.py --scenario flood (w Esc): a table screen is the biggest thing a session
    # builds; past the burst an open waits, said in the lobby, and is not lost.
    from harena.tui.table_pace import BURST

    lobby = Lobby()
    lobby.connect("id-bob", "bob")
    lobby.create_table("id-bob", "bob", "highcard", 2)
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        for _ in range(BURST):
            await pilot.press("w")
            assert isinstance(app.screen, TableScreen)
            await pilot.press("escape")
            assert isinstance(app.screen, LobbyScreen)
        await pilot.press("w")
        assert isinstance(app.screen, LobbyScreen)
        assert "Opening table #1 ..." in screen_text(app)
        await pilot.press("w")  # asked again while waiting: the newer open takes its place
        assert isinstance(app.screen, LobbyScreen)
        await until(lambda: isinstance(app.screen, TableScreen), timeout=5.0)
        await pilot.press("escape")
        assert isinstance(app.screen, LobbyScreen) and "Opening table" not in screen_text(app)
        assert sum(isinstance(s, TableScreen) for s in app.screen_stack) == 0  # opened once


def module_of(thing: object) -> str:
    """The module that made `thing`: a function's own, an instance's class's."""
    return thing.__module__ if isinstance(thing, types.FunctionType) else type(thing).__module__


async def test_opens_waiting_their_turn_leave_no_reference_cycle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # bench/hostile.py --scenario flood (w Esc): each open waiting for a build slot was a closure
    # that set its own timer, so held itself: most of the cyclic garbage under the flood, and
    # frozen by a collection while it waited (then only a deep collection freed it).
    import time

    from harena.tui.table_pace import BUILDS
    from tests.server.leaks import garbage_made

    lobby = Lobby()
    lobby.connect("id-bob", "bob")
    lobby.create_table("id-bob", "bob", "highcard", 2)
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        with garbage_made(lambda obj: module_of(obj).startswith("harena.")) as ours:
            monkeypatch.setattr(BUILDS, "_free_at", time.monotonic() + 60.0)  # another build has it
            for _ in range(5):  # each open cancels the one waiting before it
                await pilot.press("w")
                assert isinstance(app.screen, LobbyScreen)
            await pilot.pause(0.05)
        assert ours == []
        BUILDS._free_at = 0.0  # the slot is free: an open now comes at once
        await pilot.press("w")
        assert isinstance(app.screen, TableScreen)


async def test_a_table_screen_takes_no_key_before_it_has_its_view() -> None:
    # Esc a moment after `w` reached the screen before it was composed and crashed the app
    # (bench/hostile.py --scenario flood, w Esc): KeyError 'table' in action_lobby.
    lobby = Lobby()
    lobby.connect("id-bob", "bob")
    table = lobby.create_table("id-bob", "bob", "highcard", 2)
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        early = TableScreen(table)
        assert early.check_action("lobby", ()) is False and early.check_action("rules", ()) is False
        await pilot.press("w")
        assert isinstance(app.screen, TableScreen)
        assert app.screen.check_action("lobby", ()) is True


async def test_help_lists_the_ssh_commands_as_this_player_types_them() -> None:
    lobby = Lobby()
    ssh = "ssh -p 2022 play.example.org"  # how the server says this player reaches it
    async with session(lobby, "id-alice", "alice", ssh=ssh) as (app, pilot):
        await pilot.press("question_mark", "end")
        seen = []
        for _ in range(12):  # the commands end the help: read them from its end upwards
            seen.append(screen_text(app))
            await pilot.press("up")
        text = "\n".join(seen)
        for usage in ("table N:", "play GAME:", "status:", "ratings [GAME]:", "rename NAME:"):
            assert re.search(rf"ssh +-p 2022 play\.example\.org {re.escape(usage)}", text), usage
        assert "HOST" not in text
        # none of them says `user@`: the key names the player (issue 36)
        assert "Your name is your key's" in " ".join(text.split())


async def test_help_lists_no_ssh_commands_where_there_is_no_server() -> None:
    lobby = Lobby()
    async with session(lobby, "id-alice", "alice") as (app, pilot):  # local play: no ssh
        await pilot.press("question_mark", "end")
        text = screen_text(app)
        assert "ctrl+q" in text and "status:" not in text and "ssh" not in text
