"""Row-by-row widgets: the same strips as Textual's whole render, and only changed rows repainted."""

from __future__ import annotations

from textual.widget import Widget

from harena.core.lobby import Lobby
from harena.tui.app import HarenaApp
from harena.tui.screens.help import HelpScreen
from harena.tui.screens.lobby import LobbyScreen
from harena.tui.screens.table import TableScreen
from harena.tui.widgets.rows import RowsWidget
from harena.tui.widgets.seats import SeatsPanel
from tests.tui.harness import screen_text, session, until


def assert_rows_render_as_textual(app: HarenaApp) -> int:
    """Every line of every RowsWidget on screen equals Textual's render of the whole content
    (segments, styles and the offsets text selection relies on). Returns the lines compared."""
    compared = 0
    for widget in app.screen.query(RowsWidget):
        for y in range(widget.size.height):
            fast = list(widget.render_line(y))
            widget._render_content()
            assert fast == list(Widget.render_line(widget, y)), (type(widget).__name__, y)
            compared += 1
    return compared


async def test_rows_render_exactly_as_textual_renders_the_whole_content() -> None:
    lobby = Lobby()
    table = lobby.create_table("ann", "ann", "highcard", 2)
    async with session(lobby, "ann", "ann") as (app, pilot):
        await until(lambda: isinstance(app.screen, TableScreen))
        await pilot.pause()
        assert assert_rows_render_as_textual(app) > 10  # waiting for a player, empty log and chat
        table.sit("bob", "bob")
        table.say(
            "bob", "bob", "hello 世界, a line long enough to wrap in the chat panel, twice over"
        )
        for line in ("tab\there", "[b]not markup[/b]", "x" * 80):
            table.say("bob", "bob", line)
        table.act("ann", table.game.prompts()[0].choices[0].id)
        await pilot.pause()
        await pilot.pause()
        assert "bob" in app.screen.query_one(SeatsPanel).text
        assert assert_rows_render_as_textual(app) > 10
        await pilot.press("escape")
        await until(lambda: isinstance(app.screen, LobbyScreen))
        await pilot.pause()
        assert assert_rows_render_as_textual(app) > 3


async def test_a_move_repaints_only_the_rows_that_changed() -> None:
    lobby = Lobby()
    table = lobby.create_table("ann", "ann", "highcard", 2, {"rounds": "3"})
    table.sit("bob", "bob")
    async with session(lobby, "bob", "bob") as (app, pilot):
        await until(lambda: isinstance(app.screen, TableScreen))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen)
        rows = list(screen.query(RowsWidget))
        for widget in rows:
            widget._repaint_regions.clear()
        table.act("ann", table.game.prompts()[0].choices[0].id)  # ann plays: one log line more
        view = table.view_for("bob")
        screen.show(view)
        repainted = {
            type(widget).__name__: {
                y for region in widget._repaint_regions for y in region.line_range
            }
            for widget in rows
        }
        assert len(repainted["LogPanel"]) == 1  # the new line (the log is not full yet)
        assert len(repainted["SeatsPanel"]) <= 2  # who is to act
        assert not repainted["ChatPanel"]
        for widget in rows:
            widget._repaint_regions.clear()
        screen.show(view)  # the same view again: nothing to repaint
        assert not any(widget._repaint_regions for widget in rows)


async def test_a_move_under_a_dialog_shows_once_the_dialog_closes() -> None:
    """Rows repaint their screen directly (`screen_refresh`): a screen under a dialog is not
    painted over it, and shows the move when it is on top again."""
    lobby = Lobby()
    table = lobby.create_table("ann", "ann", "highcard", 2, {"rounds": "3"})
    table.sit("bob", "bob")
    async with session(lobby, "bob", "bob") as (app, pilot):
        await until(lambda: isinstance(app.screen, TableScreen))
        await pilot.pause()
        await pilot.press("question_mark")
        await until(lambda: isinstance(app.screen, HelpScreen))
        table.act("ann", table.game.prompts()[0].choices[0].id)  # ann plays: a log line more
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)  # the table screen did not push in front
        await pilot.press("escape")
        await until(lambda: isinstance(app.screen, TableScreen))
        await until(lambda: table.game.log_for(1)[-1] in screen_text(app))
        assert assert_rows_render_as_textual(app) > 10
