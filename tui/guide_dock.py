"""Where a guide panel goes on the table screen: beside what it explains, never over it.

A guide panel is a companion: it may cover what the moment needs least (the log, the chat,
other panels), never the prompt bar (its header and choices: no key may act on a choice the
player cannot see), nor the region it talks about. So it is placed in the free part of the
screen (between the header and the prompt bar) on one side of that region (above, below, left
or right of it), the side where its text needs the fewest pages and covers the least; its text
is wrapped to that width and paged if it must be. Pure geometry: tests read it without Textual.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass

from textual.geometry import Region

FRAME = 4
"""Columns a panel spends beside its text: the border's two and a padding of one each side."""
MIN_TEXT_WIDTH = 24
MAX_WIDTH = 80
"""A panel is at most this wide on a large screen: lines longer than that are hard to read."""
POINTERS = {"above": "▲", "below": "▼", "left": "◀", "right": "▶"}
ASCII_POINTERS = {"above": "^", "below": "v", "left": "<", "right": ">"}
"""How the panel's title shows where its region is, seen from the panel."""


@dataclass(frozen=True)
class Dock:
    region: Region
    """Where the panel is drawn, on the screen."""
    side: str
    """Where the region it explains is, seen from the panel: above, below, left, right ('' for
    no region on screen)."""
    pages: tuple[tuple[str, ...], ...]
    """The title and text wrapped to the panel's width, in pages that fit its height."""
    title_rows: int = 1
    """The first page's lines that are the title."""


def paragraphs(text: Sequence[str]) -> list[str]:
    """The lines of a guide text as paragraphs: a blank line ends one."""
    out: list[str] = []
    current: list[str] = []
    for line in text:
        if line.strip():
            current.append(line.strip())
        elif current:
            out.append(" ".join(current))
            current = []
    if current:
        out.append(" ".join(current))
    return out


def wrap(title: str, text: Sequence[str], width: int) -> list[str]:
    """The panel's lines at `width` columns: the title first, then the text."""
    lines = textwrap.wrap(title, width) or [""]
    for paragraph in paragraphs(text):
        lines += textwrap.wrap(paragraph, width, break_on_hyphens=False)
    return lines


def dock(free: Region, target: Region | None, title: str, text: Sequence[str]) -> Dock | None:
    """Where the panel goes: within `free` (the screen between the header and the prompt bar),
    beside `target` (the region it explains, if it is on screen; outside `free`, as the prompt
    bar is, the panel sits on free's edge nearest it). None if no side has room."""
    best: tuple[tuple[int, int], Dock] | None = None
    for side, room in _sides(free, target):
        width = min(room.width, MAX_WIDTH)
        if width - FRAME < MIN_TEXT_WIDTH or room.height < 3:
            continue
        lines = wrap(title, text, width - FRAME)
        rows = min(len(lines), room.height - 2)
        pages = tuple(tuple(lines[i : i + rows]) for i in range(0, len(lines), rows))
        region = _beside(side, room, target, width, rows + 2)
        score = (len(pages), region.area)  # fewest pages, then the least covered
        if best is None or score < best[0]:
            title_rows = len(textwrap.wrap(title, width - FRAME)) or 1
        best = (score, Dock(region, "" if target is None else side, pages, title_rows))
    return None if best is None else best[1]


def _sides(free: Region, target: Region | None) -> list[tuple[str, Region]]:
    """The parts of `free` on each side of `target` (the side says where the target is, seen
    from that part)."""
    if target is None:
        return [("below", free)]
    if target.y >= free.bottom:  # the prompt bar: the whole free part is above it
        return [("below", free)]
    if target.bottom <= free.y:
        return [("above", free)]
    top, bottom = max(target.y, free.y), min(target.bottom, free.bottom)
    left, right = max(target.x, free.x), min(target.right, free.right)
    return [
        ("below", Region(free.x, free.y, free.width, top - free.y)),
        ("above", Region(free.x, bottom, free.width, free.bottom - bottom)),
        ("right", Region(free.x, free.y, left - free.x, free.height)),
        ("left", Region(right, free.y, free.right - right, free.height)),
    ]


def _beside(side: str, room: Region, target: Region | None, width: int, height: int) -> Region:
    """A `width` x `height` region in `room`, touching the target on `side`."""
    if target is None:
        return Region(room.x, room.bottom - height, width, height)
    x = min(max(target.x, room.x), room.right - width)
    y = min(max(target.y, room.y), room.bottom - height)
    if side == "below":  # the target is below the panel
        return Region(x, room.bottom - height, width, height)
    if side == "above":
        return Region(x, room.y, width, height)
    if side == "right":
        return Region(room.right - width, y, width, height)
    return Region(room.x, y, width, height)
