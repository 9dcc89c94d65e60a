"""A widget drawn row by row, which re-renders and repaints only the rows that changed.

Textual renders a widget's whole content again on every refresh: its `Content` is wrapped,
styled and cut into strips, ~0.1-0.6 ms per line on the server. Every player at a table
re-rendered every panel on every move, which was most of the server's CPU per move (the seats
panel alone ~3 ms per screen at a 10-seat table), although a move changes a few rows.

A `RowsWidget` says what each row shows (`build_rows`); `update_rows()` compares the new rows
with those drawn and refreshes only the regions of rows that differ (nothing when none does).
`render_line` renders one row at a time and keeps it (by content and line, so a seat that stops
being "to act" finds its row already rendered). The strips are the ones Textual renders for the
whole content (`render()` still returns it): a plain row (it fits, no tabs, no links or actions,
left-aligned) is turned into segments exactly as Textual's `_FormattedLine.to_strip` does,
selection offsets included; any other row goes through Textual's `Visual.to_strips`, and a
widget with wrapped rows or a text selection falls back to Textual's own whole render.

Relies on (pinned in server/hosting/textual_pins): `Widget._size`, `_layout_cache`,
`_dirty_regions`, `_repaint_regions`, `_styles_cache` (replaced by `SharedStylesCache`),
`_rich_style_cache`, `clear_cached_dimensions()`, `Screen._dirty_widgets`,
`Screen._compositor`, `RenderStyles._cache_key`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from rich.segment import Segment
from textual.content import Content, Span
from textual.dom import NoScreen
from textual.geometry import Offset, Region, Size
from textual.screen import Screen
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.visual import Visual
from textual.widget import Widget

from harena.tui.widgets.made_once import MadeOnce
from harena.tui.widgets.screen_refresh import repaint_soon
from harena.tui.widgets.shared_lines import SharedStylesCache, intern_key

if TYPE_CHECKING:
    from textual.selection import Selection

RowKey = tuple[str, tuple[Span, ...]]


class RenderPass(NamedTuple):
    rows: list[Content]
    width: int
    style: VisualStyle
    one_by_one: bool
    """No text selection and no wrapped row: rows render (and are shared) one by one."""


KEPT_ROWS = 4
"""Rendered rows kept: this many times the widget's height (at least 32)."""


def row_key(row: Content) -> RowKey:
    return row.plain, tuple(row.spans)


def same_row(a: Content, b: Content) -> bool:
    """True if two rows look the same (text and styles)."""
    return a.plain == b.plain and a.spans == b.spans


def plain_row(row: Content, width: int) -> bool:
    """True if Textual would render `row` as one line, segment by segment, with nothing added:
    it fits, has no tab and its styles are plain style names (no links, no actions)."""
    return (
        row.cell_length <= width
        and "\t" not in row.plain
        and all(
            isinstance(span.style, str) and "@" not in span.style and "link" not in span.style
            for span in row.spans
        )
    )


RowChanges = tuple[bool, tuple[int, ...], tuple[Region, ...]]


def row_changes(old: list[Content], new: list[Content], width: int) -> RowChanges:
    """Whether every new row fits `width`, the lines whose row changed, and those lines as
    regions of the content area (runs of lines)."""
    if not all(row.cell_length <= width for row in new):
        return False, (), ()
    changed = tuple(
        y
        for y in range(max(len(old), len(new)))
        if y >= len(old) or y >= len(new) or not same_row(old[y], new[y])
    )
    if not changed:
        return True, (), ()
    regions = []
    start = previous = changed[0]
    for y in [*changed[1:], -1]:
        if y != previous + 1:
            regions.append(Region(0, start, width, previous - start + 1))
            start = y
        previous = y
    return True, changed, tuple(regions)


_row_changes: MadeOnce[RowChanges] = MadeOnce()


