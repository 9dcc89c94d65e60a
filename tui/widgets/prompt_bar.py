"""The prompt bar: what this seat must decide now, its choices numbered 1-9 then 0, in pages.

This is the single place that turns prompts into keys. A screen that shows a PromptBar mixes in
`PromptKeys` and adds `PROMPT_BINDINGS` to its own BINDINGS (bindings must live on the screen:
the bar never takes focus, so that the number keys always work), then implements `choose`.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from textual import events
from textual.binding import Binding
from textual.content import Content

from harena.core.engine import choices_stamp
from harena.tui.widgets.made_once import MadeOnce
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


def shown_stamp(prompts: list[dict[str, Any]], choice_id: str) -> str | None:
    """The stamp of the seat's prompt (as the view gave it) that offers `choice_id`: sent with
    the choice, so the table refuses it if that list changed before it arrived. None when no
    prompt offers it (the table then refuses the choice on its own)."""
    for prompt in prompts:
        if any(cid == choice_id for cid, _ in prompt["choices"]):
            return choices_stamp(prompt["kind"], prompt["choices"])
    return None


class Slot(NamedTuple):
    """A numbered place in the bar: a choice, or one that was offered within this decision and
    is gone (its number stays taken, so no other choice moves under a finger)."""

    id: str
    label: str
    offered: bool = True


def pages_for(count: int) -> int:
    return max(1, -(-count // PAGE_SIZE))


_bars: MadeOnce[list[Content]] = MadeOnce()
"""A bar's rows by what it shows (a pure function of its text, choices, page and width)."""


