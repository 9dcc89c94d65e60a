"""What is in the Spartacus box, as immutable content: houses, Market and Intrigue cards.

Card effects are built from a small set of primitives that the rules engine implements (the
issue's "effect primitives"); the data files (`data/*.toml`, read by `content`) can use nothing
else, so an owner may replace the reference cards with their printed ones without code.

Three families of primitives, each valid in its own place (checked on load, see `schema`):
- combat effects, on gladiators, slaves and equipment: `ExtraDice`, `Reroll`, `KeenStrike`;
- gains, on "Exhaust this card" abilities and house abilities: `GainDenarii`, `Draw`, `Cycle`,
  `GainInfluence`, and Solonius's `SchemeInfluence`;
- scheme and reaction effects, aimed at `Who.YOU` or `Who.TARGET`: `Influence`, `Denarii`,
  `Steal`, `DrawFor`, `DiscardRandom`, `Wound`, `Kill`, `Exhaust`; and one only a Reaction to
  a combatant wounded uses: `Heal`. No primitive moves a Resource between players: the rules
  make the Open Market "the only time these cards can change hands between players".
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class CardKind(Enum):
    GLADIATOR = "gladiator"
    SLAVE = "slave"
    EQUIPMENT = "equipment"
    SCHEME = "scheme"
    REACTION = "reaction"
    GUARD = "guard"


COMBATANTS = frozenset({CardKind.GLADIATOR, CardKind.SLAVE})
MARKET_KINDS = frozenset({CardKind.GLADIATOR, CardKind.SLAVE, CardKind.EQUIPMENT})
INTRIGUE_KINDS = frozenset({CardKind.SCHEME, CardKind.REACTION, CardKind.GUARD})


class Slot(Enum):
    """rules: Hosting the Event - up to one Equipment card of each type."""

    WEAPON = "weapon"
    ARMOR = "armor"
    SPECIAL = "special"


class Pool(Enum):
    """rules: Combat Basics - Attack (red), Defense (black), Speed (blue) dice."""

    ATK = "atk"
    DEF = "def"
    SPD = "spd"


class Roll(Enum):
    ATTACK = "attack"
    DEFENSE = "defense"
    INITIATIVE = "initiative"


class TargetRule(Enum):
    """Whom a scheme may be aimed at (rules: Set Up Schemes - "which can be yourself")."""

    SELF = "self"
    OTHER = "other"
    ANY = "any"


class Who(Enum):
    """YOU: the card's player. TARGET: a scheme's target; for a reaction, the cancelled
    scheme's schemer, or the seat of the event it answers (the auction's winner)."""

    YOU = "you"
    TARGET = "target"


class Victim(Enum):
    """Which of the target's combatants a Wound, Kill or Exhaust may hit."""

    GLADIATOR = "gladiator"
    SLAVE = "slave"
    COMBATANT = "combatant"  # either


class AssetKind(Enum):
    """The card a house ability exhausts or sacrifices."""

    GLADIATOR = "gladiator"
    SLAVE = "slave"
    GUARD = "guard"


# --- combat effects -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ExtraDice:
    """The combatant enters the fight with `count` more dice in `pool` (they are health too)."""

    pool: Pool
    count: int


@dataclass(frozen=True)
class Reroll:
    """Reroll up to `count` of your dice showing `at_most` or less, once per roll of that kind.
    Taken automatically: rerolling a low die never hurts on average (docs/rulings.md)."""

    roll: Roll
    count: int
    at_most: int


@dataclass(frozen=True)
class KeenStrike:
    """Your unopposed attack dice wound on `threshold` or more instead of 3."""

    threshold: int


CombatEffect = ExtraDice | Reroll | KeenStrike


# --- gains: card and house abilities --------------------------------------------------------------


@dataclass(frozen=True)
class GainDenarii:
    amount: int
    per_favor: bool = False  # `amount` per Favor marker of the exhausted gladiator


@dataclass(frozen=True)
class Draw:
    count: int


@dataclass(frozen=True)
class Cycle:
    """Discard an Intrigue card of your choice, then draw one."""


@dataclass(frozen=True)
class GainInfluence:
    amount: int


