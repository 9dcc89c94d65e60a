"""Process-wide workarounds that let many Textual apps share one process and one event loop.

Textual assumes one app per process. harena runs one app per SSH session in a single asyncio
loop, which exposes process-wide state. `install()` patches it once (idempotent); the session
marks each of its apps with `mark_server_app()` so behaviour only changes for server apps.

What is fixed, by pitfall number of docs/notes (textual-over-ssh):

1. `App._process_messages` wraps the app in `contextlib.redirect_stdout/stderr`, swapping the
   process-wide `sys.stdout`; apps that exit out of order leave it pointing at a dead app. The
   redirect is a no-op for server apps. Their error renderables are logged, never printed.
3. Colour depth per session. Two caches leaked escape codes across apps: Rich's `Style._ansi`
   (filled by the first colour system that renders a style, then reused for every other one, in
   both `Strip.render_style` and Rich's `Style._make_ansi_codes`) and `Strip._render_cache` (a
   rendered line, shared by `Strip.blank`'s process-wide lru_cache). SGR codes are now cached per
   (style, colour system) and a strip's render cache is tagged with the colour system it was
   rendered for (a `str` subclass per system, so `Strip.join` and `apply_offsets`, which copy the
   cache, stay correct). Each session sets its own `app.console._color_system`.
4. Leaks: `XTermParser._parse_extended_key` and `StylesCache.get_inner_outer` are `lru_cache`s on
   methods, so their keys keep parsers/widgets (and so apps) alive; both ignore `self`, so they
   get a process-wide cache keyed by their arguments only. `DataTable._get_styles_to_render_cell`
   depends on `self`, so it gets a per-instance cache instead. Cached key events are built in an
   empty context, so they do not capture the first app as their sender. `Strip.divide` cached
   `[self]` on the strip for an uncut strip, a reference cycle: every line the compositor
   rendered became garbage only a full collection frees (see `gc_policy`); it no longer caches
   that case. `LRUCache.clear` unlinks its ring first, and the virtual nodes a restyle drops
   (one per component class) are let go of by their Styles: no cycle either.
6. Server-side side effects: `HarenaApp` itself writes no screenshot, delivers no file, opens
   no URL and has no command palette (its own overrides; this module patched the screenshot
   methods and the palette's command too, a duplicate now deleted).
10. Bytes on the wire. `App._display` hands compositor updates (`LayoutUpdate`, `ChopsUpdate`)
   to the SSH driver (duck-typed `driver.paint(update, cursor, color_system, sync)`), whose
   `ScreenBuffer` sends only the cells that changed; the first screen, painted fully twice at
   startup, is held until its second paint. Anything else Textual displays is written raw,
   marked through `driver.painting(full_screen)`. Partial updates of server apps render only the
   widgets whose cells they repaint (`partial_render`, installed from here).
11. Python 3.12+: `run_async` installs `asyncio.eager_task_factory` on the whole loop at each app
   start; `textual.app` now sees an `asyncio` without `eager_task_factory`, as on Python 3.11.
12. Repaint delay. A screen repaints on a paused 60 Hz timer that resumes when something changes,
   so each screen waited up to 16.7 ms for its timer's next tick; the last of ten screens at a
   table nearly always waited that long. Screens now tick at 1 kHz while they have changes (an
   idle screen's timer stays paused: no repaints, no bytes; the changes of one handler still
   make one repaint). `bench/ssh_load.py` table10: p95 from a key to the last screen 72 -> 65 ms
   at 250 Hz; 1 kHz took another ~2 ms off the median.

Beyond the twelve: every app parsed the same CSS again at start-up; parsed rules are now shared
by all apps with the same theme (`_install_css_cache`; connect50: CPU per connection 148 ->
120 ms), and so are the theme's variables' key and tokens (`_install_shared_variable_tokens`).
Installed from here too: `shared_styles` (a node's rules matched once for all apps) and
`full_render` (a full frame renders only each cell's front-most widget).

Every Textual/Rich internal this module (and the rest of the server) relies on is pinned as data
in `textual_pins.PINS` and checked by tests/server/test_textual_pins.py against the installed
versions; each replacement goes through `textual_pins.patch`. docs/architecture.md says what
each patch is for, where it could go upstream, and how to check a new Textual release.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import logging
import time
import types
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TextIO
from weakref import WeakKeyDictionary, WeakSet, ref

from rich.color import ColorSystem
from rich.console import Console
from rich.segment import Segment, Segments
from rich.style import Style

from harena.server.hosting import (
    dismantle,
    dispatch_cache,
    full_render,
    gc_policy,
    lean_events,
    lean_strips,
    loop_share,
    partial_render,
    shared_styles,
)
from harena.server.hosting.textual_pins import patch

if TYPE_CHECKING:
    from textual import events
    from textual.app import App

log = logging.getLogger(__name__)

_installed = False
_server_apps: WeakSet[App[Any]] = WeakSet()
_screens_born: WeakKeyDictionary[Any, float] = WeakKeyDictionary()  # monotonic time of making

COLOR_SYSTEMS: dict[str, ColorSystem] = {
    "standard": ColorSystem.STANDARD,
    "256": ColorSystem.EIGHT_BIT,
    "truecolor": ColorSystem.TRUECOLOR,
}


# --------------------------------------------------------------------------- public helpers


def mark_server_app(app: App[Any]) -> None:
    """Flag `app` as served over SSH: the patches below only change behaviour for such apps."""
    _server_apps.add(app)


def is_server_app(app: object) -> bool:
    """True if `app` was marked with `mark_server_app`."""
    try:
        return app in _server_apps
    except TypeError:
        return False


def color_system_for_terminal(term: str | None, colorterm: str | None) -> str:
    """Colour system for a client: truecolor only when COLORTERM says so, 256 for *-256color.

    Everything else (xterm, linux, screen, vt100, unknown) gets 16 colours: Textual cannot render
    without colour, and 16 colours is what every colour terminal understands.
    """
    if (colorterm or "").strip().lower() in ("truecolor", "24bit"):
        return "truecolor"
    if (term or "").strip().lower().endswith("256color"):
        return "256"
    return "standard"


def set_app_color_system(app: App[Any], system: str) -> None:
    """Make `app` render with `system` ("standard", "256" or "truecolor") whatever the server's env."""
    app.console._color_system = COLOR_SYSTEMS[system]


