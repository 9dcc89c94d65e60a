"""The cost curve of harena's reference cards: what an effect is worth in Favor.

The printed card list is not in the rulebook, so the reference Action Deck (docs/cards.md) was
designed on this curve: a card's Favor cost is its value rounded, give or take 1
(tests/core/carthage/test_content.py checks it). The heuristic bot can use the same values to
judge which card to buy.

The weights, and why:
- Damage is the currency of the game (15 Armor to take away): 1 per point. Range makes a hit
  likelier: +0.5 per hex of Range.
- Armor is worth a little less than Damage (a heal only matters if you are hit, and Armor stops
  at 20): 0.75 per point, lost Armor the same.
- Favor lasts one round and buys about its own worth in cards: 0.5 per point. Making an opponent
  lose Favor: 0.4 per point (they may not have it to lose).
- Movement 0.5 per step; a straight-line step 0.4 (less choice). Knockback 0.5 per hex.
- A Strike Bonus only pays on a hit: 0.7 of what it holds. A Conditional "not played 5th": 0.8
  of it; "played 5th": 0.2.
- Passing the card away costs 0.5 (you lose a card you bought); Focusing it after one use 1.5.
  Discarding a card from hand costs 1 per card.
- A "/" card is worth its better side plus 0.5 for the choice.
"""

from __future__ import annotations

from harena.core.carthage.cards import ActionCard
from harena.core.carthage.effects import (
    Armor,
    Condition,
    Conditional,
    Damage,
    DiscardCard,
    Effect,
    Favor,
    FocusThisCard,
    Gear,
    GearRule,
    Knockback,
    Move,
    OpponentLosesFavor,
    PassCard,
    StrikeBonus,
)

STRIKE_BONUS_ODDS = 0.7
CHOICE_BONUS = 0.5
# The Gear rules of Equipment and Legend cards: Twin Blades is a Damage X with a Strike Bonus
# of Favor X that usually finds one opponent (x 1.6 per X); half Damage for the rest of the
# phase saves about 3; losing a card's Movement, a swap or no Knockback about 1.
GEAR_WORTH = {
    GearRule.TWIN_BLADES: 1.6,  # per X
    GearRule.HALVE_DAMAGE: 3.0,
    GearRule.HOBBLE: 1.0,
    GearRule.SWAP: 1.0,
    GearRule.SURE_FOOTED: 1.0,
}
_CONDITION_ODDS = {Condition.NOT_PLAYED_FIFTH: 0.8, Condition.PLAYED_FIFTH: 0.2}


def effect_value(effect: Effect) -> float:
    """What one effect is worth, in Favor. Effects with no fixed worth (rule hooks, Theater-only
    primitives) are worth 0."""
    match effect:
        case Damage(amount=amount, range=reach):
            return amount + 0.5 * reach
        case Armor(amount=amount):
            return 0.75 * amount
        case Favor(amount=amount):
            return 0.5 * amount
        case OpponentLosesFavor(amount=amount):
            return 0.4 * amount
        case Move(steps=steps, straight=straight):
            return (0.4 if straight else 0.5) * steps
        case Knockback(spaces=spaces):
            return 0.5 * spaces
        case StrikeBonus(effects=inner):
            return STRIKE_BONUS_ODDS * effects_value(inner)
        case Conditional(when=when, effects=inner):
            return _CONDITION_ODDS[when] * effects_value(inner)
        case PassCard():
            return -0.5
        case FocusThisCard():
            return -1.5
        case DiscardCard(count=count):
            return -1.0 * count
        case Gear(rule=rule, amount=amount):
            return GEAR_WORTH[rule] * (amount if rule is GearRule.TWIN_BLADES else 1)
    return 0.0


def effects_value(effects: tuple[Effect, ...]) -> float:
    return sum(effect_value(e) for e in effects)


def card_value(card: ActionCard) -> float:
    """A card's worth in Favor: its side, or its better side plus the worth of choosing."""
    best = max(effects_value(side.effects) for side in card.sides)
    return best + (CHOICE_BONUS if card.is_slash else 0.0)
