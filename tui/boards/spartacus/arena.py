"""The Arena of Spartacus as lines of styled text: a pure function of the board view, drawn like
Carthage's arena (pointy-top hexes in axial coordinates, each row shifted half a hex).

Each combatant is its House's initial and its number (B1, G2: the combatant who started on hex I
or II) in reverse video of the House's colour, so the map reads in monochrome too; the starting
hexes are I and II, the combatant acting now is in brackets, every other hex is a dot.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harena.tui.boards.spartacus.names import HOUSE_STYLES
from harena.tui.widgets.lines_view import Line

PITCH = 4  # columns per hex: a gap, two cells of content, a gap


def hexes(radius: int) -> list[tuple[int, int]]:
    return [
        (q, r)
        for r in range(-radius, radius + 1)
        for q in range(-radius, radius + 1)
        if abs(q + r) <= radius
    ]


def size(radius: int) -> tuple[int, int]:
    """(columns, lines) the map takes."""
    return PITCH * (2 * radius + 1), 2 * radius + 1


def arena_lines(board: Mapping[str, Any], ascii_only: bool = False) -> list[Line]:
    shape = board["arena_board"]
    radius = shape["radius"]
    starts = {tuple(h): name for h, name in zip(shape["starts"], ("I", "II"), strict=False)}
    arena = board.get("arena") or {}
    fighters = arena.get("fighters", [])
    fight = arena.get("fight") or {}
    acting = None
    if fight.get("order"):
        acting = fight["order"][fight["acting"]] if fight["acting"] < len(fight["order"]) else None
    at: dict[tuple[int, int], tuple[int, Mapping[str, Any]]] = {
        tuple(f["at"]): (i, f) for i, f in enumerate(fighters)
    }
    players = board["players"]
    dot = "." if ascii_only else "·"
    width = size(radius)[0]
    lines: list[Line] = []
    for r in range(-radius, radius + 1):
        row = [(q, r) for q, rr in hexes(radius) if rr == r]
        left = (PITCH // 2) * abs(r)
        line: Line = [(" " * left, "")]
        for h in row:
            here = at.get(h)
            if here is not None:
                index, f = here
                house = players[f["seat"]]["house"]
                mark = "[]" if index == acting else "  "
                letter = (house[:1].upper() or "?") + str(index + 1)
                style = f"bold reverse {HOUSE_STYLES.get(house, '')}".strip()
                line += [(mark[0], "bold"), (letter, style), (mark[1], "bold")]
            elif h in starts:
                line.append((f" {starts[h]:<2} ", "dim"))
            else:
                line.append((f" {dot}  ", "dim"))
        used = sum(len(t) for t, _ in line)
        line.append((" " * max(width - used, 0), ""))
        lines.append(line)
    return lines
