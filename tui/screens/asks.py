"""Asking for denarii and paying an ask, each one key away (Spartacus: `k` asks, `p` pays).

An ask is a standing choice of the game ("ask:<seat>:<amount>:<favour>", offered while a favour
can be asked for; "payask:<index>" and "refuseask:<index>" to the Dominus asked). Like a gift it
never shares the prompt bar with a decision, so a number pressed for a decision can never ask or
pay: each has its own dialog. Asking: pick whom and for what (1-9), then the sum (1-9).
Answering: pay or refuse an ask (1-9).
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

ASK_KIND = "ask_denarii"


@dataclass(frozen=True)
class AskOffer:
    """What the standing ask prompt allows now: the favours to ask for (whom, what, the
    label's wording, the largest sum) and the asks this seat may pay (choice id, label)."""

    favours: tuple[tuple[int, str, str, int], ...]
    payments: tuple[tuple[str, str], ...]

    @classmethod
    def from_prompts(cls, prompts: list[dict[str, Any]]) -> AskOffer:
        favours: dict[tuple[int, str], tuple[int, str, str, int]] = {}
        payments: list[tuple[str, str]] = []
        for prompt in prompts:
            if prompt["kind"] != ASK_KIND:
                continue
            for choice_id, label in prompt["choices"]:
                if choice_id.startswith(("payask:", "refuseask:")):
                    payments.append((choice_id, label))
                    continue
                _, to, amount, favour = choice_id.split(":")
                wording = label.split(" denarii ", 1)[-1]
                key = (int(to), favour)
                most = max(int(amount), favours.get(key, (0, "", "", 0))[3])
                favours[key] = (int(to), favour, wording, most)
        return cls(tuple(favours.values()), tuple(payments))

    @staticmethod
    def choice(to: int, amount: int, favour: str) -> str:
        return f"ask:{to}:{amount}:{favour}"


class AskScreen(DialogScreen[str | None]):
    """Dismisses with the ask's (or, with `paying`, the payment's) choice id, or None."""

    DEFAULT_CSS = """
    AskScreen > Vertical {
        width: 60;
    }
    """

    BINDINGS = [Binding("escape", "back", "back", show=False)]

    def __init__(
        self, offer: AskOffer, name_of: Callable[[int], str], *, paying: bool = False
    ) -> None:
        super().__init__()
        self.offer = offer
        self.name_of = name_of
        self.paying = paying
        self.picked: tuple[int, str, str, int] | None = None

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "Answer an ask" if self.paying else "Ask for denarii"
            yield Static(self._text(), id="ask-text")

    @property
    def text(self) -> str:
        return self._text().plain

    def _text(self) -> Content:
        keys = Content.assemble(("1-9", KEY_STYLE), " choose  ", ("Esc", KEY_STYLE), " cancel")
        note = Content("Deals are not binding: only the coins move.")
        if self.paying:
            lines = [Content.styled("Pay or refuse which ask?", "bold")]
            lines += [Content.assemble((f" {n} ", KEY_STYLE), f" {label}")
                      for n, (_, label) in enumerate(self.offer.payments[:9], start=1)]  # fmt: skip
        elif self.picked is None:
            lines = [Content.styled("Ask whom, for what?", "bold")]
            lines += [Content.assemble((f" {n} ", KEY_STYLE), f" {self.name_of(to)}, {wording}")
                      for n, (to, _, wording, _) in enumerate(self.offer.favours[:9], start=1)]  # fmt: skip
        else:
            to, _, wording, most = self.picked
            lines = [Content.styled(f"How many denarii (1-{most}) shall {self.name_of(to)} pay you {wording}?", "bold"),
                     Content("Anyone may ask anything: it tells nobody what you hold.")]  # fmt: skip
        return Content("\n").join([*lines, note, Content(""), keys])

    def on_key(self, event: events.Key) -> None:
        if event.character is None or not event.character.isdigit():
            return
        event.stop()
        digit = int(event.character)
        if self.paying:
            if 1 <= digit <= len(self.offer.payments[:9]):
                self.dismiss(self.offer.payments[digit - 1][0])
        elif self.picked is None:
            if 1 <= digit <= len(self.offer.favours[:9]):
                self.picked = self.offer.favours[digit - 1]
                self.query_one("#ask-text", Static).update(self._text())
        elif 1 <= digit <= self.picked[3]:
            to, favour, _, _ = self.picked
            self.dismiss(AskOffer.choice(to, digit, favour))

    def action_back(self) -> None:
        if self.picked is not None and len(self.offer.favours) > 1:
            self.picked = None
            self.query_one("#ask-text", Static).update(self._text())
        else:
            self.dismiss(None)
