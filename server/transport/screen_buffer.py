"""What one client's terminal shows, cell by cell, so that only changed cells are sent.

Textual sends a whole widget region whenever a widget refreshes, and the whole screen whenever
the layout is refreshed (a screen switch, a resize, a widget that changes size), each span framed
with cursor moves and colour resets. Over SSH that is most of the traffic: a move at a table
rewrote ~2.8 KB per watcher although ~40 cells changed.

`ScreenBuffer` keeps two grids of cells (a character and a style key per cell): `target`, what
Textual last painted, and `client`, what the terminal is known to show (a row the client shows
as the target has it is one list in both, copied when the target's is written). Compositor updates are
written into `target` (`apply`); `render()` returns the escape sequences that bring the terminal
from `client` to `target`: only changed cells, grouped in runs, one SGR sequence per change of
style, erase-to-end-of-line for blank line ends. A repaint that changes no cell (Textual's second
full paint of a screen switch, a widget refreshed with the same content) sends nothing.

Style keys are the SGR parameters of a cell's style in the session's colour system with default
colours (39/49) dropped: every SGR sequence written here starts with a reset, which sets those.
Cells of a double-width character are the character followed by an empty string.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable

from rich.cells import _is_single_cell_widths, split_graphemes
from rich.color import ColorSystem
from rich.style import Style
from textual._compositor import ChopsUpdate, LayoutUpdate
from textual.cache import LRUCache
from textual.geometry import Region
from textual.strip import Strip

from harena.server.hosting.textual_fixes import sgr_codes

CompositorPaint = LayoutUpdate | ChopsUpdate

UNKNOWN = "\x00unknown"
"""A client cell whose content is not known: it never equals a target cell."""
BLANK_KEY = ""
MERGE_GAP = 5
"""Unchanged cells between two changed runs of a row that are re-sent rather than jumped over."""
ERASE_MIN = 4
"""Blank cells at the end of a run written as erase-to-end-of-line once at least this many."""
CLEAR_SCREEN = "\x1b[0m\x1b[2J"


@functools.lru_cache(maxsize=4096)
def _normalized_sgr(codes: str) -> str:
    """SGR parameters without the default colours 39 and 49 (implied by the leading reset)."""
    tokens = codes.split(";")
    kept: list[str] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token in ("38", "48", "58") and index + 1 < len(tokens):
            width = 3 if tokens[index + 1] == "5" else 5
            kept.extend(tokens[index : index + width])
            index += width
            continue
        if token not in ("39", "49", ""):
            kept.append(token)
        index += 1
    return ";".join(kept)


@functools.lru_cache(maxsize=8192)
def style_key(style: Style | None, color_system: ColorSystem) -> str:
    """The key that decides whether two cells look the same: SGR parameters (and the link)."""
    if style is None:
        return BLANK_KEY
    key = _normalized_sgr(sgr_codes(style, color_system))
    if style._link:
        key = f"{key}\x00{style._link_id}\x00{style._link}"
    return key


def _sgr(key: str) -> str:
    codes = key.split("\x00", 1)[0]
    return f"\x1b[0;{codes}m" if codes else "\x1b[0m"


def _link(key: str) -> str:
    parts = key.split("\x00")
    return parts[2] if len(parts) == 3 else ""


def _link_sequence(key: str) -> str:
    parts = key.split("\x00")
    if len(parts) != 3:
        return "\x1b]8;;\x1b\\"
    return f"\x1b]8;id={parts[1]};{parts[2]}\x1b\\"


MAX_STRIP_CELLS = 1024
"""Strips whose cells are kept (with the strip itself), least recently used dropped first."""

_strip_cells: LRUCache[tuple[int, str], tuple[Strip, list[str], list[str]]] = LRUCache(
    MAX_STRIP_CELLS
)


def strip_cells(strip: Strip, color_system: ColorSystem) -> tuple[list[str], list[str]]:
    """A strip as cells and their style keys, worked out once per strip and colour system.

    Sessions that show the same lines paint the same strip objects (`tui.widgets.shared_lines`,
    Textual's `Strip.divide` cache), so the cells of a line are made once for all of them. The
    cache holds the strip, so the id in its key cannot be reused while the entry lives."""
    key = (id(strip), color_system.name)
    entry = _strip_cells.get(key)
    if entry is None or entry[0] is not strip:
        chars: list[str] = []
        keys: list[str] = []
        for text, style, control in strip:
            if control or not text:
                continue
            cells = list(text) if _is_single_cell_widths(text) else _cells(text)
            chars.extend(cells)
            keys.extend([style_key(style, color_system)] * len(cells))
        entry = (strip, chars, keys)
        _strip_cells.set(key, entry)
    return entry[1], entry[2]


def _cells(text: str) -> list[str]:
    """Text as terminal cells: a wide character is followed by "" (its right half); zero-width
    characters join the cell before them."""
    spans, _width = split_graphemes(text)
    cells: list[str] = []
    for start, end, width in spans:
        grapheme = text[start:end]
        if width == 0:
            if cells:
                cells[-1 if cells[-1] else -2] += grapheme
            continue
        cells.append(grapheme)
        if width == 2:
            cells.append("")
    return cells


class ScreenBuffer:
    """The target screen (Textual's last paint) and the client's screen, for one session."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self._target_chars = [[" "] * width for _ in range(height)]
        self._target_keys = [[BLANK_KEY] * width for _ in range(height)]
        self._client_chars = [[UNKNOWN] * width for _ in range(height)]
        self._client_keys = [[UNKNOWN] * width for _ in range(height)]
        self._dirty: dict[int, tuple[int, int]] = {}
        self._must_clear = True
        self._sgr: str | None = None  # the terminal's current style key, None: unknown
        self._cursor: tuple[int, int] | None = None  # the terminal's cursor, None: unknown
        self._cursor_sent: tuple[int, int] | None = None  # the last `cursor` rendered
        self.cursor = (0, 0)
        """Where the terminal's cursor should be after a render (Textual's cursor position)."""
        self._painted = False  # nothing to render before the first paint
        self.invalidate()

    # ------------------------------------------------------------------ state

    @property
    def pending(self) -> bool:
        """True if a render would write something."""
        return self._painted and (
            bool(self._dirty) or self._must_clear or self.cursor != self._cursor_sent
        )

    def invalidate(self) -> None:
        """The terminal's content is unknown: the next render clears it and repaints everything."""
        self._must_clear = True
        self._sgr = None
        self._cursor = None
        self._dirty = {y: (0, self.width) for y in range(self.height)}

    def forget(self) -> None:
        """Something else wrote on the terminal: compare every later paint with nothing."""
        for y in range(self.height):
            self._client_chars[y] = [UNKNOWN] * self.width
            self._client_keys[y] = [UNKNOWN] * self.width
        self._must_clear = False
        self._sgr = None
        self._cursor = None

    def resize(self, width: int, height: int) -> None:
        """New terminal size: keep what fits of the target, repaint everything on the next render."""
        if (width, height) == (self.width, self.height):
            return

        def fit(rows: list[list[str]], fill: str) -> list[list[str]]:
            rows = [(row + [fill] * width)[:width] for row in rows[:height]]
            return rows + [[fill] * width for _ in range(height - len(rows))]

        self._target_chars = fit(self._target_chars, " ")
        self._target_keys = fit(self._target_keys, BLANK_KEY)
        self._client_chars = [[UNKNOWN] * width for _ in range(height)]
        self._client_keys = [[UNKNOWN] * width for _ in range(height)]
        self.width, self.height = width, height
        self.invalidate()

    # ------------------------------------------------------------------ painting

    def apply(self, update: CompositorPaint, color_system: ColorSystem) -> bool:
        """Write a compositor update into the target; True if it covered the whole screen."""
        self._painted = True
        if isinstance(update, LayoutUpdate):
            x0, y0 = update.region.x, update.region.y
            for y, line in enumerate(update.strips, y0):
                x = x0
                for strip in line:
                    x = self._put_strip(x, y, strip, color_system)
            region = update.region
            return region.contains_region(Region(0, 0, self.width, self.height))
        chops, chop_ends = update.chops, update.chop_ends
        for y, x1, x2 in update.spans:
            if y >= len(chops):
                continue
            for end, (x, chop) in zip(chop_ends[y], chops[y].items(), strict=False):
                # The same selection of chops as ChopsUpdate.render_segments.
                if chop is None or x > x2 or end <= x1:
                    continue
                # Chops that stick out of the span are cut at its end (not at its start).
                self._put_strip(x, y, chop, color_system, min(end, x2))
        return False

    def _put_strip(
        self, x: int, y: int, strip: Strip, color_system: ColorSystem, limit: int | None = None
    ) -> int:
        """Write one strip at (x, y) into the target, up to column `limit`; returns the x after
        it."""
        if not 0 <= y < self.height:
            return x + strip.cell_length
        chars, keys = self._own_row(y)
        width = self.width if limit is None else max(min(self.width, limit), 0)
        start = x
        cut_left = 0 < x < width and chars[x] == ""  # writing over a wide character's right half
        strip_chars, strip_keys = strip_cells(strip, color_system)
        count = min(len(strip_chars), width - x)
        if count > 0:
            chars[x : x + count] = strip_chars[:count]
            keys[x : x + count] = strip_keys[:count]
            if count < len(strip_chars) and strip_chars[count] == "":
                chars[x + count - 1] = " "  # a wide character cut by the right edge
            x += count
        end = min(x, width)
        if start >= end:
            return x
        if cut_left:
            chars[start - 1] = " "
        if end < self.width and chars[end] == "":
            chars[end] = " "  # the right half of a wide character just overwritten
        low, high = self._dirty.get(y, (start, end))
        self._dirty[y] = (min(low, max(start - 1, 0)), max(high, min(end + 1, self.width)))
        return x

    # ------------------------------------------------------------------ output

    def render(self) -> str:
        """Escape sequences that make the terminal show the target; "" when it already does."""
        out: list[str] = []
        if self._must_clear:
            out.append(CLEAR_SCREEN)
            self._must_clear = False
            self._sgr = BLANK_KEY
            self._cursor = None
            for y in range(self.height):
                self._client_chars[y] = [" "] * self.width
                self._client_keys[y] = [BLANK_KEY] * self.width
        link = ""
        for y in sorted(self._dirty):
            low, high = self._dirty[y]
            link = self._render_row(y, low, high, out, link)
            self._share_row(y)
        self._dirty.clear()
        if link:
            out.append("\x1b]8;;\x1b\\")
        if self.cursor != self._cursor_sent or (out and self.cursor != self._cursor):
            x, y = self.cursor
            out.append(f"\x1b[{y + 1};{x + 1}H")
            self._cursor = self._cursor_sent = self.cursor
        return "".join(out)

    def _share_row(self, y: int) -> None:
        """Once the client shows row y as the target has it, both grids hold the same row: a
        settled screen keeps two grids of cells, not four (~33 KB a session at 80x24). The
        target's row is copied again before it is written (`_own_row`)."""
        target_chars, target_keys = self._target_chars[y], self._target_keys[y]
        if target_chars == self._client_chars[y] and target_keys == self._client_keys[y]:
            self._client_chars[y], self._client_keys[y] = target_chars, target_keys

    def _own_row(self, y: int) -> tuple[list[str], list[str]]:
        """Row y of the target, to write into: copied first if the client's grid shares it."""
        chars, keys = self._target_chars[y], self._target_keys[y]
        if chars is self._client_chars[y]:
            chars = self._target_chars[y] = chars.copy()
        if keys is self._client_keys[y]:
            keys = self._target_keys[y] = keys.copy()
        return chars, keys

    def _render_row(self, y: int, low: int, high: int, out: list[str], link: str) -> str:
        target_chars, target_keys = self._target_chars[y], self._target_keys[y]
        client_chars, client_keys = self._client_chars[y], self._client_keys[y]
        if (
            target_chars[low:high] == client_chars[low:high]
            and target_keys[low:high] == client_keys[low:high]
        ):
            return link
        for start, end in self._runs(y, low, high):
            link = self._write_run(y, start, end, out, link)
            client_chars[start:end] = target_chars[start:end]
            client_keys[start:end] = target_keys[start:end]
        return link

    def _runs(self, y: int, low: int, high: int) -> Iterable[tuple[int, int]]:
        """Runs [start, end) of changed cells in row y, close runs merged, never splitting a
        double-width character (on either screen)."""
        target_chars, target_keys = self._target_chars[y], self._target_keys[y]
        client_chars, client_keys = self._client_chars[y], self._client_keys[y]
        width = self.width
        runs: list[list[int]] = []
        for x in range(low, high):
            if target_chars[x] != client_chars[x] or target_keys[x] != client_keys[x]:
                if runs and x - runs[-1][1] <= MERGE_GAP:
                    runs[-1][1] = x + 1
                else:
                    runs.append([x, x + 1])
        for run in runs:
            start, end = run
            while start > 0 and (target_chars[start] == "" or client_chars[start] == ""):
                start -= 1
            while end < width and (target_chars[end] == "" or client_chars[end] == ""):
                end += 1
            run[0], run[1] = start, end
        merged: list[tuple[int, int]] = []
        for start, end in runs:
            if merged and start <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
            else:
                merged.append((start, end))
        return merged

    def _write_run(self, y: int, start: int, end: int, out: list[str], link: str) -> str:
        chars, keys = self._target_chars[y], self._target_keys[y]
        cursor = self._cursor
        if cursor is not None and cursor[1] == y and cursor[0] <= start:
            if start > cursor[0]:
                gap = start - cursor[0]
                out.append("\x1b[C" if gap == 1 else f"\x1b[{gap}C")
        else:
            out.append(f"\x1b[{y + 1};{start + 1}H")
        erase_from = end
        if end == self.width:
            while erase_from > start and (chars[erase_from - 1], keys[erase_from - 1]) == (
                " ",
                BLANK_KEY,
            ):
                erase_from -= 1
            if end - erase_from < ERASE_MIN:
                erase_from = end
        sgr = self._sgr
        at = start  # where the terminal's cursor is
        x = start
        while x < erase_from:
            char = chars[x]
            if not char:
                x += 1  # the right half of a wide character
                at = x
                continue
            key = keys[x]
            if char == " " and key == BLANK_KEY:
                blank_end = x + 1
                while blank_end < erase_from and (chars[blank_end], keys[blank_end]) == (
                    " ",
                    BLANK_KEY,
                ):
                    blank_end += 1
                if blank_end == erase_from < end:
                    break  # the erase to the end of the line below starts here
                erase = _erase_characters(
                    blank_end - x, moving=blank_end < end, reset=sgr != BLANK_KEY, unlink=bool(link)
                )
                if erase:
                    out.append(erase)
                    sgr, link = BLANK_KEY, ""
                    x = at = blank_end if blank_end < end else x
                    if blank_end == end:
                        break
                    continue
            if key != sgr:
                out.append(_sgr(key))
                sgr = key
                new_link = _link(key)
                if new_link != link:
                    out.append(_link_sequence(key))
                    link = new_link
            out.append(char)
            x += 1
            at = x
        if erase_from < end:
            if sgr != BLANK_KEY:
                out.append("\x1b[0m")
                sgr = BLANK_KEY
            if link:
                out.append("\x1b]8;;\x1b\\")
                link = ""
            out.append("\x1b[K")
        self._sgr = sgr
        self._cursor = (at, y) if at < self.width else None
        return link


def _erase_characters(count: int, moving: bool, reset: bool, unlink: bool) -> str:
    """ECH (erase `count` cells, the cursor stays) and a move past them, when that is shorter
    than writing the spaces: a panel's emptied rows, a short line over a long one. ""
    otherwise. Erased cells take the current background, hence the reset first."""
    sequence = (
        ("\x1b[0m" if reset else "") + ("\x1b]8;;\x1b\\" if unlink else "") + f"\x1b[{count}X"
    )
    if moving:
        sequence += f"\x1b[{count}C"
    return sequence if len(sequence) < count else ""


def _is_wide(grapheme: str) -> bool:
    return split_graphemes(grapheme)[1] == 2
