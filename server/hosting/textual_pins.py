"""The private Textual, Rich and asyncssh internals harena relies on, as data a test checks.

harena serves many Textual apps from one process and paints them over SSH, which Textual was
not written for (`textual_fixes`, `dismantle`, `partial_render`, the SSH driver, the row-wise
widgets in tui/widgets). They reach into attributes that no release promises to keep. Each is
pinned in `PINS` with its kind (method, lru_cache, slot, attribute set by the class's code, ...)
and, for a callable, its parameters; tests/server/test_textual_pins.py checks every pin against
the installed versions (`problems()`), and `.ci/check_textual` runs that test and the
benchmarks that would show a regression. `textual_fixes` patches only what is pinned here
(`patch` refuses anything else).
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import inspect
import re
import types
from dataclasses import dataclass
from functools import cache
from typing import Any

MISSING = "missing"
_ABSENT = object()


@dataclass(frozen=True)
class Pin:
    """`attribute` (dotted below the module, e.g. "App._display") of `module` is a `kind`."""

    module: str
    attribute: str
    kind: str
    """method, function, lru_cache, staticmethod, classmethod, property, class, module, slot
    (in `__slots__`), instance (assigned as `self.<name>` by the class's code), field (a
    dataclass field without a class-level default), attribute (a class attribute or
    descriptor), value (a module-level value)."""
    signature: str | None = None
    """A callable's parameters as `parameters()` writes them (names only); None otherwise."""


def _owner_and_name(pin: Pin) -> tuple[Any, str]:
    owner: Any = importlib.import_module(pin.module)
    *path, name = pin.attribute.split(".")
    for part in path:
        owner = getattr(owner, part)
    return owner, name


def _class_source(cls: type) -> str:
    """The source of the functions `cls` defines (not `inspect.getsource(cls)`: on Python 3.11
    that parses the whole module with `ast`, which can fail under threads: gh-106905)."""
    functions: list[object] = []
    for name in vars(cls):
        value = _lookup(cls, name)  # the original of what `patch` replaced
        if isinstance(value, (staticmethod, classmethod)):
            functions.append(value.__func__)
        elif isinstance(value, property):
            functions += [value.fget, value.fset, value.fdel]
        elif isinstance(value, functools.cached_property):
            functions.append(value.func)
        else:
            functions.append(getattr(value, "__wrapped__", value))
    return "\n".join(
        _source(function) for function in functions if isinstance(function, types.FunctionType)
    )


@cache
def _source(function: types.FunctionType) -> str:
    try:
        return inspect.getsource(function)
    except (OSError, TypeError):
        return ""


def _assigned_by_code(cls: type, name: str) -> bool:
    """True if the code of `cls` or a base assigns `self.<name>` (a private `__name` mangled)."""
    for klass in cls.__mro__[:-1]:
        written = name
        prefix = f"_{klass.__name__}__"
        if name.startswith(prefix):
            written = "__" + name[len(prefix) :]
        if re.search(rf"self\.{re.escape(written)}\s*(:[^=\n]*)?=[^=]", _class_source(klass)):
            return True
    return False


def _lookup(owner: Any, name: str) -> Any:
    """`name` on `owner` as the package defines it: what `patch` replaced, if it did."""
    key = (id(owner), name)
    if key in _originals:
        return _originals[key]
    if isinstance(owner, types.ModuleType):
        return getattr(owner, name, _ABSENT)
    return inspect.getattr_static(owner, name, _ABSENT)


