"""A fixed-size panel of lines, newest at the bottom: the base of the log and the chat panels.

It draws only the tail that fits, wrapping long lines, so an update never changes its size and
never triggers a layout (which would repaint the whole screen on a thin link).
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.content import Content
from textual.widget import Widget


class LinesPanel(Widget):
    DEFAULT_CSS = """
    LinesPanel {
        height: 1fr;
        width: 1fr;
        padding: 0 1;
    }
    """

    EMPTY_TEXT = ""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._lines: list[Content] = []

    @property
    def lines(self) -> list[str]:
        """The plain text of every line held (not only those that fit)."""
        return [line.plain for line in self._lines]

    def set_lines(self, lines: Sequence[Content | str]) -> None:
        new = [line if isinstance(line, Content) else Content(line) for line in lines]
        if [line.plain for line in new] == self.lines and all(
            a.spans == b.spans for a, b in zip(new, self._lines, strict=False)
        ):
            return
        self._lines = new
        self.refresh()

    def render(self) -> Content:
        width, height = self.content_size
        if width <= 0 or height <= 0:
            return Content("")
        if not self._lines:
            return Content.styled(self.EMPTY_TEXT, "dim")
        rows: list[Content] = []
        for line in reversed(self._lines):
            rows[:0] = line.wrap(width) or [Content("")]
            if len(rows) >= height:
                break
        return Content("\n").join(rows[-height:])


class LogPanel(LinesPanel):
    """The game log as this seat may read it (view["game"]["log"])."""

    EMPTY_TEXT = "Nothing has happened yet."