@dataclass(frozen=True)
class SchemeInfluence:
    """Solonius: pay `denarii` per missing Influence point (at most `most` points) to launch a
    Scheme above your Influence."""

    denarii: int
    most: int


Gain = GainDenarii | Draw | Cycle | GainInfluence | SchemeInfluence


# --- scheme and reaction effects ------------------------------------------------------------------


@dataclass(frozen=True)
class Influence:
    who: Who
    amount: int  # may be negative; Influence never goes below 0


@dataclass(frozen=True)
class Denarii:
    who: Who
    amount: int  # from the Bank (negative: to the Bank, as much as they have)


@dataclass(frozen=True)
class Steal:
    """The target pays you `amount` denarii (as much as they have)."""

    amount: int


@dataclass(frozen=True)
class DrawFor:
    who: Who
    count: int


@dataclass(frozen=True)
class DiscardRandom:
    """The target discards `count` Intrigue cards at random from their hand."""

    count: int


@dataclass(frozen=True)
class Wound:
    """You choose one of the target's combatants (not already wounded): it is wounded."""

    victim: Victim


@dataclass(frozen=True)
class Kill:
    """You choose one of the target's combatants: it dies (a Champion cannot be chosen)."""

    victim: Victim


@dataclass(frozen=True)
class Exhaust:
    """You choose one of the target's ready combatants: it is exhausted."""

    victim: Victim


@dataclass(frozen=True)
class Heal:
    """A Reaction to your combatant wounded in the Arena: the wound is undone (it stays
    exhausted: it has fought)."""


IntrigueEffect = (
    Influence | Denarii | Steal | DrawFor | DiscardRandom | Wound | Kill | Exhaust | Heal
)
PICK_EFFECTS = (Wound, Kill, Exhaust)  # the schemer chooses the victim card


# --- cards and houses -----------------------------------------------------------------------------


@dataclass(frozen=True)
class MarketCard:
    """A Gladiator, Slave or Equipment card (rules: Market deck). `starting`: white-bordered."""

    id: str
    name: str
    kind: CardKind
    value: int  # denarii value, for sales to the Bank
    copies: int = 1
    starting: bool = False
    atk: int = 0
    defence: int = 0
    spd: int = 0
    slot: Slot | None = None  # equipment only
    combat: tuple[CombatEffect, ...] = ()
    ability: Gain | None = None  # "Exhaust this card to ..." in the Intrigue phase
    text: str = ""

    @property
    def combatant(self) -> bool:
        return self.kind in COMBATANTS


@dataclass(frozen=True)
class IntrigueCard:
    """A Scheme, Reaction or Guard (rules: Intrigue Phase)."""

    id: str
    name: str
    kind: CardKind
    value: int  # denarii when traded in (rules: Trade Cards for Denarii)
    copies: int = 1
    influence: int = 0  # required Influence
    cost: int = 0  # denarii a successful Scheme costs
    target: TargetRule = TargetRule.SELF
    effects: tuple[IntrigueEffect, ...] = ()
    against_you: bool = False  # a Reaction that cancels only Schemes aimed at you
    # the event a Reaction answers (rules: Intrigue Phase - Reactions "can be played in response
    # to other events"): "scheme" (cancel it), "invitation" (refuse it without the Influence),
    # "auction_won" (another Dominus won a lot) or "wounded" (your combatant, in the Arena)
    answers: str = "scheme"
    text: str = ""


@dataclass(frozen=True)
class HouseAbility:
    """An Intrigue-phase house rule: pay the cost, get the gain."""

    id: str
    name: str
    gain: Gain
    exhaust: AssetKind | None = None
    favored: bool = False  # the exhausted card must carry a Favor or Champion marker
    sacrifice: AssetKind | None = None
    pay: int = 0
    per_turn: int = 0  # 0: as often as the cost can be paid
    text: str = ""
    below: int = 0  # usable only below this much Influence (0: always; docs/rulings.md, balance)


@dataclass(frozen=True)
class House:
    id: str
    name: str
    denarii: int
    gladiators: int
    slaves: int
    guards: int
    abilities: tuple[HouseAbility, ...]
    text: str = ""
