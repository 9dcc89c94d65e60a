"""Partial screen updates that render only the widgets whose cells are repainted (server apps).

For a partial update, Textual's compositor renders every widget that overlaps the bounding box
of all dirty regions, each over its whole visible area, then keeps, for each dirty cell, the
front-most widget's strip. A move at a table changes a seat row (top left), board rows (top
right), the log and the prompt bar (bottom): all ~17 widgets of the table screen were rendered,
containers hidden behind their children included, for ~10 changed lines: about half of the
compositor's time per screen.

`install()` replaces `Compositor.render_partial_update` for server apps with one that walks the
widgets front to back, as Textual does, but renders a widget only if it is the front-most one for
some dirty cell not yet filled, and then only over the rows that need it. Every dirty cell gets
the strip of the same widget as before, so the `ChopsUpdate` sends the same cells (the
regression test compares both on the table screen).

Relies on (pinned in textual_pins): `Compositor.render_partial_update`,
`Compositor._dirty_regions`, `Compositor._regions_to_spans`, `Compositor.cuts`,
`Compositor.visible_widgets` (front to back), `ChopsUpdate(chops, spans, chop_ends)`,
`Widget.render_lines(crop)` (crop relative to the widget), `Strip.divide`,
`textual._context.active_app`.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.geometry import Region

from harena.server.hosting.textual_pins import patch

if TYPE_CHECKING:
    from textual._compositor import ChopsUpdate, Compositor
    from textual.strip import Strip

_installed = False
textual_render_partial_update: Callable[[Compositor], Any] | None = None
"""Textual's own `Compositor.render_partial_update` (kept for comparison in tests)."""


def render_spans(
    compositor: Compositor, spans: list[tuple[int, int, int]]
) -> list[dict[int, Strip | None]]:
    """The chops (per line: cut -> strip) that a `ChopsUpdate` of `spans` sends, rendering only
    the widgets that are front-most on some cut of a span, over the rows where they are."""
    cuts = compositor.cuts
    # Chops only for the lines a span covers: a ChopsUpdate reads no other line.
    chops: list[dict[int, Strip | None]] = [{} for _ in cuts]
    needed: dict[int, set[int]] = {}  # line -> cuts whose chop a span sends
    for y, x1, x2 in spans:
        if 0 <= y < len(cuts):
            line_cuts = cuts[y]
            row = needed.get(y)
            if row is None:
                chops[y] = dict.fromkeys(line_cuts[:-1])
                row = needed[y] = set()
            # the chops [cut, next cut) that overlap [x1, x2): cuts are sorted
            first = max(bisect_right(line_cuts, x1) - 1, 0)
            row.update(line_cuts[first : bisect_left(line_cuts, x2, first)])
    missing = {y: set(row) for y, row in needed.items()}  # needed cuts not filled yet
    if not missing:
        return chops
    first_line, last_line = min(missing), max(missing)
    for widget, (region, clip) in compositor.visible_widgets.items():
        if not missing:
            break
        if region.y > last_line or region.bottom <= first_line:
            continue  # nothing dirty in its lines (cheaper to tell than its visible part)
        visible = region.intersection(clip)
        if not visible:
            continue
        left, right = visible.column_span
        top, bottom = visible.y, visible.bottom
        rows = []
        for y, wanted in missing.items():
            if top <= y < bottom:
                for cut in wanted:
                    if left <= cut < right:
                        rows.append(y)
                        break
        if not rows:
            continue  # hidden behind widgets in front of it, or nothing dirty over it
        rows.sort()
        top, bottom = rows[0], rows[-1] + 1
        strips = widget.render_lines(
            Region(visible.x - region.x, top - region.y, visible.width, bottom - top)
        )
        for y, strip in zip(range(top, bottom), strips, strict=False):
            row_missing = missing.get(y)
            if row_missing is None:
                continue  # a line between two dirty ones, or one already filled
            chops_line = chops[y]
            # As Compositor._render_chops: cut the strip at every cut, the first strip wins.
            line_cuts = cuts[y]
            final_cuts = line_cuts[bisect_left(line_cuts, left) : bisect_right(line_cuts, right)]
            if len(final_cuts) == 2:
                cut = final_cuts[0]  # the widget is one chop here (the usual case)
                if chops_line.get(cut) is None:
                    chops_line[cut] = strip
            else:
                cut_strips = strip.divide([cut - left for cut in final_cuts[1:]])
                for cut, cut_strip in zip(final_cuts, cut_strips, strict=False):
                    if chops_line.get(cut) is None:
                        chops_line[cut] = cut_strip
            row_missing.difference_update(
                [cut for cut in row_missing if chops_line.get(cut) is not None]
            )
            if not row_missing:
                del missing[y]
    return chops


def render_partial_update(compositor: Compositor) -> ChopsUpdate | None:
    """`Compositor.render_partial_update`, rendering through `render_spans`."""
    from textual._compositor import ChopsUpdate

    update_regions = compositor._dirty_regions.copy()
    compositor._dirty_regions.clear()
    if not update_regions:
        return None
    spans = list(compositor._regions_to_spans(update_regions))
    chops = render_spans(compositor, spans)
    chop_ends = [cut_set[1:] for cut_set in compositor.cuts]
    return ChopsUpdate(chops, spans, chop_ends)


def install(is_server_app: Callable[[object], bool]) -> None:
    """Patch the compositor (once); only updates of apps for which `is_server_app` holds change."""
    global _installed, textual_render_partial_update
    if _installed:
        return
    from textual._compositor import Compositor
    from textual._context import active_app

    textual_render_partial_update = original = Compositor.render_partial_update

    def _render_partial_update(self: Compositor) -> Any:
        try:
            server = is_server_app(active_app.get())
        except LookupError:
            server = False
        if server:
            return render_partial_update(self)
        return original(self)

    patch(Compositor, "render_partial_update", _render_partial_update)
    _installed = True
