"""Play across days in the TUI: tables waiting for you are marked and sorted first, the bell
rings and the title says so, y jumps to them; a stand-in is taken back with t; a finished game
replays from history; the leaderboard and the online list show ratings."""

from __future__ import annotations

from harena.core.clocks import ClockPolicy
from harena.core.lobby import Lobby
from harena.tui.screens.history import HistoryScreen
from harena.tui.screens.leaderboard import LeaderboardScreen
from harena.tui.screens.lobby import LobbyScreen
from harena.tui.screens.replay import ReplayScreen
from harena.tui.screens.table import TableScreen
from harena.tui.widgets.table_list import TableList
from tests.tui.harness import screen_text, session, until


def first_choice(table, seat: int) -> str:
    return table.game.prompts_for(seat)[0].choices[-1].id


async def test_a_table_waiting_for_you_is_marked_first_and_the_bell_rings_and_y_opens_it() -> None:
    lobby = Lobby()
    other = lobby.create_table("id-cat", "cat", "highcard", 2)  # waiting for a player: not ours
    async with session(lobby, "id-ann", "ann") as (app, pilot):
        table = lobby.create_table("id-bob", "bob", "highcard", 2)
        table.sit("id-ann", "ann")  # the game starts: both are awaited
        await until(lambda: app.bells == 1)
        await until(lambda: "your move: #2 (y)" in screen_text(app))
        listed = app.screen.query_one(TableList)
        assert listed.text.splitlines()[0].startswith(f"#{table.id}") and "YOU now" in listed.text
        assert f"#{other.id}" in listed.text.splitlines()[1]
        await pilot.press("y")
        assert isinstance(app.screen, TableScreen) and app.screen.table is table
        await pilot.press("1")  # ann decides: no longer awaited
        await until(lambda: "your move" not in screen_text(app))


async def test_the_bell_is_off_once_turned_off_and_the_header_says_so() -> None:
    lobby = Lobby()
    async with session(lobby, "id-ann", "ann") as (app, pilot):
        await pilot.press("b")
        assert "bell off" in screen_text(app)
        assert lobby.settings.get("id-ann", "bell") is False
        table = lobby.create_table("id-bob", "bob", "highcard", 2)
        table.sit("id-ann", "ann")
        await until(lambda: "your move" in screen_text(app))
        assert app.bells == 0


async def test_the_bell_rings_at_another_table_and_y_goes_there() -> None:
    lobby = Lobby()
    first = lobby.create_table("id-ann", "ann", "highcard", 2, bots=1)
    async with session(lobby, "id-ann", "ann") as (app, pilot):
        assert isinstance(app.screen, TableScreen) and app.screen.table is first
        second = lobby.create_table("id-bob", "bob", "highcard", 2)
        second.sit("id-ann", "ann")
        await until(lambda: app.bells >= 1 and f"your move: #{second.id} (y)" in screen_text(app))
        await pilot.press("y")
        await until(lambda: isinstance(app.screen, TableScreen) and app.screen.table is second)


async def test_no_bell_rings_for_the_table_on_screen_and_one_does_from_a_replay() -> None:
    lobby = Lobby()
    table = lobby.create_table("id-ann", "ann", "highcard", 3, {"rounds": "3"}, bots=1)
    table.sit("id-bob", "bob")
    async with session(lobby, "id-ann", "ann") as (app, pilot):
        assert isinstance(app.screen, TableScreen) and app.screen.table is table
        table.act("id-ann", first_choice(table, 0))
        table.play_bot(1)
        table.act("id-bob", first_choice(table, 2))  # round 2: ann's decision again
        await until(lambda: "Round 2" in screen_text(app))
        assert app.bells == 0
        await pilot.press("v")  # reviewing: the table is not on screen
        table.act("id-ann", first_choice(table, 0))
        table.play_bot(1)
        table.act("id-bob", first_choice(table, 2))
        await until(lambda: app.bells == 1)


async def test_a_player_a_bot_stands_in_for_sees_why_and_takes_the_seat_back_with_t() -> None:
    lobby = Lobby()
    table = lobby.create_table("id-ann", "ann", "highcard", 2, policy=ClockPolicy(per_decision=60))
    table.sit("id-bob", "bob")
    async with session(lobby, "id-ann", "ann") as (app, pilot):
        assert "your time: 60s" in screen_text(app) or "your time: 50s" in screen_text(app)
        table.expire(table.next_deadline())
        await until(
            lambda: (
                "A bot plays for you (your time ran out): t takes your seat back"
                in screen_text(app)
            )
        )
        assert "ann ran out of time" in screen_text(app)
        await pilot.press("t")
        await until(lambda: "takes their seat back" in screen_text(app))
        assert table.seats[0].stand_in is None
        assert "Round 1: play a card face down" in screen_text(app)