class PromptBar(RowsWidget):
    """Fixed height: a title line (prompt text, page n/m) and two columns of five choices.

    Within one decision a choice keeps its number while it stays offered: one that goes leaves
    its number struck out ("gone: ..."), one that comes takes the next number after the last.
    A new decision (the seat answered, another kind of question, or nothing of the old list
    left) numbers afresh; so does a list whose gaps would cost another page."""

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
        self._slots: list[Slot] = []
        self._decision: tuple[int, tuple[str, ...]] | None = None  # (number, prompt kinds)
        self._page = 0
        self._drawn: tuple[str, tuple[Slot, ...], int] | None = None
        self._guarded_until = 0.0
        self._expecting = False  # the player just answered: the next change is theirs
        self._replaced: tuple[list[Slot], int] = ([], 0)  # slots (and page) changed under them
        self._taken_at = float("-inf")  # when choices last went away without the player's answer
        self.clock = time.monotonic

    # -- state --------------------------------------------------------------------------------

    @property
    def choices(self) -> list[Choice]:
        """The choices offered now, in the order of their numbers."""
        return [(s.id, s.label) for s in self._slots if s.offered]

    @property
    def page(self) -> int:
        return self._page

    @property
    def pages(self) -> int:
        return pages_for(len(self._slots))

    def show_prompts(
        self, prompts: list[dict[str, Any]], note: str = "", decision: int | None = None
    ) -> None:
        """Show the seat's open prompts; several prompts are offered as one list. `decision`
        is the seat's decision number: within one, numbers stay where they were."""
        choices = [(cid, label) for prompt in prompts for cid, label in prompt["choices"]]
        text = " / ".join(prompt["text"] for prompt in prompts)
        if note:
            text = f"{note} {text}"
        # one decision: the same decision number, asking the same kinds of question
        asked = None if decision is None else (decision, tuple(p.get("kind", "") for p in prompts))
        slots = self._numbered(choices, asked)
        self._decision = asked
        if slots != self._slots:
            now = self.clock()
            if choices and not self._expecting:
                if self._slots:
                    self._replaced, self._guarded_until = (
                        (self._slots, self._page),
                        now + CHANGE_GUARD,
                    )
                elif now - self._taken_at < CHANGE_GUARD:
                    self._guarded_until = now + CHANGE_GUARD  # (replaced holds what was taken)
            self._expecting = False
            if not self._renumbers_kept(slots):
                self._page = 0
        self._set(text, slots)

    def _numbered(
        self, choices: list[Choice], decision: tuple[int, tuple[str, ...]] | None
    ) -> list[Slot]:
        """The new choices in their places: kept where they were within the same decision."""
        fresh = [Slot(cid, label) for cid, label in choices]
        labels = dict(choices)
        if (decision is None or decision != self._decision or len(labels) != len(choices)
                or not any(s.offered and s.id in labels for s in self._slots)):  # fmt: skip
            return fresh  # a new question: number it afresh
        slots = [Slot(s.id, labels.get(s.id, s.label), s.id in labels) for s in self._slots]
        placed = {s.id for s in slots}
        # (a gone last choice keeps its place too: a choice that comes must not take its number)
        slots += [Slot(cid, label) for cid, label in choices if cid not in placed]
        return slots if pages_for(len(slots)) == pages_for(len(fresh)) else fresh

    def _renumbers_kept(self, slots: list[Slot]) -> bool:
        """Whether every choice still offered kept its number (the page may stay)."""
        before = {s.id: n for n, s in enumerate(self._slots) if s.offered}
        return bool(before) and all(
            before.get(s.id, n) == n for n, s in enumerate(slots) if s.offered
        )

    def show_idle(self, text: str) -> None:
        """Nothing to decide: say why (waiting for someone, watching, ...)."""
        if self._slots:
            if not self._expecting:
                self._replaced, self._taken_at = (self._slots, self._page), self.clock()
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
        return before is not None and before.offered and now is not None and before.id != now[0]

    def guarded(self) -> float:
        """Seconds left of the guard (0: every number key chooses)."""
        return max(0.0, self._guarded_until - self.clock())

    def _slot(self, slot: int) -> Slot | None:
        index = self._page * PAGE_SIZE + slot
        return self._slots[index] if 0 <= slot < PAGE_SIZE and index < len(self._slots) else None

    def choice_at(self, slot: int) -> Choice | None:
        """The choice behind number key `slot` (0 for key 1 ... 9 for key 0) on this page."""
        found = self._slot(slot)
        return (found.id, found.label) if found is not None and found.offered else None

    def number_of(self, choice_id: str) -> int | None:
        """Where `choice_id` is numbered (page * PAGE_SIZE + slot), if offered."""
        return next((n for n, s in enumerate(self._slots) if s.offered and s.id == choice_id), None)

    def keys_shown(self) -> dict[str, str]:
        """choice id -> its number key, for the choices on the page shown."""
        start = self._page * PAGE_SIZE
        return {
            s.id: SLOT_KEYS[n]
            for n, s in enumerate(self._slots[start : start + PAGE_SIZE])
            if s.offered
        }

    def gone_at(self, slot: int) -> str | None:
        """The label of the choice number key `slot` had, if it is no longer offered."""
        found = self._slot(slot)
        return found.label if found is not None and not found.offered else None

    def slot_at(self, x: int, y: int) -> int | None:
        """The slot drawn at content offset (x, y), for a click; None off the choices."""
        start = self._page * PAGE_SIZE
        shown = len(self._slots[start : start + PAGE_SIZE])
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

    def _set(self, text: str, slots: list[Slot]) -> None:
        self._text, self._slots = text, slots
        self._page = min(self._page, self.pages - 1)
        self._redraw()

    def _redraw(self) -> None:
        drawn = (self._text, tuple(self._slots), self._page)
        if drawn != self._drawn:
            self._drawn = drawn
            self.update_rows()

    @property
    def text(self) -> str:
        """What the bar shows, as plain text."""
        return "\n".join(line.plain for line in self._build(self.content_size.width))

    def build_rows(self, width: int, height: int) -> list[Content]:
        # (made once for every bar showing the same: a table's spectators, its waiting seats)
        drawn = (self._text, tuple(self._slots), self._page, width)
        return _bars.get((), drawn, lambda: self._build(width))

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
        shown = self._slots[start : start + PAGE_SIZE]
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
                label = shown[slot].label
                if not shown[slot].offered:
                    label = f"gone: {label}"
                if len(label) > label_room:
                    label = label[: label_room - 1] + "…"
                if shown[slot].offered:
                    parts.append((f" {SLOT_KEYS[slot]} ", "bold reverse"))
                    parts.append(f" {label:<{label_room}}")
                else:  # its number stays taken: no other choice moves under a finger
                    parts.append((f" {SLOT_KEYS[slot]} ", "dim"))
                    parts.append((f" {label:<{label_room}}", "dim strike"))
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
            key = SLOT_KEYS[slot] if 0 <= slot < PAGE_SIZE else "?"
            gone = bar.gone_at(slot)
            if gone is not None:
                self.prompt_unavailable(f"{key} {gone}: no longer offered, nothing was done")
            elif bar.choices:
                self.prompt_unavailable(f"there is no choice {key} on this page")
            else:
                self.prompt_unavailable("nothing to choose now")
            return
        self.choose(choice[0])

    def prompt_page_turned(self) -> None:
        """The bar shows another page: other choices have the number keys now."""

    def action_prompt_page(self, delta: int) -> None:
        bar = cast("Screen[Any]", self).query_one(PromptBar)  # mixed into screens
        if bar.pages == 1:
            self.prompt_unavailable("all choices fit on one page")
        elif bar.turn_page(delta):
            self.prompt_page_turned()
