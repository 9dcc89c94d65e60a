"""The operator's command line in the lobby (key `o`): the commands of `harena admin`.

It only hands the typed words to the `run` callable it was given (the server's, for operators
only), which answers (ok, text), and shows that; it knows nothing of sessions or bans.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Input, Static

from harena.tui.screens.dialog import DialogScreen

ANSWER_LINES = 12


class OperatorScreen(DialogScreen[None]):
    DEFAULT_CSS = """
    OperatorScreen > Vertical {
        width: 76;
    }
    OperatorScreen #answer {
        height: auto;
        max-height: 12;
    }
    """

    BINDINGS = [Binding("escape", "close", "close", show=False)]

    def __init__(self, run: Callable[[list[str]], tuple[bool, str]]) -> None:
        super().__init__()
        self._run = run

    def compose(self) -> ComposeResult:
        with Vertical() as frame:
            frame.border_title = "Operator"
            yield Static(
                Content("Type a command (help lists them), Enter runs it, Esc closes."), id="answer"
            )
            command = Input(placeholder="command", compact=True, id="command")
            command.cursor_blink = False
            yield command

    def on_mount(self) -> None:
        self.query_one("#command", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value.strip()
        event.input.clear()
        if text:
            self.show_answer(self._answer(text))

    def _answer(self, text: str) -> Content:
        try:
            ok, answer = self._run(shlex.split(text))
        except ValueError as error:  # shlex: an open quote
            ok, answer = False, str(error)
        if not ok:
            return Content.assemble(("Error:", "bold reverse"), f" {answer}")
        lines = answer.splitlines()
        if len(lines) > ANSWER_LINES:
            lines = lines[: ANSWER_LINES - 1] + [
                f"... {len(lines) - ANSWER_LINES + 1} more (harena admin shows all)"
            ]
        return Content("\n".join(lines))

    def show_answer(self, content: Content) -> None:
        self.query_one("#answer", Static).update(content)

    def action_close(self) -> None:
        self.dismiss(None)
