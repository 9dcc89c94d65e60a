"""Final widget lines shared by every session in the process: a line is styled once, not per app.

All the players at a table see mostly the same lines (the log, the seats, the board), yet each
session's app styled each changed line itself: Textual's `StylesCache.render_line` adds the
background, padding and borders to a content line (~0.1 ms a line on the server), and a move
changes ~20 lines per screen (a log that scrolls moves all its lines), for every session at
the table: about a fifth of the server's CPU per move.

`SharedStylesCache` keeps Textual's per-widget cache (only dirty lines are rendered again) but
looks each dirty line up in one process-wide table first, keyed by everything
`StylesCache.render_line` reads: the widget's frame (size, padding, border, outline, colours,
titles, tint, opacities, ANSI theme, and the app's theme for "$variables" in content styles) and what its content line shows, as the widget describes it
(`SharesLines.shared_line_key`; `None` renders the line privately, e.g. while text is
selected). Strips are immutable, so one strip can be painted by any number of apps. Line
filters and link hover styles are still applied per app, after this cache, as Textual does.

Relies on (pinned in server/hosting/textual_pins): `StylesCache.render_widget` and
`StylesCache.render_line(styles, y, size, content_size, padding, base_background, background,
render_content_line, border_title, border_subtitle, opacity, ansi_theme, native_ansi)`, which
is given the widget's bound `render_line`.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable
from typing import Any, Protocol

from textual._styles_cache import StylesCache
from textual.cache import LRUCache
from textual.strip import Strip
from textual.widget import Widget

MAX_SHARED_LINES = 4096
"""Lines kept, least recently used dropped first: a few screens' worth for every table."""

MAX_INTERNED = 16384
"""Keys given ids before the table starts again (ids are never reused: nothing is mixed up)."""

_lines: LRUCache[Hashable, Strip] = LRUCache(MAX_SHARED_LINES)
_ids: dict[Hashable, int] = {}
_next_id = itertools.count(1)


def intern_key(key: Hashable) -> int:
    """A small id for `key`, the same for equal keys (while kept), never reused for another.

    Line keys hold ids instead of the frames and rows they stand for: a frame is ~20 values
    (colours, borders, sizes) and a row a text and its spans, hashed again at each lookup
    otherwise; a widget interns its frame once per `clear()` and a row once per row object."""
    found = _ids.get(key)
    if found is None:
        if len(_ids) >= MAX_INTERNED:
            _ids.clear()  # later keys get new ids: old lines age out of the table, unused
        found = _ids[key] = next(_next_id)
    return found


class SharesLines(Protocol):
    def shared_line_key(self, y: int) -> Hashable | None:
        """What content line `y` shows, completely (two lines with equal keys render alike in
        the same frame), or None if the line must not be shared."""


def label_key(label: tuple[Any, ...] | None) -> Hashable:
    """A border title as a key: `Content` compares by text alone, its spans are added here."""
    if label is None:
        return None
    content, *styles = label
    return (content.plain, tuple(content.spans), *styles)


def clear() -> None:
    """Forget every shared line (tests; a theme reload)."""
    _lines.clear()


def stats() -> dict[str, int]:
    """Lines found shared / rendered since start, and lines kept."""
    return {"hits": _lines.hits, "misses": _lines.misses, "kept": len(_lines)}


class SharedStylesCache(StylesCache):
    """Textual's styles cache, with dirty lines looked up in the process-wide table first."""

    def __init__(self) -> None:
        super().__init__()
        self._args: dict[str, Any] | None = None  # what `render` is given, until `clear()`
        self._frame: int | None = None  # the interned frame of line keys, until `clear()`
        self._gutter_top = 0
        self._theme = ""

    def clear(self) -> None:
        """Textual clears a widget's styles cache whenever its frame may have changed: a full
        refresh (any style of the widget or a colour of an ancestor set, a new border title, the
        theme), a new size. Until then the frame is the same, so it is worked out only once."""
        super().clear()
        self._args = None
        self._frame = None

    def render_widget(self, widget: Widget, crop: Any) -> list[Strip]:
        """`StylesCache.render_widget`, with its arguments kept until `clear()` (working them
        out walks the DOM: about as long as styling a line)."""
        self._simple_strip = None  # a padding line kept by `render_line` for one render only
        args = self._args
        if args is None:
            args = self._args = self._render_args(widget)
            self._frame = None
            self._theme = widget.app.theme  # theme variables in content styles ("$accent")
        strips = self.render(render_content_line=widget.render_line, crop=crop, **args)
        if widget.auto_links:  # as Textual does: the link under the mouse, highlighted
            hover_style = widget.hover_style
            if hover_style._link_id and hover_style._meta and "@click" in hover_style.meta:
                link_style_hover = widget.link_style_hover
                if link_style_hover:
                    strips = [
                        strip.style_links(hover_style.link_id, link_style_hover) for strip in strips
                    ]
        return strips

    @staticmethod
    def _render_args(widget: Widget) -> dict[str, Any]:
        """The arguments Textual's `render_widget` gives `render` (but the line callback and
        the crop)."""
        base_background, background = widget.background_colors
        styles = widget.styles
        app = widget.app
        title, subtitle = widget._border_title, widget._border_subtitle
        return {
            "styles": styles,
            "size": widget.region.size,
            "base_background": base_background,
            "background": background,
            "filters": widget.get_line_filters(),
            "border_title": (
                None
                if title is None
                else (title, *widget._get_title_style_information(base_background))
            ),
            "border_subtitle": (
                None
                if subtitle is None
                else (subtitle, *widget._get_subtitle_style_information(base_background))
            ),
            "content_size": widget.content_region.size,
            "padding": styles.padding,
            "opacity": widget.opacity,
            "ansi_theme": app.ansi_theme,
            "native_ansi": app.native_ansi_color,
        }

    def render_line(
        self,
        styles: Any,
        y: int,
        size: Any,
        content_size: Any,
        padding: Any,
        base_background: Any,
        background: Any,
        render_content_line: Any,
        border_title: Any,
        border_subtitle: Any,
        opacity: float,
        ansi_theme: Any,
        native_ansi: bool,
    ) -> Strip:
        args = (
            styles, y, size, content_size, padding, base_background, background,
            render_content_line, border_title, border_subtitle, opacity, ansi_theme, native_ansi,
        )  # fmt: skip
        frame = self._frame
        if frame is None:
            frame = self._frame = intern_key(
                (
                    styles.border,
                    styles.outline,
                    styles.hatch if styles.has_rule("hatch") else None,
                    styles.tint,
                    styles.text_opacity,
                    styles.border_title_align,
                    styles.border_subtitle_align,
                    size,
                    content_size,
                    padding,
                    base_background,
                    background,
                    label_key(border_title),
                    label_key(border_subtitle),
                    opacity,
                    ansi_theme,
                    native_ansi,
                    self._theme,
                )
            )
            self._gutter_top = styles.gutter.top
        content_y = y - self._gutter_top
        if 0 <= content_y < content_size.height:
            # The widget's bound render_line: reaching it there keeps the cache free of cycles.
            line_key = getattr(
                getattr(render_content_line, "__self__", None), "shared_line_key", None
            )
            content = line_key(content_y) if line_key is not None else None
            if content is None:
                return super().render_line(*args)
        else:
            content = None  # border or padding: the frame says it all
        key = (frame, y, content)
        strip = _lines.get(key)
        if strip is None:
            strip = super().render_line(*args)
            _lines.set(key, strip)
        return strip
