"""A list of lines to move through with a `>` marker and reverse video on the selected one
(history, leaderboard): fixed height, it scrolls only as far as needed."""

from __future__ import annotations

from textual.content import Content
from textual.widget import Widget


class PickList(Widget):
    DEFAULT_CSS = """
    PickList {
        height: 1fr;
        width: 1fr;
        padding: 0 1;
    }
    """

    def __init__(self, empty_text: str = "Nothing here yet.", *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.empty_text = empty_text
        self.lines: list[str] = []
        self.index = 0
        self._top = 0

    def set_lines(self, lines: list[str]) -> None:
        if lines != self.lines:
            self.lines = list(lines)
            self.index = min(self.index, max(len(lines) - 1, 0))
            self.refresh()

    def move(self, delta: int) -> None:
        index = min(max(self.index + delta, 0), max(len(self.lines) - 1, 0))
        if index != self.index:
            self.index = index
            self.refresh()

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    def render(self) -> Content:
        width, height = self.content_size
        if not self.lines:
            return Content.styled(self.empty_text, "dim")
        height = max(height, 1)
        if self.index < self._top:
            self._top = self.index
        elif self.index >= self._top + height:
            self._top = self.index - height + 1
        out = []
        for index in range(self._top, min(self._top + height, len(self.lines))):
            chosen = index == self.index
            line = (("> " if chosen else "  ") + self.lines[index])[:width].ljust(width)
            out.append(Content.styled(line, "reverse bold" if chosen else ""))
        return Content("\n").join(out)
