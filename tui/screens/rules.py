"""The rules modal (`r` at a table): one screen of the current phase's rules, in our words.

Which summary opens is decided from the table view alone: the game's name picks the game's
summaries (`core/summaries.py`) and its board view picks the page. Left/Right (or Tab) page
through the other phases, so a newcomer can read ahead; a game without summaries says so.
The summaries are plain ASCII and at most 18 lines of 74 columns (checked when they are
loaded), so the modal fits an 80x24 terminal whatever its character set.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from harena.core.summaries import MAX_WIDTH, Summaries, summaries_for
from harena.tui.screens.dialog import DialogScreen
from harena.tui.widgets.key_bar import KEY_STYLE

NO_SUMMARY = "No summary for this game"


class RulesScreen(DialogScreen[None]):
    DEFAULT_CSS = f"""
    RulesScreen > Vertical {{
        width: {MAX_WIDTH + 4};
    }}
    RulesScreen #rules-text {{
        width: {MAX_WIDTH};
    }}
    """

    BINDINGS = [
        Binding("right,tab", "page(1)", "next page", show=False),
        Binding("left,shift+tab", "page(-1)", "previous page", show=False),
        Binding("escape,r,q", "close", "close", show=False),
    ]

    def __init__(self, view: dict[str, Any]) -> None:
        super().__init__()
        self.summaries: Summaries | None = summaries_for(view["table"]["game"])
        board = view["game"]["board"]
        self.index = 0 if self.summaries is None else self.summaries.index_for(board)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="rules-text")
            yield Static(self._footer(), id="rules-keys")

    def on_mount(self) -> None:
        self._draw()

    @property
    def key(self) -> str | None:
        """The summary shown (None: the game has none)."""
        return None if self.summaries is None else self.summaries.pages[self.index].key

    def _draw(self) -> None:
        box = self.query_one(Vertical)
        body = self.query_one("#rules-text", Static)
        if self.summaries is None:
            box.border_title = "Rules"
            box.border_subtitle = ""
            body.update(NO_SUMMARY)
            return
        pages = self.summaries.pages
        page = pages[self.index]
        box.border_title = page.title
        box.border_subtitle = f"{self.index + 1}/{len(pages)}"
        body.update(Content("\n".join(page.lines)))

    def _footer(self) -> Content:
        close: list[str | tuple[str, str]] = [
            ("Esc", KEY_STYLE),
            " or ",
            ("r", KEY_STYLE),
            ": close",
        ]
        if self.summaries is None or len(self.summaries.pages) < 2:
            return Content.assemble("\n", *close)
        return Content.assemble(
            "\n", ("Left", KEY_STYLE), "/", ("Right", KEY_STYLE), " or ", ("Tab", KEY_STYLE),
            ": the other phases    ", *close,
        )  # fmt: skip

    def action_page(self, step: int) -> None:
        if self.summaries is None:
            return
        self.index = (self.index + step) % len(self.summaries.pages)
        self._draw()

    def action_close(self) -> None:
        self.dismiss(None)
