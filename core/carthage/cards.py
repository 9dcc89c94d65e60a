"""Carthage content as typed, immutable data: Action cards, Theater cards, gladiators, Arena
tokens and token layouts. Built from `data/*.toml` by `content.load_content`; the effects they
carry are the primitives in `effects`.

Cards are definitions: a deck is a tuple of card ids (with repeats for copies), and the rules
engine gives each physical copy its own instance id.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from harena.core.carthage.effects import (
    Armor,
    Damage,
    Effect,
    Favor,
    Hook,
    Knockback,
    Move,
    describe,
)
from harena.core.carthage.hexgrid import Hex

# --- Action cards -------------------------------------------------------------------------------


class CardSet(Enum):
    """Where a card comes from. Intimidate may not target STARTING cards, and Equipment may
    only be paid for by discarding STARTING cards (rulebook: Modular Rulesets, Equipment)."""

    STARTING = "starting"  # the 10-card Starting Deck of a player board
    BASIC = "basic"  # the 75-card Action Deck
    LEGEND = "legend"  # Theater Legend cards, shuffled into the Action Deck (Mini Expansion #1)


@dataclass(frozen=True, slots=True)
class Side:
    """One side of an Action card: effects resolved in order."""

    effects: tuple[Effect, ...]

    @property
    def text(self) -> str:
        return describe(self.effects)


@dataclass(frozen=True, slots=True)
class ActionCard:
    """An Action card. Two sides: a "/" card, whose player chooses one side to resolve
    (rulebook: Action Cards, Fitted Laminar)."""

    id: str
    name: str
    cost: int  # Favor, top left of the card; 0 for Starting Deck cards, which are never bought
    sides: tuple[Side, ...]
    card_set: CardSet
    copies: int = 1

    @property
    def is_slash(self) -> bool:
        return len(self.sides) == 2

    @property
    def text(self) -> str:
        return " / ".join(side.text for side in self.sides)


# --- Theater cards ------------------------------------------------------------------------------


class TheaterTiming(Enum):
    """rulebook: Phase 1 C, "Some Actions resolve immediately, and some resolve after the Action
    Phase"."""

    NOW = "now"  # in the Theater phase, as the card is flipped
    AFTER_ACTIONS = "after_actions"  # once every Action card has been played (Phase 2 C)


class Recipients(Enum):
    """Who a Theater card's effects apply to. Each recipient resolves all the effects in turn
    order from the Starting Player; ties (e.g. for least Armor) all receive them, in that order
    (rulebook: Theater Card Clarifying Rules, Favored Underdog)."""

    ALL = "all"
    STARTING_PLAYER = "starting_player"
    LEAST_ARMOR = "least_armor"
    MOST_ARMOR = "most_armor"
    MOST_FAVOR = "most_favor"  # only after the Action phase: Favor is 0 for all before it
    OUTER_EDGE = "outer_edge"  # gladiators standing on an outer-edge hex
    INNER_CIRCLE = "inner_circle"  # gladiators standing inside the Inner Circle


@dataclass(frozen=True, slots=True)
class TheaterCard:
    """A Theater card. `recipients` is None when every effect is a table-wide RuleHook."""

    id: str
    name: str
    timing: TheaterTiming
    recipients: Recipients | None
    effects: tuple[Effect, ...]
    flavor: str = ""
    copies: int = 1

    @property
    def text(self) -> str:
        who = "" if self.recipients is None else _RECIPIENT_TEXT[self.recipients]
        if self.timing is TheaterTiming.AFTER_ACTIONS:
            who = (who or "Everyone") + ", after the Action phase"
        return (who + ": " if who else "") + describe(self.effects)


_RECIPIENT_TEXT: dict[Recipients, str] = {
    Recipients.ALL: "Every gladiator",
    Recipients.STARTING_PLAYER: "The Starting Player",
    Recipients.LEAST_ARMOR: "The gladiator(s) with the least Armor",
    Recipients.MOST_ARMOR: "The gladiator(s) with the most Armor",
    Recipients.MOST_FAVOR: "The gladiator(s) with the most Favor",
    Recipients.OUTER_EDGE: "Every gladiator on the outer edge",
    Recipients.INNER_CIRCLE: "Every gladiator in the Inner Circle",
}


# --- gladiators ---------------------------------------------------------------------------------


class Colour(Enum):
    """The five player colours (rulebook: Setup 2), in the rulebook's order."""

    BLUE = "blue"
    RED = "red"
    GREEN = "green"
    YELLOW = "yellow"
    PURPLE = "purple"


class GladiatorClass(Enum):
    RETIARIUS = "Retiarius"
    DIMACHAERUS = "Dimachaerus"
    MURMILLO = "Murmillo"
    THRACIAN = "Thracian"
    GAUL = "Gaul"


@dataclass(frozen=True, slots=True)
class Gladiator:
    """A player board: colour, class and the Starting Deck. The base game gives the classes no
    rules of their own; `ability` is where a class rule goes when a module adds one."""

    colour: Colour
    gladiator_class: GladiatorClass
    starting_deck: tuple[str, ...]  # card ids, repeated per copy
    ability: Hook | None = None

    @property
    def id(self) -> str:
        return self.colour.value

    @property
    def name(self) -> str:
        return f"{self.colour.value.title()} {self.gladiator_class.value}"


