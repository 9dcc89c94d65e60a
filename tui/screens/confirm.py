"""A yes/no question (quit, leave a seat): dismisses with True only on `y` or Enter."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from harena.tui.screens.dialog import DialogScreen
from harena.tui.screens.kept import show_kept
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

    def ask(self, question: str, detail: str = "") -> None:
        """Ask another question in this same screen (kept per app, see `tui/screens/kept.py`)."""
        self.question, self.detail = question, detail
        if self.is_mounted:
            self.query_one("#question", Static).update(self._text())

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self._text(), id="question")

    def _text(self) -> Content:
        lines = [Content.styled(self.question, "bold")]
        if self.detail:
            lines.append(Content(self.detail))
        lines.append(Content(""))
        lines.append(
            Content.assemble(
                ("y", KEY_STYLE),
                "/",
                ("Enter", KEY_STYLE),
                " yes   ",
                ("n", KEY_STYLE),
                "/",
                ("Esc", KEY_STYLE),
                " no",
            )
        )
        return Content("\n").join(lines)

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


def confirm(
    app: App[Any], question: str, detail: str, answered: Callable[[bool | None], None]
) -> None:
    """Ask `question` in the app's kept yes/no screen."""
    show_kept(app, "confirm", lambda: ConfirmScreen(question, detail),
              lambda screen: screen.ask(question, detail), answered)  # fmt: skip
