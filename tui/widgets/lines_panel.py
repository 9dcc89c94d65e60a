"""A fixed-size panel of lines, newest at the bottom: the base of the log and the chat panels.

It draws only the tail that fits, wrapping long lines, so an update never changes its size and
never triggers a layout (which would repaint the whole screen on a thin link). Rows are rendered
one by one (`RowsWidget`): a new line costs the rows it shifts, not a render of the whole panel;
on the wire, the client's screen buffer sends only the cells that differ.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.content import Content

from tui.widgets.rows import RowKey, RowsWidget, row_key, same_row

KEPT_WRAPS = 256
"""Wrapped lines kept (a log of 40 lines scrolls through them one line per move)."""


class LinesPanel(RowsWidget):
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
        self._wrapped: dict[tuple[RowKey, int], list[Content]] = {}

    @property
    def lines(self) -> list[str]:
        """The plain text of every line held (not only those that fit)."""
        return [line.plain for line in self._lines]

    def set_lines(self, lines: Sequence[Content | str]) -> None:
        held = {line.plain: line for line in self._lines if not line.spans}
        new = [
            line if isinstance(line, Content) else held.get(line) or Content(line) for line in lines
        ]
        if len(new) == len(self._lines) and all(map(same_row, new, self._lines)):
            return
        self._lines = new
        self.update_rows()

    def build_rows(self, width: int, height: int) -> list[Content]:
        if not self._lines:
            return [Content.styled(self.EMPTY_TEXT, "dim")]  # Textual wraps it, as before
        rows: list[Content] = []
        for line in reversed(self._lines):
            rows[:0] = self._wrap(line, width)
            if len(rows) >= height:
                break
        return rows[-height:]

    def _wrap(self, line: Content, width: int) -> list[Content]:
        """`line` wrapped to `width` (remembered: the same lines are wrapped move after move)."""
        key = (row_key(line), width)
        rows = self._wrapped.get(key)
        if rows is None:
            rows = line.wrap(width) or [Content("")]
            if len(self._wrapped) >= KEPT_WRAPS:
                self._wrapped.clear()
            self._wrapped[key] = rows
        return rows


class LogPanel(LinesPanel):
    """The game log as this seat may read it (view["game"]["log"])."""

    EMPTY_TEXT = "Nothing has happened yet."