# --------------------------------------------------------------------------- pitfall 3: colours


@functools.lru_cache(maxsize=16384)
def sgr_codes(style: Style, color_system: ColorSystem) -> str:
    """SGR parameters for `style` in `color_system`, cached per (style, system), never on the style."""
    codes: list[str] = []
    attributes = style._attributes & style._set_attributes
    if attributes:
        style_map = Style._style_map
        codes.extend(
            style_map[bit] for bit in range(attributes.bit_length()) if attributes & (1 << bit)
        )
    if style._color is not None:
        codes.extend(style._color.downgrade(color_system).get_ansi_codes())
    if style._bgcolor is not None:
        codes.extend(style._bgcolor.downgrade(color_system).get_ansi_codes(False))
    return ";".join(codes)


def _render_style(style: Style, text: str, color_system: ColorSystem) -> str:
    """Text wrapped in the SGR codes of `style` for `color_system` (and its link, if any)."""
    ansi = sgr_codes(style, color_system)
    output = f"\x1b[{ansi}m{text}\x1b[0m" if ansi else text
    if style._link:
        output = f"\x1b]8;id={style._link_id};{style._link}\x1b\\{output}\x1b]8;;\x1b\\"
    return output


# One str subclass per colour system: the type of a strip's render cache says what it was
# rendered for, without adding a slot to Strip or any per-string memory.
_RENDER_TAGS: dict[ColorSystem, type[str]] = {
    system: type(f"_RenderedFor{system.name.title()}", (str,), {"__slots__": ()})
    for system in ColorSystem
}


def _strip_render(self: Any, console: Console) -> str:
    """Replacement for `Strip.render` whose cache is only reused for the same colour system."""
    color_system = console._color_system or ColorSystem.TRUECOLOR
    tag = _RENDER_TAGS[color_system]
    cached = self._render_cache
    if cached is not None and type(cached) is tag:
        return cached
    rendered = tag(
        "".join(
            [
                text if style is None else _render_style(style, text, color_system)
                for text, style, _ in self._segments
            ]
        )
    )
    self._render_cache = rendered
    return rendered