def kind_of(owner: Any, name: str) -> str:
    """What `name` is on `owner` (a module or a class), in the words of `Pin.kind`."""
    value = _lookup(owner, name)
    if isinstance(owner, types.ModuleType):
        if value is _ABSENT:
            return MISSING
        if isinstance(value, types.ModuleType):
            return "module"
        if isinstance(value, type):
            return "class"
        if isinstance(value, types.FunctionType):
            return "function"
        return "value"
    if value is _ABSENT:
        if dataclasses.is_dataclass(owner) and name in {f.name for f in dataclasses.fields(owner)}:
            return "field"
        return "instance" if _assigned_by_code(owner, name) else MISSING
    if isinstance(value, staticmethod):
        return "staticmethod"
    if isinstance(value, classmethod):
        return "classmethod"
    if isinstance(value, property):
        return "property"
    if isinstance(value, types.MemberDescriptorType):
        return "slot"
    if isinstance(value, type):
        return "class"
    if hasattr(value, "cache_clear") and hasattr(value, "__wrapped__"):
        return "lru_cache"
    if isinstance(value, types.FunctionType):
        return "method"
    return "attribute"


def parameters(owner: Any, name: str) -> str | None:
    """`(self, screen, renderable)`: the parameter names of a callable pin, None otherwise.
    Names and kinds only: annotations and defaults may change without breaking a patch."""
    value = _lookup(owner, name)
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    value = getattr(value, "__wrapped__", value)
    if not isinstance(value, types.FunctionType):
        return None
    out, keyword_only = [], False
    for parameter in inspect.signature(value).parameters.values():
        if parameter.kind is parameter.VAR_POSITIONAL:
            out.append("*" + parameter.name)
            keyword_only = True
        elif parameter.kind is parameter.VAR_KEYWORD:
            out.append("**" + parameter.name)
        elif parameter.kind is parameter.KEYWORD_ONLY and not keyword_only:
            out += ["*", parameter.name]
            keyword_only = True
        else:
            out.append(parameter.name)
    return "(" + ", ".join(out) + ")"


def actual(pin: Pin) -> Pin:
    """`pin` as the installed packages have it."""
    try:
        owner, name = _owner_and_name(pin)
    except (ImportError, AttributeError):
        return Pin(pin.module, pin.attribute, MISSING)
    kind = kind_of(owner, name)
    signature = parameters(owner, name) if kind != MISSING else None
    return Pin(pin.module, pin.attribute, kind, signature)


def problems(pins: tuple[Pin, ...] | None = None) -> list[str]:
    """Every pin the installed packages no longer match, described; empty when all hold."""
    out = []
    for pin in PINS if pins is None else pins:
        found = actual(pin)
        if found != pin:
            expected = " ".join(filter(None, (pin.kind, pin.signature)))
            got = " ".join(filter(None, (found.kind, found.signature)))
            out.append(f"{pin.module}.{pin.attribute}: expected {expected}, found {got}")
    return out


def pinned(owner: Any, name: str) -> bool:
    """True if `name` on `owner` (a module, a class, or an instance of one) is in `PINS`."""
    if isinstance(owner, types.ModuleType):
        return (owner.__name__, name) in _PINNED
    cls = owner if isinstance(owner, type) else type(owner)
    return any((c.__module__, f"{c.__qualname__}.{name}") in _PINNED for c in cls.__mro__)


def patch(owner: Any, name: str, replacement: Any) -> None:
    """Set `name` on `owner` (a module, class or instance) to `replacement`; refused (LookupError)
    unless pinned, so that every patch is checked against each new release. The original of a
    module's or class's attribute is kept: pins are checked against it, patched or not."""
    if not pinned(owner, name):
        raise LookupError(f"{owner!r}.{name} is patched but not pinned in textual_pins.PINS")
    if isinstance(owner, (type, types.ModuleType)):
        _originals.setdefault((id(owner), name), _lookup(owner, name))
        _patched.add(_qualified(owner, name))
    setattr(owner, name, replacement)


def _qualified(owner: type | types.ModuleType, name: str) -> str:
    if isinstance(owner, types.ModuleType):
        return f"{owner.__name__}.{name}"
    return f"{owner.__module__}.{owner.__qualname__}.{name}"


def patched() -> set[str]:
    """`module.Class.attribute` of every module or class attribute `patch` replaced."""
    return set(_patched)


_originals: dict[tuple[int, str], Any] = {}  # (id of the module or class, name): what it was
_patched: set[str] = set()


