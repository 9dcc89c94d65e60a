"""Who sits where: one line per seat, with a letter, the state in words and whose turn it is.

Letters (A, B, C...) name seats everywhere in the UI, so nothing depends on colour.
"""

from __future__ import annotations

from typing import Any

from textual.content import Content
from textual.widget import Widget

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
NAME_WIDTH = 14


def seat_letter(seat: int) -> str:
    return LETTERS[seat] if 0 <= seat < len(LETTERS) else str(seat)


def seat_state(seat: dict[str, Any]) -> str:
    """A seat's state in one word."""
    if seat["free"]:
        return "free"
    if seat["bot"] is not None:
        return "bot"
    return "online" if seat["connected"] else "offline"


def seat_label(seats: list[dict[str, Any]], index: int) -> str:
    """"B bob" (or "B free seat"): how a seat is named in prompts and results."""
    if not 0 <= index < len(seats):
        return seat_letter(index)
    seat = seats[index]
    return f"{seat_letter(index)} {seat['name'] or 'free seat'}"


def waiting_seats(game: dict[str, Any]) -> dict[int, list[str]]:
    """Seat -> the kinds of decision it owes, from view["game"]["waiting"]."""
    out: dict[int, list[str]] = {}
    for seat, kind in game.get("waiting", []):
        kinds = out.setdefault(seat, [])
        if kind not in kinds:
            kinds.append(kind)
    return out


class SeatsPanel(Widget):
    """Seats of one table, one line each (frame it in a Panel with rows=seat count)."""

    DEFAULT_CSS = """
    SeatsPanel {
        width: 1fr;
        height: 1fr;
        padding: 0 1;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._content = Content("")

    def show(self, view: dict[str, Any]) -> None:
        table, game = view["table"], view["game"]
        turns = waiting_seats(game) if table["status"] == "playing" else {}
        lines = []
        for index, seat in enumerate(table["seats"]):
            name = seat["name"] or "-"
            if index == table["you"]:
                name = f"{name} (you)"
            turn = "to act" if index in turns else ""
            style = "bold" if index == table["you"] else ""
            lines.append(
                Content.assemble(
                    (f"{seat_letter(index)} ", "bold"),
                    (f"{name[:NAME_WIDTH]:<{NAME_WIDTH}} ", style),
                    f"{seat_state(seat):<8}",
                    (turn, "reverse" if turn else ""),
                )
            )
        content = Content("\n").join(lines)
        if content.plain != self._content.plain:
            self._content = content
            self.refresh()

    @property
    def text(self) -> str:
        return self._content.plain

    def render(self) -> Content:
        return self._content
