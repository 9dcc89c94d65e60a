"""Giving denarii, one key away at any moment (`g`): whom, then how much.

A gift is a standing choice of the game ("give:<seat>:<amount>", offered whenever the seat has
denarii to spare). It never shares the prompt bar with a decision, so a number pressed for a bid
can never give money away: the gift has its own dialog, and the amount is typed, not picked.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from harena.tui.screens.dialog import DialogScreen
from harena.tui.widgets.key_bar import KEY_STYLE

GIFT_KIND = "give_denarii"


@dataclass(frozen=True)
class GiftOffer:
    """What the standing prompt allows: who may receive, and at most how much."""

    recipients: tuple[int, ...]
    most: int

    @classmethod
    def from_prompts(cls, prompts: list[dict[str, Any]]) -> GiftOffer | None:
        for prompt in prompts:
            if prompt["kind"] != GIFT_KIND:
                continue
            seats: list[int] = []
            most = 0
            for choice_id, _ in prompt["choices"]:
                _, to, amount = choice_id.split(":")
                if int(to) not in seats:
                    seats.append(int(to))
                most = max(most, int(amount))
            return cls(tuple(seats), most) if seats and most else None
        return None

    @staticmethod
    def choice(to: int, amount: int) -> str:
        return f"give:{to}:{amount}"


class GiveScreen(DialogScreen[str | None]):
    """Dismisses with the gift's choice id, or None if the player backed out."""

    DEFAULT_CSS = """
    GiveScreen > Vertical {
        width: 52;
    }
    """

    BINDINGS = [
        Binding("escape", "back", "back", show=False),
        Binding("enter", "give", "give", show=False),
        Binding("up,plus", "change(1)", show=False),
        Binding("down,minus", "change(-1)", show=False),
        Binding("backspace", "erase", show=False),
    ]

    def __init__(self, offer: GiftOffer, name_of: Callable[[int], str]) -> None:
        super().__init__()
        self.offer = offer
        self.name_of = name_of
        self.to: int | None = offer.recipients[0] if len(offer.recipients) == 1 else None
        self.amount = ""

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Give denarii"
            yield Static(self._text(), id="give-text")

    @property
    def text(self) -> str:
        return self._text().plain

    def _text(self) -> Content:
        most = self.offer.most
        if self.to is None:
            lines = [Content.styled("Give denarii to whom?", "bold")]
            for key, seat in enumerate(self.offer.recipients, start=1):
                lines.append(Content.assemble((f" {key} ", KEY_STYLE), f" {self.name_of(seat)}"))
            lines += [
                Content(""),
                Content.assemble(("1-9", KEY_STYLE), " choose  ", ("Esc", KEY_STYLE), " cancel"),
            ]
        else:
            shown = self.amount or "_"
            lines = [
                Content.styled(f"How many denarii for {self.name_of(self.to)}?", "bold"),
                Content(f"You may give 1 to {most}. Deals are not binding: only the coins move."),
                Content(""),
                Content.assemble("Amount: ", (f" {shown} ", "reverse")),
                Content(""),
                Content.assemble(
                    ("0-9", KEY_STYLE),
                    " type  ",
                    ("↑↓", KEY_STYLE),
                    " change  ",
                    ("Enter", KEY_STYLE),
                    " give  ",
                    ("Esc", KEY_STYLE),
                    " back",
                ),
            ]
        return Content("\n").join(lines)

    def _redraw(self) -> None:
        self.query_one("#give-text", Static).update(self._text())

    def on_key(self, event: events.Key) -> None:
        if event.character is None or not event.character.isdigit():
            return
        event.stop()
        digit = int(event.character)
        if self.to is None:
            if 1 <= digit <= len(self.offer.recipients):
                self.to = self.offer.recipients[digit - 1]
                self._redraw()
            return
        typed = (self.amount + event.character).lstrip("0")
        if typed and int(typed) <= self.offer.most:
            self.amount = typed
        elif digit and digit <= self.offer.most:
            self.amount = event.character  # too much: start again from this digit
        self._redraw()

    def action_change(self, delta: int) -> None:
        if self.to is None:
            return
        value = min(max(int(self.amount or 0) + delta, 1), self.offer.most)
        self.amount = str(value)
        self._redraw()

    def action_erase(self) -> None:
        self.amount = self.amount[:-1]
        self._redraw()

    def action_give(self) -> None:
        if self.to is not None and self.amount:
            self.dismiss(GiftOffer.choice(self.to, int(self.amount)))

    def action_back(self) -> None:
        if self.to is not None and len(self.offer.recipients) > 1:
            self.to, self.amount = None, ""
            self._redraw()
        else:
            self.dismiss(None)
