"""Carthage's board: the hex arena, the gladiators and the cards (registered on import)."""

from harena.tui.boards.carthage.board import CarthageBoard

__all__ = ["CarthageBoard"]
