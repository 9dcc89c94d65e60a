"""A yes/no question (quit, leave a seat): dismisses with True only on `y` or Enter."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from harena.tui.screens.dialog import DialogScreen
from harena.tui.widgets.key_bar import KEY_STYLE


class ConfirmScreen(DialogScreen[bool]):
    DEFAULT_CSS = """
    ConfirmScreen > Vertical {
        width: 60;
    }
    """

    BINDINGS = [
        Binding("y,enter", "answer(True)", "yes"),
        Binding("n,escape", "answer(False)", "no"),
    ]

    def __init__(self, question: str, detail: str = "") -> None:
        super().__init__()
        self.question = question
        self.detail = detail

    def compose(self) -> ComposeResult:
        lines = [Content.styled(self.question, "bold")]
        if self.detail:
            lines.append(Content(self.detail))
        lines.append(Content(""))
        lines.append(
            Content.assemble(
                ("y", KEY_STYLE), "/", ("Enter", KEY_STYLE), " yes   ",
                ("n", KEY_STYLE), "/", ("Esc", KEY_STYLE), " no",
            )
        )
        with Vertical():
            yield Static(Content("\n").join(lines))

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
