"""The generic table screen, played by two apps at once on the High Card fixture game."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from textual import events

from harena.core.lobby import MOVED, Lobby
from harena.core.table import Table
from harena.server.runners.bot_runner import BotRunner
from harena.tui.app import HarenaApp
from harena.tui.screens import table as table_screen_module
from harena.tui.screens.help import HelpScreen
from harena.tui.screens.lobby import LobbyScreen
from harena.tui.screens.table import TableScreen
from harena.tui.widgets.chat import ChatInput
from harena.tui.widgets.game_over import GameOverPanel
from harena.tui.widgets.lines_panel import LogPanel
from harena.tui.widgets.prompt_bar import PromptBar
from harena.tui.widgets.status_line import StatusLine
from tests.tui import pick_game
from tests.tui.harness import driven_session, screen_text, session, until


def table_screen(app: HarenaApp) -> TableScreen:
    assert isinstance(app.screen, TableScreen), app.screen
    return app.screen


def log_lines(app: HarenaApp) -> list[str]:
    return table_screen(app).query_one(LogPanel).lines


def prompt_choices(app: HarenaApp) -> list[str]:
    return [cid for cid, _ in table_screen(app).query_one(PromptBar).choices]


def status(app: HarenaApp) -> str:
    return table_screen(app).query_one(StatusLine).text


@asynccontextmanager
async def two_players(
    rounds: str = "3",
) -> AsyncIterator[tuple[Table, HarenaApp, object, HarenaApp, object]]:
    """alice (seat 0, A) and bob (seat 1, B) at a High Card table, both on the table screen."""
    lobby = Lobby()
    table = lobby.create_table("id-alice", "alice", "highcard", 2, {"rounds": rounds})
    table.sit("id-bob", "bob")
    async with session(lobby, "id-alice", "alice") as (alice, apilot):
        async with session(lobby, "id-bob", "bob") as (bob, bpilot):
            table_screen(alice), table_screen(bob)
            yield table, alice, apilot, bob, bpilot


async def test_a_number_key_plays_and_the_other_screen_shows_it_without_the_card() -> None:
    async with two_players() as (table, alice, apilot, bob, _bpilot):
        card = table.game.state.hands[0][0]  # the test may read the game; the UI never does
        await apilot.press("1")
        assert status(alice) == f"You chose: play {card}"
        assert table.game.state.played[0] == card
        await until(lambda: "seat 0 plays a card" in screen_text(bob))
        assert log_lines(bob) == [
            "seat 0 drew 3 cards",
            f"you drew {table.game.state.hands[1]}",
            "seat 0 plays a card",
        ]
        assert f"play {card} face down" not in screen_text(bob)
        await until(lambda: f"you play {card} face down" in log_lines(alice))


async def test_clicking_a_choice_in_the_prompt_bar_picks_it() -> None:
    async with two_players() as (table, alice, apilot, _bob, _bpilot):
        second = sorted(set(table.game.state.hands[0]))[1]  # the test may read the game
        await apilot.click(PromptBar, offset=(6, 0))  # the title line is not a choice
        assert table.game.state.played[0] is None
        await apilot.click(PromptBar, offset=(6, 2))  # row 2 of the bar: choice 2
        assert status(alice) == f"You chose: play {second}"
        assert table.game.state.played[0] == second


async def test_a_seat_never_sees_another_seats_hand() -> None:
    async with two_players() as (table, alice, _apilot, bob, _bpilot):
        hands = table.game.state.hands
        alice_text, bob_text = screen_text(alice), screen_text(bob)
        assert f"you drew {hands[0]}" in alice_text and f"you drew {hands[1]}" not in alice_text
        assert f"you drew {hands[1]}" in bob_text and f"you drew {hands[0]}" not in bob_text
        assert "hand: " + ", ".join(map(str, hands[0])) in alice_text
        if hands[0] != hands[1]:
            assert "hand: " + ", ".join(map(str, hands[1])) not in alice_text
        # Bob's choices name only his own cards.
        assert [label for _, label in table_screen(bob).query_one(PromptBar).choices] == [
            f"play {c}" for c in sorted(set(hands[1]))
        ]


async def test_a_spectator_sees_no_hand_and_no_prompt() -> None:
    async with two_players() as (table, alice, _apilot, _bob, _bpilot):
        async with session(alice.lobby, "id-carol", "carol") as (carol, cpilot):
            await cpilot.press("w")
            screen = table_screen(carol)
            text = screen_text(carol)
            assert "watching" in text and "Watching as a spectator" in text
            assert "hand: -" in text and "you drew" not in text
            assert screen.query_one(PromptBar).choices == []
            await cpilot.press("1")
            assert status(carol) == "Error: you are watching: spectators do not play"
            assert table.game.version == 0
            await until(lambda: "carol" in table.summary()["spectators"])
            await cpilot.press("escape")  # a spectator going back stops watching
            assert isinstance(carol.screen, LobbyScreen)
            assert table.summary()["spectators"] == []


async def test_table_chat_from_one_app_appears_on_the_other() -> None:
    async with two_players() as (table, alice, _apilot, _bob, bpilot):
        await bpilot.press("c", *"good luck", "enter")
        await until(lambda: "bob: good luck" in screen_text(alice))
        # While typing, digits are text, not moves.
        await bpilot.press("1", "escape")
        assert table.game.version == 0
        await bpilot.press("1")
        assert table.game.version == 1


async def test_leaving_a_seat_frees_it() -> None:
    async with two_players() as (table, alice, _apilot, bob, bpilot):
        await bpilot.press("l")
        assert "Leave your seat?" in screen_text(bob)
        await bpilot.press("y")
        assert isinstance(bob.screen, LobbyScreen)
        assert table.seat_of("id-bob") is None and table.seats[1].free
        await until(
            lambda: "bob" not in screen_text(alice).split("Log")[0] and "free" in screen_text(alice)
        )


async def test_escape_goes_back_to_the_lobby_keeping_the_seat() -> None:
    async with two_players() as (table, _alice, _apilot, bob, bpilot):
        await bpilot.press("escape")
        assert isinstance(bob.screen, LobbyScreen)
        assert table.seat_of("id-bob") == 1
        await bpilot.press("enter")  # back to the seat
        assert table_screen(bob).table is table


async def test_an_illegal_or_stale_action_shows_a_message_and_changes_nothing() -> None:
    lobby = Lobby()
    table = lobby.create_table("id-alice", "alice", "highcard", 2)
    async with session(lobby, "id-alice", "alice") as (alice, pilot):
        # Nobody else has sat down yet: the bar offers no keys that could only be refused.
        assert "Waiting for players: 1 free seat" in screen_text(alice)
        assert not alice.screen.query_one(PromptBar).choices
        await pilot.press("1")
        assert status(alice) == "Error: the game starts when every seat is taken (1 free)"
        assert table.game.version == 0
        table.sit("id-bob", "bob")
        await until(lambda: "playing" in screen_text(alice))
        await pilot.press("9")
        assert status(alice) == "Error: there is no choice 9 on this page"
        # Alice's seat plays from elsewhere (her second session, say) while this screen still
        # shows the old decision: the key press must not answer the next prompt.
        screen = table_screen(alice)
        table.act("id-alice", screen.view["game"]["prompts"][0]["choices"][0][0])
        screen.action_prompt_choose(0)
        assert status(alice) == "Error: the game moved on since your screen was drawn; choose again"
        assert table.game.version == 1
        await pilot.pause()
        assert "Error: the game moved on" in screen_text(alice)


async def test_a_key_for_choices_just_replaced_under_the_player_is_refused_not_applied() -> None:
    # A key pressed for the old choices, still on its way, must not pick whatever now has its
    # number: for CHANGE_GUARD seconds after a replacement, number keys are refused.
    lobby = Lobby(new_seed=lambda: 3)
    table = lobby.create_table("id-alice", "alice", "highcard", 2)
    table.sit("id-bob", "bob")
    async with session(lobby, "id-alice", "alice") as (alice, pilot):
        await until(lambda: "playing" in screen_text(alice) and prompt_choices(alice))
        assert alice.screen.query_one(PromptBar).guarded() == 0  # choices appearing: no guard
        old = prompt_choices(alice)
        hand = table.game.state.hands[0]
        card = next(
            c for c in old if hand.count(int(c.removeprefix("card:"))) == 1
        )  # gone once played
        table.act("id-alice", card)  # her other session plays...
        table.act("id-bob", table.view_for("id-bob")["game"]["prompts"][0]["choices"][0][0])
        await until(
            lambda: bool(prompt_choices(alice)) and prompt_choices(alice) != old, timeout=10
        )
        version = table.game.version
        await pilot.press("1")  # ... while this screen still showed the old cards
        assert status(alice) == "Error: the choices just changed: read them, then press again"
        assert table.game.version == version
        await until(lambda: alice.screen.query_one(PromptBar).guarded() == 0)
        await pilot.press("1")
        assert table.game.version == version + 1
        assert status(alice).startswith("You chose")


async def test_question_mark_lists_every_key_of_the_table_screen() -> None:
    async with two_players() as (_table, alice, apilot, _bob, _bpilot):
        await apilot.press("question_mark")
        assert isinstance(alice.screen, HelpScreen)
        text = screen_text(alice)
        for key in ["1-9, 0", "[ / PgUp", "] / PgDn", "c ", "l ", "Esc", "?"]:
            assert key in text, key
        await apilot.press("end")  # the last lines, scrolled to
        text = screen_text(alice)
        for key in ["m ", "Enter", "ctrl+q"]:
            assert key in text, key
        await apilot.press("question_mark")
        table_screen(alice)


async def test_game_over_shows_the_winner_and_leads_back_to_the_lobby() -> None:
    async with two_players(rounds="1") as (table, alice, apilot, bob, bpilot):
        assert not table_screen(alice).query(GameOverPanel)  # made only when the game ends
        await apilot.press("1")
        await bpilot.press("1")
        result = table.game.result()
        assert result is not None
        letters = {0: "alice", 1: "bob"}
        expected = ", ".join(letters[w] for w in result.winners)
        for app in (alice, bob):
            await until(
                lambda app=app: any(p.display for p in table_screen(app).query(GameOverPanel))
            )
            text = screen_text(app)
            assert "GAME OVER" in text and expected in text and result.reason in text
            assert not table_screen(app).query_one(PromptBar).display
        await apilot.press("enter")
        assert isinstance(alice.screen, LobbyScreen)
        assert "No tables yet" in screen_text(alice)  # a finished game leaves the main list
        await apilot.press("f")
        await until(lambda: "finished" in screen_text(alice))
        assert "Finished tables" in screen_text(alice)


async def test_a_game_against_bots_is_played_to_the_end_with_keys_only() -> None:
    lobby = Lobby()
    runner = BotRunner(lobby, delay=0.01)
    try:
        async with session(lobby, "id-alice", "alice") as (app, pilot):
            # New table: High Card (after Carthage), 4 players, 3 random bots, 3 rounds.
            await pilot.press("n", "right", "down", "right", "right", "down", "down")
            await pilot.press("right", "right", "right", "enter")
            screen = table_screen(app)
            table = screen.table
            assert [s.bot for s in table.seats] == [None, "random", "random", "random"]
            presses = 0

            def over() -> bool:
                return screen.view["game"]["result"] is not None

            def my_turn() -> bool:
                # Prompts shown, and the screen already reflects every choice made so far.
                game = screen.view["game"]
                return bool(game["prompts"]) and game["decision"] == presses

            while not over():
                await until(lambda: over() or my_turn())
                if not over():
                    await pilot.press("1")
                    presses += 1
            assert presses == 3
            await until(lambda: any(p.display for p in screen.query(GameOverPanel)))
            assert table.status == "over"
            assert "Winner" in screen_text(app)
    finally:
        runner.close()


@pytest.fixture
def pick_one() -> object:
    pick_game.install()
    yield
    pick_game.uninstall()


async def test_more_than_ten_choices_are_paged(pick_one: object) -> None:
    lobby = Lobby()
    table = lobby.create_table("id-alice", "alice", "pickone", 1)
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        bar = table_screen(app).query_one(PromptBar)
        assert "page 1/3" in screen_text(app) and "item number 10" in screen_text(app)
        await pilot.press("]")
        assert "page 2/3" in screen_text(app) and "item number 11" in screen_text(app)
        await pilot.press("pagedown", "pagedown")
        assert bar.page == 2 and "page 3/3" in screen_text(app)
        await pilot.press("5")
        assert status(app) == "Error: there is no choice 5 on this page"
        await pilot.press("[", "0")  # the tenth choice of page 2
        assert table.game.state.picked == "item:20"
        await until(lambda: "picked item:20" in screen_text(app))


async def test_keys_typed_fast_around_the_chat_go_where_the_user_meant() -> None:
    """Over a slow link keys arrive in one packet: `c`, the text, Enter, Esc, then a move."""
    async with two_players() as (table, alice, _apilot, bob, _bpilot):
        keys = ["c", *"gl hf", "enter", "escape", "1"]
        for key in keys:
            character = {"enter": "\r", "escape": "\x1b"}.get(key, key)
            alice.post_message(events.Key(key, character))
        await until(lambda: table.game.version == 1)
        assert [(c.name, c.text) for c in table.chat] == [("alice", "gl hf")]
        await until(lambda: "alice: gl hf" in screen_text(bob))


async def test_esc_then_a_number_in_one_packet_leaves_the_chat_and_plays() -> None:
    """The same over the wire: "hi", Enter, Esc and 2 in one read. Textual alone parses the
    bytes Esc, 2 as the Option character "™" typed into the chat; the driver makes them Esc,
    then 2."""
    lobby = Lobby()
    table = lobby.create_table("id-alice", "alice", "highcard", 2, {"rounds": "3"})
    table.sit("id-bob", "bob")
    second = sorted(set(table.game.state.hands[0]))[1]  # the test may read the game
    async with driven_session(lobby, "id-alice", "alice") as (alice, driver):
        await until(lambda: isinstance(alice.screen, TableScreen))
        driver.feed(b"c")
        await until(lambda: isinstance(alice.focused, ChatInput))
        driver.feed(b"hi\r\x1b2")
        await until(lambda: table.game.version == 1)
        assert table.game.state.played[0] == second
        assert [(c.name, c.text) for c in table.chat] == [("alice", "hi")]
        assert alice.focused is None


async def test_a_table_moved_to_another_node_is_followed_in_place() -> None:
    """A cluster's node lets a table go to another node (docs/cluster.md): the screen shows the
    table again through what the lobby lists for it now, without a trip to the lobby."""
    async with two_players() as (table, alice, apilot, _bob, _bpilot):
        elsewhere = Table.rebuild(table.id, table.snapshot_data(), [])  # as the new owner has it
        alice.lobby.let_go(table.id, MOVED)
        alice.lobby.list_table(elsewhere)
        await until(lambda: "moved between nodes: play goes on" in status(alice))
        assert table_screen(alice).table is elsewhere
        card = elsewhere.game.state.hands[0][0]
        await apilot.press("1")  # played on the table as it is now
        assert elsewhere.game.state.played[0] == card


async def test_a_moved_table_never_listed_again_sends_the_screen_back_to_the_lobby(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(table_screen_module, "FOLLOW_TRIES", 2)
    async with two_players() as (table, alice, _apilot, _bob, _bpilot):
        alice.lobby.let_go(table.id, MOVED)
        await until(lambda: isinstance(alice.screen, LobbyScreen))
        await until(lambda: "was moved to another node" in screen_text(alice))
