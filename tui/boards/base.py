"""The base class of board plug-ins (see tui.boards)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.widget import Widget

from harena.tui.widgets.made_once import MadeOnce
from harena.tui.widgets.seats import named_seats, seat_names


def _named_log(view: Mapping[str, Any]) -> list[str]:
    names = seat_names(view["table"]["seats"])
    return [named_seats(line, names) for line in view["game"]["log"]]


_log_lines: MadeOnce[list[str]] = MadeOnce()
"""A view's log lines, made once for every session shown that view (`made_once`)."""


class BoardWidget(Widget):
    """Base of every board plug-in. Draw in `show`; keep the widget's size fixed.

    A board may do more than draw the game's board view: take over the whole body of the table
    screen (`OWNS_BODY`), add keys to the screen (`SCREEN_BINDINGS`, whose actions are
    `board('name')` and arrive in `board_action`), answer Enter (`pick`), ask for a second
    press before some choices (`needs_confirm`) and annotate the choice labels the prompt bar
    shows (`prompt_view`). Choices still go through the screen: a board posts `Choose`.
    """

    DEFAULT_CSS = """
    BoardWidget {
        height: 1fr;
        width: 1fr;
        padding: 0 1;
    }
    """

    TITLE = "Board"  # the title of the panel the table screen frames the board in
    SHORT_TITLE: ClassVar[str | None] = None  # the game's name in the header, if its title is long

    OWNS_BODY: ClassVar[bool] = False
    """True: the board lays out the whole body between header and prompt bar, including its own
    players panel, a LogPanel and a ChatPanel; the screen's seats panel is not shown."""

    SCREEN_BINDINGS: ClassVar[list[Binding]] = []
    """Keys the table screen adds while this board is shown (actions: "board('name')")."""

    KEY_BAR_LEAD: ClassVar[list[tuple[str, str]]] = [("1-9,0", "choose"), ("[ ]", "page")]
    """(keys, label) shown first in the key bar."""

    KEY_BAR_WATCHING: ClassVar[list[tuple[str, str]]] = []
    """The lead of a spectator's key bar: only the keys that do something for them."""

    class Choose(Message):
        """The board picked a choice (a direction key, a hex under the cursor)."""

        def __init__(self, choice_id: str) -> None:
            super().__init__()
            self.choice_id = choice_id

    class Say(Message):
        """A line for the status line: what the cursor is on, or why a key did nothing."""

        def __init__(self, text: str, error: bool = False) -> None:
            super().__init__()
            self.text = text
            self.error = error

    def show(self, view: dict[str, Any]) -> None:
        """Draw `view` (Table.view_for: {"table": ..., "game": ...}). Called on every change."""
        raise NotImplementedError

    def show_keys(self, shown: Mapping[str, str]) -> None:
        """The prompt bar's number keys on the page shown, by choice id: a board may draw
        them where those choices lie (Carthage: on the hexes offered)."""

    def help_extra(self) -> list[tuple[str, str]]:
        """More lines for the help screen: symbols, keys that are not bindings."""
        return []

    def help_lead(self) -> list[tuple[str, str]]:
        """Lines the help screen starts with: what the moment on the board asks (empty: none)."""
        return []

    def board_action(self, name: str) -> None:
        """A key of SCREEN_BINDINGS was pressed."""

    def pick(self) -> bool:
        """Enter was pressed with nothing else to do; True if the board used it."""
        return False

    def back(self) -> bool:
        """Esc: back out of a half-made choice, where the rules allow it; True if it did."""
        return False

    def needs_confirm(self, choice_id: str) -> bool:
        """True if `choice_id` should be pressed twice (irreversible and easy to mistype)."""
        return False

    @classmethod
    def seat_label(cls, view: dict[str, Any], seat: int) -> str | None:
        """How the header names a seat (None: the screen's "A alice")."""
        return None

    def idle_text(self, view: dict[str, Any]) -> str | None:
        """What the prompt bar says while this seat has nothing to decide (None: the screen's
        own words)."""
        return None

    def result_lines(self, view: dict[str, Any]) -> list[str] | None:
        """Up to four lines for the game-over panel (None: winner and reason)."""
        return None

    def log_lines(self, view: dict[str, Any]) -> Sequence[Content | str]:
        """The log as this board shows it (e.g. with the players' names and colours); by
        default with every "Seat N" of the game's text named as its player."""
        return _log_lines.get((view,), None, lambda: _named_log(view))

    def prompt_view(self, prompts: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The prompts as the prompt bar should list them (e.g. labels with extra keys)."""
        return prompts