class RowsWidget(Widget):
    """Base of widgets made of rows of `Content`, one row per line of the content area."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._rows: list[Content] | None = None  # as built for `_rows_size`; None: build again
        self._rows_size = Size(0, 0)
        self._rows_fit = True  # no row wider than the content area (else Textual wraps them)
        self._strips: dict[int, Strip] = {}  # by line
        self._rendered: dict[tuple[RowKey, int], Strip] = {}  # by content and line
        self._strips_key: tuple[int, VisualStyle] | None = None
        self._plain_styles = False  # left-aligned, no line padding: plain rows render fast
        self._pass: RenderPass | None = None  # set during render_lines
        self._row_ids: dict[int, tuple[Content, int]] = {}  # id(row) -> (row, interned row key)
        self._context_id = 0  # interned (width, style, alignment) of the rendered rows
        self._styles_cache = SharedStylesCache()  # lines styled once for every session
        self._content_size_key: tuple[Size, int] | None = None
        self._content_size_value = Size(0, 0)
        self._screen: Screen[object] | None = None  # a widget stays on its screen
        self._offset_key = -1
        self._offset = Offset(0, 0)

    def build_rows(self, width: int, height: int) -> list[Content]:
        """The rows to show in a content area of this size (at most `height` rows)."""
        raise NotImplementedError

    # -- state changes ----------------------------------------------------------------------------

    def update_rows(self) -> None:
        """Call after the state changed: refresh the rows that now look different."""
        old, size = self._rows, self._content_size()
        if old is None or size != self._rows_size or not size.width or not size.height:
            self._rows = None
            self.refresh()
            return
        new = self._rows_for(size)
        # Sessions shown the same view are given the same rows (`made_once`): the rows that
        # changed between the same two lists of rows are worked out once for all of them.
        fits, changed, regions = _row_changes.get(
            (old, new), size.width, lambda: row_changes(old, new, size.width)
        )
        if not self._rows_fit or not fits:
            self._rows = None  # Textual wraps some row: any line may move
            self.refresh()
            return
        if not changed:
            return
        self._rows, self._rows_size, self._rows_fit = new, size, True
        for y in changed:
            self._strips.pop(y, None)
        self._repaint(list(regions))

    def _repaint(self, regions: list[Region]) -> None:
        """`refresh(*regions)`, telling the screen at once instead of through two messages.

        Textual's refresh marks the widget, which at its next idle posts an `Update` to its
        screen, which at its own idle resumes its update timer: for every widget that changed,
        at every session (a message hop costs about as much as rendering a line). The regions
        are marked as `refresh` marks them, then the screen repaints the widget as soon as the
        running handler returns (`screen_refresh`), as the screen's `Update` handler and update
        timer would."""
        screen = self._own_screen()
        if (
            screen is None
            or not self.is_mounted
            or not self.display
            or screen not in screen._compositor
        ):
            self.refresh(*regions)
            return
        self._layout_cache.clear()  # holds the visual of `render()`
        # Widget._set_dirty(*regions), with the content offset kept until the styles change
        key = self.styles._cache_key
        if key != self._offset_key:
            self._offset_key, self._offset = key, self.content_offset
        offset = self._offset
        dirty = [region.translate(offset) for region in regions]
        self._dirty_regions.update(dirty)
        self._repaint_regions.update(dirty)
        self._styles_cache.set_dirty(*dirty)
        self.clear_cached_dimensions()
        self._rich_style_cache.clear()
        repaint_soon(screen, self)

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> RowsWidget:
        if repaint and not regions:
            self._strips.clear()  # a whole refresh (style, theme, selection...) renders all rows
        super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)
        return self

    def selection_updated(self, selection: Selection | None) -> None:
        self._strips.clear()
        super().selection_updated(selection)

    # -- rendering --------------------------------------------------------------------------------

    def _rows_for(self, size: Size) -> list[Content]:
        rows = self.build_rows(size.width, size.height)
        return rows if len(rows) <= size.height else rows[: size.height]  # (the same list)

    def _set_rows(self, rows: list[Content], size: Size) -> None:
        self._rows, self._rows_size = rows, size
        self._rows_fit = all(row.cell_length <= size.width for row in rows)

    def _content_size(self) -> Size:
        """`self.size`, worked out again only when the outer size or the styles (padding,
        border) changed: `size` walks the DOM, and it is read at every update and render."""
        key = (self._size, self.styles._cache_key)
        if key != self._content_size_key:
            self._content_size_key, self._content_size_value = key, self.size
        return self._content_size_value

    def _own_screen(self) -> Screen[object] | None:
        """`self.screen`, looked up once (a widget stays on its screen); None before it has one."""
        if self._screen is None:
            try:
                self._screen = self.screen
            except NoScreen:
                return None
        return self._screen

    def _selection(self) -> object:
        """`self.text_selection`, with the screen looked up once."""
        screen = self._own_screen()
        return None if screen is None else screen.selections.get(self)

    def _current_rows(self) -> list[Content]:
        size = self._content_size()
        if self._rows is None or size != self._rows_size:
            self._set_rows(self._rows_for(size) if size.width and size.height else [], size)
            self._strips.clear()
        assert self._rows is not None  # set just above
        return self._rows

    def render(self) -> Content:
        return Content("\n").join(self._current_rows())

    def render_lines(self, crop: Region) -> list[Strip]:
        self._pass = self._render_state()  # looked up once for all the lines of this render
        try:
            return super().render_lines(crop)
        finally:
            self._pass = None

    def _render_state(self) -> RenderPass:
        """What every line of a render needs: the rows, the width and style (a change of either
        forgets the rendered rows), and whether rows can be rendered one by one."""
        rows = self._current_rows()
        width = self._content_size().width
        one_by_one = self._selection() is None and self._rows_fit
        style = self.visual_style
        if self._strips_key != (width, style):
            self._strips.clear()
            self._rendered.clear()
            self._row_ids.clear()
            self._strips_key = (width, style)
            styles = self.styles
            self._plain_styles = (
                styles.text_align in ("left", "start")
                and tuple(styles.content_align) == ("left", "top")
                and not styles.line_pad
            )
            how = (
                True
                if self._plain_styles
                else (styles.text_align, tuple(styles.content_align), styles.line_pad)
            )
            self._context_id = intern_key((width, style, how))
        return RenderPass(rows, width, style, one_by_one)

    def shared_line_key(self, y: int) -> tuple[int, int, int] | None:
        """Line `y` as rendered by `render_line`: the row, its line, and the width, style and
        alignment that decide how a row is rendered (see `shared_lines`), as interned ids."""
        state = self._pass or self._render_state()
        if not state.one_by_one:
            return None
        rows = state.rows
        if y >= len(rows):
            return 0, y, self._context_id
        row = rows[y]
        known = self._row_ids.get(id(row))
        if known is None or known[0] is not row:
            if len(self._row_ids) >= max(32, KEPT_ROWS * len(rows)):
                self._row_ids.clear()
            known = self._row_ids[id(row)] = (row, intern_key(row_key(row)))
        return known[1], y, self._context_id

    def render_line(self, y: int) -> Strip:
        state = self._pass or self._render_state()
        if not state.one_by_one:
            return super().render_line(y)  # wrapped rows or a selection: Textual's whole render
        strip = self._strips.get(y)
        if strip is None:
            rows, width, style = state.rows, state.width, state.style
            if y < len(rows):
                strip = self._render_row(rows[y], y, width, style)
            else:
                strip = Strip.blank(width, style.rich_style)
            self._strips[y] = strip
        return strip

    def _render_row(self, row: Content, y: int, width: int, style: VisualStyle) -> Strip:
        """Row `row` rendered as line `y` of the whole content (kept for reuse)."""
        key = (row_key(row), y)
        strip = self._rendered.pop(key, None)
        if strip is None:
            if self._plain_styles and plain_row(row, width):
                strip = self._render_plain_row(row, y, style)
            else:
                strips = Visual.to_strips(self, row, width, 1, style)
                strip = strips[0] if strips else Strip([])
                if y:
                    strip = strip.apply_offsets(0, y)  # as line y of the whole content
            if len(self._rendered) >= max(32, KEPT_ROWS * self.size.height):
                del self._rendered[next(iter(self._rendered))]  # the least recently used
        self._rendered[key] = strip
        return strip

    def _render_plain_row(self, row: Content, y: int, style: VisualStyle) -> Strip:
        """What `Visual.to_strips` gives for a plain row, without its per-call overhead: the
        segments of Textual's `_FormattedLine.to_strip` for a left-aligned line."""
        segments: list[Segment] = []
        x = 0
        for text, text_style in row.render(style, end="", parse_style=self._get_style):
            segments.append(Segment(text, (style + text_style).rich_style_with_offset(x, y)))
            x += len(text)
        return Strip(segments, row.cell_length)
