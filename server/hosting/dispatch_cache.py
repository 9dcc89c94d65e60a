"""Message handlers found once per kind of pump and kind of message, not once per message.

Textual finds the handlers of each message it dispatches by walking the receiving pump's
class MRO (~10-20 classes for a widget), reading each class's `_decorated_handlers` and
building `_on_x`/`on_x` names as it goes, and does so for every message on every pump: a
session's start dispatches hundreds (compose, mount, resize, show ...) and every screen update
dozens more. What it finds depends only on the pump's class, the handler name and the
message's class, so `_get_dispatch_methods` here walks the MRO once per such triple and keeps,
for each class that has one, its decorated handlers and its named handler.

Replaying the kept walk yields what Textual's does, in the same order: it binds each method to
the pump, matches `@on` selectors against this message, skips a method already yielded, and
stops before the next class once a handler calls `prevent_default()` (classes with no handler
yield nothing, so skipping them changes nothing). Classes are not expected to gain or lose
handlers after their first message; `clear()` forgets the walks if they do.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from harena.server.hosting.textual_pins import patch

# (class, decorated handlers of this message's classes: (method, selectors), named handler)
_Step = tuple[
    type, tuple[tuple[Callable[..., Any], dict[str, Any]], ...], Callable[..., Any] | None
]

_walks: dict[tuple[type, str, type], tuple[_Step, ...]] = {}


def _walk(pump_class: type, method_name: str, message_class: type) -> tuple[_Step, ...]:
    """The classes of `pump_class`'s MRO that handle the message, with their handlers."""
    from textual.message import Message

    message_mro = [c for c in message_class.__mro__ if issubclass(c, Message)]
    steps: list[_Step] = []
    for cls in pump_class.__mro__:
        decorated: list[tuple[Callable[..., Any], dict[str, Any]]] = []
        handlers_by_message = cls.__dict__.get("_decorated_handlers")
        if handlers_by_message:
            for kind in message_mro:
                decorated.extend(handlers_by_message.get(kind, ()))
        method = cls.__dict__.get(f"_{method_name}") or cls.__dict__.get(method_name)
        if method is not None and getattr(method, "_textual_on", None):
            method = None
        if decorated or method is not None:
            steps.append((cls, tuple(decorated), method))
    return tuple(steps)


def _get_dispatch_methods(
    self: Any, method_name: str, message: Any
) -> Iterator[tuple[type, Callable[..., Any]]]:
    """`MessagePump._get_dispatch_methods` from the kept walk (same yields, same order)."""
    key = (self.__class__, method_name, message.__class__)
    steps = _walks.get(key)
    if steps is None:
        steps = _walks[key] = _walk(*key)
    dispatched: set[Callable[..., Any]] = set()
    for cls, decorated, method in steps:
        if message._no_default_action:
            break
        for handler, selectors in decorated:
            if handler in dispatched:
                continue
            if selectors and not _selectors_match(message, selectors):
                continue
            yield cls, handler.__get__(self, cls)
            dispatched.add(handler)
        if method is not None:
            yield cls, method.__get__(self, cls)


def _selectors_match(message: Any, selectors: dict[str, Any]) -> bool:
    """Whether the message's widgets match an `@on` decorator's selectors, as Textual checks."""
    from textual._on import OnNoWidget
    from textual.css.match import match
    from textual.widget import Widget

    if not message._sender:
        return False
    for attribute, selector in selectors.items():
        node = getattr(message, attribute)
        if node is None:
            return False
        if not isinstance(node, Widget):
            raise OnNoWidget(
                f"on decorator can't match against {attribute!r} as it is not a widget."
            )
        if not match(selector, node):
            return False
    return True


def clear() -> None:
    """Forget every kept walk (after a class's handlers change)."""
    _walks.clear()


_installed = False


def install() -> None:
    """Textual's message pumps find their handlers through the kept walks (idempotent)."""
    global _installed
    if _installed:
        return
    from textual.message_pump import MessagePump

    patch(MessagePump, "_get_dispatch_methods", _get_dispatch_methods)
    _installed = True
