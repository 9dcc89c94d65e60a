"""The lobby's list of tables: one line per table, a `>` marker and reverse video on the
selected one (visible without colour), the selected table's seats spelled out below."""

from __future__ import annotations

from typing import Any

from textual.content import Content

from harena.tui.widgets.lines_view import fit
from harena.tui.widgets.made_once import MadeOnce
from harena.tui.widgets.rows import RowsWidget
from harena.tui.widgets.seats import seat_state

STATUS_WORDS = {"waiting": "waiting", "playing": "playing", "over": "finished", "closed": "closed"}


def status_word(status: str) -> str:
    return STATUS_WORDS.get(status, status)


def summary_line(table: dict[str, Any]) -> str:
    """`#3  High Card       playing   2/3 seated  alice, bot, -      1 watching`; a table
    waiting for you says `YOU 12m` (how long it has waited) in place of `playing`."""
    seats = table["seats"]
    taken = sum(not s["free"] for s in seats)
    names = ", ".join(_short_name(s) for s in seats)
    watching = len(table["spectators"])
    status = f"YOU {table['waited']}" if table.get("waited") else status_word(table["status"])
    status = "invited" if table.get("invited") and not table.get("waited") else status
    marks = table_marks(table)
    title = short_title(table["title"], 14 - len(marks)) + marks
    status = "FOR YOU" if table.get("kept_for_you") and not table.get("waited") else status
    return (
        f"#{table['id']:<3} {title:<14} {status:<8} "
        f"{taken}/{len(seats)} seated  {names[:26]:<26}"
        + (f" {watching} watching" if watching else "")
    )


HINTS_MARK = " (h)"
"""After a table's game in the list: its players may ask the hard bot (the lobby's `?` says)."""


def table_marks(table: dict[str, Any]) -> str:
    """What the list marks after a table's game: hints allowed."""
    return HINTS_MARK if table.get("hints") else ""


def short_title(title: str, width: int = 14) -> str:
    """A game's title for a list column: its name before any subtitle ("Spartacus", not
    "Spartacus: A G"), with an ellipsis if even that is too long."""
    return fit(title.split(":")[0], width)


def _short_name(seat: dict[str, Any]) -> str:
    if seat.get("kept"):
        return f"[{seat['kept'][:6]}]"  # kept for them: a bot may hold it meanwhile
    if seat["free"]:
        return "-"
    if seat["bot"] is not None:
        return "bot"
    return (seat["name"] or "?")[:8]


def detail_lines(table: dict[str, Any]) -> list[str]:
    """The selected table in full: options, every seat with its state, the spectators."""
    seats = ", ".join(
        f"{s['name'] or 'free seat'} ({seat_state(s)}"
        + (f", kept for {s['kept']})" if s.get("kept") else ")")
        for s in table["seats"]
    )
    options = ", ".join(f"{k} {v}" for k, v in table["options"].items())
    watchers = ", ".join(table["spectators"]) or "nobody"
    kind = "Private table" if table.get("private") else "Table"
    head = f"{kind} {table['id']}: {table['title']}, {status_word(table['status'])}"
    if table.get("invited"):
        head += ", you are invited (Enter sits)"
    if table.get("yours"):
        head += ", yours (i invites)"
    if table.get("waited"):
        waited = "" if table["waited"] == "now" else f" for {table['waited']}"
        head += f", waiting for you{waited} (y opens it)"
    if table.get("kept_for_you"):
        head += ", a seat is kept for you (Enter takes it)"
    # the time settings lead the second line: the first is often cut at 80 columns
    time = f"Time: {table['clock']}. " if table.get("clock") else ""
    if table.get("hints"):
        time += "Hints allowed (not rated). "
    kept = ", ".join(s["kept"] for s in table["seats"] if s.get("kept"))
    kept = f"Seat kept for {kept}. " if kept else ""  # before the rest: never cut at 80
    return [
        f"{head}{' (' + options + ')' if options else ''}. Seats: {seats}",
        f"{kept}{time}Watching: {watchers}",
    ]


KEPT_LINES = 1024
"""List lines kept for every session (least recently used dropped first)."""

_lines: MadeOnce[Content] = MadeOnce(KEPT_LINES)


def list_line(table: dict[str, Any], chosen: bool, width: int, ascii_only: bool) -> Content:
    """A table's line in the list, made once for every session in the lobby.

    Every session in the lobby is given the same summary objects (`Lobby._public_view`, built
    once per change), and a line is a pure function of the summary it is made from: kept by
    that object's identity (`made_once`), a change at one table makes one line, not one per
    player. A summary marked for one player (a seat kept for them, a turn waiting) is a new
    object of their own: it can only hit its own entry."""
    return _lines.get(
        (table,), (chosen, width, ascii_only), lambda: _list_line(table, chosen, width, ascii_only)
    )


def _list_line(table: dict[str, Any], chosen: bool, width: int, ascii_only: bool) -> Content:
    line = ("> " if chosen else "  ") + summary_line(table)
    # too long for the terminal ("1 watching" at 80 columns): say so, never cut a word
    line = fit(line, width, ascii_only).ljust(width)
    return Content.styled(line, "reverse bold" if chosen else "")


class TableList(RowsWidget):
    """Selection is kept by table id, so updates from other players never move it.

    Drawn row by row (`RowsWidget`): a change at one table repaints its line only, styled once
    for every session (`shared_lines`)."""

    empty_text = "No tables yet. Press n to create one."

    DEFAULT_CSS = """
    TableList {
        height: 1fr;
        width: 1fr;
        padding: 0 1;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._tables: list[dict[str, Any]] = []
        self._index = 0
        self._top = 0
        self.empty_text = type(self).empty_text

    @property
    def selected(self) -> dict[str, Any] | None:
        return self._tables[self._index] if self._tables else None

    @property
    def selected_id(self) -> str | None:
        table = self.selected
        return None if table is None else table["id"]

    def set_tables(self, tables: list[dict[str, Any]]) -> None:
        keep = self.selected_id
        if tables == self._tables:
            return
        self._tables = list(tables)
        ids = [t["id"] for t in self._tables]
        if keep in ids:
            self._index = ids.index(keep)
        else:
            self._index = min(self._index, max(len(ids) - 1, 0))
        self.update_rows()

    def move(self, delta: int) -> None:
        index = min(max(self._index + delta, 0), max(len(self._tables) - 1, 0))
        if index != self._index:
            self._index = index
            self.update_rows()

    def select(self, table_id: str) -> None:
        for index, table in enumerate(self._tables):
            if table["id"] == table_id:
                self._index = index
                self.update_rows()

    def set_empty_text(self, text: str) -> None:
        if text != self.empty_text:
            self.empty_text = text
            self.update_rows()

    @property
    def text(self) -> str:
        return "\n".join(summary_line(t) for t in self._tables)

    def build_rows(self, width: int, height: int) -> list[Content]:
        if not self._tables:
            return [Content.styled(self.empty_text, "dim")]  # Textual wraps it, as before
        # Scroll only as far as needed to keep the selection in view.
        if self._index < self._top:
            self._top = self._index
        elif self._index >= self._top + height:
            self._top = self._index - height + 1
        self._top = max(min(self._top, len(self._tables) - height), 0)
        top = self._top
        ascii_only = not getattr(self.app, "unicode", True)
        return [
            list_line(self._tables[index], index == self._index, width, ascii_only)
            for index in range(top, min(top + height, len(self._tables)))
        ]
