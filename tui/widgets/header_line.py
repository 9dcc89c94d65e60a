"""The top line of a screen: where you are on the left, a reminder of `?` on the right."""

from __future__ import annotations

from textual.content import Content
from textual.widget import Widget

from harena.tui.widgets.key_bar import KEY_STYLE


class HeaderLine(Widget):
    DEFAULT_CSS = """
    HeaderLine {
        height: 1;
        width: 1fr;
        text-style: bold;
        background: $panel;
    }
    """

    def __init__(self, text: str = "", *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._text = text

    @property
    def text(self) -> str:
        return self._text

    def set_text(self, text: str) -> None:
        if text != self._text:
            self._text = text
            self.refresh()

    def render(self) -> Content:
        width = self.content_size.width
        hint = Content.assemble(("?", KEY_STYLE), " help ")
        room = max(width - hint.cell_length - 1, 0)
        text = self._text if len(self._text) <= room else self._text[: max(room - 1, 0)] + "…"
        return Content.assemble(" ", text, " " * max(room - len(text) - 1, 0), " ", hint)
