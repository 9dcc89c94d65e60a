"""The Modular Rulesets on screen at 80x24: chosen in the create-table form's checklist, listed
on the table screen with their text on `?`, Retain cubes on the Action row, and the Naked and
Afraid key while its window is open."""

from __future__ import annotations

from harena.core.lobby import Lobby
from harena.tui.screens.checklist import ChecklistScreen
from harena.tui.screens.create_table import CreateTableScreen
from harena.tui.screens.table import TableScreen
from tests.tui.harness import screen_text, session

TO_RULESETS = ["down"] * 5  # Game, Players, Arena tokens, Gladiators, Sudden death, Rulesets


async def test_the_create_form_ticks_rulesets_in_a_checklist_and_warns_above_4() -> None:
    lobby = Lobby()
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        await pilot.press("n", *TO_RULESETS)
        assert isinstance(app.screen, CreateTableScreen)
        assert "Rulesets" in screen_text(app) and "< none >" in screen_text(app)
        await pilot.press("enter")
        assert isinstance(app.screen, ChecklistScreen)
        text = screen_text(app)
        assert "[ ] actuate" in text and "[ ] the southern winds" in text  # all 17 fit in 24 rows
        await pilot.press("space", *["down"] * 9, "space", "enter")  # actuate, retain
        assert isinstance(app.screen, CreateTableScreen)
        assert "2: actuate, retain" in screen_text(app) and "Warning" not in screen_text(app)
        await pilot.press("enter")  # on the list field Enter opens the list again
        await pilot.press("down", "space", "down", "space", "down", "space", "enter")
        text = screen_text(app)
        assert "Warning: 5 rulesets: more than 4 is not recommended" in text
        await pilot.press("up", "enter")  # on another field Enter creates the table, as asked
        assert isinstance(app.screen, TableScreen)
        assert app.screen.table.game.config.options["rulesets"] == "actuate,campaign,outbreak,concentrate,retain"


async def test_escape_leaves_the_checklist_without_changing_the_choice() -> None:
    lobby = Lobby()
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        await pilot.press("n", *TO_RULESETS, "enter", "space", "escape")
        assert isinstance(app.screen, CreateTableScreen)
        assert "< none >" in screen_text(app)