def _rich_make_ansi_codes(self: Style, color_system: ColorSystem) -> str:
    """Replacement for Rich's `Style._make_ansi_codes`, which caches one system on the style."""
    return sgr_codes(self, color_system)


def _install_color_fixes() -> None:
    from textual.strip import Strip

    patch(Strip, "render", _strip_render)
    patch(Strip, "render_style", staticmethod(_render_style))
    patch(Strip, "render_ansi", staticmethod(sgr_codes))
    patch(Style, "_make_ansi_codes", _rich_make_ansi_codes)


# --------------------------------------------------------------------------- pitfall 4: leaks


class _PerInstanceLRU:
    """Like `lru_cache` on a method, but the cache lives on (and dies with) the instance.

    The first access stores the cached bound function in the instance's `__dict__` under the same
    name, so later lookups bypass this descriptor; `.cache_clear()` keeps working.
    """

    def __init__(self, func: Callable[..., Any], maxsize: int) -> None:
        self._func = func
        self._maxsize = maxsize
        self._name = func.__name__

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = name

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        if instance is None:
            return self
        bound = functools.lru_cache(maxsize=self._maxsize)(functools.partial(self._func, instance))
        instance.__dict__[self._name] = bound
        return bound


def _install_leak_fixes() -> None:
    from textual._styles_cache import StylesCache
    from textual._xterm_parser import XTermParser
    from textual.cache import LRUCache
    from textual.css.stylesheet import Stylesheet
    from textual.strip import Strip
    from textual.widgets._data_table import DataTable

    parse_key = XTermParser._parse_extended_key.__wrapped__
    empty = contextvars.Context

    @functools.lru_cache(maxsize=1024)
    def extended_key(sequence: str) -> Any:
        # Only `self._parse_colon_codepoints` (a classmethod) is used, so the class stands in
        # for `self`; an empty context keeps the cached Key events free of any app as sender.
        return empty().run(parse_key, XTermParser, sequence)

    def _parse_extended_key(self: XTermParser, sequence: str) -> Any:
        return extended_key(sequence)

    patch(XTermParser, "_parse_extended_key", _parse_extended_key)

    inner_outer_func = StylesCache.get_inner_outer.__wrapped__

    @functools.lru_cache(maxsize=1024)
    def inner_outer(base_background: Any, background: Any) -> Any:
        return inner_outer_func(None, base_background, background)

    def get_inner_outer(self: StylesCache, base_background: Any, background: Any) -> Any:
        return inner_outer(base_background, background)

    patch(StylesCache, "get_inner_outer", get_inner_outer)

    # Strip.divide caches its result on the strip; for a strip that is not cut at all the result
    # is [self], a reference cycle: every rendered line became garbage that only a full GC frees.
    divide = Strip.divide

    def _divide(self: Strip, cuts: Iterable[int]) -> Any:
        cuts = list(cuts)
        length = self.cell_length
        if [cut for cut in cuts if cut <= length] == [length]:
            return [self]
        return divide(self, cuts)

    patch(Strip, "divide", _divide)

    # LRUCache.clear drops its ring of [prev, next, key, value] links whole, a cycle per cache
    # cleared (Textual clears a node's query cache on every change below it), holding what
    # was cached (widgets): unlinked first, the links are freed at once.
    lru_clear = LRUCache.clear

    def _clear(self: LRUCache[Any, Any]) -> None:
        for link in self._cache.values():
            link.clear()
        lru_clear(self)

    patch(LRUCache, "clear", _clear)

    # Stylesheet._process_component_classes makes a virtual node per component class of a node
    # (a screen has one, "screen--selection") each time the node's styles are applied, and
    # drops the last ones: each a cycle of ~40 objects, a node and the Styles that hold it. A
    # lobby screen restyled as a client leaves a table made one per key, frozen with the screen
    # (`gc_policy`), so left for a deep collection. The dropped nodes' Styles now let go of them.
    process_component_classes = Stylesheet._process_component_classes

    def _process_component_classes(self: Stylesheet, node: Any) -> None:
        before = list(node._component_styles.values())
        process_component_classes(self, node)
        kept = {id(styles) for styles in node._component_styles.values()}
        for styles in before:
            if id(styles) not in kept and (virtual := styles.node) is not None:
                virtual._css_styles.node = virtual._inline_styles.node = None

    patch(Stylesheet, "_process_component_classes", _process_component_classes)

    styles_func = DataTable._get_styles_to_render_cell.__wrapped__
    descriptor = _PerInstanceLRU(styles_func, maxsize=32)
    descriptor.__set_name__(DataTable, "_get_styles_to_render_cell")
    patch(DataTable, "_get_styles_to_render_cell", descriptor)


