"""The effect primitives every Carthage card is built from: what the rules engine implements.

A card side, a Theater card and an Arena token are each an ordered tuple of these; the engine
resolves them in order ("left to right and/or from top to bottom", rulebook: Action Cards). Each
primitive is a small frozen dataclass, so the engine dispatches with `match effect:` and a data
file can only say what the engine can do.

"The opponent" of a card is whoever its last Damage hit, or whoever its last "opponent loses
Favor" chose: `PassCard` and `OpponentLosesFavor(target=DAMAGED)` refer to that opponent.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import ClassVar, get_args


class Target(Enum):
    """Who an "opponent loses Favor" effect hits."""

    DAMAGED = "damaged"  # the opponent this card's Damage hit (nobody if it missed)
    ANY = "any"  # any opponent in the arena, chosen by the player (Hurled Insult)


class Condition(Enum):
    """When a `Conditional` applies. The 5th card is the last card of the 5-card hand."""

    PLAYED_FIFTH = "played_fifth"
    NOT_PLAYED_FIFTH = "not_played_fifth"  # rulebook: Action Card Clarifying Rules, The Final Blow


class Hook(Enum):
    """Rules that need code rather than data, named so a data file can ask for them. Keep this
    list short: each member is a branch in the rules engine."""

    # A Theater card's rule for the rest of the round (e.g. Caged Animals): no gladiator may move
    # or be knocked onto an outer-edge hex; one already there may leave it.
    EDGE_CLOSED = "edge_closed"
    # For the rest of the round every Damage effect that hits deals 1 more (Roar of the Crowd).
    DAMAGE_PLUS_ONE = "damage_plus_one"


class GearRule(Enum):
    """Rules of Equipment, Legend and Beast cards that the other primitives cannot say
    (rulebook: Equipment Cards, Clarifying Rules); `core/carthage/equipment.py` runs them."""

    TWIN_BLADES = "twin_blades"  # X Damage to every adjacent opponent, X Favor per one damaged
    HOBBLE = "hobble"  # the damaged opponent's next card this round uses no Movement
    HALVE_DAMAGE = "halve_damage"  # you take half Damage, rounded up, for the rest of the phase
    SWAP = "swap"  # you and the damaged opponent change places
    SURE_FOOTED = "sure_footed"  # nobody can knock you back for the rest of the phase


GEAR_TEXT: dict[GearRule, str] = {
    GearRule.TWIN_BLADES: "Damage {x} to every adjacent opponent, Favor +{x} per one damaged",
    GearRule.HOBBLE: "That opponent's next card this round has no Movement",
    GearRule.HALVE_DAMAGE: "Take half Damage (rounded up) for the rest of the Action phase",
    GearRule.SWAP: "Change places with that opponent",
    GearRule.SURE_FOOTED: "No Knockback moves you for the rest of the Action phase",
}


HOOK_TEXT: dict[Hook, str] = {
    Hook.EDGE_CLOSED: "This round no gladiator may move or be knocked onto the outer edge",
    Hook.DAMAGE_PLUS_ONE: "This round every Damage that hits deals 1 more",
}


@dataclass(frozen=True, slots=True)
class Move:
    """Movement X (Blue Foot): exactly X steps to adjacent hexes, never onto an occupied hex or
    a pillar; hexes may be revisited. `straight`: every step in one direction (Horned Charge)."""

    kind: ClassVar[str] = "move"
    steps: int
    straight: bool = False

    @property
    def text(self) -> str:
        return f"Move {self.steps}" + (" in a straight line" if self.straight else "")


@dataclass(frozen=True, slots=True)
class Damage:
    """Damage X (Red Blood) to one opponent within reach: adjacent, plus up to `range` more hexes
    (rulebook: General Clarifying Rules, "All players have a Range of 0"). No target: no damage."""

    kind: ClassVar[str] = "damage"
    amount: int
    range: int = 0

    @property
    def reach(self) -> int:
        return 1 + self.range

    @property
    def text(self) -> str:
        return f"Damage {self.amount}" + (f" (Range +{self.range})" if self.range else "")


@dataclass(frozen=True, slots=True)
class StrikeBonus:
    """Red Blood with White Burst: `effects` happen only if the Damage just before it hit."""

    kind: ClassVar[str] = "strike_bonus"
    effects: tuple[Effect, ...]

    @property
    def text(self) -> str:
        return "Strike Bonus: " + ", ".join(e.text for e in self.effects)


@dataclass(frozen=True, slots=True)
class Knockback:
    """Knockback X: the damaged opponent moves X hexes straight away from the attacker, as far
    as the edge, gladiators and pillars allow; blocked at once: 1 more damage.
    `along_move`: in the direction of this card's straight Move (Horned Charge, Charging Rhino:
    "Both Movement and Knockback must be in the same straight line"), so only the opponent
    straight ahead can be the Damage's target."""

    kind: ClassVar[str] = "knockback"
    spaces: int
    along_move: bool = False

    @property
    def text(self) -> str:
        return f"Knockback {self.spaces}" + (" (same line)" if self.along_move else "")


@dataclass(frozen=True, slots=True)
class Armor:
    """Armor +X (Green Helmet) for yourself, or -X: losing Armor is not Damage."""

    kind: ClassVar[str] = "armor"
    amount: int

    @property
    def text(self) -> str:
        return f"Armor {self.amount:+d}"


