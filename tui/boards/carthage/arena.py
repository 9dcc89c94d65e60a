"""The hex arena as lines of styled text: pure functions of the board view, testable without
Textual.

Hexes are pointy-top in axial coordinates (q east, r south-east), so a row of the screen is a
fixed r and each row is shifted half a hex from the one above. A hex is a cell `pitch` columns
wide: one gap column on each side of its content. The gaps carry meaning without colour: `[ ]`
is the cursor, `( )` a face-down token, and in the Chained Match the chain between teammates
(`─ ╱ ╲`, ASCII `- / \\`, in the team's colour) runs through the gaps of the hexes it links.
Gladiators are their colour's initial (B R G Y P) in reverse video of their colour; tokens are
a symbol and their value. The Essedari Maximo (solo and co-op) is his chariot, `Ж` (`#` in
ASCII), in bold reverse video.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from harena.core.carthage.hexgrid import Hex as GridHex
from harena.core.carthage.hexgrid import hex_name
from harena.tui.boards.carthage import catalog
from harena.tui.boards.carthage.catalog import ArenaShape, Hex
from harena.tui.widgets.lines_view import Line

# Direction name -> axial offset, clockwise from north-east (core.carthage.hexgrid's order).
DIRECTIONS: dict[str, Hex] = {
    "NE": (1, -1),
    "E": (1, 0),
    "SE": (0, 1),
    "SW": (-1, 1),
    "W": (-1, 0),
    "NW": (0, -1),
}
# The keys that step in each direction: around `s` on a QWERTY keyboard they form a hexagon.
DIRECTION_KEYS: dict[str, str] = {"NW": "w", "NE": "e", "W": "a", "E": "d", "SW": "z", "SE": "x"}

COLOUR_STYLES: dict[str, str] = {
    "blue": "ansi_blue",
    "red": "ansi_red",
    "green": "ansi_green",
    "yellow": "ansi_yellow",
    "purple": "ansi_magenta",
}
# Team 1, Team 2 (core/carthage/teams.py): colours no gladiator wears; the number says it too.
TEAM_STYLES: tuple[str, ...] = ("bold ansi_bright_cyan", "bold ansi_bright_white")
# A chain link through the gaps, by the direction from the upper (or western) hex to the other:
# which gap of each hex it takes, and its glyph (Unicode, ASCII), slanted as the two hexes lie.
LINK_GAPS: dict[str, tuple[str, str, tuple[str, str]]] = {
    "E": ("right", "left", ("─", "-")),
    "SE": ("right", "left", ("╲", "\\")),
    "SW": ("left", "right", ("╱", "/")),
}


class Scale(NamedTuple):
    """How big a hex is drawn: `pitch` columns per hex (even: rows shift by half of it) and
    `row_step` lines per row of hexes."""

    pitch: int
    row_step: int

    @property
    def content(self) -> int:
        return self.pitch - 2


CHARIOT = ("Ж", "#")  # the Essedari Maximo: Unicode, ASCII


def chariot_at(board: Mapping[str, Any]) -> Hex | None:
    ess = board.get("essedari")
    return None if ess is None else (ess["at"][0], ess["at"][1])


COMPACT = Scale(4, 1)  # 61 hexes in 36x9: fits 80x24 beside the panels
LARGE = Scale(6, 2)  # 54x17, from about 120x40


def letter(colour: str) -> str:
    """B R G Y P; "-" before the gladiator is chosen."""
    return colour[:1].upper() or "-"


def position(shape: ArenaShape, scale: Scale, h: Hex) -> tuple[int, int]:
    """Screen (x, y) of the first column (the left gap) of hex `h`."""
    left = min(scale.pitch * q + scale.pitch // 2 * r for q, r in shape.hexes)
    top = min(r for _, r in shape.hexes)
    q, r = h
    return scale.pitch * q + scale.pitch // 2 * r - left, (r - top) * scale.row_step


def size(shape: ArenaShape, scale: Scale) -> tuple[int, int]:
    """Columns and lines the arena takes at `scale`."""
    xs, ys = zip(*(position(shape, scale, h) for h in shape.hexes), strict=False)
    return max(xs) + scale.pitch, max(ys) + 1


def hex_at(shape: ArenaShape, scale: Scale, x: int, y: int) -> Hex | None:
    """The hex drawn at screen cell (x, y), gaps included; None off the hexes."""
    for h in shape.hexes:
        hx, hy = position(shape, scale, h)
        if hy == y and hx <= x < hx + scale.pitch:
            return h
    return None


def add(h: Hex, d: Hex) -> Hex:
    return h[0] + d[0], h[1] + d[1]


def direction_between(a: Hex, b: Hex) -> str | None:
    """The direction name from `a` to the adjacent hex `b`, or None when not adjacent."""
    offset = (b[0] - a[0], b[1] - a[1])
    return next((name for name, d in DIRECTIONS.items() if d == offset), None)


# --- what stands where ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Occupant:
    seat: int
    colour: str
    beast: str | None = None  # an Arena Beast's id: drawn with the Beast glyph


@dataclass(frozen=True)
class BoardToken:
    token: str
    face_up: bool


def occupants(board: Mapping[str, Any]) -> dict[Hex, Occupant]:
    return {
        (p["at"][0], p["at"][1]): Occupant(p["seat"], p["colour"], p.get("beast"))
        for p in board["players"]
        if p["at"] is not None and (p["alive"] or p.get("beast"))
    }


def board_tokens(board: Mapping[str, Any]) -> dict[Hex, BoardToken]:
    return {(t["at"][0], t["at"][1]): BoardToken(t["token"], t["face_up"]) for t in board["tokens"]}


def token_text(token_id: str, ascii_only: bool) -> str:
    """Two cells: symbol and value ("★2"), or the symbol twice for valueless tokens ("██")."""
    info = catalog.token(token_id)
    symbol = info.symbol(ascii_only)
    if info.kind in ("favor", "armor", "damage", "movement", "king_of_the_hill"):
        return f"{symbol}{info.value}"[:2]
    return symbol * 2


def team_of(board: Mapping[str, Any], seat: int) -> int | None:
    """The seat's team index in a team mode, None otherwise."""
    teams = board.get("teams")
    if not teams:
        return None
    return next((k for k, seats in enumerate(teams["members"]) if seat in seats), None)


