"""Every private Textual, Rich and asyncssh attribute harena relies on is still there, as pinned
(`harena.server.hosting.textual_pins`), in the installed versions, which are the ones pinned."""

from __future__ import annotations

import importlib.metadata
import inspect
import re
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from textual.app import App
from textual.strip import Strip

from harena.server.hosting import dismantle, textual_fixes, textual_pins
from harena.server.hosting.textual_pins import PINS, Pin, actual, patch, pinned, problems

ROOT = Path(__file__).resolve().parents[2]


def dependencies() -> dict[str, Requirement]:
    text = (ROOT / "pyproject.toml").read_text()
    block = text.split("dependencies = [", 1)[1].split("]", 1)[0]
    found = [Requirement(line) for line in re.findall(r'^\s*"([^"]+)"', block, re.M)]
    return {requirement.name: requirement for requirement in found}


@pytest.mark.parametrize("name", ["textual", "rich", "asyncssh"])
def test_the_installed_version_is_in_the_pinned_range(name: str) -> None:
    requirement = dependencies()[name]
    assert requirement.specifier, f"{name} has no range in pyproject.toml"
    upper = [spec for spec in requirement.specifier if spec.operator == "<"]
    assert upper, f"{name} has no upper bound: a new release must be checked first"
    assert requirement.specifier.contains(importlib.metadata.version(name))


@pytest.mark.parametrize("pin", PINS, ids=lambda pin: f"{pin.module}.{pin.attribute}")
def test_each_pinned_attribute_is_as_pinned(pin: Pin) -> None:
    assert actual(pin) == pin


def test_a_changed_attribute_is_reported() -> None:
    gone = Pin("textual.app", "App._no_such_thing", "method", "(self)")
    renamed = Pin("textual.app", "App._display", "method", "(self, screen, update)")
    moved = Pin("textual.strip", "Strip.render", "slot")
    assert problems((gone, renamed, moved)) == [
        "textual.app.App._no_such_thing: expected method (self), found missing",
        "textual.app.App._display: expected method (self, screen, update), "
        "found method (self, screen, renderable)",
        "textual.strip.Strip.render: expected slot, found method (self, console)",
    ]
    assert problems() == []


def test_kinds_are_told_apart() -> None:
    found = {pin.attribute: actual(pin).kind for pin in PINS}
    assert found["App._display"] == "method"
    assert found["App._exception"] == "instance"  # set in App.__init__
    assert found["Strip._render_cache"] == "slot"
    assert found["XTermParser._parse_extended_key"] == "lru_cache"
    assert found["Strip.render_style"] == "classmethod"
    assert found["asyncio"] == "module"


def test_only_pinned_attributes_may_be_patched() -> None:
    assert pinned(App, "_display") and pinned(Strip, "render")
    assert not pinned(App, "run")
    with pytest.raises(LookupError, match="not pinned"):
        patch(App, "run", lambda self: None)


def test_pins_are_checked_against_the_originals_once_patched() -> None:
    """`textual_fixes.install()` (and `dismantle`) replace pinned methods (with other parameters, or a plain
    function for an lru_cache): the pins still describe, and check, what the package has."""
    textual_fixes.install()
    dismantle.install()
    assert {
        "textual.app.App._display",
        "textual.app.App._print_error_renderables",
        "textual.app.App._replace_screen",
        "textual.strip.Strip.render",
        "textual.strip.Strip.render_style",
        "textual.strip.Strip.divide",
        "textual.cache.LRUCache.clear",
        "textual.css.stylesheet.Stylesheet._parse_rules",
        "rich.style.Style._make_ansi_codes",
        "textual._xterm_parser.XTermParser._parse_extended_key",
        "textual.message_pump.MessagePump.__init__",
        "textual._compositor.Compositor.render_partial_update",
    } <= textual_pins.patched()
    assert not isinstance(inspect.getattr_static(Strip, "render_style"), classmethod)
    assert problems() == []