# --------------------------------------------------------------------------- pitfall 1: stdout


def _selective(
    redirect: Callable[[TextIO], contextlib.AbstractContextManager[Any]],
) -> Callable[[Any], Any]:
    """Wrap contextlib.redirect_*: a no-op when the target is a server app's print capture."""

    def redirect_unless_server_app(target: Any) -> contextlib.AbstractContextManager[Any]:
        if is_server_app(getattr(target, "app", None)):
            return contextlib.nullcontext(target)
        return redirect(target)

    return redirect_unless_server_app


def _renderable_text(renderable: object) -> str:
    """Plain text of an exit renderable (Textual stores them as pre-rendered `Segments`)."""
    if isinstance(renderable, Segments):
        return "".join(segment.text for segment in renderable.segments if not segment.control)
    if isinstance(renderable, Segment):
        return renderable.text
    return str(renderable)


def _install_output_fixes() -> None:
    import textual.app as textual_app
    from textual.app import App

    patch(textual_app, "redirect_stdout", _selective(contextlib.redirect_stdout))
    patch(textual_app, "redirect_stderr", _selective(contextlib.redirect_stderr))

    print_errors = App._print_error_renderables

    def _print_error_renderables(self: App[Any]) -> None:
        if not is_server_app(self):
            print_errors(self)
            return
        error = self._exception
        if error is not None:
            log.error("app %r crashed", self, exc_info=(type(error), error, error.__traceback__))
        else:
            for renderable in self._exit_renderables:
                log.error("app %r exit message: %s", self, _renderable_text(renderable)[:2000])
        self._exit_renderables.clear()

    patch(App, "_print_error_renderables", _print_error_renderables)


# --------------------------------------------------------------------------- pitfall 10: paints


def _install_paint_fixes() -> None:
    from textual._compositor import ChopsUpdate, LayoutUpdate
    from textual.app import App
    from textual.geometry import Region

    display = App._display

    def _display(self: App[Any], screen: Any, renderable: Any) -> None:
        driver = self._driver
        if renderable is None or driver is None or not is_server_app(self):
            display(self, screen, renderable)
            return
        paint = getattr(driver, "paint", None)
        if paint is not None and isinstance(renderable, (LayoutUpdate, ChopsUpdate)):
            _paint(self, paint, renderable)
            return
        painting = getattr(driver, "painting", None)
        if painting is None:
            display(self, screen, renderable)
            return
        full_screen = isinstance(renderable, LayoutUpdate) and renderable.region == Region(
            0, 0, *self.size
        )
        with painting(full_screen):
            display(self, screen, renderable)

    patch(App, "_display", _display)


def _paint(app: App[Any], paint: Callable[..., None], update: Any) -> None:
    """`App._display` for a compositor update, handed to the SSH driver's screen buffer (which
    sends only changed cells) instead of being rendered whole; same conditions as Textual's."""
    try:
        if app._batch_count or not app._running or app._closed or app.is_headless:
            return
        try:
            cursor = app.screen.outer_size.clamp_offset(app.cursor_position)
            color_system = app.console._color_system or ColorSystem.TRUECOLOR
            paint(update, (cursor.x, cursor.y), color_system, app._sync_available)
        except Exception as error:
            app._handle_exception(error)
    finally:
        app.post_display_hook()


