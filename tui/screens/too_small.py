"""Shown alone while the terminal is smaller than MIN_SIZE; the app pops it once resized."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import Static

MIN_SIZE = (80, 24)  # columns, rows: every screen is laid out for at least this


def too_small(size: Size | tuple[int, int]) -> bool:
    width, height = size
    return width < MIN_SIZE[0] or height < MIN_SIZE[1]


def enlarge_message(size: Size | tuple[int, int]) -> str:
    width, height = size
    return f"Please enlarge your terminal to at least {MIN_SIZE[0]}x{MIN_SIZE[1]} (now {width}x{height})"


class TooSmallScreen(Screen[None]):
    """Nothing else is drawn: a layout squeezed below 80x24 would be unreadable."""

    DEFAULT_CSS = """
    TooSmallScreen {
        align: center middle;
    }
    TooSmallScreen > Static {
        width: 100%;
        height: auto;
        text-align: center;
        text-style: bold;
    }
    """

    def __init__(self, size: Size | tuple[int, int]) -> None:
        super().__init__()
        self._message = enlarge_message(size)

    def compose(self) -> ComposeResult:
        yield Static(self._message, markup=False, id="enlarge")

    @property
    def message(self) -> str:
        return self._message

    def show_size(self, size: Size | tuple[int, int]) -> None:
        message = enlarge_message(size)
        if message != self._message:
            self._message = message
            for static in self.query("#enlarge").results(Static):
                static.update(message)
