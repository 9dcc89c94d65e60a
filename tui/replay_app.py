"""The replay screen alone, as an app of its own (`harena replay`): closing it quits."""

from __future__ import annotations

from typing import Any

from textual.app import App

from harena.core.review.reviewer import Reviewer
from harena.core.table import Table
from harena.tui.screens.replay import ReplayScreen


class ReplayApp(App[None]):
    TITLE = "harena replay"
    ENABLE_COMMAND_PALETTE = False
    AUTO_FOCUS = None

    def __init__(
        self, table: Table, *, unicode: bool = True, reviewer: Reviewer | None = None
    ) -> None:
        """`reviewer`: who weighs the finished game for its review (None: nobody)."""
        super().__init__()
        self.reviewer = reviewer
        self.animation_level = "none"
        self.theme = "ansi-dark"
        self.table = table
        self.unicode = unicode

    def on_mount(self) -> None:
        self.push_screen(
            ReplayScreen.for_table(self.table, None, reviewer=self.reviewer), self._replay_closed
        )

    def _replay_closed(self, _: Any) -> None:
        self.exit()
