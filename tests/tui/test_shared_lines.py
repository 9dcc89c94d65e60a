"""Lines shared between sessions: styled once for every app, and always what the app's own
Textual styles cache would have rendered (frame, borders, colours, titles)."""

from __future__ import annotations

from contextlib import AsyncExitStack

from textual._styles_cache import StylesCache
from textual.app import App, ComposeResult
from textual.content import Content

from harena.core.lobby import Lobby
from harena.tui.app import HarenaApp
from harena.tui.screens.table import TableScreen
from harena.tui.widgets import shared_lines
from harena.tui.widgets.chat import ChatPanel
from harena.tui.widgets.rows import RowsWidget
from tests.tui.harness import session, until


def assert_lines_as_textual_styles_them(app: HarenaApp) -> int:
    """Every line of every RowsWidget equals a fresh Textual styles cache's line. Returns the
    lines compared."""
    compared = 0
    for widget in app.screen.query(RowsWidget):
        region = widget.outer_size.region
        shared = widget.render_lines(region)
        own = StylesCache().render_widget(widget, region)
        for y, (a, b) in enumerate(zip(shared, own, strict=True)):
            assert list(a) == list(b), (type(widget).__name__, y)
            compared += 1
    return compared


async def test_sessions_share_lines_and_each_sees_its_own_frame() -> None:
    lobby = Lobby()
    table = lobby.create_table("ann", "ann", "highcard", 2)
    table.sit("bob", "bob")
    async with AsyncExitStack() as stack:
        ann, _ = await stack.enter_async_context(session(lobby, "ann", "ann"))
        # bob's terminal is not UTF-8: other rules and borders around the same lines
        bob, _ = await stack.enter_async_context(session(lobby, "bob", "bob", unicode=False))
        apps = (ann, bob)
        await until(lambda: all(isinstance(app.screen, TableScreen) for app in apps))
        for n in range(3):
            table.say("ann", "ann", f"line {n} of the chat, long enough to wrap in its panel twice")
            prompt = table.game.prompts()[0]
            table.act(("ann", "bob")[prompt.seat], prompt.choices[0].id)
        await until(lambda: all("line 2" in str(app.screen.view["table"]["chat"]) for app in apps))
        for app in apps:
            assert assert_lines_as_textual_styles_them(app) > 20

        # Both apps show the same chat: bob's lines are ann's strips, not renders of his own.
        shared_lines.clear()
        logs = [app.screen.query_one(ChatPanel) for app in apps]
        for log in logs:
            log._styles_cache.clear()
        before = shared_lines.stats()
        rendered = [log.render_lines(log.outer_size.region) for log in logs]
        after = shared_lines.stats()
        height = logs[0].outer_size.height
        assert after["misses"] - before["misses"] == height
        assert after["hits"] - before["hits"] == height
        assert all(a is b for a, b in zip(*rendered, strict=False))


class Plain(RowsWidget):
    DEFAULT_CSS = "Plain { height: 4; }"

    def build_rows(self, width: int, height: int) -> list[Content]:
        return [Content.from_markup("[b]same[/b] rows"), Content("in every widget")]


class Framed(Plain):
    DEFAULT_CSS = "Framed { height: 6; border: round green; background: red 30%; }"


class Padded(Plain):
    DEFAULT_CSS = "Padded { height: 5; padding: 1 2; color: yellow; border-title-align: right; }"


class Widgets(App[None]):
    def compose(self) -> ComposeResult:
        yield Plain()
        yield Framed()
        yield Padded()
        titled = Framed(id="titled")
        titled.border_title = "a title"
        yield titled


async def test_the_same_rows_in_different_frames_are_never_mixed_up() -> None:
    shared_lines.clear()
    app = Widgets()
    async with app.run_test(size=(40, 24)) as pilot:
        await pilot.pause()
        assert assert_lines_as_textual_styles_them(app) == 4 + 6 + 5 + 6
        app.query_one("#titled").border_title = "another title"
        app.query_one(Padded).styles.background = "blue"
        await pilot.pause()
        assert assert_lines_as_textual_styles_them(app) == 21
