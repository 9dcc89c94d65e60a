"""rules: Successful Schemes - "its effects occur immediately, costs are paid, and the card is
discarded"; and what a Reaction does after its cancel.

The effects are the primitives of `cards` (Influence, Denarii, Steal, DrawFor, DiscardRandom,
Wound, Kill, Exhaust). A Wound, Kill or Exhaust with a choice of victim waits for the schemer to
pick (prompt `choose_victim`); the others resolve at once, in the card's order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harena.core.plural import denarii
from harena.core.spartacus.cards import (
    CardKind,
    Denarii,
    DiscardRandom,
    DrawFor,
    Exhaust,
    Influence,
    IntrigueEffect,
    Kill,
    Steal,
    Victim,
    Who,
    Wound,
)
from harena.core.spartacus.holdings import (
    change_influence,
    combatants,
    discard_asset,
    discard_intrigue,
    draw_intrigue,
    gain,
    pay_bank,
    transfer,
)
from harena.core.spartacus.state import Asset, Scheme, SchemeStep

if TYPE_CHECKING:
    from harena.core.spartacus.rules import Spartacus


def done(game: Spartacus) -> None:
    """The Scheme is over (resolved, cancelled or failed): back to the schemer's turn."""
    assert game.state.intrigue is not None
    game.state.intrigue.scheme = None


def succeed(game: Spartacus, scheme: Scheme) -> None:
    """rules: Successful Schemes - effects occur immediately, costs are paid."""
    card = game.card(scheme.card)
    if card.cost:
        if game.state.players[scheme.schemer].denarii < card.cost:
            game.emit(f"{game.name_of(scheme.schemer)} cannot pay for {card.name}: it fails")
            game.state.intrigue_discard.append(scheme.card)
            done(game)
            return
        pay_bank(game, scheme.schemer, card.cost)
    scheme.step = SchemeStep.PICK
    scheme.effect = 0
    resolve(game, scheme)


def resolve(game: Spartacus, scheme: Scheme) -> None:
    effects = game.card(scheme.card).effects
    while scheme.effect < len(effects):
        effect = effects[scheme.effect]
        if isinstance(effect, (Wound, Kill, Exhaust)):
            hittable = victims(game, scheme)
            if len(hittable) > 1:
                return  # the schemer picks (prompt choose_victim)
            if hittable:
                hit(game, scheme, hittable[0])
            else:
                game.emit(f"{game.name_of(scheme.target)} has no combatant it can hit")
        else:
            apply_effect(game, effect, scheme.schemer, scheme.target)
        scheme.effect += 1
    game.state.intrigue_discard.append(scheme.card)
    done(game)


def victims(game: Spartacus, scheme: Scheme) -> list[Asset]:
    effect = game.card(scheme.card).effects[scheme.effect]
    assert isinstance(effect, (Wound, Kill, Exhaust))
    out = []
    for a in combatants(game, scheme.target):
        kind = game.card(a.card).kind
        if effect.victim is Victim.GLADIATOR and kind is not CardKind.GLADIATOR:
            continue
        if effect.victim is Victim.SLAVE and kind is not CardKind.SLAVE:
            continue
        if (isinstance(effect, Wound) and a.wounded) or (
            isinstance(effect, Exhaust) and a.exhausted
        ):
            continue
        if isinstance(effect, Kill) and a.champion:
            continue
        out.append(a)
    return out


def hit(game: Spartacus, scheme: Scheme, asset: Asset) -> None:
    effect = game.card(scheme.card).effects[scheme.effect]
    target = scheme.target
    assert target is not None
    name = f"{game.name_of(target)}'s {game.card(asset.card).name}"
    if isinstance(effect, Wound):
        asset.wounded = asset.exhausted = True
        game.emit(f"{name} is wounded")
    elif isinstance(effect, Exhaust):
        asset.exhausted = True
        game.emit(f"{name} is exhausted")
    else:
        game.emit(f"{name} dies")
        discard_asset(game, target, asset.card)


def apply_effect(game: Spartacus, effect: IntrigueEffect, you: int, target: int) -> None:
    """One effect without a pick; `target` is a Reaction's cancelled schemer."""
    who = {Who.YOU: you, Who.TARGET: target}
    if isinstance(effect, Influence):
        seat = who[effect.who]
        change = change_influence(game, seat, effect.amount)
        game.emit(
            f"{game.name_of(seat)} {'gains' if change >= 0 else 'loses'} {abs(change)} Influence"
        )
    elif isinstance(effect, Denarii):
        seat = who[effect.who]
        if effect.amount > 0:
            game.emit(f"{game.name_of(seat)} gains {denarii(gain(game, seat, effect.amount))}")
        else:
            game.emit(f"{game.name_of(seat)} loses {denarii(pay_bank(game, seat, -effect.amount))}")
    elif isinstance(effect, Steal):
        paid = transfer(game, target, you, effect.amount)
        game.emit(f"{game.name_of(target)} pays {denarii(paid)} to {game.name_of(you)}")
    elif isinstance(effect, DrawFor):
        draw_intrigue(game, who[effect.who], effect.count)
    elif isinstance(effect, DiscardRandom):
        hand = game.state.players[target].hand
        if not hand:
            game.emit(f"{game.name_of(target)} has no Intrigue card to discard")
        for _ in range(min(effect.count, len(hand))):
            lost = hand[game.rng.below(len(hand))]
            discard_intrigue(game, target, lost)
            game.emit(f"{game.name_of(target)} discards {game.card(lost).name} at random")
