"""rules: Setup 5 - "Denarii can change hands between players at any time!"

A gift is a standing prompt (nobody waits for it, bots are never made to move by it): choose
the recipient, then the amount. It is offered at every moment except while an effect already
decided is resolving (a Scheme's victim being picked, wounds being taken). Deals and promises
are not binding; only the transfer is enforced. Committed denarii (a hidden bid, a bet not yet
revealed) cannot be given away. While denarii are hidden (Market phase), only giver and
recipient see the amount.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harena.core.engine import Choice, Prompt
from harena.core.spartacus.holdings import free_denarii, transfer
from harena.core.spartacus.state import SchemeStep

if TYPE_CHECKING:
    from harena.core.spartacus.rules import Spartacus


def resolving(game: Spartacus) -> bool:
    """A step that is resolving an effect already decided: a Scheme's victim being picked (its
    Steal may follow), dice being given up for wounds. No gift may slip in there."""
    s = game.state
    if (
        s.intrigue is not None
        and s.intrigue.scheme is not None
        and s.intrigue.scheme.step is SchemeStep.PICK
    ):
        return True
    return s.arena is not None and s.arena.fight is not None and s.arena.fight.defender is not None


def prompts(game: Spartacus) -> list[Prompt]:
    if resolving(game):
        return []
    out = []
    for seat, p in enumerate(game.state.players):
        free = free_denarii(game, seat)
        if p.gift_to is not None:
            amounts = tuple(Choice(f"gift-amount:{n}", f"{n} denarii") for n in range(1, free + 1))
            text = f"How many denarii for {game.name_of(p.gift_to)}?"
            out.append(
                Prompt(
                    seat, "gift_amount", text, amounts + (Choice("gift-cancel", "Give nothing"),)
                )
            )
        elif free > 0:
            out.append(_standing(game, seat))
    return out


def _standing(game: Spartacus, seat: int) -> Prompt:
    cached = game.gift_prompts.get(seat)
    if cached is None:
        choices = tuple(
            Choice(f"gift:{other}", f"Give denarii to {game.name_of(other)}")
            for other in range(game.players) if other != seat
        )  # fmt: skip
        cached = Prompt(seat, "give_denarii", "Give denarii (any time)", choices, standing=True)
        game.gift_prompts[seat] = cached
    return cached


def apply(game: Spartacus, seat: int, choice: str) -> None:
    p = game.state.players[seat]
    if choice.startswith("gift:"):
        p.gift_to = int(choice.removeprefix("gift:"))
        return
    taker, p.gift_to = p.gift_to, None
    if choice == "gift-cancel" or taker is None:
        return
    amount = transfer(game, seat, taker, int(choice.removeprefix("gift-amount:")))
    text = f"{game.name_of(seat)} gives {amount} denarii to {game.name_of(taker)}"
    if p.hidden or game.state.players[taker].hidden:
        game.emit(
            text,
            seats=[seat, taker],
            redacted=f"{game.name_of(seat)} gives denarii to {game.name_of(taker)}",
        )
    else:
        game.emit(text)
