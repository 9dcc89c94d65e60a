"""The prompt bar: what this seat must decide now, its choices numbered 1-9 then 0, in pages.

This is the single place that turns prompts into keys. A screen that shows a PromptBar mixes in
`PromptKeys` and adds `PROMPT_BINDINGS` to its own BINDINGS (bindings must live on the screen:
the bar never takes focus, so that the number keys always work), then implements `choose`.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, cast

from textual import events
from textual.binding import Binding
from textual.content import Content

from harena.tui.widgets.rows import RowsWidget

if TYPE_CHECKING:
    from textual.screen import Screen

SLOT_KEYS = "1234567890"
PAGE_SIZE = len(SLOT_KEYS)
ROWS = 5  # choices per column; two columns make one page
COLUMNS = 2

PROMPT_BINDINGS = [
    # Only the first number key carries the help text: the help lists the ten as one line.
    Binding(
        "1",
        "prompt_choose(0)",
        "choose",
        key_display="1-9, 0",
        tooltip="choose the numbered choice on the page shown",
        show=False,
    ),
    *(
        Binding(key, f"prompt_choose({slot})", show=False)
        for slot, key in enumerate(SLOT_KEYS)
        if slot
    ),
    Binding(
        "left_square_bracket,pageup",
        "prompt_page(-1)",
        "page",
        key_display="[ / PgUp",
        tooltip="previous page of choices",
        show=False,
    ),
    Binding(
        "right_square_bracket,pagedown",
        "prompt_page(1)",
        "page",
        key_display="] / PgDn",
        tooltip="next page of choices",
        show=False,
    ),
]

Choice = tuple[str, str]  # (id, label), as in a prompt view

CHANGE_GUARD = 0.6
"""Seconds after the choices are replaced under a player (someone else's move changed them while
they were shown, or took them away and brought new ones) during which a number key that picked
something else a moment before is refused: a key pressed for the old choices, still on its way
over a slow link, must not pick whatever now has its number. Keys whose choice is unchanged,
choices that appear after a quiet spell, and the next step after the player's own answer are
not guarded: no key was meant for anything else."""


class PromptBar(RowsWidget):
    """Fixed height: a title line (prompt text, page n/m) and two columns of five choices."""

    DEFAULT_CSS = """
    PromptBar {
        height: 6;
        width: 1fr;
        padding: 0 1;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._text = ""
        self._choices: list[Choice] = []
        self._page = 0
        self._drawn: tuple[str, tuple[Choice, ...], int] | None = None
        self._guarded_until = 0.0
        self._expecting = False  # the player just answered: the next change is theirs
        self._replaced: tuple[list[Choice], int] = ([], 0)  # choices (and page) changed under them
        self._taken_at = float("-inf")  # when choices last went away without the player's answer
        self.clock = time.monotonic

    # -- state --------------------------------------------------------------------------------

    @property
    def choices(self) -> list[Choice]:
        return list(self._choices)

    @property
    def page(self) -> int:
        return self._page

    @property
    def pages(self) -> int:
        return max(1, -(-len(self._choices) // PAGE_SIZE))

    def show_prompts(self, prompts: list[dict[str, Any]], note: str = "") -> None:
        """Show the seat's open prompts; several prompts are offered as one list."""
        choices = [(cid, label) for prompt in prompts for cid, label in prompt["choices"]]
        text = " / ".join(prompt["text"] for prompt in prompts)
        if note:
            text = f"{note} {text}"
        if choices != self._choices:
            now = self.clock()
            if choices and not self._expecting:
                if self._choices:
                    self._replaced, self._guarded_until = (
                        (self._choices, self._page),
                        now + CHANGE_GUARD,
                    )
                elif now - self._taken_at < CHANGE_GUARD:
                    self._guarded_until = now + CHANGE_GUARD  # (replaced holds what was taken)
            self._expecting = False
            self._page = 0
        self._set(text, choices)

    def show_idle(self, text: str) -> None:
        """Nothing to decide: say why (waiting for someone, watching, ...)."""
        if self._choices:
            if not self._expecting:
                self._replaced, self._taken_at = (self._choices, self._page), self.clock()
            self._expecting = False
        self._page = 0
        self._set(text, [])

    def answered(self) -> None:
        """The player chose: what replaces these choices is the next step they expect."""
        self._expecting = True
        self._guarded_until = 0.0

    def answer_refused(self) -> None:
        """The choice was not made: the choices stay, and so does whatever changes them next."""
        self._expecting = False

    def stale(self, slot: int) -> bool:
        """True if number key `slot` may have been meant for choices just replaced under the
        player: within the guard, that key picked something else a moment ago."""
        if self.clock() >= self._guarded_until:
            return False
        old, page = self._replaced
        index = page * PAGE_SIZE + slot
        before = old[index] if 0 <= slot < PAGE_SIZE and index < len(old) else None
        now = self.choice_at(slot)
        return before is not None and now is not None and before[0] != now[0]

    def guarded(self) -> float:
        """Seconds left of the guard (0: every number key chooses)."""
        return max(0.0, self._guarded_until - self.clock())

    def choice_at(self, slot: int) -> Choice | None:
        """The choice behind number key `slot` (0 for key 1 ... 9 for key 0) on this page."""
        index = self._page * PAGE_SIZE + slot
        return (
            self._choices[index] if 0 <= slot < PAGE_SIZE and index < len(self._choices) else None
        )

    def slot_at(self, x: int, y: int) -> int | None:
        """The slot drawn at content offset (x, y), for a click; None off the choices."""
        start = self._page * PAGE_SIZE
        shown = len(self._choices[start : start + PAGE_SIZE])
        if not 1 <= y <= ROWS or not shown:
            return None
        columns = COLUMNS if shown > ROWS else 1
        col = min(max(x, 0) // max(self.content_size.width // columns, 1), columns - 1)
        slot = col * ROWS + (y - 1)
        return slot if slot < shown else None

    def on_click(self, event: events.Click) -> None:
        """A click on a choice is its number key."""
        slot = self.slot_at(event.x - self.styles.padding.left, event.y)
        choose = getattr(self.screen, "action_prompt_choose", None)  # PromptKeys
        if slot is not None and choose is not None:
            event.stop()
            choose(slot)

    def turn_page(self, delta: int) -> bool:
        page = min(max(self._page + delta, 0), self.pages - 1)
        if page == self._page:
            return False
        self._page = page
        self._redraw()
        return True

    # -- drawing ------------------------------------------------------------------------------

    def _set(self, text: str, choices: list[Choice]) -> None:
        self._text, self._choices = text, choices
        self._redraw()

    def _redraw(self) -> None:
        drawn = (self._text, tuple(self._choices), self._page)
        if drawn != self._drawn:
            self._drawn = drawn
            self.update_rows()

    @property
    def text(self) -> str:
        """What the bar shows, as plain text."""
        return "\n".join(line.plain for line in self._build(self.content_size.width))

    def build_rows(self, width: int, height: int) -> list[Content]:
        return self._build(width)

    def _build(self, width: int) -> list[Content]:
        width = max(width, 40)
        page_note = f"page {self._page + 1}/{self.pages}  [ ]" if self.pages > 1 else ""
        room = width - len(page_note) - 1
        title = self._text if len(self._text) <= room else self._text[: room - 1] + "…"
        lines = [
            Content.assemble(
                (title, "bold"), " " * (width - len(title) - len(page_note)), page_note
            )
        ]
        start = self._page * PAGE_SIZE
        shown = self._choices[start : start + PAGE_SIZE]
        # one column (full width: long card texts stay readable) when the page fits in it
        columns = COLUMNS if len(shown) > ROWS else 1
        column = width // columns
        label_room = column - 4
        for row in range(ROWS if shown else 0):
            parts: list[str | tuple[str, str]] = []
            for col in range(columns):
                slot = col * ROWS + row  # numbered down the columns
                if slot >= len(shown):
                    continue
                label = shown[slot][1]
                if len(label) > label_room:
                    label = label[: label_room - 1] + "…"
                parts.append((f" {SLOT_KEYS[slot]} ", "bold reverse"))
                parts.append(f" {label:<{label_room}}")
            lines.append(Content.assemble(*parts))
        return lines


class PromptKeys:
    """Mixin for screens with a PromptBar: number keys choose, [ and ] turn pages."""

    def choose(self, choice_id: str) -> None:  # pragma: no cover - screens implement it
        raise NotImplementedError

    def prompt_unavailable(self, message: str) -> None:  # pragma: no cover
        raise NotImplementedError

    def action_prompt_choose(self, slot: int) -> None:
        bar = cast("Screen[Any]", self).query_one(PromptBar)  # mixed into screens
        choice = bar.choice_at(slot)
        if choice is not None and bar.stale(slot):
            self.prompt_unavailable("the choices just changed: read them, then press again")
            return
        if choice is None:
            if bar.choices:
                self.prompt_unavailable(f"there is no choice {SLOT_KEYS[slot]} on this page")
            else:
                self.prompt_unavailable("nothing to choose now")
            return
        self.choose(choice[0])

    def action_prompt_page(self, delta: int) -> None:
        bar = cast("Screen[Any]", self).query_one(PromptBar)  # mixed into screens
        if bar.pages == 1:
            self.prompt_unavailable("all choices fit on one page")
        else:
            bar.turn_page(delta)
