"""A one-line status: the answer to the last thing the user did (errors in words, not colour)."""

from __future__ import annotations

from textual.content import Content

from harena.tui.widgets.rows import RowsWidget


class StatusLine(RowsWidget):
    """Keeps its message until the next one: no timer clears it (timers repaint thin links).
    A row widget: the player's own status changes at each of their moves."""

    DEFAULT_CSS = """
    StatusLine {
        height: 1;
        width: 1fr;
    }
    StatusLine.-error {
        text-style: bold;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._content = Content("")

    @property
    def text(self) -> str:
        return self._content.plain

    def show_error(self, message: str) -> None:
        self._set(Content.assemble(("Error:", "bold reverse"), " ", message), error=True)

    def show_info(self, message: str) -> None:
        self._set(Content(message), error=False)

    def clear(self) -> None:
        if self._content.plain:
            self._set(Content(""), error=False)

    def _set(self, content: Content, *, error: bool) -> None:
        self._content = content
        self.set_class(error, "-error")  # a change of class restyles (and repaints) it whole
        self.update_rows()

    def build_rows(self, width: int, height: int) -> list[Content]:
        # one row: a message longer than the screen ends in "…", never in a cut word
        return [self._content.truncate(width, ellipsis=True) if width > 0 else self._content]
