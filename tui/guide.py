"""The guided first game at the table: the panel that explains each new moment, and the
highlight on the part of the screen it talks about.

`core/guide.py` decides which panel is due, and until when, from the seat's view; this shows
it beside the table (`tui/guide_dock.py`: never over the prompt bar nor over the region it
explains), marks that region without covering any of its text (a tint, and a heavy title rule
on a titled panel), and answers Esc (the next page, or close it) and `?` (show it again). What
was shown is kept per app and table, so leaving for the lobby and coming back goes on where the
player was; the counter says how many panels the player has met.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from textual.content import Content
from textual.css.query import NoMatches
from textual.geometry import Region
from textual.widget import Widget

from harena.core.guide import Guide, GuidePanel, load_guide
from harena.tui.guide_dock import ASCII_POINTERS, POINTERS, Dock, dock

if TYPE_CHECKING:
    from textual.screen import Screen

    from harena.core.table_like import TableLike

TARGET_CLASS = "-guide-target"
REGION_SELECTORS: dict[str, dict[str, str]] = {
    "carthage": {
        "prompt": "#prompt",
        "arena": "#arena",
        "players": "#players",
        "theater": "#theater",
        "row": "#row-panel",
        "hand": "#hand-panel",
        "log": "#cb-log",
    },
    "spartacus": {
        "prompt": "#prompt",
        "houses": "#houses-panel",
        "house": "#house-panel",
        "arena": "#arena-panel",
        "phase": "#phase-panel",
        "log": "#sb-log",
    },
}
"""Where each region a guide may name (core/guide.REGIONS) is on the table screen."""
REGION_NAMES = {
    "prompt": "your choices",
    "row": "the Action row",
    "house": "your House",
    "houses": "the Houses",
    "phase": "the phase",
}
BOTTOM = ("#prompt", "#game-over")
"""What the panel must stay above: the prompt bar, or at the end the result in its place."""


class GuideBox(Widget):
    """One guide panel over the table screen: where it points and the count in its top border,
    the title and text (a page of it), the keys in its bottom border."""

    SCOPED_CSS = False  # the highlight rules below style other widgets
    DEFAULT_CSS = f"""
    GuideBox {{
        layer: guide;
        position: absolute;
        padding: 0 1;
        border: heavy $warning;
        border-title-align: left;
        border-subtitle-align: right;
        background: $surface;
        display: none;
    }}
    .{TARGET_CLASS} {{
        background-tint: $warning 18%;
    }}
    Panel.{TARGET_CLASS} {{
        border-top: heavy $warning;
    }}
    .-ascii GuideBox {{
        border: ascii $warning;
    }}
    .-ascii Panel.{TARGET_CLASS} {{
        border-top: ascii $warning;
    }}
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.panel: GuidePanel | None = None
        self.pages: tuple[tuple[str, ...], ...] = ()
        self.page = 0
        self._head = ""
        self._title_rows = 1
        self._at: Region | None = None  # where it is drawn
        self._drawn: tuple[Dock, str] | None = None
        self.open = False
        """A panel is shown (it is drawn once placed)."""

    def show_panel(self, panel: GuidePanel, head: str) -> None:
        """Show `panel` (placed and paged later, by `place`); `head`: its count and pointer."""
        self.panel, self._head, self.page, self.open = panel, head, 0, True
        self._drawn = None
        self.pages, self._title_rows = ((panel.title, *panel.lines),), 1

    def place(self, where: Dock, head: str) -> None:
        """Put the panel at `where`, its text in `where`'s pages (each view asks again: what
        is unchanged is left alone, so a move at the table costs nothing here)."""
        drawn = (where, head)
        if self.display and drawn == self._drawn:
            return
        self._drawn = drawn
        if where.pages != self.pages:
            self.page = 0
        self.pages, self._head, self._title_rows = where.pages, head, where.title_rows
        if where.region != self._at:
            self._uncover()
            self._at = where.region
            x, y, width, height = where.region
            self.styles.offset = (x, y)
            self.styles.width, self.styles.height = width, height
        self._titles()
        self.display = True  # first shown once placed: never a moment where it is not
        self.refresh()

    def next_page(self) -> bool:
        """Esc on a panel with more to read: the next page (True)."""
        if self.page + 1 >= len(self.pages):
            return False
        self.page += 1
        self._titles()
        self.refresh()
        return True

    def hide(self) -> None:
        self.open = self.display = False
        self._uncover()
        self._at = None

    def _uncover(self) -> None:
        """Repaint what the panel covered. Textual repaints a place a hidden or moved widget
        leaves only if its next layout sees the change, and a repaint of widgets that are not
        shown (Spartacus' Arena while a House is) re-arranges the screen first without marking
        that place: what was under the panel would stay as it was drawn over."""
        if self._at is not None and self.is_attached:
            self.screen.refresh(self._at)

    def _titles(self) -> None:
        self.border_title = self._head
        more = len(self.pages) > 1 and self.page + 1 < len(self.pages)
        if more:
            self.border_subtitle = f"Esc more ({self.page + 1}/{len(self.pages)})"
        else:
            self.border_subtitle = "Esc got it  ? again"

    def render(self) -> Content:
        if self.panel is None or not self.pages:
            return Content("")
        lines = [Content(line) for line in self.pages[self.page]]
        if self.page == 0 and lines:  # its first line(s): the title
            title_rows = self._title_rows
            lines[:title_rows] = [line.stylize("bold") for line in lines[:title_rows]]
        return Content("\n").join(lines)


