"""Pick one of a few things by its key (1-9): dismisses with the key, or None on Esc."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from harena.tui.screens.dialog import DialogScreen
from harena.tui.widgets.key_bar import KEY_STYLE


class PickScreen(DialogScreen[str]):
    BINDINGS = [Binding("escape", "cancel", "cancel", show=False)]

    def __init__(self, question: str, choices: list[tuple[str, str]]) -> None:
        """`choices`: (key, label), keys single characters."""
        super().__init__()
        self.question = question
        self.choices = choices

    def compose(self) -> ComposeResult:
        lines = [Content.styled(self.question, "bold"), Content("")]
        lines += [
            Content.assemble((f" {key} ", KEY_STYLE), f" {label}") for key, label in self.choices
        ]
        lines += [Content(""), Content.assemble(("Esc", KEY_STYLE), " cancel")]
        with Vertical():
            yield Static(Content("\n").join(lines))

    def on_key(self, event: events.Key) -> None:
        if any(event.character == key for key, _ in self.choices):
            event.stop()
            self.dismiss(event.character)

    def action_cancel(self) -> None:
        self.dismiss(None)
