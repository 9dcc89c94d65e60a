"""rules: Setup 5 - "Denarii can change hands between players at any time!"

A gift is one standing choice, "give:<seat>:<amount>": nobody waits for it, it never blocks a
phase, it is never listed in "waiting" and bots are never made to move by it. Being one choice
(not "whom" then "how much") matters for secrecy: an open amount prompt would block the game and
tell everyone that a hidden treasury holds at least 1 denarius (docs/rulings.md). Screens keep it
apart from the numbered choices of a decision (the `g` key), so a keypress meant as a bid can
never give money away.

It is offered at every moment except while an effect already decided is resolving (a Scheme's
victim being picked, wounds being taken). Deals and promises are not binding; only the transfer
is enforced. Committed denarii (a hidden bid, a bet not yet revealed) cannot be given away. While
denarii are hidden (Market phase), only giver and recipient see the amount.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harena.core.engine import Prompt
from harena.core.plural import denarii
from harena.core.spartacus.choices import GiveDenarii
from harena.core.spartacus.holdings import free_denarii, transfer
from harena.core.spartacus.state import SchemeStep

if TYPE_CHECKING:
    from harena.core.spartacus.rules import Spartacus

KIND = "give_denarii"


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
    for seat in range(game.players):
        free = free_denarii(game, seat)
        if free > 0:
            out.append(_standing(game, seat, free))
    return out


def _standing(game: Spartacus, seat: int, free: int) -> Prompt:
    """Every (recipient, amount) a seat may give now; only that seat ever sees it."""
    key = (seat, free)
    cached = game.gift_prompts.get(key)
    if cached is None:
        choices = tuple(
            GiveDenarii.of(other, n, f"{denarii(n)} to {game.name_of(other)}")
            for other in range(game.players) if other != seat
            for n in range(1, free + 1)
        )  # fmt: skip
        cached = Prompt(seat, KIND, "Give denarii (any time)", choices, standing=True)
        game.gift_prompts[key] = cached
    return cached


def apply(game: Spartacus, seat: int, chosen: GiveDenarii) -> None:
    taker = chosen.to
    amount = transfer(game, seat, taker, chosen.amount)
    from harena.core.spartacus.asks import current  # asks builds on gifts

    game.state.gifts.append([seat, taker, amount, current(game)])
    counts = game.state.deals.setdefault("bribes", [0] * game.players)
    counts[seat] += 1  # every gift buys something, or hopes to (`simulate` counts them)
    text = f"{game.name_of(seat)} gives {denarii(amount)} to {game.name_of(taker)}"
    if game.state.players[seat].hidden or game.state.players[taker].hidden:
        game.emit(
            text,
            seats=[seat, taker],
            redacted=f"{game.name_of(seat)} gives denarii to {game.name_of(taker)}",
        )
    else:
        game.emit(text)
