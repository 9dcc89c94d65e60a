"""server/hosting/dispatch_cache.py: handlers found once per kind of pump and message, the same
handlers in the same order as Textual's own walk of the MRO."""

from __future__ import annotations

from typing import Any

from textual import on
from textual.message_pump import MessagePump
from textual.widget import Widget
from textual.widgets import Button

from harena.server.hosting import dispatch_cache, textual_pins
from harena.server.hosting.textual_fixes import install

install()

textual_walk = textual_pins._originals[(id(MessagePump), "_get_dispatch_methods")]


class Panel(Widget):
    @on(Button.Pressed)
    def any_button(self, message: Button.Pressed) -> None: ...

    @on(Button.Pressed, "#ok")
    def ok_button(self, message: Button.Pressed) -> None: ...

    def on_button_pressed(self, message: Button.Pressed) -> None: ...


class Form(Panel):
    @on(Button.Pressed, "#cancel")
    def cancel_button(self, message: Button.Pressed) -> None: ...

    def _on_button_pressed(self, message: Button.Pressed) -> None: ...


def pressed(button_id: str, *, sender: bool = True) -> Button.Pressed:
    button = Button(id=button_id)
    message = Button.Pressed(button)
    message._sender = button if sender else None
    return message


def walked(walk: Any, pump: MessagePump, message: Any, stop_after: int = 99) -> list[str]:
    """Each handler the walk yields, as `Class.method`; `prevent_default()` after `stop_after`."""
    out = []
    for cls, method in walk(pump, message.handler_name, message):
        assert method.__self__ is pump
        out.append(f"{cls.__name__}.{method.__name__}")
        if len(out) == stop_after:
            message.prevent_default()
    return out


def test_the_kept_walk_yields_what_textuals_walk_yields() -> None:
    form = Form()
    cases = [("ok", True), ("cancel", True), ("other", True), ("ok", False)]
    for button_id, sender in cases:
        for stop_after in (1, 2, 99):
            mine = walked(
                MessagePump._get_dispatch_methods,
                form,
                pressed(button_id, sender=sender),
                stop_after,
            )
            theirs = walked(textual_walk, form, pressed(button_id, sender=sender), stop_after)
            assert mine == theirs, (button_id, sender, stop_after)
    everything = walked(MessagePump._get_dispatch_methods, form, pressed("ok"))
    assert everything[:2] == ["Form._on_button_pressed", "Panel.any_button"]
    assert "Panel.ok_button" in everything and "Form.cancel_button" not in everything
    assert walked(MessagePump._get_dispatch_methods, form, pressed("ok"), 1) == [
        "Form._on_button_pressed"
    ]


def test_a_pump_class_is_walked_once_per_handler_and_message_class(monkeypatch: Any) -> None:
    walks: list[tuple[type, str, type]] = []
    real_walk = dispatch_cache._walk

    def counted(*key: Any) -> Any:
        walks.append(key)
        return real_walk(*key)

    dispatch_cache.clear()
    monkeypatch.setattr(dispatch_cache, "_walk", counted)
    first, second = Form(), Form()
    for pump in (first, second, first):
        walked(MessagePump._get_dispatch_methods, pump, pressed("ok"))
    walked(MessagePump._get_dispatch_methods, Panel(), pressed("ok"))
    assert walks == [
        (Form, "on_button_pressed", Button.Pressed),
        (Panel, "on_button_pressed", Button.Pressed),
    ]
