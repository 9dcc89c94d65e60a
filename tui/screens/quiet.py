"""Screens that do not repaint themselves whole when focus moves.

Textual's `Screen.focused` is a reactive with repaint=True: every focus change (pressing `c` to
chat, Esc to leave the input) redraws the entire screen, ~5 KB at 80x24 in 256 colours. The
widgets whose look depends on focus refresh themselves anyway, so the screen need not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.reactive import Reactive

if TYPE_CHECKING:
    from textual.widget import Widget


class QuietFocus:
    """Mix in before `Screen`/`ModalScreen` (it redefines the reactive, without repaint)."""

    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
