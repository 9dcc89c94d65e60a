"""The rules modal (`r` at a table, tui/screens/rules.py) with real apps: the summary of the
phase being played, paging through the others, closing it with the game going on, every page
whole at 80x24 (also on an ASCII terminal), and a game without summaries."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from harena.core.lobby import Lobby
from harena.core.summaries import MAX_WIDTH, summaries_for
from harena.core.table import Table
from harena.server.transport.driver import to_ascii
from harena.tui.app import HarenaApp
from harena.tui.screens.rules import NO_SUMMARY, RulesScreen
from harena.tui.screens.table import TableScreen
from tests.tui.harness import screen_text, session, until
from tests.tui.screen_keys import until_unguarded


def rules(app: HarenaApp) -> RulesScreen:
    assert isinstance(app.screen, RulesScreen), app.screen
    return app.screen


def board(table: Table, identity: str) -> dict[str, Any]:
    return table.view_for(identity)["game"]["board"]


def play_until(table: Table, identity: str, done: Callable[[dict[str, Any]], bool]) -> None:
    """Everyone plays (the player's seat by a heuristic bot through the table, as a client
    would) until `done(board view)`; bots are moved by hand, as no bot runner is running."""
    seat = table.seat_of(identity)
    me = table.game.bots["heuristic"](11)
    for _ in range(5000):
        if done(board(table, identity)):
            return
        waiting = table.game.awaited()
        assert waiting and table.game.result() is None, "the game ended first"
        if waiting[0] == seat:
            before = len(table.game.actions)
            table.act(identity, me.choose(table.game.view(seat)))
            if len(table.game.actions) == before:  # a reaction window holds it till its time
                table.expire(time.time() + table.policy.window)
        else:
            table.play_bot(waiting[0])
    raise AssertionError("never reached")


async def synced(app: HarenaApp, table: Table, identity: str) -> None:
    def drawn() -> bool:
        screen = app.screen
        return (
            isinstance(screen, TableScreen)
            and screen.view["game"] == table.view_for(identity)["game"]
        )

    await until(drawn)


def page_is_whole(app: HarenaApp, text: str | None = None) -> None:
    """Every line of the open page is on the screen, whole, between the modal's borders."""
    modal = rules(app)
    assert modal.summaries is not None
    page = modal.summaries.pages[modal.index]
    rows = (text or screen_text(app)).splitlines()
    assert len(rows) == 24
    assert any(page.title in row for row in rows)
    for line in page.lines:
        assert any(f" {line:<{MAX_WIDTH}} " in row for row in rows), line
    assert any(f"{modal.index + 1}/{len(modal.summaries.pages)}" in row for row in rows)


async def test_r_at_a_carthage_table_shows_the_phase_being_played() -> None:
    lobby = Lobby(new_seed=lambda: 5)
    table = lobby.create_table("id-alice", "alice", "carthage", 2, {}, bots=1, bot_kind="heuristic")
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        # Setup 2: choosing a gladiator
        await pilot.press("r")
        assert rules(app).key == "setup"
        assert "Carthage: setting up" in screen_text(app)
        assert "each player chooses a gladiator" in screen_text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)
        # Phase 3: the Favor phase, with a choice for alice
        play_until(table, "id-alice", lambda b: b["phase"] == "favor" and b["turn"] == 0)
        await synced(app, table, "id-alice")
        await pilot.press("r")
        assert rules(app).key == "favor"
        assert "Initiate (1)" in screen_text(app) and "Carthage: the Favor phase" in screen_text(
            app
        )
        await pilot.press("q")
        assert isinstance(app.screen, TableScreen)
        # ... and the game goes on: the number keys choose again (Pass asks twice).
        decisions = table.game.decision_number(0)
        prompt = table.view_for("id-alice")["game"]["prompts"][0]
        last = len(prompt["choices"]) - 1
        assert prompt["choices"][last][0] == "pass"
        await until_unguarded(app)  # the test played alice's moves: her choices changed under her
        while app.screen.query_one("PromptBar").page != last // 10:
            await pilot.press("right_square_bracket")
        await pilot.press(str((last % 10 + 1) % 10), "enter")
        await until(lambda: table.game.decision_number(0) == decisions + 1)


