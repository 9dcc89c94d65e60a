"""Full screen updates that render only the front-most widget of each cell (server apps).

A screen's full frame (a session's first screen, a resize, a screen coming back on top) was
rendered by Textual's compositor from every visible widget over its whole area, front to back,
keeping each cell's front-most strip: the screen's own background (the whole 80x24), the body
and column containers and the panels behind their bodies were all rendered and then covered.
That was about half of the work of a session's first frame (`bench/ssh_load.py --scenario
connect50`).

`install()` replaces `Compositor.render_full_update` for server apps with one that renders the
whole screen through `partial_render.render_spans` (every line one span): each cell gets the
strip of the same widget as before, so the `LayoutUpdate` paints the same cells (the regression
test compares both on the table screen). Segment simplification (Textual's SVG export) keeps
Textual's own.

Relies on (pinned in textual_pins): `Compositor.render_full_update`, `Compositor._dirty_regions`,
`Compositor.size`, `LayoutUpdate(strips, region)`, and what `partial_render` relies on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from harena.server.hosting.partial_render import render_spans
from harena.server.hosting.textual_pins import patch

if TYPE_CHECKING:
    from textual._compositor import Compositor, LayoutUpdate
    from textual.strip import Strip

_installed = False
textual_render_full_update: Callable[..., Any] | None = None
"""Textual's own `Compositor.render_full_update` (kept for comparison in tests)."""


def render_full_update(compositor: Compositor) -> LayoutUpdate:
    """`Compositor.render_full_update` (unsimplified), rendering through `render_spans`."""
    from textual._compositor import LayoutUpdate

    screen_region = compositor.size.region
    compositor._dirty_regions.clear()
    width = screen_region.width
    chops = render_spans(compositor, [(y, 0, width) for y in range(screen_region.height)])
    # Every cell is filled: the screen covers the whole of itself.
    return LayoutUpdate([cast("list[Strip]", list(chop.values())) for chop in chops], screen_region)


def install(is_server_app: Callable[[object], bool]) -> None:
    """Patch the compositor (once); only updates of apps for which `is_server_app` holds change."""
    global _installed, textual_render_full_update
    if _installed:
        return
    from textual._compositor import Compositor
    from textual._context import active_app

    textual_render_full_update = original = Compositor.render_full_update

    def _render_full_update(self: Compositor, simplify: bool = False) -> Any:
        if not simplify:
            try:
                server = is_server_app(active_app.get())
            except LookupError:
                server = False
            if server:
                return render_full_update(self)
        return original(self, simplify)

    patch(Compositor, "render_full_update", _render_full_update)
    _installed = True