def _install_gc_hooks() -> None:
    """Tell `gc_policy` when a server app closes a screen: its widgets are garbage now (and when
    the screen was made: whether it was frozen, see `gc_policy`); and when it shows one: what
    it made lives on, to be frozen."""
    from textual.app import App
    from textual.screen import Screen

    replace_screen = App._replace_screen
    screen_init = Screen.__init__

    def __init__(self: Screen[Any], *args: Any, **kwargs: Any) -> None:
        screen_init(self, *args, **kwargs)
        _screens_born[self] = time.monotonic()

    async def _replace_screen(self: App[Any], screen: Any) -> Any:
        removed = (
            is_server_app(self)
            and not self.is_screen_installed(screen)
            and all(screen not in stack for stack in self._screen_stacks.values())
        )  # the condition under which Textual removes it
        # Its widgets, found while it still has them: to take apart, and to weigh (a table
        # screen is 5 dialogs).
        pumps = dismantle.pumps_of(self, screen) if removed else []
        replaced = await replace_screen(self, screen)
        if removed:
            born, widgets, app = _screens_born.get(screen), len(pumps), ref(self)

            def done(taken_apart: bool) -> None:
                weight = gc_policy.screen_closed(born, widgets, taken_apart=taken_apart)
                if (alive := app()) is not None:  # its collection is on this app
                    loop_share.charge(alive, gc_policy.screen_cost() * weight)

            dismantle.dismantle_screen(self, screen, pumps, done)
        return replaced

    screen_resume = Screen._on_screen_resume

    def _on_screen_resume(self: Screen[Any], event: Any) -> None:
        screen_resume(self, event)
        if is_server_app(self.app):
            gc_policy.screen_shown()

    patch(Screen, "__init__", __init__)
    patch(App, "_replace_screen", _replace_screen)
    patch(Screen, "_on_screen_resume", _on_screen_resume)


def _install_resize_fix() -> None:
    """A screen told of the size it is laid out at already does nothing (server apps).

    Every layout sends a Resize to the widgets it showed or resized, the screen among them, and
    the screen answers its Resize with another layout and a full render of the same thing: a
    session's start laid its screens out 14 times and rendered 3 full frames (~20% of the CPU
    of a connection, `bench/ssh_load.py --scenario connect50`). Only a size that differs from
    the screen's last layout calls for one (a new window size, a screen never laid out);
    the screen's own breakpoints and the screens below depend on that size only. Widgets that
    asked for a layout meanwhile have it from the screen's update timer (`_layout_required`,
    set with their request), once, not also here."""
    from textual.screen import Screen

    on_resize = Screen._on_resize

    async def _on_resize(self: Screen[Any], event: events.Resize) -> None:
        if (
            event.size == self._compositor.size
            and (not self._layout_widgets or self._layout_required)
            and is_server_app(self.app)
        ):
            event.stop()
            if self._layout_required:
                self.check_idle()  # the update timer lays them out
            return
        await on_resize(self, event)

    patch(Screen, "_on_resize", _on_resize)


def _install_covered_screens_fix() -> None:
    """Screens under an opaque top screen are not shown, so they are not laid out or rendered
    (server apps).

    Textual counts the screen below the top one as visible whatever the top one's background:
    it lays that screen out with the top one, and every region it marks dirty (its first
    layout, a resize, a lobby row that changed under a table) repaints the same region of the
    top screen. A session's start rendered a third full frame for the blank default screen
    below its first one. Under an opaque screen they wait as deeper screens already do: a
    screen that comes back on top is laid out again if the size changed, and repainted."""
    from textual.app import App

    original = vars(App)["_background_screens"]
    assert isinstance(original, property) and original.fget is not None
    background_screens: Callable[[App[Any]], list[Any]] = original.fget

    def _background_screens(self: App[Any]) -> list[Any]:
        stack = self._screen_stack
        if len(stack) > 1 and stack[-1].styles.background.a == 1 and is_server_app(self):
            return []
        return background_screens(self)

    patch(App, "_background_screens", property(_background_screens))


