"""The frame every modal dialog shares: centred, rounded border, title in the border."""

from __future__ import annotations

from typing import TypeVar

from textual.screen import ModalScreen

ResultType = TypeVar("ResultType")


class DialogScreen(ModalScreen[ResultType]):
    """Base of harena's modals; a subclass sets only what differs (e.g. its width)."""

    DEFAULT_CSS = """
    DialogScreen {
        align: center middle;
    }
    DialogScreen > Vertical {
        width: 64;
        height: auto;
        border: round $secondary;
        border-title-align: center;
        padding: 0 1;
        background: $surface;
    }
    """
