"""One name per player, everywhere: "ann/Batiatus" (the player and their House), in the House's
colour, in the header, the panels, the prompts and every log line.

The game names a House by its short name ("Batiatus", or "Seat 2" before Houses are chosen);
the table knows who sits there. `relabel` turns the game's words into the players' names, so
the log and the prompts read the same as the panels, and no seat number ever reaches the screen.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from textual.content import Content

from harena.tui.widgets.lines_view import Segment
from harena.tui.widgets.seats import seat_label

# A colour per House (monochrome terminals still read the names).
HOUSE_STYLES: dict[str, str] = {
    "batiatus": "ansi_red",
    "glaber": "ansi_blue",
    "solonius": "ansi_green",
    "tullius": "ansi_yellow",
}

Names = tuple[tuple[str, str, str], ...]  # (the game's word, the player's name, its style)


def player_name(view: Mapping[str, Any], seat: int) -> str:
    """ "ann/Batiatus"; "ann" (a bot: "normal bot 2") before a House is chosen; "Batiatus"
    for an empty seat."""
    board, seats = view["game"]["board"], view["table"]["seats"]
    who = seats[seat]["name"] if 0 <= seat < len(seats) else ""
    players = board.get("players", [])
    house = players[seat]["name"] if 0 <= seat < len(players) and players[seat]["house"] else ""
    if house and 0 <= seat < len(seats) and seats[seat]["bot"] is not None:
        who = "bot"  # "bot/Glaber": the House tells bots apart
    if who and house:
        return f"{who}/{house}"
    return who or house or (seat_label(seats, seat) if 0 <= seat < len(seats) else "a free seat")


def house_style(view: Mapping[str, Any], seat: int) -> str:
    players = view["game"]["board"].get("players", [])
    return HOUSE_STYLES.get(players[seat]["house"], "") if 0 <= seat < len(players) else ""


def name_segment(view: Mapping[str, Any], seat: int, extra: str = "") -> Segment:
    return (player_name(view, seat), f"{house_style(view, seat)} {extra}".strip())


def names_of(view: Mapping[str, Any]) -> Names:
    """What `relabel` replaces: each House's short name (or "Seat N") by its player's name."""
    out = []
    for p in view["game"]["board"].get("players", []):
        seat = p["seat"]
        out.append((p["name"], player_name(view, seat), house_style(view, seat)))
        if p["house"]:
            out.append((f"Seat {seat + 1}", player_name(view, seat), house_style(view, seat)))
    return tuple(out)


@lru_cache(maxsize=64)
def _pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    # "House of Batiatus" names the House, not the player: it is left as printed.
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(House of )?\b({alternatives})\b")


@lru_cache(maxsize=4096)
def relabel_segments(text: str, names: Names) -> tuple[Segment, ...]:
    """`text` with every House named as its player ("Glaber attacks" -> "bob/Glaber attacks")."""
    if not names:
        return ((text, ""),)
    lookup = {word: (name, style) for word, name, style in names}
    out: list[Segment] = []
    at = 0
    for match in _pattern(tuple(lookup)).finditer(text):
        if match.group(1):
            continue
        name, style = lookup[match.group(2)]
        out.append((text[at : match.start()], ""))
        out.append((name, style))  # colour only: bold would cost every log line more bytes
        at = match.end()
    out.append((text[at:], ""))
    return tuple(s for s in out if s[0])


def relabel(text: str, names: Names) -> str:
    return "".join(t for t, _ in relabel_segments(text, names))


@lru_cache(maxsize=4096)
def relabel_content(text: str, names: Names) -> Content:
    return Content.assemble(*[(t, s) if s else t for t, s in relabel_segments(text, names)])
