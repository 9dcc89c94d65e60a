"""rules: Maintenance Phase - ready cards, recovery rolls, income and upkeep.

Everything is automatic except one decision: a Dominus who cannot pay for every active
Gladiator chooses which ones to discard (all such players at once). A gift that arrives in the
meantime can save a gladiator: what is due is recomputed after every action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harena.core.engine import Prompt
from harena.core.plural import counted, denarii
from harena.core.spartacus.cards import CardKind
from harena.core.spartacus.choices import CardAct, OnCard
from harena.core.spartacus.holdings import assets_of, discard_asset, gain, label, pay_bank
from harena.core.spartacus.state import DIE_ON, HEAL_FROM, Phase

if TYPE_CHECKING:
    from harena.core.spartacus.rules import Spartacus


def start(game: Spartacus) -> None:
    s = game.state
    s.phase = Phase.MAINTENANCE
    game.emit(f"Round {s.round}: Maintenance")
    for seat, p in enumerate(s.players):
        for asset in list(p.assets):
            if not asset.wounded:
                asset.exhausted = False  # rules: Card Activation
                continue
            roll = game.rng.roll()  # rules: Wound Recovery
            name = game.card(asset.card).name
            if roll >= HEAL_FROM:
                asset.wounded = asset.exhausted = False
                game.emit(f"{game.name_of(seat)}'s {name} rolls {roll} and recovers")
            elif roll > DIE_ON:
                game.emit(f"{game.name_of(seat)}'s {name} rolls {roll} and stays wounded")
            else:
                game.emit(f"{game.name_of(seat)}'s {name} rolls {roll} and dies of its wounds")
                discard_asset(game, seat, asset.card)
        slaves = sum(1 for a in assets_of(game, seat, CardKind.SLAVE) if not a.exhausted)
        if slaves:
            gain(game, seat, slaves)  # rules: General Balance - 1 per active Slave
            game.emit(f"{game.name_of(seat)} earns {denarii(slaves)} from slaves")
    s.discard_due = [0] * game.players
    settle(game)


def _active_gladiators(game: Spartacus, seat: int) -> list[int]:
    return [a.card for a in assets_of(game, seat, CardKind.GLADIATOR) if not a.exhausted]


def settle(game: Spartacus) -> None:
    """Pay upkeep for every house that can; the others must discard first."""
    s = game.state
    for seat, p in enumerate(s.players):
        if s.discard_due[seat] < 0:
            continue  # paid already
        gladiators = _active_gladiators(game, seat)
        due = len(gladiators) - p.denarii
        if due > 0:
            s.discard_due[seat] = due
            continue
        if gladiators:
            pay_bank(game, seat, len(gladiators))  # rules: General Balance - 1 per active Gladiator
            game.emit(f"{game.name_of(seat)} pays {denarii(len(gladiators))} for gladiators")
        s.discard_due[seat] = -1
    if all(d < 0 for d in s.discard_due):
        s.discard_due = []
        game.end_phase()


def prompts(game: Spartacus) -> list[Prompt]:
    s = game.state
    out = []
    for seat, due in enumerate(s.discard_due):
        if due > 0:
            choices = tuple(
                OnCard.of(CardAct.UNPAY, a.card, label(game.card(a.card), a))
                for a in assets_of(game, seat, CardKind.GLADIATOR) if not a.exhausted
            )  # fmt: skip
            text = f"You cannot pay for {counted(due, 'gladiator')}: discard one"
            out.append(Prompt(seat, "discard_gladiator", text, choices))
    return out


def apply(game: Spartacus, seat: int, chosen: OnCard) -> None:
    card = chosen.card
    game.emit(f"{game.name_of(seat)} cannot pay for {game.card(card).name} and discards it")
    discard_asset(game, seat, card)  # rules: General Balance - discard what you cannot pay
    game.state.discard_due[seat] = 0
    settle(game)
