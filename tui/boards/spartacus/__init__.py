"""Spartacus at the table: the board plug-in (registered on import)."""

from harena.tui.boards.spartacus import board as board
