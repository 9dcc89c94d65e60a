"""Shown when the same key is already connected in another session."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from harena.tui.screens.dialog import DialogScreen
from harena.tui.widgets.key_bar import KEY_STYLE

NOTICE = (
    "Your key is connected in another session too. Both sessions show the same seat "
    "and can both play it."
)


class TakeOverScreen(DialogScreen[bool]):
    """Dismisses True when the user takes over (the caller then closes the other sessions)."""

    BINDINGS = [
        Binding("t", "take_over", "take over"),
        Binding("escape,enter", "keep_both", "keep both"),
    ]

    def __init__(self, *, can_take_over: bool) -> None:
        super().__init__()
        self.can_take_over = can_take_over

    def compose(self) -> ComposeResult:
        lines = [Content(NOTICE), Content("")]
        if self.can_take_over:
            lines.append(
                Content.assemble(("t", KEY_STYLE), " take over here: the other session is closed")
            )
        lines.append(Content.assemble(("Esc", KEY_STYLE), " carry on with both sessions"))
        with Vertical() as box:
            box.border_title = "Connected elsewhere"
            yield Static(Content("\n").join(lines))

    def action_take_over(self) -> None:
        if self.can_take_over:
            self.dismiss(True)

    def action_keep_both(self) -> None:
        self.dismiss(False)
