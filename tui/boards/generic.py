"""The fallback board: any game's board view as "key: value" lines, until it has a real board."""

from __future__ import annotations

from typing import Any

from textual.content import Content

from harena.tui.boards.base import BoardWidget
from harena.tui.widgets.lines_view import fit
from harena.tui.widgets.made_once import MadeOnce
from harena.tui.widgets.rows import RowsWidget

INDENT = "  "


def board_lines(board: Any, indent: str = "") -> list[str]:
    """Readable lines for plain view data: nested dicts indent, flat lists join with commas."""
    if not isinstance(board, dict):
        return [indent + format_value(board)]
    lines: list[str] = []
    for key, value in board.items():
        label = f"{indent}{str(key).replace('_', ' ')}:"
        if isinstance(value, dict) and value:
            lines.append(label)
            lines.extend(board_lines(value, indent + INDENT))
        elif isinstance(value, list) and any(isinstance(item, (dict, list)) for item in value):
            lines.append(label)
            for index, item in enumerate(value):
                if isinstance(item, dict):
                    lines.append(f"{indent}{INDENT}{index}:")
                    lines.extend(board_lines(item, indent + INDENT * 2))
                else:
                    lines.append(f"{indent}{INDENT}{index}: {format_value(item)}")
        else:
            lines.append(f"{label} {format_value(value)}")
    return lines


def format_value(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(format_value(item) for item in value) if value else "none"
    if isinstance(value, dict):
        return ", ".join(f"{k}={format_value(v)}" for k, v in value.items()) if value else "none"
    return str(value)


def board_rows(lines: list[str], width: int, height: int) -> list[Content]:
    """The board's lines as the rows of a content area of this size."""
    if height > 0 and len(lines) > height:
        hidden = len(lines) - height + 1
        lines = lines[: height - 1] + [f"... {hidden} more lines"]
    return [Content(fit(line, width)) for line in lines]


# (a view's board lines, and their rows, made once for every session shown it: `made_once`)
_board_lines: MadeOnce[list[str]] = MadeOnce()
_board_rows: MadeOnce[list[Content]] = MadeOnce()


class GenericBoard(BoardWidget, RowsWidget):
    """Repaints only the lines that changed (`RowsWidget`)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._lines: list[str] = []

    def show(self, view: dict[str, Any]) -> None:
        board = view["game"]["board"]
        lines = _board_lines.get((board,), None, lambda: board_lines(board))
        if lines is not self._lines and lines != self._lines:
            self._lines = lines
            self.update_rows()

    @property
    def text(self) -> str:
        return "\n".join(self._lines)

    def build_rows(self, width: int, height: int) -> list[Content]:
        lines = self._lines
        return _board_rows.get((lines,), (width, height), lambda: board_rows(lines, width, height))
