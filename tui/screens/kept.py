"""One screen of each kind per app, made the first time and shown again: no garbage per open.

All sessions share one process, and a closed screen is a web of reference cycles (a dialog is
~1,600 objects, a full screen more) that only a full garbage collection frees, pausing every
table at once. A client opening and closing a screen as fast as its input allows made such
collections pause everyone for 100-300 ms (`bench/hostile.py --scenario flood`). A kept screen
is installed in its app and pushed again; its opener resets it (`reset(...)`) to look new.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from textual.app import App
from textual.screen import Screen

S = TypeVar("S", bound=Screen[Any])


def show_kept(
    app: App[Any],
    name: str,
    make: Callable[[], S],
    reset: Callable[[S], None] | None = None,
    answered: Callable[[Any], None] | None = None,
) -> None:
    """Push the app's screen called `name`: made by `make` the first time, else `reset` to look
    new; `answered` gets what it is dismissed with.

    A kept screen already on the screen stack (a question asked over the same question) cannot
    be pushed twice: a fresh one, not kept, is made for that rare case."""
    if not app.is_screen_installed(name):
        screen = make()
        app.install_screen(screen, name)
    elif app.get_screen(name) in app.screen_stack:
        screen = make()
    else:
        screen = cast(S, app.get_screen(name))  # installed by `make` above
        if reset is not None:
            reset(screen)
    app.push_screen(screen, answered)
