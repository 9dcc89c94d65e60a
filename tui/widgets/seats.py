"""Who sits where: one line per seat, with the player's name, the state in words and whose turn
it is. A player has one name everywhere (their own, or what a board adds to it: a House, a
gladiator), never a seat number or letter.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from textual.content import Content

from harena.tui.widgets.made_once import MadeOnce
from harena.tui.widgets.rows import RowsWidget

NAME_WIDTH = 14


def seat_state(seat: dict[str, Any]) -> str:
    """A seat's state in one word."""
    if seat["free"]:
        return "free"
    if seat["bot"] is not None:
        return "bot"
    if seat.get("stand_in"):
        return "bot in"  # a bot plays for this player until they take the seat back
    return "online" if seat["connected"] else "offline"


def seat_label(seats: list[dict[str, Any]], index: int) -> str:
    """ "bob" (or "the free seat"): how a seat is named in prompts and results."""
    if not 0 <= index < len(seats):
        return "a player"
    return seat_names(seats)[index]


def seat_names(seats: list[dict[str, Any]]) -> tuple[str, ...]:
    """Each seat's name as a log line says it: its player's or bot's (the table numbers bots
    that share a level), "the free seat" for the only one nobody holds yet, "free seat 1",
    "free seat 2"... when several are free (a game rolls for them all when it is made)."""
    free = [i for i, seat in enumerate(seats) if not seat["name"]]
    if len(free) == 1:
        return tuple(seat["name"] or "the free seat" for seat in seats)
    number = {index: k for k, index in enumerate(free, start=1)}
    return tuple(seat["name"] or f"free seat {number[i]}" for i, seat in enumerate(seats))


_SEAT_WORD = re.compile(r"\bSeat (\d+)\b")


def named_seats(line: str, names: tuple[str, ...]) -> str:
    """A game's log line with "Seat 2" (how a game names a player before they have chosen a
    gladiator or a House) read as that seat's player; other lines are returned as they are,
    the same object, so a log panel keeps what it made of them."""
    return _named_seats(line, names) if "Seat " in line else line


@lru_cache(maxsize=1024)
def _named_seats(line: str, names: tuple[str, ...]) -> str:
    def name(match: re.Match[str]) -> str:
        index = int(match.group(1)) - 1
        return (names[index] or "a free seat") if 0 <= index < len(names) else match.group(0)

    return _SEAT_WORD.sub(name, line)


def waiting_seats(game: dict[str, Any]) -> dict[int, list[str]]:
    """Seat -> the kinds of decision it owes, from view["game"]["waiting"]."""
    out: dict[int, list[str]] = {}
    for seat, kind in game.get("waiting", []):
        kinds = out.setdefault(seat, [])
        if kind not in kinds:
            kinds.append(kind)
    return out


_seat_lines: MadeOnce[list[Content]] = MadeOnce()


class SeatsPanel(RowsWidget):
    """Seats of one table, one line each (frame it in a Panel with rows=seat count); a move
    repaints only the seats whose line changed."""

    DEFAULT_CSS = """
    SeatsPanel {
        width: 1fr;
        height: 1fr;
        padding: 0 1;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._lines: list[Content] = []
        self._made: dict[tuple[int, str, bool, str, str], Content] = {}

    def show(self, view: dict[str, Any]) -> None:
        # (the lines of a view made once for every session shown it: `made_once`)
        self._lines = _seat_lines.get((view,), None, lambda: self._seat_lines(view))
        self.update_rows()

    def _seat_lines(self, view: dict[str, Any]) -> list[Content]:
        table, game = view["table"], view["game"]
        turns = waiting_seats(game) if table["status"] == "playing" else {}
        made, self._made = self._made, {}
        lines = []
        for index, seat in enumerate(table["seats"]):
            turn = "to act" if index in turns else ""
            key = (index, seat["name"], index == table["you"], seat_state(seat), turn)
            line = made.get(key) or self._seat_line(*key)
            self._made[key] = line
            lines.append(line)
        return lines

    @staticmethod
    def _seat_line(index: int, name: str, you: bool, state: str, turn: str) -> Content:
        name = name or "-"
        if you:
            name = f"{name} (you)"
        style = "bold" if you else ""
        return Content.assemble(
            (f"{name[:NAME_WIDTH]:<{NAME_WIDTH}} ", style),
            f"{state:<8}",
            (turn, "reverse" if turn else ""),
        )

    @property
    def text(self) -> str:
        return "\n".join(line.plain for line in self._lines)

    def build_rows(self, width: int, height: int) -> list[Content]:
        return self._lines