Gaps = dict[tuple[Hex, str], tuple[str, str]]  # (hex, "left"|"right") -> (glyph, style)


def chain_gaps(board: Mapping[str, Any], ascii_only: bool) -> Gaps:
    """The gap cells the chains of a Chained Match take: each link of the path from one
    teammate through the view's `via` hex (when two apart) to the other."""
    teams = board.get("teams")
    out: Gaps = {}
    if not teams:
        return out
    for chain in teams["chains"]:
        a, b = (board["players"][seat]["at"] for seat in chain["seats"])
        path = [tuple(a), *([tuple(chain["via"])] if chain["via"] else []), tuple(b)]
        style = TEAM_STYLES[(team_of(board, chain["seats"][0]) or 0) % len(TEAM_STYLES)]
        for here, there in itertools.pairwise(path):
            name = direction_between(here, there)
            if name not in LINK_GAPS:
                here, there = there, here
                name = direction_between(here, there)
            if name not in LINK_GAPS:
                continue  # not adjacent: a view from another version of the rules
            first, second, glyphs = LINK_GAPS[name]
            glyph = glyphs[1 if ascii_only else 0]
            out[(here, first)] = (glyph, style)
            out[(there, second)] = (glyph, style)
    return out


def describe_hex(board: Mapping[str, Any], h: Hex, shape: ArenaShape | None = None) -> str:
    """The hex under the cursor in words: where it is, who stands there, which token."""
    shape = shape or catalog.arena()
    if h == shape.centre:
        where = "centre"
    elif h in shape.inner_circle:
        where = "Inner Circle"
    elif h in shape.edge:
        where = "outer edge"
    else:
        where = "arena"
    parts = [f"{hex_name(GridHex(*h), GridHex(*shape.centre))} ({where})"]
    who = occupants(board).get(h)
    if who is not None:
        player = board["players"][who.seat]
        mark = catalog.BEAST_GLYPH[0] if who.beast else letter(who.colour)
        parts.append(f"{mark} {player['name']}, Armor {player['armor']}")
    if h == chariot_at(board):
        parts.append(f"the Essedari Maximo, Armor {board['essedari']['armor']}")
    token = board_tokens(board).get(h)
    if token is not None:
        info = catalog.token(token.token)
        parts.append(f"{info.name} token, face {'up' if token.face_up else 'down'}")
    return parts[0] + (": " + "; ".join(parts[1:]) if len(parts) > 1 else "")


# --- drawing --------------------------------------------------------------------------------------


