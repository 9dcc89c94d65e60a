"""The help modal: every key of the screen it was opened from.

Screens mix in `HelpKeys`, whose `?` action collects the screen's own BINDINGS (with their
tooltips) plus its `HELP_EXTRA` lines, so help and keys come from one list.
"""

from __future__ import annotations

import textwrap
from typing import Any, ClassVar, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from harena.tui.screens.dialog import DialogScreen
from harena.tui.screens.kept import show_kept
from harena.tui.widgets.key_bar import KEY_STYLE, help_entries


class HelpScreen(DialogScreen[None]):
    DEFAULT_CSS = """
    HelpScreen {
        background: transparent;
    }
    HelpScreen > Vertical {
        width: 76;
        max-height: 22;
    }
    HelpScreen VerticalScroll {
        height: auto;
        max-height: 20;
        scrollbar-size-vertical: 1;
    }
    """

    BINDINGS = [
        Binding("escape,question_mark,q,enter", "close", "close help"),
    ]

    def __init__(self, title: str, entries: list[tuple[str, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.entries = entries

    def compose(self) -> ComposeResult:
        width = max((len(keys) for keys, _ in self.entries), default=4) + 2
        lines = [
            Content.assemble((f" {keys:<{width}}", "bold"), "\n".join(hanging(what, width + 1)))
            for keys, what in self.entries
        ]
        lines.append(Content(""))
        lines.append(
            Content.assemble(("Esc", KEY_STYLE), " or ", ("?", KEY_STYLE), " closes this help")
        )
        with Vertical() as box:
            box.border_title = f"Keys: {self.title_text}"
            # Scrolls (arrow keys, PgUp/PgDn) when the list is taller than the terminal.
            with VerticalScroll():
                yield Static(Content("\n").join(lines), id="help-keys")

    def on_mount(self) -> None:
        # So that arrows and PgUp/PgDn scroll it. Pushed as the app exits, the screen mounts
        # without its children: nothing to focus then, and no reason to fail.
        for scroll in self.query(VerticalScroll):
            scroll.focus()

    @property
    def text(self) -> str:
        return "\n".join(f"{keys} {what}" for keys, what in self.entries)

    def action_close(self) -> None:
        self.dismiss(None)


TEXT_WIDTH = 71
"""Columns inside the help box (76 wide: its border, padding and a scroll bar take 5)."""


def hanging(what: str, indent: int) -> list[str]:
    """`what` wrapped after a key column `indent` wide: every further line starts under the
    first word, so a long explanation never runs back under the keys."""
    lines = textwrap.wrap(what, max(TEXT_WIDTH - indent, 20)) or [""]
    return [lines[0], *(" " * indent + line for line in lines[1:])]


class HelpKeys:
    """Mixin for screens: `?` opens the help for this screen."""

    HELP_TITLE: ClassVar[str] = ""
    HELP_EXTRA: ClassVar[list[tuple[str, str]]] = []
    BINDINGS: ClassVar[list[BindingType]]

    def help_entries(self) -> list[tuple[str, str]]:
        return help_entries(type(self).BINDINGS, self.HELP_EXTRA)

    def action_help(self) -> None:
        # One help screen per app and list of keys, installed and shown again: `?` then Esc
        # makes no garbage (a dialog is ~1,600 objects for a full collection to free, and all
        # sessions share the process).
        app = cast("Screen[Any]", self).app  # HelpKeys is mixed into screens
        entries = self.help_entries()
        name = f"help {self.HELP_TITLE} {hash(tuple(entries))}"
        show_kept(app, name, lambda: HelpScreen(self.HELP_TITLE, entries))