def _install_first_resume_fix() -> None:
    """A screen shown for the first time is not styled again (server apps) when nothing its
    styles come from changed since it was made.

    On every ScreenResume Textual applies the stylesheet again to the whole screen, for what may
    have changed while it was hidden. A new screen was styled as it was mounted, moments before
    (~12% of a connection's CPU; re-applying changed no rule of the lobby or a table screen). It
    is styled again as before if CSS other than a widget class's own (scoped) default CSS was
    added, the CSS variables (the theme) or the app's CSS were changed, or the screen brings
    CSS files of its own. A class's scoped default CSS only styles its own widgets and what
    they hold, which are styled as they mount, after it was added."""
    from textual.screen import Screen

    screen_init = Screen.__init__
    on_screen_resume = Screen._on_screen_resume
    styled_with: WeakKeyDictionary[Screen[Any], tuple[Any, ...]] = WeakKeyDictionary()

    def stylesheet_state(app: Any) -> tuple[Any, ...]:
        stylesheet = app.stylesheet
        unscoped = frozenset(
            where
            for where, source in stylesheet.source.items()
            if not (source.is_defaults and source.scope)
        )
        return unscoped, stylesheet._variables, app._css_update_count

    def __init__(self: Screen[Any], *args: Any, **kwargs: Any) -> None:
        screen_init(self, *args, **kwargs)
        with contextlib.suppress(Exception):  # made outside a running app
            app = self.app
            if is_server_app(app) and not self.css_path:
                styled_with[self] = stylesheet_state(app)

    def _on_screen_resume(self: Screen[Any], event: events.ScreenResume) -> None:
        made = styled_with.pop(self, None)
        if made is not None and made == stylesheet_state(self.app):
            event.refresh_styles = False
        on_screen_resume(self, event)

    patch(Screen, "__init__", __init__)
    patch(Screen, "_on_screen_resume", _on_screen_resume)


def _install_full_frame_fix() -> None:
    """A screen that is to be repainted whole draws nothing before it is (server apps).

    A screen coming to the top asks for a repaint; its layouts for the Resizes it is sent on the
    way drew the whole screen at once, and the repaint then drew the same full frame again on
    the screen's next update (~a fifth of a connection's CPU, `bench/ssh_load.py --scenario
    connect50`). While a repaint is pending, what a refresh would draw is left to it: the
    screen's update timer draws one full frame, from the state at that moment."""
    from textual.screen import Screen

    compositor_refresh = Screen._compositor_refresh

    def _compositor_refresh(self: Screen[Any]) -> None:
        app = self.app
        if self._repaint_required and self is app.screen and is_server_app(app):
            self.check_idle()  # the update timer runs, and repaints
            return
        compositor_refresh(self)

    patch(Screen, "_compositor_refresh", _compositor_refresh)


# --------------------------------------------------------------------------- pitfall 11: loop


class _AsyncioWithoutEagerFactory(types.ModuleType):
    """`asyncio` as seen by textual.app: everything but `eager_task_factory` (3.12+)."""

    def __getattr__(self, name: str) -> Any:
        if name == "eager_task_factory":
            raise AttributeError(name)
        return getattr(asyncio, name)


SCREEN_UPDATE_PERIOD = 1 / 1000  # seconds; Textual's default is 1 / 60 (pitfall 12)


def _install_loop_fixes() -> None:
    import textual.app as textual_app
    import textual.screen as textual_screen

    patch(textual_app, "asyncio", _AsyncioWithoutEagerFactory("asyncio"))
    patch(textual_screen, "UPDATE_PERIOD", SCREEN_UPDATE_PERIOD)  # pitfall 12


MAX_PARSED_CSS = 256
"""Parsed CSS sources kept for all apps (each widget class's DEFAULT_CSS is one source)."""


def _install_css_cache() -> None:
    """Connection start-up: every app parsed the same CSS again (each widget class's
    DEFAULT_CSS, ~18% of a new session's CPU). Textual keeps parsed rules per stylesheet, keyed
    by the source and where it came from, and reuses them on later parses of that stylesheet;
    the same cache is now shared by every app, keyed also by the CSS variables (the theme),
    which parsing substitutes. The rule sets are shared as Textual shares them between parses;
    each stylesheet gets its own list."""
    from textual.cache import LRUCache
    from textual.css.stylesheet import Stylesheet

    parse_rules = Stylesheet._parse_rules
    parsed: LRUCache[tuple[Any, ...], list[Any]] = LRUCache(MAX_PARSED_CSS)

    def _parse_rules(self: Any, css: str, read_from: Any, *args: Any, **kwargs: Any) -> list[Any]:
        key = (variables_key(self), css, read_from, args, tuple(sorted(kwargs.items())))
        rules = parsed.get(key)
        if rules is None:
            rules = parse_rules(self, css, read_from, *args, **kwargs)
            parsed.set(key, rules)
        return list(rules)

    patch(Stylesheet, "_parse_rules", _parse_rules)


