"""Equipment cards (rulebook: Equipment Cards - Mini Expansion #2), as data: three per
gladiator, each a list of effects and the Favor it costs to Ready it again.

Read from `data/equipment.toml` by `content`; the rules that use them are in
`equipment_rules`. An Equipment card's effects are the Action-card primitives plus the named
`Gear` rules (Twin Blades, Weighted Bola, Heavy Scutum, Curved Sica, Sturdy Boots).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from harena.core.carthage.cards import Colour
from harena.core.carthage.effects import (
    KIT_EFFECTS,
    Damage,
    Effect,
    Gear,
    GearRule,
    describe,
    flatten,
)
from harena.core.carthage.schema import ContentError, Where, parse_effects
from harena.core.datafile import MISSING, check_keys, get_any, get_enum, get_int, get_str, identify

PER_GLADIATOR = 3  # rulebook: "take the 3 matching Equipment Cards"
# Gear rules that act on "the opponent" the card just damaged.
NEEDS_A_HIT = frozenset({GearRule.HOBBLE, GearRule.SWAP})


@dataclass(frozen=True, slots=True)
class EquipmentCard:
    id: str
    name: str
    colour: Colour  # whose player board it tucks under
    ready: int  # Favor to Ready it in the Favor phase once it is face down
    effects: tuple[Effect, ...]

    @property
    def text(self) -> str:
        return describe(self.effects)


def parse_equipment(raw: Any, where: Where) -> EquipmentCard:
    ident, where = identify(raw, where, "equipment")
    check_keys(raw, where, {"id", "name", "gladiator", "ready", "effects"})
    effects = parse_effects(get_any(raw, "effects", where, MISSING), where, KIT_EFFECTS)
    check_gear_order(effects, where)
    return EquipmentCard(
        ident,
        get_str(raw, "name", where),
        get_enum(Colour, raw, "gladiator", where),
        get_int(raw, "ready", where, minimum=0),
        effects,
    )


def check_gear_order(effects: tuple[Effect, ...], where: Where) -> None:
    """A Gear rule about "that opponent" needs a Damage before it, like a Knockback."""
    earlier: list[Effect] = []
    for effect in flatten(effects):
        if isinstance(effect, Gear) and effect.rule in NEEDS_A_HIT:
            if not any(isinstance(e, Damage) for e in earlier):
                raise where.error(f"gear {effect.rule.value!r} needs a damage before it: "
                                  "it acts on the opponent the card hit")  # fmt: skip
        earlier.append(effect)


def check_equipment(items: tuple[EquipmentCard, ...], file: str) -> None:
    counts = Counter(e.colour for e in items)
    for colour in Colour:
        if counts[colour] != PER_GLADIATOR:
            raise ContentError(
                f"{file}: gladiator {colour.value!r} has {counts[colour]} Equipment cards; "
                f"each has {PER_GLADIATOR} (rulebook: Equipment Cards)"
            )
