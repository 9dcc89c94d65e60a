"""tui/widgets/chat.py: the chat input is made when `c` first asks for it; until then the
`say>` line looks exactly as the unfocused input does, and nothing typed is lost."""

from __future__ import annotations

from textual import events

from harena.core.lobby import Lobby
from harena.tui.app import HarenaApp
from harena.tui.widgets.chat import ChatInput, ChatInputRow
from tests.tui.harness import screen_text, session, until


def say_line(app: HarenaApp) -> str:
    """The `say>` line as the terminal gets it, colours and styles included."""
    lines = screen_text(app, styles=True).splitlines()
    return next(line for line in lines if "say>" in line)


async def test_the_say_line_is_the_same_before_the_input_is_made_and_after_it_is_left() -> None:
    async with session(Lobby(), "id-alice", "alice") as (app, pilot):
        assert not app.screen.query_one(ChatInputRow).children  # not made until asked for
        before = say_line(app)
        await pilot.press("c")
        assert isinstance(app.focused, ChatInput)
        assert say_line(app) != before  # the focused input says how to use it
        await pilot.press("escape")
        assert app.focused is None
        assert say_line(app) == before
        assert "press c to chat" in before


async def test_keys_sent_right_after_c_land_in_the_new_input() -> None:
    async with session(Lobby(), "id-alice", "alice") as (app, _pilot):
        for key in ["c", *"hello"]:  # all queued before the input starts
            app.post_message(events.Key(key, key))
        await until(lambda: isinstance(app.focused, ChatInput) and app.focused.value == "hello")


async def test_tab_opens_the_chat_as_it_did_when_the_input_was_there_from_the_start() -> None:
    async with session(Lobby(), "id-alice", "alice") as (app, pilot):
        await pilot.press("tab")
        await until(lambda: isinstance(app.focused, ChatInput))
        await pilot.press(*"hi")
        assert app.focused.value == "hi"
