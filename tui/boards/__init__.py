"""Board plug-ins: how a game's board view is drawn on the generic table screen.

A game registers its own widget with `@register_board("carthage")`; any game without one gets
`GenericBoard`, which prints view["game"]["board"] as readable "key: value" lines. A board widget
receives the whole table view (`show(view)`), reads only that, and never touches a game.
A board module is imported on first use once it is listed in BUILTIN_BOARDS.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TypeVar

from harena.tui.boards.base import BoardWidget
from harena.tui.boards.generic import GenericBoard

__all__ = [
    "BoardWidget",
    "GenericBoard",
    "board_widget_for",
    "load_builtin_boards",
    "register_board",
    "unregister_board",
]


B = TypeVar("B", bound=type[BoardWidget])

_BOARDS: dict[str, type[BoardWidget]] = {}

# Modules that register a board on import ("harena.tui.boards.carthage"); each game adds its own here.
BUILTIN_BOARDS: tuple[str, ...] = ("harena.tui.boards.carthage", "harena.tui.boards.spartacus")
_builtins_loaded = False


def register_board(game_name: str) -> Callable[[B], B]:
    """Class decorator: use this widget for `game_name`'s board."""

    def decorate(cls: B) -> B:
        _BOARDS[game_name] = cls
        return cls

    return decorate


def unregister_board(game_name: str) -> None:
    _BOARDS.pop(game_name, None)


def load_builtin_boards() -> None:
    """Import the boards of BUILTIN_BOARDS (once): a server does it before anyone connects."""
    global _builtins_loaded
    if not _builtins_loaded:
        for module in BUILTIN_BOARDS:
            importlib.import_module(module)
        _builtins_loaded = True


def board_widget_for(game_name: str) -> type[BoardWidget]:
    """The board widget class for a game; GenericBoard when the game has none."""
    load_builtin_boards()
    return _BOARDS.get(game_name, GenericBoard)