MAX_THEMES = 16
"""Distinct sets of CSS variables (themes) whose keys and tokens are kept for all apps."""

_variable_keys: dict[int, tuple[dict[str, str], frozenset[Any], int]] = {}
"""id of a variables dict -> (that dict, its key, its length when keyed): HarenaApp gives every
app of a theme the same dict, so its key is made once, not per app."""
_canonical_keys: dict[frozenset[Any], frozenset[Any]] = {}
"""Each key once: stylesheets with equal variables in distinct dicts hold one key."""


def _bounded_set(cache: dict[Any, Any], key: Any, value: Any) -> None:
    if len(cache) >= MAX_THEMES:
        del cache[next(iter(cache))]
    cache[key] = value


def variables_key(stylesheet: Any) -> frozenset[Any]:
    """A hashable key of `stylesheet`'s CSS variables (its theme), shared by every stylesheet
    with the same ones: a frozenset of ~180 items per app was ~18 KB of each session."""
    variables = stylesheet._variables
    known = getattr(stylesheet, "_harena_variables_key", None)
    if known is None or known[0] is not variables or known[2] != len(variables):
        known = _variable_keys.get(id(variables))
        if known is None or known[0] is not variables or known[2] != len(variables):
            key = frozenset(variables.items())
            key = _canonical_keys.get(key, key)
            _bounded_set(_canonical_keys, key, key)
            known = (variables, key, len(variables))
            _bounded_set(_variable_keys, id(variables), known)
        stylesheet._harena_variables_key = known
    return known[1]


def _install_shared_variable_tokens() -> None:
    """Connection start-up: every app's stylesheet tokenized the theme's ~180 CSS variables
    again, the first time markup in a widget was styled (~1 ms and ~25 KB a session). The
    tokens (immutable `Token` tuples, read only by the parser) of each set of variables are
    now made once and shared by every stylesheet with the same variables."""
    from textual.css.stylesheet import Stylesheet

    original = vars(Stylesheet)["_variable_tokens"]
    assert isinstance(original, property) and original.fget is not None
    variable_tokens: Callable[[Stylesheet], dict[str, list[Any]]] = original.fget
    shared: dict[frozenset[Any], dict[str, list[Any]]] = {}

    def _variable_tokens(self: Stylesheet) -> dict[str, list[Any]]:
        tokens: dict[str, list[Any]] | None = self._Stylesheet__variable_tokens  # type: ignore[attr-defined]
        if tokens is None:
            key = variables_key(self)
            tokens = shared.get(key)
            if tokens is None:
                tokens = variable_tokens(self)
                _bounded_set(shared, key, tokens)
            self._Stylesheet__variable_tokens = tokens  # type: ignore[attr-defined]
        return tokens

    patch(Stylesheet, "_variable_tokens", property(_variable_tokens))


# --------------------------------------------------------------------------- entry point


def install() -> None:
    """Apply every workaround once; later calls do nothing. Call before the first app starts."""
    global _installed
    if _installed:
        return
    _install_output_fixes()
    _install_color_fixes()
    _install_leak_fixes()
    _install_paint_fixes()
    _install_loop_fixes()
    _install_css_cache()
    _install_resize_fix()
    _install_covered_screens_fix()
    _install_full_frame_fix()
    _install_first_resume_fix()
    _install_shared_variable_tokens()
    partial_render.install(is_server_app)
    full_render.install(is_server_app)
    shared_styles.install()
    lean_strips.install()
    lean_events.install()
    dispatch_cache.install()
    _install_gc_hooks()
    _installed = True
    log.debug("textual fixes installed")


def is_installed() -> bool:
    """True once `install()` has run."""
    return _installed