def cell(
    h: Hex,
    scale: Scale,
    shape: ArenaShape,
    standing: Mapping[Hex, Occupant],
    on_board: Mapping[Hex, BoardToken],
    hints: Mapping[Hex, str],
    cursor: Hex | None,
    ascii_only: bool,
    gaps: Gaps | None = None,
    chariot: Hex | None = None,
) -> Line:
    """One hex: left gap, content, right gap (a chain may take a gap: `gaps`)."""
    width = scale.content
    who, token, hint = standing.get(h), on_board.get(h), hints.get(h)
    token_str = token_text(token.token, ascii_only) if token is not None else ""
    if h == chariot:
        mark = CHARIOT[1 if ascii_only else 0]
        body = mark * 2 if width == 2 else f"{mark}{mark}{mark}"[:width]
        style = "bold reverse"
    elif who is not None:
        mark = catalog.BEAST_GLYPH[1 if ascii_only else 0] if who.beast else letter(who.colour)
        body = (
            mark + token_str if width == 2 else (f"{mark} {token_str}" if token_str else f" {mark}")
        )
        style = f"bold reverse {COLOUR_STYLES.get(who.colour, '')}".strip()
    elif hint is not None:
        body = hint + (" " if width > 2 else "") + (token_str[:1] if width == 2 else token_str)
        style = "bold underline"
    elif token is not None:
        body = token_str if width == 2 else f" {token_str}"
        style = "bold" if token.face_up else "dim"
    else:
        if h == shape.centre:
            mark, style = ("@" if ascii_only else "◎"), "ansi_red"
        elif h in shape.inner_circle:
            mark, style = (":" if ascii_only else "∘"), "ansi_red"
        else:
            mark, style = ("." if ascii_only else "·"), "dim"
        body = mark if width == 2 else f" {mark}"
    body = body[:width].ljust(width)
    if h == cursor:
        left, right, gap_style = "[", "]", "bold"
    elif token is not None and not token.face_up and who is None:
        left, right, gap_style = "(", ")", "dim"
    elif gaps and ((h, "left") in gaps or (h, "right") in gaps):
        left, left_style = gaps.get((h, "left"), (" ", ""))
        right, right_style = gaps.get((h, "right"), (" ", ""))
        return [(left, left_style), (body, style), (right, right_style)]
    else:
        left, right, gap_style = " ", " ", ""
    return [(left, gap_style), (body, style), (right, gap_style)]


def compass_lines(ascii_only: bool) -> list[str]:
    """The six direction keys as they lie around `s` on the keyboard."""
    centre = "*"
    k = DIRECTION_KEYS
    return [f" {k['NW']} {k['NE']}", f"{k['W']} {centre} {k['E']}", f" {k['SW']} {k['SE']}"]


def arena_lines(
    board: Mapping[str, Any],
    *,
    scale: Scale = COMPACT,
    cursor: Hex | None = None,
    hints: Mapping[Hex, str] | None = None,
    ascii_only: bool = False,
    compass: bool = True,
    shape: ArenaShape | None = None,
) -> list[Line]:
    """The arena as lines of (text, style) segments, each line as wide as the arena.

    Args:
        board: view["game"]["board"] of Carthage.
        cursor: the hex to bracket.
        hints: a one-cell mark per hex (the direction key of a legal step, a legal placement).
        compass: draw the direction keys in the top-left corner when it is empty.
    """
    shape = shape or catalog.arena()
    width, height = size(shape, scale)
    standing, on_board, chariot = occupants(board), board_tokens(board), chariot_at(board)
    gaps = chain_gaps(board, ascii_only)
    rows: list[list[tuple[int, Line]]] = [[] for _ in range(height)]
    for h in shape.hexes:
        x, y = position(shape, scale, h)
        line = cell(
            h, scale, shape, standing, on_board, hints or {}, cursor, ascii_only, gaps, chariot
        )
        rows[y].append((x, line))
    if compass:
        _add_compass(rows, compass_lines(ascii_only))
    return [_join(row, width) for row in rows]


def _add_compass(rows: list[list[tuple[int, Line]]], lines: list[str]) -> None:
    """Put the compass at the left of the first lines, if no hex is drawn there."""
    if len(rows) < len(lines):
        return
    for y, text in enumerate(lines):
        if any(x < len(text) for x, _ in rows[y]):
            return
    for y, text in enumerate(lines):
        rows[y].insert(0, (0, [(text, "bold")]))


def _join(row: Iterable[tuple[int, Line]], width: int) -> Line:
    out: Line = []
    at = 0
    for x, segments in sorted(row, key=lambda item: item[0]):
        if x > at:
            out.append((" " * (x - at), ""))
        for text, style in segments:
            out.append((text, style))
            at = max(at, x) + len(text)
            x = at
    if at < width:
        out.append((" " * (width - at), ""))
    return out


def plain(lines: Iterable[Line]) -> list[str]:
    """The text of drawn lines, without styles (tests, snapshots)."""
    return ["".join(text for text, _ in line) for line in lines]


# --- the cursor -----------------------------------------------------------------------------------


def cursor_step(shape: ArenaShape, scale: Scale, h: Hex, key: str, column: int) -> tuple[Hex, int]:
    """Move the cursor by an arrow key. Left/right go along the row; up/down go to the row above
    or below, to the hex nearest `column` (the column the cursor started from, so going up and
    down does not drift sideways). Returns the new hex and column; at the edge it stays."""
    x, _y = position(shape, scale, h)
    if key in ("left", "right"):
        target = add(h, DIRECTIONS["W" if key == "left" else "E"])
        if target in shape.hexes:
            return target, position(shape, scale, target)[0]
        return h, x
    dy = -1 if key == "up" else 1
    candidates = [c for c in shape.hexes if c[1] == h[1] + dy]
    if not candidates:
        return h, column
    best = min(candidates, key=lambda c: (abs(position(shape, scale, c)[0] - column), c[0]))
    return best, column