def _region_name(region: str) -> str:
    return REGION_NAMES.get(region, f"the {region}")


class TableGuide:
    """The guide of one table screen: which panel shows, for how long, and where."""

    def __init__(self, screen: Screen[Any], guide: Guide, shown: list[str]) -> None:
        self.screen = screen
        self.guide = guide
        self.shown = shown
        """Keys of the panels shown, in order (kept by the app: shared with later screens)."""
        self.box = GuideBox(id="guide")
        self._view: Mapping[str, Any] | None = None
        self._target: Widget | None = None
        self._shown_at: int | None = None  # the seat's decision number when it showed
        self._asked = False  # shown again by `?`: stays until Esc or the seat's next decision

    @classmethod
    def for_table(
        cls, screen: Screen[Any], table: TableLike, progress: dict[str, list[str]]
    ) -> TableGuide | None:
        """The guide of `table` if it is a guided one (`Lobby.guided`), else None."""
        lobby = getattr(screen.app, "lobby", None)
        game = None if lobby is None else lobby.guided.get(table.id)
        if game is None:
            return None
        return cls(screen, load_guide(game), progress.setdefault(table.id, []))

    @property
    def showing(self) -> GuidePanel | None:
        return self.box.panel if self.box.open else None

    def update(self, view: Mapping[str, Any]) -> None:
        """A new view: the panel shown leaves if its moment has passed; then the one now due
        shows, if any (one at a time: the next waits for Esc or for the moment to pass)."""
        self._view = view
        if view["table"]["you"] is None:
            return  # watching: the guide is the learner's
        showing = self.showing
        if showing is not None and not self._lasts(showing, view):
            self._hide()
        if self.showing is not None:
            self.place_later()  # the screen under it may have changed
            return
        panel = self.guide.due(view, self.shown)
        if panel is not None:
            self.shown.append(panel.key)
            self._show(panel, asked=False)

    def _lasts(self, panel: GuidePanel, view: Mapping[str, Any]) -> bool:
        if self._asked:  # shown again on request: its moment may be past, it stays till Esc
            return bool(view["game"].get("decision") == self._shown_at)
        return panel.lasts(view, self._shown_at)

    def escape(self) -> bool:
        """Esc: the next page of the panel shown, or close it (True), then the next one due."""
        if self.showing is None:
            return False
        if self.box.next_page():
            return True
        self._hide()
        if self._view is not None:
            self.update(self._view)
        return True

    def again(self) -> bool:
        """`?`: show the panel of this moment again (True); with one shown, False (the keys'
        help opens instead)."""
        if self.showing is not None or self._view is None:
            return False
        panel = self.guide.current(self._view, self.shown)
        if panel is None:
            return False
        self._show(panel, asked=True)
        return True

    def place_later(self) -> None:
        """Place the panel once the screen is laid out (a new view, a resize)."""
        if self.showing is not None:
            self.screen.call_after_refresh(self._place)

    def _show(self, panel: GuidePanel, *, asked: bool) -> None:
        assert self._view is not None
        self._asked = asked
        self._shown_at = self._view["game"].get("decision")
        self._highlight(panel.points)
        self.box.show_panel(panel, self._head(panel, ""))
        self.place_later()

    def _head(self, panel: GuidePanel, side: str) -> str:
        number = self.shown.index(panel.key) + 1 if panel.key in self.shown else len(self.shown)
        head = f"Guide {number}/{len(self.guide.panels)}"
        if not side:
            return head
        unicode = getattr(self.screen.app, "unicode", True)
        pointer = (POINTERS if unicode else ASCII_POINTERS)[side]
        return f"{head} {pointer} {_region_name(panel.points)}"

    def _place(self) -> None:
        panel = self.showing
        if panel is None or not self.screen.is_attached:
            return
        free = self._free()
        if free is None:
            return
        target = self._target.region if self._target is not None else None
        if target is not None and not (target.area and self._target and self._target.display):
            target = None
        where = dock(free, target, panel.title, panel.lines)
        if where is None:  # no side has room (a tiny terminal): over the free part
            where = Dock(free, "", ((panel.title, *panel.lines),))
        self.box.place(where, self._head(panel, where.side))

    def _free(self) -> Region | None:
        """The screen between the header and the prompt bar (or the result in its place)."""
        screen = self.screen
        try:
            top = screen.query_one("#header").region.bottom
            bottoms = [w.region for s in BOTTOM for w in screen.query(s)]  # game over: made late
        except NoMatches:
            return None
        shown = [r for r in bottoms if r.area]
        if not shown:
            return None
        bottom = min(r.y for r in shown)
        width = screen.size.width
        return Region(0, top, width, bottom - top) if bottom > top else None

    def _hide(self) -> None:
        self.box.hide()
        self._highlight(None)

    def _highlight(self, region: str | None) -> None:
        if self._target is not None:
            self._target.remove_class(TARGET_CLASS)
            self._target = None
        if region is None:
            return
        selector = REGION_SELECTORS[self.guide.game][region]
        try:
            self._target = self.screen.query_one(selector)
        except NoMatches:
            return
        self._target.add_class(TARGET_CLASS)