# --- Arena tokens -------------------------------------------------------------------------------


class TokenTrigger(Enum):
    ENTER = "enter"  # resolves when a gladiator moves onto it face up, then flips when left
    ROUND_END = "round_end"  # King of the Hill: scores its occupant once per round
    BLOCKS = "blocks"  # pillars: never occupied, never passed through


class TokenKind(Enum):
    """rulebook: Arena Token Definitions. `value` is the X printed on the token."""

    FAVOR = "favor"  # +X Favor
    ARMOR = "armor"  # +X Armor
    DAMAGE = "damage"  # X Damage to an adjacent opponent
    DAMAGE_KNOCKBACK = "damage_knockback"  # 1 Damage and Knockback 1 to an adjacent opponent
    MOVEMENT = "movement"  # Movement X, then the rest of the card
    PILLAR = "pillar"
    SPIKED_PILLAR = "spiked_pillar"  # +X (1) Damage to a gladiator knocked into it
    KING_OF_THE_HILL = "king_of_the_hill"  # +X Favor to its occupant at the end of the round
    CROCODILE = "crocodile"  # -X (1) Armor to a gladiator landing on it

    @property
    def trigger(self) -> TokenTrigger:
        if self in (TokenKind.PILLAR, TokenKind.SPIKED_PILLAR):
            return TokenTrigger.BLOCKS
        if self is TokenKind.KING_OF_THE_HILL:
            return TokenTrigger.ROUND_END
        return TokenTrigger.ENTER

    @property
    def blocks(self) -> bool:
        return self.trigger is TokenTrigger.BLOCKS

    @property
    def flips_when_left(self) -> bool:
        """rulebook: How to Use the Arena Tokens. King of the Hill flips too ("Each time a
        player moves off the Token it is flipped over"); it just scores face down as well."""
        return not self.blocks

    @property
    def needs_face_up(self) -> bool:
        """Only a face-up token resolves; King of the Hill is "the exception" (Token Rules)."""
        return self.trigger is TokenTrigger.ENTER

    @property
    def inner_circle_only(self) -> bool:
        """rulebook: Token Rules, "The Pillar Token and Spiked Pillar Token are the only Tokens
        which may be placed outside the Inner Circle"."""
        return not self.blocks

    @property
    def counts_toward_setup(self) -> bool:
        """rulebook: Arena Tokens, "players plus one ... You may have any number of Pillar
        Tokens": pillars come on top of the players + 1 (minimum 4) tokens."""
        return not self.blocks


# Which kinds carry a value, and which value is fixed by the rulebook's definition.
TOKEN_FIXED_VALUES: dict[TokenKind, int] = {
    TokenKind.DAMAGE_KNOCKBACK: 1,
    TokenKind.PILLAR: 0,
    TokenKind.SPIKED_PILLAR: 1,
    TokenKind.CROCODILE: 1,
}
KING_OF_THE_HILL_VALUES = (3, 4)  # "+3 AT END/+4 AT END"


@dataclass(frozen=True, slots=True)
class ArenaToken:
    """A kind of Arena token and how many of it are in the box."""

    id: str
    kind: TokenKind
    value: int
    count: int = 1

    @property
    def effects(self) -> tuple[Effect, ...]:
        """What the token does to the gladiator who triggers it, as effect primitives, so the
        engine resolves tokens and cards the same way. Pillars do nothing themselves: they
        block (and a Spiked Pillar hurts the gladiator knocked into it, see `value`)."""
        kind, x = self.kind, self.value
        if kind is TokenKind.FAVOR or kind is TokenKind.KING_OF_THE_HILL:
            return (Favor(x),)
        if kind is TokenKind.ARMOR:
            return (Armor(x),)
        if kind is TokenKind.CROCODILE:
            return (Armor(-x),)
        if kind is TokenKind.DAMAGE:
            return (Damage(x),)
        if kind is TokenKind.DAMAGE_KNOCKBACK:
            return (Damage(x), Knockback(1))
        if kind is TokenKind.MOVEMENT:
            return (Move(x),)
        return ()

    @property
    def name(self) -> str:
        kind, x = self.kind, self.value
        return {
            TokenKind.FAVOR: f"Favor +{x}",
            TokenKind.ARMOR: f"Armor +{x}",
            TokenKind.DAMAGE: f"Damage {x}",
            TokenKind.DAMAGE_KNOCKBACK: "Damage & Knockback",
            TokenKind.MOVEMENT: f"Movement {x}",
            TokenKind.PILLAR: "Pillar",
            TokenKind.SPIKED_PILLAR: "Spiked Pillar",
            TokenKind.KING_OF_THE_HILL: f"King of the Hill +{x} at end",
            TokenKind.CROCODILE: "Crocodile",
        }[kind]


@dataclass(frozen=True, slots=True)
class TokenPlacement:
    token: str  # ArenaToken id
    at: Hex
    min_players: int = 2  # "Add an additional Favor Token for a 4 player game" (Setup 4)


@dataclass(frozen=True, slots=True)
class TokenLayout:
    """A fixed token layout: the First Match of Setup 4, or a Quick Start scenario."""

    id: str
    name: str
    placements: tuple[TokenPlacement, ...]

    def for_players(self, players: int) -> tuple[TokenPlacement, ...]:
        return tuple(p for p in self.placements if p.min_players <= players)