# Generated from the installed packages (textual 8.2.8, rich 15.0.0, asyncssh 2.24.1) and
# checked by the test: edit by hand only with the code that relies on a pin.
PINS: tuple[Pin, ...] = (
    # textual_fixes (pitfall 1: stdout)
    Pin("textual.app", "redirect_stdout", "class"),
    Pin("textual.app", "redirect_stderr", "class"),
    Pin("textual.app", "_PrintCapture.app", "instance"),
    Pin("textual.app", "App._capture_stdout", "instance"),
    Pin("textual.app", "App._print_error_renderables", "method", "(self)"),
    Pin("textual.app", "App._exit_renderables", "instance"),
    Pin("textual.app", "App._exception", "instance"),
    # textual_fixes (pitfall 3: colours)
    Pin("textual.app", "App.console", "instance"),
    Pin("rich.console", "Console._color_system", "instance"),
    Pin("textual.strip", "Strip._segments", "slot"),
    Pin("textual.strip", "Strip._render_cache", "slot"),
    Pin("textual.strip", "Strip.render", "method", "(self, console)"),
    Pin("textual.strip", "Strip.render_style", "classmethod", "(cls, style, text, color_system)"),
    Pin("textual.strip", "Strip.render_ansi", "classmethod", "(cls, style, color_system)"),
    Pin("rich.style", "Style._make_ansi_codes", "method", "(self, color_system)"),
    Pin("rich.style", "Style._style_map", "attribute"),
    Pin("rich.style", "Style._attributes", "slot"),
    Pin("rich.style", "Style._set_attributes", "slot"),
    Pin("rich.style", "Style._color", "slot"),
    Pin("rich.style", "Style._bgcolor", "slot"),
    Pin("rich.style", "Style._link", "slot"),
    Pin("rich.style", "Style._link_id", "slot"),
    # textual_fixes (pitfall 4: leaks)
    Pin(
        "textual._xterm_parser", "XTermParser._parse_extended_key", "lru_cache", "(self, sequence)"
    ),
    Pin(
        "textual._xterm_parser",
        "XTermParser._parse_colon_codepoints",
        "classmethod",
        "(cls, text_str)",
    ),
    Pin(
        "textual._styles_cache",
        "StylesCache.get_inner_outer",
        "lru_cache",
        "(cls, base_background, background)",
    ),
    Pin(
        "textual.widgets._data_table",
        "DataTable._get_styles_to_render_cell",
        "lru_cache",
        "(self, is_header_cell, is_row_label_cell, is_fixed_style_cell, hover, cursor, show_cursor, show_hover_cursor, has_css_foreground_priority, has_css_background_priority)",
    ),
    Pin("textual.strip", "Strip.divide", "method", "(self, cuts)"),
    Pin("textual.strip", "Strip._divide_cache", "slot"),
    # dispatch_cache: handlers found once per pump class, handler name and message class
    Pin(
        "textual.message_pump",
        "MessagePump._get_dispatch_methods",
        "method",
        "(self, method_name, message)",
    ),
    Pin(
        "textual.message_pump",
        "_MessagePumpMeta.__new__",
        "staticmethod",
        "(cls, name, bases, class_dict, **kwargs)",
    ),
    Pin("textual.message", "Message._no_default_action", "slot"),
    Pin("textual.message", "Message._sender", "slot"),
    Pin("textual.css.match", "match", "function", "(selector_sets, node)"),
    Pin("textual._on", "OnNoWidget", "class"),
    # lean_events: queues' and mounted events' waiters made on the first wait
    Pin("textual._queue", "Event", "class"),
    Pin("textual.message_pump", "MessagePump._mounted_event", "attribute"),
    Pin("asyncio.locks", "Event.__init__", "method", "(self)"),
    Pin("asyncio.locks", "Event.wait", "method", "(self)"),
    Pin("asyncio.locks", "Event.set", "method", "(self)"),
    Pin("asyncio.locks", "Event._waiters", "instance"),
    # lean_strips: Strip.__init__ sets every slot of Strip (checked by its test)
    Pin("textual.strip", "Strip.__init__", "method", "(self, segments, cell_length)"),
    Pin("textual.strip", "Strip._cell_length", "slot"),
    Pin("textual.strip", "Strip._crop_cache", "slot"),
    Pin("textual.strip", "Strip._style_cache", "slot"),
    Pin("textual.strip", "Strip._filter_cache", "slot"),
    Pin("textual.strip", "Strip._line_length_cache", "slot"),
    Pin("textual.strip", "Strip._crop_extend_cache", "slot"),
    Pin("textual.strip", "Strip._offsets_cache", "slot"),
    Pin("textual.strip", "Strip._link_ids", "slot"),
    Pin("textual.strip", "Strip._cell_count", "slot"),
    Pin("textual.cache", "FIFOCache._maxsize", "slot"),
    Pin("textual.cache", "FIFOCache._cache", "slot"),
    Pin("textual.cache", "FIFOCache.hits", "slot"),
    Pin("textual.cache", "FIFOCache.misses", "slot"),
    Pin("textual.cache", "FIFOCache.set", "method", "(self, key, value)"),
    Pin("textual.cache", "FIFOCache.clear", "method", "(self)"),
    Pin("textual.cache", "LRUCache.clear", "method", "(self)"),
    Pin("textual.cache", "LRUCache._cache", "slot"),
    Pin(
        "textual.css.stylesheet", "Stylesheet._process_component_classes", "method", "(self, node)"
    ),
    Pin("textual.dom", "DOMNode._component_styles", "instance"),
    Pin("textual.css.styles", "RenderStyles.node", "property"),
    Pin("textual.dom", "DOMNode._css_styles", "instance"),
    Pin("textual.dom", "DOMNode._inline_styles", "instance"),
    Pin("textual.css.styles", "Styles.node", "attribute"),
    # textual_fixes (pitfall 10: paints)
    Pin("textual.app", "App._display", "method", "(self, screen, renderable)"),
    Pin("textual._compositor", "LayoutUpdate.region", "instance"),
    Pin("textual._compositor", "LayoutUpdate.strips", "instance"),
    Pin("textual._compositor", "ChopsUpdate.chops", "instance"),
    Pin("textual._compositor", "ChopsUpdate.spans", "instance"),
    Pin("textual._compositor", "ChopsUpdate.chop_ends", "instance"),
    Pin("textual.app", "App._driver", "instance"),
    Pin("textual.app", "App._batch_count", "instance"),
    Pin("textual.app", "App._running", "instance"),
    Pin("textual.app", "App._closed", "instance"),
    Pin("textual.app", "App._sync_available", "instance"),
    Pin("textual.app", "App._handle_exception", "method", "(self, error)"),
    Pin("textual.app", "App.post_display_hook", "method", "(self)"),
    Pin("textual.app", "App.cursor_position", "instance"),
    Pin("textual.screen", "Screen.outer_size", "property"),
    # textual_fixes (gc hooks), dismantle
    Pin("textual.app", "App._replace_screen", "method", "(self, screen)"),
    Pin("textual.screen", "Screen._on_screen_resume", "method", "(self, event)"),
    # textual_fixes: a Resize to the size a screen is laid out at is dropped
    Pin("textual.screen", "Screen._on_resize", "method", "(self, event)"),
    Pin("textual.screen", "Screen._layout_widgets", "instance"),
    Pin("textual.widget", "Widget._layout_required", "instance"),
    Pin("textual._compositor", "Compositor.size", "instance"),
    # textual_fixes: screens under an opaque one are hidden
    Pin("textual.app", "App._background_screens", "property"),
    Pin("textual.app", "App._screen_stack", "property"),
    # textual_fixes: a screen to be repainted whole draws nothing before
    Pin("textual.screen", "Screen._compositor_refresh", "method", "(self)"),
    Pin("textual.screen", "Screen.check_idle", "method", "(self)"),
    # textual_fixes: a new screen is not styled again on its first resume
    Pin("textual.screen", "Screen.css_path", "instance"),
    Pin("textual.events", "ScreenResume.refresh_styles", "attribute"),
    Pin("textual.css.stylesheet", "Stylesheet.source", "instance"),
    Pin("textual.css.stylesheet", "Stylesheet._variables", "instance"),
    Pin("textual.css.stylesheet", "CssSource.is_defaults", "attribute"),
    Pin("textual.css.stylesheet", "CssSource.scope", "attribute"),
    Pin("textual.app", "App._css_update_count", "instance"),
    Pin("textual.app", "App.stylesheet", "instance"),
    Pin("textual.widget", "Widget._repaint_required", "instance"),
    Pin("textual.screen", "Screen.__init__", "method", "(self, name, id, classes)"),
    Pin("textual.app", "App.is_screen_installed", "method", "(self, screen)"),
    Pin("textual.app", "App._screen_stacks", "instance"),
    Pin("textual.app", "App._installed_screens", "instance"),
    Pin("textual.message_pump", "MessagePump.__init__", "method", "(self, parent)"),
    Pin("textual.message_pump", "MessagePump._parent", "property"),
    Pin("textual.message_pump", "MessagePump._MessagePump__parent", "instance"),
    Pin("textual.message_pump", "MessagePump._task", "instance"),
    Pin("textual.message_pump", "MessagePump._timers", "instance"),
    Pin("textual.message_pump", "MessagePump._closing", "instance"),
    Pin("textual.message_pump", "MessagePump._closed", "instance"),
    Pin("textual.message_pump", "MessagePump.message_queue_size", "property"),
    Pin("textual._context", "active_app", "value"),
    Pin("textual._animator", "Animator._timer", "instance"),
    Pin("textual.timer", "Timer._task", "instance"),
    Pin("textual.app", "App.mouse_over", "instance"),
    Pin("textual.app", "App.hover_over", "instance"),
    Pin("textual.app", "App.mouse_captured", "instance"),
    Pin("textual.app", "App._mouse_down_widget", "instance"),
    Pin("textual.app", "App._last_focused_on_app_blur", "instance"),
    Pin("textual.screen", "Screen._callbacks", "instance"),
    # textual_fixes (pitfalls 11, 12; CSS cache)
    Pin("textual.app", "asyncio", "module"),
    Pin("textual.screen", "UPDATE_PERIOD", "value"),
    Pin(
        "textual.css.stylesheet",
        "Stylesheet._parse_rules",
        "method",
        "(self, css, read_from, is_default_rules, tie_breaker, scope)",
    ),
    Pin("textual.css.stylesheet", "Stylesheet._variables", "instance"),
    # textual_fixes: CSS variables' tokens shared
    Pin("textual.css.stylesheet", "Stylesheet._variable_tokens", "property"),
    Pin("textual.css.stylesheet", "Stylesheet._Stylesheet__variable_tokens", "instance"),
    # tui.app: the first screen is the default screen, switched out like one switched in
    Pin(
        "textual.screen",
        "Screen._push_result_callback",
        "method",
        "(self, requester, callback, future)",
    ),
    # shared_styles
    Pin("textual.css.stylesheet", "Stylesheet.apply", "method", "(self, node, *, animate, cache)"),
    Pin(
        "textual.css.stylesheet",
        "Stylesheet.replace_rules",
        "classmethod",
        "(cls, node, rules, animate)",
    ),
    Pin("textual.css.stylesheet", "Stylesheet.rules", "property"),
    Pin("textual.css.stylesheet", "Stylesheet.rules_map", "property"),
    Pin("textual.css.model", "RuleSet.pseudo_classes", "field"),
    Pin("textual.dom", "DOMNode._classes", "instance"),
    Pin("textual.dom", "DOMNode._id", "instance"),
    Pin("textual.dom", "DOMNode._selector_names", "property"),
    Pin("textual.dom", "DOMNode._has_hover_style", "instance"),
    Pin("textual.dom", "DOMNode._has_focus_within", "instance"),
    Pin("textual.dom", "DOMNode._has_order_style", "instance"),
    Pin("textual.dom", "DOMNode._has_odd_or_even", "instance"),
    Pin("textual.css.stylesheet", "Stylesheet._EXCLUDE_PSEUDO_CLASSES_FROM_CACHE", "attribute"),
    # partial_render
    Pin("textual._compositor", "Compositor.render_partial_update", "method", "(self)"),
    # full_render (with partial_render's)
    Pin("textual._compositor", "Compositor.render_full_update", "method", "(self, simplify)"),
    Pin("textual._compositor", "LayoutUpdate.__init__", "method", "(self, strips, region)"),
    Pin("textual._compositor", "Compositor._dirty_regions", "instance"),
    Pin("textual._compositor", "Compositor._regions_to_spans", "classmethod", "(cls, regions)"),
    Pin("textual._compositor", "Compositor.cuts", "property"),
    Pin("textual._compositor", "Compositor.visible_widgets", "property"),
    Pin("textual.widget", "Widget.render_lines", "method", "(self, crop)"),
    # tui.widgets.rows, shared_lines, screen_refresh
    Pin("textual.widget", "Widget._size", "instance"),
    Pin("textual.widget", "Widget._layout_cache", "instance"),
    Pin("textual.widget", "Widget._dirty_regions", "instance"),
    Pin("textual.widget", "Widget._repaint_regions", "instance"),
    Pin("textual.widget", "Widget._styles_cache", "instance"),
    Pin("textual.widget", "Widget._rich_style_cache", "instance"),
    Pin("textual.widget", "Widget.clear_cached_dimensions", "method", "(self)"),
    Pin("textual.screen", "Screen._dirty_widgets", "instance"),
    Pin("textual.screen", "Screen._compositor", "instance"),
    Pin("textual.css.styles", "RenderStyles._cache_key", "property"),
    Pin("textual._styles_cache", "StylesCache.render_widget", "method", "(self, widget, crop)"),
    Pin(
        "textual._styles_cache",
        "StylesCache.render_line",
        "method",
        "(self, styles, y, size, content_size, padding, base_background, background, render_content_line, border_title, border_subtitle, opacity, ansi_theme, native_ansi)",
    ),
    Pin("textual.screen", "Screen._on_timer_update", "method", "(self)"),
    # server.driver
    Pin("textual.driver", "Driver.__init__", "method", "(self, app, *, debug, mouse, size)"),
    Pin("textual.driver", "Driver._app", "instance"),
    Pin("textual.driver", "Driver._size", "instance"),
    Pin("textual.driver", "Driver._mouse", "instance"),
    Pin("textual.driver", "Driver._loop", "instance"),
    Pin("textual.driver", "Driver.process_message", "method", "(self, message)"),
    Pin("textual._xterm_parser", "XTermParser.feed", "method", "(self, data)"),
    Pin("textual._xterm_parser", "XTermParser.tick", "method", "(self)"),
    Pin("textual._parser", "Parser._timeout_time", "instance"),
    Pin("textual._time", "get_time", "value"),
    Pin(
        "textual.app",
        "App._process_messages",
        "method",
        "(self, ready_callback, headless, inline, inline_no_clear, mouse, terminal_size, message_hook)",
    ),
    Pin("textual.app", "App._context", "method", "(self)"),
    # server.ssh_server
    Pin("asyncssh.channel", "SSHServerChannel._env", "instance"),
    Pin("asyncssh.channel", "SSHServerChannel._process_env_request", "method", "(self, packet)"),
    Pin("asyncssh.connection", "SSHConnection._recv_handler", "instance"),
    # server.transport.ssh_packets
    Pin(
        "asyncssh.connection",
        "SSHConnection.send_packet",
        "method",
        "(self, pkttype, *args, handler)",
    ),
    # server.loop_share (asyncio itself: one loop shared by every session)
    Pin("asyncio.events", "Handle._run", "method", "(self)"),
    Pin("asyncio.events", "Handle._context", "slot"),
)

_PINNED = {(pin.module, pin.attribute) for pin in PINS}
