"""The Carthage table screen with real apps: the lobby, two players at one table, a spectator,
the help, and the end of a game."""

from __future__ import annotations

from harena.core.carthage.hexgrid import Hex, hex_name
from harena.core.lobby import Lobby
from harena.core.table import Table
from harena.tui.boards.carthage.board import CarthageBoard
from harena.tui.screens.create_table import CreateTableScreen
from harena.tui.screens.help import HelpScreen
from harena.tui.screens.lobby import LobbyScreen
from harena.tui.widgets.game_over import GameOverPanel
from harena.tui.widgets.lines_panel import LogPanel
from tests.tui.carthage.helpers import (
    board,
    move_cursor,
    prompt_bar,
    status,
    table_screen,
    until_prompt,
)
from tests.tui.harness import screen_text, session, until


def log_text(app) -> str:
    return "\n".join(table_screen(app).query_one(LogPanel).lines)


def hand_names(table: Table, identity: str) -> list[str]:
    from harena.tui.boards.carthage import catalog

    return [
        catalog.card(card).name for _, card in table.view_for(identity)["game"]["board"]["hand"]
    ]


async def test_a_carthage_table_is_created_in_the_lobby_with_a_bot() -> None:
    lobby = Lobby()
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        await pilot.press("n")
        assert isinstance(app.screen, CreateTableScreen)
        for _ in range(len(lobby.tables) + 5):
            if "Carthage" in screen_text(app):
                break
            await pilot.press("right")
        assert "Arena tokens" in screen_text(app)
        for _ in range(30):  # down to the Bots field, then one bot
            if "> Bots" in screen_text(app):
                break
            await pilot.press("down")
        await pilot.press("right", "enter")
        table = table_screen(app).table
        assert table.summary()["game"] == "carthage" and table.seats[1].bot is not None
        assert table_screen(app).query_one(CarthageBoard)
        # Setup 2: the gladiators are chosen first, with the number keys (no bot runner here:
        # the test moves the bot when it starts).
        for seat in table.bots_to_move():
            table.play_bot(seat)
        await until_prompt(app)
        if table.view_for("id-alice")["game"]["prompts"][0]["kind"] == "choose_gladiator":
            name = prompt_bar(app).choices[0][1].split(":")[0]  # "Red Dimachaerus"
            assert f"1  {name}" in screen_text(app)
            await pilot.press("1")
            await until(lambda: f"you: {name[0]} {name} (alice)" in screen_text(app))


async def test_two_players_see_their_own_hands_and_each_others_moves() -> None:
    lobby = Lobby(new_seed=lambda: 5)
    table = lobby.create_table("id-alice", "alice", "carthage", 2, {"gladiators": "by_seat"})
    table.sit("id-bob", "bob")
    async with session(lobby, "id-alice", "alice") as (alice, apilot):
        async with session(lobby, "id-bob", "bob") as (bob, bpilot):
            first, pilot = (
                (alice, apilot) if table.view_for("id-alice")["game"]["prompts"] else (bob, bpilot)
            )
            second, spilot = (bob, bpilot) if first is alice else (alice, apilot)
            await until_prompt(first, "place_gladiator")
            target = board(first).cursor
            await pilot.press("enter")
            # The other screen shows the gladiator enter, without a key press.
            where = hex_name(Hex(*target), Hex(0, 0))  # as the arena and the prompt name it
            await until(lambda: f"enters the arena at {where}" in log_text(second))
            await until_prompt(second, "place_gladiator")
            await spilot.press("enter")
            await until_prompt(first)
            for app, identity, other in (
                (alice, "id-alice", "id-bob"),
                (bob, "id-bob", "id-alice"),
            ):
                await until(
                    lambda app=app: "(no cards in hand)" not in board(app).query_one("#hand").text
                )
                hand = board(app).query_one("#hand").text
                assert all(name in hand for name in hand_names(table, identity))
                # Class cards differ (Trident Thrust is Blue's, Twin Cut Red's): never the other's.
                for name in set(hand_names(table, other)) - set(hand_names(table, identity)):
                    assert name not in hand
            # A move by one appears on the other's screen.
            mover = alice if table.view_for("id-alice")["game"]["prompts"] else bob
            watcher = bob if mover is alice else alice
            label = prompt_bar(mover).choices[0][1].split(":")[0]
            await (apilot if mover is alice else bpilot).press("1")
            await until(lambda: f"plays {label}" in log_text(watcher))


async def test_a_spectator_sees_no_hand_and_cannot_play() -> None:
    lobby = Lobby(new_seed=lambda: 5)
    table = lobby.create_table("id-alice", "alice", "carthage", 2, bots=1)
    async with session(lobby, "id-carol", "carol", start_table=table.id) as (app, pilot):
        text = screen_text(app)
        assert "watching" in text and "(watching: no hand)" in text
        await pilot.press("e")
        assert status(app) == "Error: no move or knockback to direct now"
        await move_cursor(pilot, app, (1, 0))
        assert status(app).startswith("1 E of the centre (Inner Circle)")


async def test_help_lists_the_carthage_keys_and_symbols() -> None:
    lobby = Lobby(new_seed=lambda: 5)
    lobby.create_table("id-alice", "alice", "carthage", 2, bots=1)
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.text
        for needle in (
            "w e a d z x",
            "step",
            "↑ ↓ ← →",
            "cursor",
            "Enter",
            "★ Favor +X",
            "( ) face down",
        ):
            assert needle in text
        await pilot.press("escape")
        assert table_screen(app)


async def test_the_game_ends_with_the_winner_and_goes_back_to_the_lobby() -> None:
    lobby = Lobby(new_seed=lambda: 3)
    table = lobby.create_table("id-alice", "alice", "carthage", 2, {"sudden_death": "10"}, bots=1)
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        for _ in range(5000):
            if table.game.result() is not None:
                break
            for seat in table.bots_to_move():
                table.play_bot(seat)
            prompts = table.view_for("id-alice")["game"]["prompts"]
            if prompts:
                table.act("id-alice", prompts[0]["choices"][-1][0])
        assert table.game.result() is not None
        await until(lambda: table_screen(app).query(GameOverPanel))  # made as the game ends
        over = table_screen(app).query_one(GameOverPanel)
        await until(lambda: over.display and "Winner:" in over.text)
        assert "last gladiator standing" in over.text and "Final: " in over.text
        await pilot.pause()
        assert "GAME OVER" in screen_text(app)
        await pilot.press("enter")
        assert isinstance(app.screen, LobbyScreen)


async def test_the_board_mounts_even_when_the_app_exits_under_it() -> None:
    """A session that ends while its Carthage table screen is mounting (a client that connects
    into its seat and leaves at once) had the board's mount handler look up its arena after the
    exit had removed it: NoMatches, logged as a crash. The board now needs no child to mount."""
    lobby = Lobby()
    table = lobby.create_table("id-alice", "alice", "carthage", 2)
    table.sit("id-bob", "bob")
    async with session(lobby, "id-alice", "alice") as (app, _pilot):
        await until(
            lambda: (
                isinstance(app.screen, type(table_screen(app)))
                and bool(app.screen.query(CarthageBoard))
            )
        )
        the_board = board(app)
        await the_board.remove_children()  # as the exit does
        the_board.on_mount()  # raised NoMatches
