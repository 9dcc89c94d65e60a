"""The game-over panel: who won, why, the way back to the lobby and "play again" (core/table/
rematch.py) with its key. Same size as the prompt bar, which it replaces once
view["game"]["result"] is set."""

from __future__ import annotations

from typing import Any

from textual.content import Content
from textual.widget import Widget

from harena.tui.widgets.key_bar import KEY_STYLE
from harena.tui.widgets.seats import seat_label


def result_lines(view: dict[str, Any]) -> list[str]:
    result = view["game"]["result"]
    seats = view["table"]["seats"]
    winners = [seat_label(seats, w) for w in result["winners"]]
    you = view["table"]["you"]
    lines = [
        ("Winner: " if len(winners) == 1 else "Winners (shared): ")
        + (", ".join(winners) or "nobody"),
        f"Reason: {result['reason']}",
    ]
    if you is not None:
        lines.append("You won!" if you in result["winners"] else "You did not win this time.")
    return lines


REMATCH_KEY = "m"
MORE_ON_ONE_LINE = 76  # an 80-column panel's width inside its padding


def keys_line(view: dict[str, Any]) -> Content:
    """The way back to the lobby and, to a player of the game, "play again" as it stands."""
    lobby = Content.assemble(("Esc", KEY_STYLE), " or ", ("Enter", KEY_STYLE), " back to the lobby")
    again = view["table"].get("rematch")
    if again is None or view["table"]["you"] is None:
        return lobby
    key = (REMATCH_KEY, KEY_STYLE)
    if again["table"] == "":
        return Content.assemble(lobby, "   nobody plays again")
    if again["table"] is not None:
        if again.get("answer"):
            return Content.assemble(
                ("Enter", KEY_STYLE),
                f" the rematch, table #{again['table']}   ",
                ("Esc", KEY_STYLE),
                " lobby",
            )
        return Content.assemble(lobby, f"   rematch: table #{again['table']}")
    answer = again.get("answer")
    if answer is None:
        said = f" ({short(', '.join(again['yes']))} said yes)" if again["yes"] else ""
        return Content.assemble(lobby, "   ", key, f" play again?{said}")
    waiting = short(", ".join(again["waiting"]))
    said = "yes" if answer else "no"
    return Content.assemble(
        ("Esc", KEY_STYLE), " lobby   ", key, f" play again: {said}; waiting for {waiting}"
    )


def short(names: str, width: int = 24) -> str:
    """Names as one panel line holds them (80 columns: the rest of the line is keys)."""
    return names if len(names) <= width else names[: width - 1] + "…"


class GameOverPanel(Widget):
    DEFAULT_CSS = """
    GameOverPanel {
        height: 6;
        width: 1fr;
        padding: 0 1;
        border-top: heavy $secondary;
        border-title-align: left;
        display: none;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "GAME OVER"
        self._content = Content("")

    def show_result(
        self,
        view: dict[str, Any],
        own_lines: list[str] | None = None,
        more: tuple[str, str] | None = None,
    ) -> None:
        """`own_lines`: the board's own words for the result (else who won and why); `more`:
        another key offered now, (key, what it does)."""
        lines = [Content.styled(line, "bold") for line in own_lines or result_lines(view)]
        keys = keys_line(view)
        if more is not None:  # (the review's key) on the same line if it fits 80 columns
            extra = Content.assemble((more[0], KEY_STYLE), f" {more[1]}")
            if len(keys.plain) + 3 + len(extra.plain) <= MORE_ON_ONE_LINE:
                keys = Content.assemble(keys, "   ", extra)
            else:
                lines.append(keys)
                keys = extra
        lines.append(keys)
        content = Content("\n").join(lines)
        if content.plain != self._content.plain:
            self._content = content
            self.refresh()

    @property
    def text(self) -> str:
        return self._content.plain

    def render(self) -> Content:
        return self._content
