"""Tick any of a list of names (a multi-select table option): dismisses with the ticked names
as a comma-separated list in the list's order ("" for none), or None on Esc."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widget import Widget

from harena.tui.screens.dialog import DialogScreen
from harena.tui.widgets.key_bar import KeyBar


class ChecklistView(Widget):
    DEFAULT_CSS = """
    ChecklistView {
        height: auto;
        width: 1fr;
    }
    """

    def __init__(self, names: list[str], ticked: set[str], warn_above: int | None) -> None:
        super().__init__()
        self.names = names
        self.ticked = ticked
        self.warn_above = warn_above
        self.cursor = 0

    def render(self) -> Content:
        lines = []
        for index, name in enumerate(self.names):
            mark = "[x]" if name in self.ticked else "[ ]"
            line = f"{'>' if index == self.cursor else ' '} {mark} {name.replace('_', ' ')}"
            lines.append(Content.styled(line, "bold reverse" if index == self.cursor else ""))
        count = len(self.ticked)
        note = f"{count} chosen"
        if self.warn_above is not None and count > self.warn_above:
            note += f": more than {self.warn_above} is not recommended (allowed)"
        lines.append(Content.styled(note, "italic"))
        return Content("\n").join(lines)


class ChecklistScreen(DialogScreen[str | None]):
    BINDINGS = [
        Binding("up,k", "move(-1)", "move", key_display="↑↓"),
        Binding("down,j", "move(1)", show=False),
        Binding("space,x", "tick", "tick", key_display="Space"),
        Binding("enter", "done", "done"),
        Binding("escape", "cancel", "cancel"),
    ]

    def __init__(
        self, title: str, names: list[str], value: str, warn_above: int | None = None
    ) -> None:
        super().__init__()
        self.title_text = title
        self.names = names
        self.list = ChecklistView(names, {n for n in value.split(",") if n}, warn_above)

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = self.title_text
            yield self.list
            yield KeyBar(self.BINDINGS, id="checklist-keys")

    def action_move(self, delta: int) -> None:
        self.list.cursor = (self.list.cursor + delta) % len(self.names)
        self.list.refresh()

    def action_tick(self) -> None:  # not `toggle`: DOMNode.action_toggle(attribute) exists
        name = self.names[self.list.cursor]
        self.list.ticked ^= {name}
        self.list.refresh(layout=True)

    def action_done(self) -> None:
        self.dismiss(",".join(n for n in self.names if n in self.list.ticked))

    def action_cancel(self) -> None:
        self.dismiss(None)