async def test_r_at_a_spartacus_table_shows_the_phase_being_played_and_pages_through_the_rest() -> (
    None
):
    lobby = Lobby(new_seed=lambda: 5)
    table = lobby.create_table("id-bob", "bob", "spartacus", 2, {}, bots=1, bot_kind="heuristic")
    async with session(lobby, "id-bob", "bob") as (app, pilot):
        for seat in table.bots_to_move():  # the bot may choose its House first
            table.play_bot(seat)
        await until(lambda: table.view_for("id-bob")["game"]["prompts"])
        # rules: Setup 1, House Selection
        await pilot.press("r")
        assert rules(app).key == "houses"
        assert "Spartacus: choosing houses" in screen_text(app)
        await pilot.press("r")
        assert isinstance(app.screen, TableScreen)
        await pilot.press("1")  # the game goes on: bob chooses a House
        await until(lambda: board(table, "id-bob")["players"][0]["house"] != "")
        # rules: Market Phase, the Open Market
        play_until(
            table, "id-bob", lambda b: b["phase"] == "market" and b["market"]["auction"] is None
        )
        await synced(app, table, "id-bob")
        await pilot.press("r")
        assert rules(app).key == "market"
        assert "Spartacus: the Open Market" in screen_text(app)
        # Left/Right and Tab page through the other phases, round and round.
        await pilot.press("right")
        assert rules(app).key == "auction" and "Host title" in screen_text(app)
        await pilot.press("tab")  # a lot won may wait for Reactions (issue 16)
        assert rules(app).key == "reactions" and "Envy of the Forum" in screen_text(app)
        await pilot.press("tab", "tab")
        assert rules(app).key == "fight"
        await pilot.press("shift+tab", "left", "left", "left")
        assert rules(app).key == "market"
        await pilot.press("left", "left", "left", "left", "left")
        assert rules(app).key == "end"
        await pilot.press("right")
        assert rules(app).key == "houses"
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)
        assert board(table, "id-bob")["phase"] == "market"


async def test_every_summary_fits_an_80x24_screen_and_an_ascii_one() -> None:
    lobby = Lobby(new_seed=lambda: 2)
    for game in ("carthage", "spartacus"):
        pages = summaries_for(game)
        assert pages is not None
        for unicode in (True, False):
            name = f"{game}-{unicode}"
            lobby.create_table(name, name, game, 2, {}, bots=1)
            async with session(lobby, name, name, unicode=unicode) as (app, pilot):
                await pilot.press("r")
                seen = set()
                for _ in pages.pages:
                    text = screen_text(app) if unicode else to_ascii(screen_text(app)).decode()
                    page_is_whole(app, text)
                    seen.add(rules(app).key)
                    await pilot.press("right")
                assert seen == {p.key for p in pages.pages}


async def test_a_game_without_summaries_says_so() -> None:
    lobby = Lobby()
    table = lobby.create_table("id-alice", "alice", "highcard", 2, {})
    table.sit("id-bob", "bob")
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        await pilot.press("r")
        assert rules(app).key is None
        assert NO_SUMMARY in screen_text(app)
        await pilot.press("right", "escape")
        assert isinstance(app.screen, TableScreen)
        await pilot.press("1")  # High Card goes on: alice plays a card
        await until(lambda: table.game.state.played[0] is not None)


async def test_r_typed_in_the_chat_is_text_not_the_rules() -> None:
    lobby = Lobby()
    table = lobby.create_table("id-alice", "alice", "carthage", 2, {}, bots=1)
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        await pilot.press("c", "r", "enter")
        await until(lambda: table.view_for("id-alice")["table"]["chat"] == [["alice", "r"]])
        assert isinstance(app.screen, TableScreen)
