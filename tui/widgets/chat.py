"""Chat: the panel of lines and the input. Used by the lobby and by every table screen."""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, cast

from rich.segment import Segment
from textual import events
from textual.binding import Binding
from textual.containers import Horizontal
from textual.content import Content
from textual.strip import Strip
from textual.widgets import Input, Label

from harena.tui.widgets.lines_panel import LinesPanel

if TYPE_CHECKING:
    from textual.screen import Screen

CHAT_MAX_CHARS = 300  # the core cuts longer lines anyway (core.table.CHAT_MAX_CHARS)


def chat_lines(chat: Iterable[Sequence[str]]) -> list[Content]:
    """[[name, text], ...] as lines; names and text are user data, so never parsed as markup."""
    return [Content.assemble((f"{name}:", "bold"), " ", text) for name, text in chat]


class ChatPanel(LinesPanel):
    EMPTY_TEXT = "No messages yet. Press c to chat."

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._chat: list[tuple[str, str]] = []

    def show_chat(self, chat: Iterable[Sequence[str]]) -> None:
        messages = [(name, text) for name, text in chat]
        if messages != self._chat:  # most updates are moves, not chat
            self._chat = messages
            self.set_lines(chat_lines(messages))


_reached_chat: weakref.WeakSet[events.Key] = weakref.WeakSet()
"""Keys that reached the chat input (`keys_for_chat`)."""


class ChatInput(Input):
    """A one-line, non-blinking input (a blinking cursor costs bytes every half second).

    Enter sends (through the screen's `ChatKeys.send_chat`); Esc hands the keys back to the screen.
    """

    BINDINGS = [Binding("escape", "leave_input", "leave chat", show=False)]
    IDLE_PLACEHOLDER = "press c to chat"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(
            placeholder=self.IDLE_PLACEHOLDER, max_length=CHAT_MAX_CHARS, compact=True, id=id
        )
        self.cursor_blink = False
        self._leaving = False

    async def _on_key(self, event: events.Key) -> None:
        # Runs before Input's own key handler (Textual calls each class's handler in turn).
        if self._leaving:
            # Keys typed right after Esc were routed here before Esc took the focus away:
            # they are commands, so hand them to the screen untyped, in order.
            event.prevent_default()
            event.stop()
            self.screen._forward_event(events.Key(event.key, event.character))
            return
        if event.key == "escape":
            self._leaving = True
        _reached_chat.add(event)  # see keys_for_chat

    def on_focus(self) -> None:
        self._leaving = False
        self.placeholder = "type, Enter sends, Esc leaves the chat"

    def on_blur(self) -> None:
        self.placeholder = self.IDLE_PLACEHOLDER

    def action_leave_input(self) -> None:
        self.screen.set_focus(None)

    async def action_submit(self) -> None:
        # Sent here, at once, not through Input.Submitted: that message bubbles up through the
        # row to the screen one queue at a time, and the keys typed after Enter (Esc and a move,
        # already queued) would overtake the line: the move would land before the chat.
        text = self.value.strip()
        self.clear()
        screen = self.screen
        if text and isinstance(screen, ChatKeys):
            screen.send_chat(text)


class ChatKeys:
    """Mixin for screens with a ChatInput: `c` focuses it at once."""

    def action_chat(self) -> None:
        # Screen.set_focus is immediate (Widget.focus() waits a turn of the app's queue), so
        # the keys typed next already find the input (see keys_for_chat).
        screen = cast("Screen[Any]", self)  # ChatKeys is mixed into screens
        screen.set_focus(screen.query_one(ChatInputRow).chat_input())

    def send_chat(self, text: str) -> None:
        """Say `text` (stripped, never empty) where this screen's chat goes."""
        raise NotImplementedError


def keys_for_chat(focused: object, event: events.Key) -> bool:
    """Pass a key on to the chat input if it was routed before `c` moved the focus there.

    Textual routes each key to whatever had focus when the key was read, and runs `c`'s binding
    only when that key comes back up to the app. With a fast typist (or a paste, or a slow link
    delivering keys in one packet) the keys after `c` were already sent to the screen: they come
    back up without having reached the input, and would be lost. The app calls this for every
    key that bubbles up to it; returns True when the key was passed on.
    """
    if isinstance(focused, ChatInput) and event not in _reached_chat:
        event.stop()
        event.prevent_default()
        focused._forward_event(events.Key(event.key, event.character))  # as the app routes keys
        return True
    return False


class ChatInputRow(Horizontal):
    """`say>` and the input, one line high.

    Most sessions never chat, and an `Input` (its reactives, bindings, cursor and selection)
    and the `say>` label cost a session's start more than one line does: until `c` first asks
    for the input, the row has no children and draws `say>` and the unfocused input's
    placeholder itself, cell for cell and colour for colour as they draw them (in ANSI too).
    Taking the focus (Tab, a click) opens the chat as `c` does.
    """

    can_focus = True  # until the input is made: then the input takes the focus
    COMPONENT_CLASSES = {"chat-input-row--say", "chat-input-row--idle", "chat-input-row--rest"}

    DEFAULT_CSS = """
    ChatInputRow {
        height: 1;
        width: 1fr;
        &>.chat-input-row--say {
            text-style: bold;
        }
        /* as Input: an unfocused, empty input, its placeholder and the rest of its line */
        &>.chat-input-row--rest {
            background: $surface;
            color: $foreground;
        }
        &>.chat-input-row--idle {
            background: $surface;
            color: $text-disabled;
        }
        &:ansi>.chat-input-row--rest {
            background: ansi_default;
            color: ansi_default;
        }
        &:ansi>.chat-input-row--idle {
            background: ansi_default;
            color: ansi_default;
            text-style: dim;
        }
    }
    ChatInputRow > Label {
        width: auto;
        text-style: bold;
    }
    """

    SAY = "say> "

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._input: ChatInput | None = None

    def chat_input(self) -> ChatInput:
        """The input (and `say>`), made the first time. It is in the DOM (and can take the focus
        and queue keys) at once; it starts a turn later, before any key it was sent."""
        if self._input is None:
            self._input = ChatInput()
            self.can_focus = False
            self.mount(Label(self.SAY), self._input)
        return self._input

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if self._input is not None or y != 0:
            return Strip.blank(width, self.rich_style)  # covered by the label and the input
        say = self.get_component_rich_style("chat-input-row--say")
        idle = self.get_component_rich_style("chat-input-row--idle")
        rest = self.get_component_rich_style("chat-input-row--rest")
        return Strip(
            [
                Segment(self.SAY, say),
                Segment(ChatInput.IDLE_PLACEHOLDER, idle),
            ]
        ).adjust_cell_length(width, rest)

    def on_focus(self) -> None:
        if self._input is None:
            self.screen.set_focus(self.chat_input())