async def test_a_finished_game_opens_from_history_as_a_replay_and_steps_back_to_the_start() -> None:
    lobby = Lobby(new_seed=lambda: 1)  # a game with a winner (some seeds tie: no rating moves)
    table = lobby.create_table("id-ann", "ann", "highcard", 2, {"rounds": "1"})
    table.sit("id-bob", "bob")
    table.act("id-ann", first_choice(table, 0))
    table.act("id-bob", first_choice(table, 1))
    assert table.status == "over"
    async with session(lobby, "id-ann", "ann") as (app, pilot):
        if isinstance(app.screen, TableScreen):
            await pilot.press("escape")
        await pilot.press("h")
        assert isinstance(app.screen, HistoryScreen)
        assert "High Card" in screen_text(app) and "ann, bob" in screen_text(app)
        await pilot.press("enter")
        assert isinstance(app.screen, ReplayScreen)
        assert "move 2/2" in screen_text(app)
        assert "[bob] you drew" in screen_text(app)  # all revealed
        await pilot.press("home")
        assert "move 0/2" in screen_text(app)
        await pilot.press("right")
        assert "move 1/2" in screen_text(app) and "last: ann" in screen_text(app)
        await pilot.press("escape", "escape")
        assert isinstance(app.screen, LobbyScreen)
        await pilot.press("r")
        assert isinstance(app.screen, LeaderboardScreen)
        text = screen_text(app)  # the game ann is rated at comes first
        assert "ratings · High Card" in text and "ann (you)" in text
        rows = [line for line in text.splitlines() if "1516" in line or "1484" in line]
        assert len(rows) == 2 and rows[0].split()[1:4] == ["1", "1516", "1"]  # rank, rating, games


async def test_a_review_during_play_is_offered_with_v() -> None:
    lobby = Lobby()
    table = lobby.create_table("id-ann", "ann", "highcard", 2)
    table.sit("id-bob", "bob")
    table.act("id-ann", first_choice(table, 0))
    async with session(lobby, "id-ann", "ann") as (app, pilot):
        await pilot.press("v")
        assert isinstance(app.screen, ReplayScreen)
        assert "review · as your seat saw it" in screen_text(app)
        assert "move 1/1" in screen_text(app)
        await pilot.press("tab")
        assert "only your own seat" in screen_text(app)
        table.act("id-bob", first_choice(table, 1))  # the game moves on under the review
        await pilot.press("end")
        assert "move 2/2" in screen_text(app)


import pytest  # noqa: E402

from harena.core.engine import game_class  # noqa: E402


@pytest.mark.parametrize("game, players", [("carthage", 2), ("spartacus", 3)])
async def test_each_board_plug_in_replays_a_finished_game_at_every_kind_of_step(
    game: str, players: int
) -> None:
    lobby = Lobby()
    options = dict(game_class(game).simulation_options)
    table = lobby.create_table("id-ann", "ann", game, players, options, bots=players, sit=False)
    while table.game.result() is None:
        table.play_bot(table.bots_to_move()[0])
    async with session(lobby, "id-ann", "ann") as (app, pilot):
        app.push_screen(ReplayScreen.for_table(table, "id-ann"))
        await pilot.pause()
        last = len(table.game.actions)
        assert f"move {last}/{last}" in screen_text(app)
        for keys in (
            ["home"],
            ["right"],
            ["right_square_bracket"],
            ["pagedown"],
            ["tab"],
            ["pageup"],
            ["left"],
            ["end"],
        ):
            await pilot.press(*keys)
        assert f"move {last}/{last}" in screen_text(app)
        await pilot.press("home")
        screen = app.screen
        start = screen.replay.round_at(screen.position)
        await pilot.press("pagedown")
        assert screen.position > 0 and f"round {start + 1}" in screen_text(app)


async def test_history_and_ratings_are_one_screen_each_per_app_and_current_on_every_open() -> None:
    # Kept per app (tui/screens/kept.py: no garbage per open), so each open must read the lobby
    # afresh: a game that finishes between two opens shows on the second.
    lobby = Lobby()

    def finished_game() -> None:
        table = lobby.create_table("id-ann", "ann", "highcard", 2, {"rounds": "1"})
        table.sit("id-bob", "bob")
        table.act("id-ann", first_choice(table, 0))
        table.act("id-bob", first_choice(table, 1))

    finished_game()
    async with session(lobby, "id-ann", "ann") as (app, pilot):
        if isinstance(app.screen, TableScreen):
            await pilot.press("escape")
        await pilot.press("h")
        history = app.screen
        assert "your finished games (1)" in screen_text(app)
        await pilot.press("escape", "r")
        ratings = app.screen
        assert games_rated(screen_text(app)) == "1"
        await pilot.press("escape")
        finished_game()
        await pilot.press("h")
        assert app.screen is history
        assert "your finished games (2)" in screen_text(app)
        await pilot.press("escape", "r")
        assert app.screen is ratings
        assert games_rated(screen_text(app)) == "2"  # the second game counts


def games_rated(text: str) -> str:
    """The Games column of ann's leaderboard row."""
    row = next(line for line in text.splitlines() if "ann (you)" in line)
    return row[: row.index("ann (you)")].split()[-1]
