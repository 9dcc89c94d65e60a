"""The guided first game at the table: the panel that explains each new moment, and the
highlight on the part of the screen it talks about.

`core/guide.py` decides which panel is due from the seat's view; this shows it over the table
screen (docked away from what it points at, so both are visible), outlines the region it
names, and answers Esc (close it) and `?` (show it again). What was shown is kept per app and
table, so leaving for the lobby and coming back goes on where the player was.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from textual.content import Content
from textual.css.query import NoMatches
from textual.widget import Widget

from harena.core.guide import Guide, GuidePanel, load_guide
from harena.tui.widgets.key_bar import KEY_STYLE

if TYPE_CHECKING:
    from textual.screen import Screen

    from harena.core.table import Table

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
REGION_NAMES = {"prompt": "the prompt bar", "row": "the Action row", "house": "your House"}
LOWER = {"prompt", "hand", "row", "log", "house"}
"""Regions in the screen's lower half: their panel shows at the top, the others' at the
bottom."""


class GuideBox(Widget):
    """One guide panel over the table screen: title in the border, the text, the keys."""

    SCOPED_CSS = False  # the highlight rule below styles other widgets
    DEFAULT_CSS = f"""
    GuideBox {{
        dock: top;
        layer: guide;
        height: auto;
        width: 1fr;
        margin: 1 0 0 0;
        padding: 0 1;
        border: heavy $warning;
        border-title-align: center;
        background: $surface;
        display: none;
    }}
    GuideBox.-bottom {{
        dock: bottom;
        margin: 0 0 1 0;
    }}
    .{TARGET_CLASS} {{
        outline: heavy $warning;
    }}
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.panel: GuidePanel | None = None
        self._where = ""

    def show_panel(self, panel: GuidePanel, where: str, number: int, count: int) -> None:
        self.panel, self._where = panel, where
        self.border_title = f"Guide: {panel.title}"
        self.border_subtitle = f"{number}/{count}"
        self.set_class(panel.points not in LOWER, "-bottom")
        self.display = True
        self.refresh(layout=True)

    def hide(self) -> None:
        self.display = False

    @property
    def text(self) -> str:
        """What the panel says, as plain text (tests read it)."""
        if self.panel is None or not self.display:
            return ""
        return "\n".join([self.panel.title, *self.panel.lines])

    def render(self) -> Content:
        if self.panel is None:
            return Content("")
        keys = Content.assemble(
            ("Esc", KEY_STYLE),
            " got it  ",
            ("?", KEY_STYLE),
            " this again  · highlighted: ",
            self._where,
        )
        return Content("\n").join([*(Content(line) for line in self.panel.lines), keys])


def _region_name(region: str) -> str:
    return REGION_NAMES.get(region, f"the {region}")


class TableGuide:
    """The guide of one table screen: which panel shows, and what it highlights."""

    def __init__(self, screen: Screen[Any], guide: Guide, shown: list[str]) -> None:
        self.screen = screen
        self.guide = guide
        self.shown = shown
        """Keys of the panels shown, in order (kept by the app: shared with later screens)."""
        self.box = GuideBox(id="guide")
        self._view: Mapping[str, Any] | None = None
        self._target: Widget | None = None

    @classmethod
    def for_table(
        cls, screen: Screen[Any], table: Table, progress: dict[str, list[str]]
    ) -> TableGuide | None:
        """The guide of `table` if it is a guided one (`Lobby.guided`), else None."""
        lobby = getattr(screen.app, "lobby", None)
        game = None if lobby is None else lobby.guided.get(table.id)
        if game is None:
            return None
        return cls(screen, load_guide(game), progress.setdefault(table.id, []))

    @property
    def showing(self) -> GuidePanel | None:
        return self.box.panel if self.box.display else None

    def update(self, view: Mapping[str, Any]) -> None:
        """A new view: show the panel now due, if any. One open stays until Esc: the next
        waits for it, so no panel is passed by unread."""
        self._view = view
        if view["table"]["you"] is None or self.showing is not None:
            return  # watching (the guide is the learner's), or a panel is open
        panel = self.guide.due(view, self.shown)
        if panel is not None:
            self.shown.append(panel.key)
            self._show(panel)

    def escape(self) -> bool:
        """Esc: close the panel shown (True), then the next one due, if any."""
        if self.showing is None:
            return False
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
        self._show(panel)
        return True

    def _show(self, panel: GuidePanel) -> None:
        self._highlight(panel.points)
        number = self.guide.panels.index(panel) + 1
        self.box.show_panel(panel, _region_name(panel.points), number, len(self.guide.panels))

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
