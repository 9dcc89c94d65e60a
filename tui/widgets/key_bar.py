"""The one-line key bar at the bottom of a screen, and the key list the help screen shows.

Both come from the screen's `BINDINGS`: `description` is the short label for the bar, `tooltip`
the longer help text, `key_display` how the key is written. One source, so the bar, the help
and the real keys cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.binding import Binding, BindingType
from textual.content import Content
from textual.widget import Widget

KEY_STYLE = "bold reverse"  # reverse video stays visible on a monochrome terminal

_KEY_NAMES = {
    "escape": "Esc",
    "enter": "Enter",
    "up": "↑",
    "down": "↓",
    "left": "←",
    "right": "→",
    "pageup": "PgUp",
    "pagedown": "PgDn",
    "question_mark": "?",
    "left_square_bracket": "[",
    "right_square_bracket": "]",
    "space": "Space",
    "tab": "Tab",
}


def _bindings(bindings: Iterable[BindingType]) -> list[Binding]:
    out = []
    for item in bindings:
        out.append(item if isinstance(item, Binding) else Binding(*item))
    return out


def key_label(binding: Binding) -> str:
    """How a binding's key is written for people: its key_display, else its keys by name."""
    if binding.key_display:
        return binding.key_display
    keys = [k.strip() for k in binding.key.split(",")]
    return "/".join(_KEY_NAMES.get(k, k) for k in keys)


def help_entries(
    bindings: Iterable[BindingType], extra: Iterable[tuple[str, str]] = ()
) -> list[tuple[str, str]]:
    """(keys, what they do) for every binding with a description, then `extra` entries."""
    entries = [
        (key_label(b), b.tooltip or b.description) for b in _bindings(bindings) if b.description
    ]
    entries.extend(extra)
    return entries


def key_bar_entries(
    bindings: Iterable[BindingType], lead: Iterable[tuple[str, str]] = ()
) -> list[tuple[str, str]]:
    """(keys, label) of the bar, in order: `lead` first, then the bindings shown."""
    entries = list(lead)
    entries.extend(
        (key_label(b), b.description) for b in _bindings(bindings) if b.show and b.description
    )
    return entries


def key_bar_content(entries: Iterable[tuple[str, str]], gap: int = -1) -> Content:
    """The bar: `gap` -1 pads every key (` k  label `); 2 or 1 is the compact form (`k label`
    and that many spaces between entries), for a terminal too narrow for the padded one."""
    parts: list[str | tuple[str, str]] = []
    for keys, label in entries:
        if gap < 0:
            parts.extend([(f" {keys} ", KEY_STYLE), f" {label} "])
        else:
            parts.extend([" " * (gap if parts else 1), (keys, KEY_STYLE), f" {label}"])
    return Content.assemble(*parts)


class KeyBar(Widget):
    """One-line list of a screen's main keys. It changes only when what the person may do
    changes (a player who becomes a spectator); at 80 columns a long bar is drawn compact so
    that every key still shows (Esc and ? last of all)."""

    DEFAULT_CSS = """
    KeyBar {
        height: 1;
        width: 1fr;
    }
    """

    def __init__(
        self,
        bindings: Iterable[BindingType],
        *,
        lead: Iterable[tuple[str, str]] = (),
        id: str | None = None,
    ) -> None:
        """`lead`: (keys, label) shown first, for keys that are not one binding (1-9, 0)."""
        super().__init__(id=id)
        self._entries: list[tuple[str, str]] = []
        self._forms: list[Content] = []
        self.set_keys(bindings, lead)

    def set_keys(
        self, bindings: Iterable[BindingType], lead: Iterable[tuple[str, str]] = ()
    ) -> None:
        """List these keys instead (drawn again only if they differ)."""
        entries = key_bar_entries(bindings, lead)
        if entries != self._entries:
            self._entries = entries
            self._forms = [key_bar_content(entries, gap) for gap in (-1, 2, 1)]
            self.refresh()

    @property
    def text(self) -> str:
        """The bar as drawn at the widget's width (before the first layout: the widest form)."""
        return self._fitted(self.content_size.width).plain

    def _fitted(self, width: int) -> Content:
        if width <= 0:
            return self._forms[0]
        return next((form for form in self._forms if form.cell_length <= width), self._forms[-1])

    def render(self) -> Content:
        return self._fitted(self.content_size.width)
