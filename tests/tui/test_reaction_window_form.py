"""The new-table form's "Reaction window" row (Spartacus: off, 5 s to 30 s, 10 s unless
chosen) sets the table's ClockPolicy.window, and the lobby's detail line and the table's `?`
say it with the other time settings (core/windows.py; issue 24)."""

from __future__ import annotations

from harena.core.lobby import Lobby
from harena.tui.screens.create_table import CreateTableScreen
from harena.tui.screens.help import HelpScreen
from harena.tui.screens.lobby import LobbyScreen
from harena.tui.screens.table import TableScreen
from tests.tui.harness import screen_text, session, until


def _row(text: str, label: str) -> str:
    return next(line for line in text.splitlines() if label in line)


async def test_the_form_sets_the_reaction_window_and_the_table_says_it() -> None:
    lobby = Lobby()
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        await pilot.press("n")
        screen = app.screen
        assert isinstance(screen, CreateTableScreen)
        assert "Reaction window" not in screen_text(app)  # Carthage has no reaction windows
        await pilot.press("left")  # the last game: Spartacus
        assert screen.form.game["name"] == "spartacus"
        assert "< 10s >" in _row(screen_text(app), "Reaction window")
        labels = [f.label for f in screen.form.fields()]
        await pilot.press(*["down"] * labels.index("Reaction window"))
        assert "how long every 'react?' stays open" in screen_text(app)
        await pilot.press("left")
        assert "< 5s >" in _row(screen_text(app), "Reaction window")
        await pilot.press("left")
        assert "< off >" in _row(screen_text(app), "Reaction window")
        await pilot.press("left", "left")  # wraps round: 30 s, then 20 s
        assert "< 20s >" in _row(screen_text(app), "Reaction window")
        await pilot.press("enter")
        await until(lambda: isinstance(app.screen, TableScreen))
        table = app.screen.table
        assert table.game.name == "spartacus" and table.policy.window == 20
        await until(lambda: bool(app.screen.view))
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        # the help's last lines (it scrolls): the table's time settings
        assert "time this table's time settings: reaction window 20s" in app.screen.text
        await pilot.press("escape", "escape")
        await until(lambda: isinstance(app.screen, LobbyScreen))
        await until(lambda: "Time: reaction window 20s. Watching: nobody" in screen_text(app))


async def test_the_default_is_ten_seconds_and_off_waits_for_every_key() -> None:
    lobby = Lobby()
    async with session(lobby, "id-alice", "alice") as (app, pilot):
        await pilot.press("n", "left", "enter")
        await until(lambda: isinstance(app.screen, TableScreen))
        assert app.screen.table.policy.window == 10
    created = lobby.create_table("id-bob", "bob", "spartacus", 3)
    assert created.summary()["clock"] == "reaction window 10s"
    highcard = lobby.create_table("id-bob", "bob", "highcard", 2)
    assert "clock" not in highcard.summary()  # no reaction windows: nothing to say