@dataclass(frozen=True, slots=True)
class Favor:
    """Favor +X (Yellow Cup) for yourself, or -X."""

    kind: ClassVar[str] = "favor"
    amount: int

    @property
    def text(self) -> str:
        return f"Favor {self.amount:+d}"


@dataclass(frozen=True, slots=True)
class OpponentLosesFavor:
    """An opponent loses X Favor (Humiliate, Hurled Insult)."""

    kind: ClassVar[str] = "opponent_loses_favor"
    amount: int
    target: Target = Target.DAMAGED

    @property
    def text(self) -> str:
        who = "Opponent" if self.target is Target.DAMAGED else "Any opponent"
        return f"{who} loses {self.amount} Favor"


@dataclass(frozen=True, slots=True)
class PassCard:
    """After the card resolves it goes to the discard pile of the opponent it hit or who lost
    Favor, not yours (Javelin, Hurled Insult). Always the last effect of its side."""

    kind: ClassVar[str] = "pass_card"

    @property
    def text(self) -> str:
        return "Pass this card to that opponent's discard pile"


@dataclass(frozen=True, slots=True)
class FocusThisCard:
    """After the card resolves it is Focused for free: out of the game (Rousing Backflip).
    Always the last effect of its side."""

    kind: ClassVar[str] = "focus_this_card"

    @property
    def text(self) -> str:
        return "Focus this card"


@dataclass(frozen=True, slots=True)
class DiscardCard:
    """Discard `count` cards from your hand, unplayed."""

    kind: ClassVar[str] = "discard_card"
    count: int = 1

    @property
    def text(self) -> str:
        return f"Discard {self.count} card" + ("s" if self.count > 1 else "")


@dataclass(frozen=True, slots=True)
class Conditional:
    """`effects` happen only when `when` holds as the card resolves."""

    kind: ClassVar[str] = "conditional"
    when: Condition
    effects: tuple[Effect, ...]

    @property
    def text(self) -> str:
        label = {
            Condition.PLAYED_FIFTH: "If played as the 5th card",
            Condition.NOT_PLAYED_FIFTH: "Unless played as the 5th card",
        }[self.when]
        return f"{label}: " + ", ".join(e.text for e in self.effects)


@dataclass(frozen=True, slots=True)
class FocusFromDiscard:
    """Focus one card from your discard pile for free; `optional`: you may decline (Calm Before
    the Storm, rulebook: Theater Card Clarifying Rules)."""

    kind: ClassVar[str] = "focus_from_discard"
    optional: bool = True

    @property
    def text(self) -> str:
        return ("May" if self.optional else "Must") + " Focus a card from the discard pile"


@dataclass(frozen=True, slots=True)
class PassStartingPlayer:
    """Give the Starting Player token to an opponent, who is Starting Player at once (Turning
    Moment, rulebook: Theater Card Clarifying Rules)."""

    kind: ClassVar[str] = "pass_starting_player"

    @property
    def text(self) -> str:
        return "Pass the Starting Player token to an opponent"


@dataclass(frozen=True, slots=True)
class RuleHook:
    """A named rule the engine implements in code (see `Hook`)."""

    kind: ClassVar[str] = "rule_hook"
    hook: Hook

    @property
    def text(self) -> str:
        return HOOK_TEXT[self.hook]


@dataclass(frozen=True, slots=True)
class Gear:
    """A named rule of an Equipment, Legend or Beast card (see `GearRule`); `amount` is its X
    where it has one (Twin Blades: 2)."""

    kind: ClassVar[str] = "gear"
    rule: GearRule
    amount: int = 1

    @property
    def text(self) -> str:
        return GEAR_TEXT[self.rule].format(x=self.amount)


Effect = (
    Move
    | Damage
    | StrikeBonus
    | Knockback
    | Armor
    | Favor
    | OpponentLosesFavor
    | PassCard
    | FocusThisCard
    | DiscardCard
    | Conditional
    | FocusFromDiscard
    | PassStartingPlayer
    | RuleHook
    | Gear
)

# kind -> primitive, for the data files.
EFFECT_TYPES: dict[str, type] = {cls.kind: cls for cls in get_args(Effect)}

# What may appear where. An Action card acts on its player and their opponents; a Theater card
# acts on each of its recipients (or on the table, for hooks).
ACTION_EFFECTS = frozenset(
    {
        "move", "damage", "strike_bonus", "knockback", "armor", "favor", "opponent_loses_favor",
        "pass_card", "focus_this_card", "discard_card", "conditional", "rule_hook",
    }
)  # fmt: skip
THEATER_EFFECTS = frozenset(
    {"move", "armor", "favor", "focus_from_discard", "pass_starting_player", "rule_hook"}
)
# Equipment, Legend and Beast cards may also use the named Gear rules.
KIT_EFFECTS = ACTION_EFFECTS | {"gear"}
# These say where the card goes after it resolves, so they come last, and one at most.
DESTINATION_EFFECTS = frozenset({"pass_card", "focus_this_card"})


def flatten(effects: tuple[Effect, ...]) -> tuple[Effect, ...]:
    """Every effect in order, nested ones (Strike Bonus, Conditional) right after their parent."""
    out: list[Effect] = []
    for effect in effects:
        out.append(effect)
        if isinstance(effect, (StrikeBonus, Conditional)):
            out.extend(flatten(effect.effects))
    return tuple(out)


def describe(effects: tuple[Effect, ...]) -> str:
    """A card side as one line of text: "Armor +2, Damage 3"."""
    return ", ".join(e.text for e in effects)
