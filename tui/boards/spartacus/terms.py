"""Every term of every trade in the Open Market, in full (the `o` key): a trade may move any
number of cards each way, and the offer row, the answer prompt and the log cut it at 80
columns. Pure text from the view (`terms_lines`) and the modal that shows it, wrapped and
scrollable, so the last card of a big offer is readable at 80x24."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Static

from harena.core.plural import denarii
from harena.tui.boards.spartacus import catalog
from harena.tui.boards.spartacus.names import names_of, player_name, relabel
from harena.tui.screens.dialog import DialogScreen

View = Mapping[str, Any]
# the log lines that tell a deal's terms (market.py's wording)
_DEAL_LINES = ("Offer: ", "Trade done: ")
_COUNTER = " counters: "


def _card_names(view: View, refs: list[int]) -> str:
    board = view["game"]["board"]
    cards = {a["ref"]: a["card"] for p in board["players"] for a in p["assets"]}
    out = []
    for ref in refs:
        card_id = cards.get(ref)
        card = catalog.card(card_id) if card_id else None
        dice = catalog.dice(card_id) if card_id else None
        name = card.name if card else "a card no longer there"
        out.append(name + (f" ({dice[0]}/{dice[1]}/{dice[2]})" if dice else ""))
    return ", ".join(out) or "nothing"


def _offer(view: View, o: Mapping[str, Any], lead: str) -> list[str]:
    proposer, recipient = player_name(view, o["proposer"]), player_name(view, o["recipient"])
    price = o["price"]
    lines = [f"{lead}{proposer} offers {recipient}:",
             f"  {proposer} gives: {_card_names(view, o['give'])}",
             f"  {recipient} gives: {_card_names(view, o['want'])}"]  # fmt: skip
    if price:
        payer = proposer if price > 0 else recipient
        lines.append(f"  and {payer} pays {denarii(abs(price))}")
    return lines


def terms_lines(view: View) -> list[str]:
    """Your draft, every offer sent, and the deals told in the log, each term in full."""
    m = view["game"]["board"].get("market")
    lines: list[str] = []
    if m is not None:
        if m.get("my_draft"):
            lines += _offer(view, m["my_draft"], "Your draft (yours alone until sent): ")
        for o in m["offers"]:
            if lines:
                lines.append("")
            lines += _offer(view, o, f"Offer {o['id'] + 1}: ")
    names = names_of(view)
    told = [relabel(line, names) for line in view["game"]["log"]
            if line.startswith(_DEAL_LINES) or _COUNTER in line]  # fmt: skip
    if told:
        lines += ["", "In the log:"] + [f"- {line}" for line in told[-8:]]
    return lines or ["No trade offer in the Open Market now."]


class TermsScreen(DialogScreen[None]):
    DEFAULT_CSS = """
    TermsScreen > Vertical {
        width: 78;
        max-height: 22;
    }
    TermsScreen VerticalScroll {
        height: auto;
        max-height: 20;
        scrollbar-size-vertical: 1;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,o,q,enter", "close", "close")]

    def __init__(self, lines: list[str], title: str = "Trade terms") -> None:
        super().__init__()
        self.lines = lines
        self.title = title

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = f"{self.title} (Esc closes; arrows scroll)"
            with VerticalScroll():
                yield Static("\n".join(self.lines), id="terms-text", markup=False)

    def on_mount(self) -> None:
        for scroll in self.query(VerticalScroll):
            scroll.focus()

    def action_close(self) -> None:
        self.dismiss(None)
