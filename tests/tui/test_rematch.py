"""Play again on the end-of-game screen (core/table/rematch.py): the offer with its key at
80x24, the answer in the kept yes/no dialog, and both players carried to the new table."""

from __future__ import annotations

from harena.core.lobby import Lobby
from harena.tui.screens.confirm import ConfirmScreen
from harena.tui.screens.help import HelpScreen
from harena.tui.screens.table import TableScreen
from harena.tui.widgets.game_over import GameOverPanel
from tests.tui.harness import screen_text, session, until


def on_table(app: object, table_id: str) -> bool:
    screen = getattr(app, "screen", None)
    return isinstance(screen, TableScreen) and screen.table.id == table_id and bool(screen.view)


async def test_both_players_say_yes_on_the_end_screen_and_land_at_the_rematch() -> None:
    lobby = Lobby()
    old = lobby.create_table("id-alice", "alice", "highcard", 2, {"rounds": "1"})
    old.sit("id-bob", "bob")
    async with session(lobby, "id-alice", "alice") as (alice, apilot):
        async with session(lobby, "id-bob", "bob") as (bob, bpilot):
            await apilot.press("1")
            await bpilot.press("1")
            for app in (alice, bob):
                await until(lambda app=app: app.screen.query_one(GameOverPanel).display)
                assert "m play again?" in screen_text(app)
            await apilot.press("m")
            assert isinstance(alice.screen, ConfirmScreen)
            assert "Play again?" in screen_text(alice)
            await apilot.press("y")
            await until(lambda: "play again: yes; waiting for bob" in screen_text(alice))
            assert old.rematch.next_table is None  # bob has not answered yet
            await bpilot.press("m", "y")
            new_id = old.rematch.next_table
            assert new_id
            await until(lambda: on_table(alice, new_id) and on_table(bob, new_id))
            new = lobby.run_here[new_id]
            assert [s.identity for s in new.seats] == ["id-bob", "id-alice"]  # turned by one
            assert new.game.config.options == {"rounds": "1"} and new.status == "playing"


async def test_a_no_is_shown_and_may_be_changed_while_others_have_not_answered() -> None:
    lobby = Lobby()
    old = lobby.create_table("id-alice", "alice", "highcard", 2, {"rounds": "1"})
    old.sit("id-bob", "bob")
    old.act("id-alice", old.game.prompts_for(0)[0].choices[0].id)
    old.act("id-bob", old.game.prompts_for(1)[0].choices[0].id)
    async with session(lobby, "id-alice", "alice") as (alice, pilot):
        alice.open_table(old)  # (a finished game: the lobby comes first)
        await until(lambda: on_table(alice, old.id))
        await until(lambda: alice.screen.query_one(GameOverPanel).display)
        await pilot.press("m", "n")
        await until(lambda: "play again: no; waiting for bob" in screen_text(alice))
        await pilot.press("m", "y")
        await until(lambda: "play again: yes; waiting for bob" in screen_text(alice))
        await pilot.press("question_mark")
        assert isinstance(alice.screen, HelpScreen)
        assert "play again at a new table" in screen_text(alice).replace("\n", " ")
