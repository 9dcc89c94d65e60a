"""Panels drawn as lines of (text, style) segments by a pure function of the table view.

Boards write their panels as functions `draw(view, width, height) -> list[Line]` (testable
without Textual) and show each in a `LinesView`, which repaints only the rows that changed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from textual.content import Content

from harena.tui.widgets.rows import RowsWidget

Segment = tuple[str, str]  # (text, style)
Line = list[Segment]
Draw = Callable[[Mapping[str, Any], int, int], list[Line]]


def fit(text: str, width: int, ascii_only: bool = False) -> str:
    """`text` cut to `width` cells, ending in an ellipsis ("~" in plain ASCII) when cut."""
    if width <= 0:
        return ""
    return text if len(text) <= width else text[: width - 1] + ("~" if ascii_only else "…")


def wrap(text: str, width: int, lines: int, ascii_only: bool = False) -> list[str]:
    """Word-wrap `text` into at most `lines` lines of `width`; the last one ends in "…" if cut."""
    out: list[str] = []
    words = text.split()
    while words and len(out) < lines:
        line = words.pop(0)
        while words and len(line) + 1 + len(words[0]) <= width:
            line += " " + words.pop(0)
        if words and len(out) == lines - 1:
            line = " ".join([line, *words])  # the last line: cut with an ellipsis
            words = []
        out.append(fit(line, width, ascii_only))
    return out


TALLER = [(" (a taller terminal shows them)", "dim")]
"""How to see the lines a panel had no room for, when no key shows them."""


def cut_with_more(lines: list[Line], height: int, how: Line) -> list[Line]:
    """`lines` cut to `height` rows, the last saying how many more there are and `how` to see
    them ("+3 more: o", "+2 more (a taller terminal shows them)"): never cut without a word."""
    if len(lines) <= height or height <= 0:
        return lines
    hidden = len(lines) - height + 1
    return lines[: height - 1] + [[(f"+{hidden} more", "dim"), *how]]


def content_line(line: Line) -> Content:
    return Content.assemble(*[(text, style) if style else text for text, style in line])


def line_width(line: Line) -> int:
    return sum(len(text) for text, _ in line)


class LinesView(RowsWidget):
    """A panel drawn by a line function of (view, width, height): only changed rows repaint."""

    DEFAULT_CSS = """
    LinesView {
        width: 1fr;
        height: 1fr;
        padding: 0 1;
    }
    """

    def __init__(self, draw: Draw, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._draw = draw
        self._view: Mapping[str, Any] | None = None

    def show(self, view: Mapping[str, Any]) -> None:
        self._view = view
        self.update_rows()

    @property
    def text(self) -> str:
        size = self.content_size
        return "\n".join(row.plain for row in self.build_rows(size.width, size.height))

    def build_rows(self, width: int, height: int) -> list[Content]:
        if self._view is None or width <= 0:
            return []
        return [content_line(line) for line in self._draw(self._view, width, height)][:height]
