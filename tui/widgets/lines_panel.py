"""A fixed-size panel of lines, newest at the bottom: the base of the log and the chat panels.

It draws only the tail that fits, wrapping long lines, so an update never changes its size and
never triggers a layout (which would repaint the whole screen on a thin link). Rows are rendered
one by one (`RowsWidget`): a new line costs the rows it shifts, not a render of the whole panel;
on the wire, the client's screen buffer sends only the cells that differ.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import is_

from textual.cache import LRUCache
from textual.content import Content

from harena.tui.widgets.made_once import MadeOnce
from harena.tui.widgets.rows import RowKey, RowsWidget, row_key, same_row

KEPT_WRAPS = 4096
"""Wrapped lines kept for all panels (a log of 40 lines scrolls through them one per move)."""

_wrapped: LRUCache[tuple[RowKey, int], list[Content]] = LRUCache(KEPT_WRAPS)

# The lines given as Content, and the tail of them shown, made once for every session given
# the very same list (`made_once`).
_contents: MadeOnce[list[Content]] = MadeOnce()
_tails: MadeOnce[list[Content]] = MadeOnce()


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
        self._source: list[Content | str] = []  # as last given (the lines' own objects)
        self._made: dict[int, tuple[str, Content]] = {}  # id(line) -> (line, its Content)

    @property
    def lines(self) -> list[str]:
        """The plain text of every line held (not only those that fit)."""
        return [line.plain for line in self._lines]

    def set_lines(self, lines: Sequence[Content | str]) -> None:
        source = list(lines)
        if len(source) == len(self._source) and all(map(is_, source, self._source)):
            return  # the very same lines (a move that logged nothing)
        # Made once for every session given the very same lines (`made_once`): the line
        # objects, not the list, since a list may change and its lines may not.
        new = _contents.get(tuple(source), None, lambda: self._contents(source))
        self._source = source
        if new is self._lines or (
            len(new) == len(self._lines) and all(map(same_row, new, self._lines))
        ):
            return
        self._lines = new
        self.update_rows()

    def _contents(self, source: list[Content | str]) -> list[Content]:
        """The lines as Content."""
        # A log keeps its line objects from view to view: the Content made for a line is reused
        # while the line stays (a full log gains one line and drops one at every move).
        made, self._made = self._made, {}
        new: list[Content] = []
        for line in source:
            if not isinstance(line, str):  # (a str check: Content's is an ABC check, slower)
                new.append(line)
                continue
            known = made.get(id(line))
            content = known[1] if known is not None and known[0] is line else Content(line)
            self._made[id(line)] = (line, content)
            new.append(content)
        return new

    def build_rows(self, width: int, height: int) -> list[Content]:
        if not self._lines:
            return [Content.styled(self.EMPTY_TEXT, "dim")]  # Textual wraps it, as before
        return _tails.get((self._lines,), (width, height), lambda: self._tail(width, height))

    def _tail(self, width: int, height: int) -> list[Content]:
        """The newest lines, wrapped, that fill a content area of this size."""
        rows: list[Content] = []
        for line in reversed(self._lines):
            rows[:0] = self._wrap(line, width)
            if len(rows) >= height:
                break
        return rows[-height:]

    def _wrap(self, line: Content, width: int) -> list[Content]:
        """`line` wrapped to `width`, remembered for every panel of every session: each player
        at a table wraps the same new log line (Content is immutable, so they can share it)."""
        key = (row_key(line), width)
        rows = _wrapped.get(key)
        if rows is None:
            rows = line.wrap(width) or [Content("")]
            _wrapped.set(key, rows)
        return rows


class LogPanel(LinesPanel):
    """The game log as this seat may read it (view["game"]["log"])."""

    EMPTY_TEXT = "Nothing has happened yet."
