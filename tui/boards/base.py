"""The base class of board plug-ins (see tui.boards)."""

from __future__ import annotations

from typing import Any

from textual.widget import Widget


class BoardWidget(Widget):
    """Base of every board plug-in. Draw in `show`; keep the widget's size fixed."""

    DEFAULT_CSS = """
    BoardWidget {
        height: 1fr;
        width: 1fr;
        padding: 0 1;
    }
    """

    TITLE = "Board"  # the title of the panel the table screen frames the board in

    def show(self, view: dict[str, Any]) -> None:
        """Draw `view` (Table.view_for: {"table": ..., "game": ...}). Called on every change."""
        raise NotImplementedError
