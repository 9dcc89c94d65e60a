"""A titled frame around one widget.

The title rule belongs to the frame, not to the widget inside, so when the widget refreshes only
its own cells are sent: the rule (about 130 bytes of box-drawing characters) is drawn once.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widget import Widget


class Panel(Vertical):
    DEFAULT_CSS = """
    Panel {
        height: 1fr;
        width: 1fr;
        border-top: solid $secondary;
        border-title-align: left;
    }
    """

    def __init__(
        self, title: str, body: Widget, *, rows: int | None = None, id: str | None = None
    ) -> None:
        """`rows`: a fixed number of content rows (the rule adds one); else the panel flexes."""
        super().__init__(id=id)
        self.border_title = title
        self.body = body
        if rows is not None:
            self.styles.height = rows + 1

    def compose(self) -> ComposeResult:
        yield self.body

    def set_title(self, title: str) -> None:
        if title != self.border_title:
            self.border_title = title
