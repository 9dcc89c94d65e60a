"""The printed side of Carthage the board draws from: card names, costs, texts and icons, token
symbols, and the shape of the arena.

The board view names cards, tokens and Theater cards by id only; what an id *means* is public,
fixed content (what is printed on the card), not game state, so it is read here once from the
game's data files rather than sent with every view. Glyphs come in two sets: Unicode, and plain
ASCII for terminals that are not UTF-8. Every glyph is one cell wide.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from harena.core.carthage.content import default_content
from harena.core.carthage.effects import Effect
from harena.core.carthage.rulesets.catalog import default_rulesets

Hex = tuple[int, int]

# Effect kind -> (Unicode icon, ASCII icon). One cell each; the legend in the help says which
# is which, and the text next to every card says it in words.
EFFECT_ICONS: dict[str, tuple[str, str]] = {
    "move": ("»", ">"),
    "damage": ("†", "!"),
    "strike_bonus": ("✦", "*"),
    "knockback": ("↯", "<"),
    "armor": ("♦", "+"),
    "favor": ("★", "$"),
    "opponent_loses_favor": ("☆", "-"),
    "pass_card": ("⇢", "p"),
    "focus_this_card": ("◊", "f"),
    "discard_card": ("▭", "d"),
    "conditional": ("?", "?"),
    "focus_from_discard": ("◊", "f"),
    "pass_starting_player": ("⚑", "s"),
    "rule_hook": ("§", "#"),
    "gear": ("‡", "g"),  # an Equipment rule: Twin Blades, Bola, Scutum, Sica, Boots
}

# An Arena Beast on the arena, in its player's colour (rulebook: Arena Beasts), and a player's
# Equipment cards face up (ready) and face down (spent).
BEAST_GLYPH = ("♞", "&")
EQUIPMENT_MARKS = ("▣", "□"), ("E", "e")

# Token kind -> (Unicode symbol, ASCII symbol); the token's value follows the symbol.
TOKEN_SYMBOLS: dict[str, tuple[str, str]] = {
    "favor": ("★", "$"),
    "armor": ("♦", "+"),
    "damage": ("†", "!"),
    "damage_knockback": ("↯", "<"),
    "movement": ("»", ">"),
    "pillar": ("█", "#"),
    "spiked_pillar": ("▓", "*"),
    "king_of_the_hill": ("♛", "K"),
    "crocodile": ("≈", "~"),
}

# Words for the legend, in the order the help lists them.
TOKEN_WORDS: dict[str, str] = {
    "favor": "Favor +X",
    "armor": "Armor +X",
    "damage": "Damage X",
    "damage_knockback": "Damage & Knockback",
    "movement": "Movement X",
    "pillar": "Pillar",
    "spiked_pillar": "Spiked Pillar",
    "king_of_the_hill": "King of the Hill +X",
    "crocodile": "Crocodile",
}

EFFECT_WORDS: dict[str, str] = {
    "move": "Move",
    "damage": "Damage",
    "strike_bonus": "Strike Bonus",
    "knockback": "Knockback",
    "armor": "Armor",
    "favor": "Favor",
    "opponent_loses_favor": "an opponent loses Favor",
    "gear": "an Equipment rule",
}


@dataclass(frozen=True)
class CardInfo:
    """What is printed on an Action card: `sides` are the effect kinds of each side (one side,
    or two for a "/" card) and `text` the card in words."""

    name: str
    cost: int
    text: str
    sides: tuple[tuple[str, ...], ...]

    def icons(self, ascii_only: bool = False) -> str:
        """The card's icons, sides split by "/": "♦†/»♦" (ASCII: "+!/>+")."""
        pick = 1 if ascii_only else 0
        return "/".join(
            "".join(EFFECT_ICONS.get(kind, ("?", "?"))[pick] for kind in side)
            for side in self.sides
        )


@dataclass(frozen=True)
class TokenInfo:
    name: str
    kind: str
    value: int

    def symbol(self, ascii_only: bool = False) -> str:
        return TOKEN_SYMBOLS.get(self.kind, ("?", "?"))[1 if ascii_only else 0]

    @property
    def blocks(self) -> bool:
        return self.kind in ("pillar", "spiked_pillar")


@dataclass(frozen=True)
class ArenaShape:
    hexes: tuple[Hex, ...]  # reading order: top row first, west to east
    inner_circle: frozenset[Hex]
    centre: Hex
    edge: frozenset[Hex]


@dataclass(frozen=True)
class TheaterInfo:
    name: str
    text: str
    flavor: str


def _kinds(effects: tuple[Effect, ...]) -> tuple[str, ...]:
    return tuple(effect.kind for effect in effects)


@cache
def cards() -> dict[str, CardInfo]:
    content = default_content()
    return {
        card.id: CardInfo(
            card.name, card.cost, card.text, tuple(_kinds(s.effects) for s in card.sides)
        )
        for card in content.cards.values()
    }


@cache
def tokens() -> dict[str, TokenInfo]:
    return {t.id: TokenInfo(t.name, t.kind.value, t.value) for t in default_content().tokens}


@cache
def theater_cards() -> dict[str, TheaterInfo]:
    return {t.id: TheaterInfo(t.name, t.text, t.flavor) for t in default_content().theater_cards}


@cache
def arena() -> ArenaShape:
    a = default_content().arena
    return ArenaShape(
        tuple((h.q, h.r) for h in a.hexes),
        frozenset((h.q, h.r) for h in a.inner_circle),
        (a.centre.q, a.centre.r),
        frozenset((h.q, h.r) for h in a.edge),
    )


def ruleset(ruleset_id: str) -> tuple[str, str]:
    """A Modular Ruleset's printed name and text (the view names the ones in play by id)."""
    found = default_rulesets().get(ruleset_id)
    return (found.name, found.text) if found is not None else (ruleset_id, "")


@dataclass(frozen=True)
class KitInfo:
    """An Equipment card or an Arena Beast: its name and text (`ready`: the Ready cost)."""

    name: str
    text: str
    ready: int = 0


@cache
def kit() -> dict[str, KitInfo]:
    content = default_content()
    found = {e.id: KitInfo(e.name, e.text, e.ready) for e in content.equipment}
    found.update({b.id: KitInfo(b.name, b.text) for b in content.beasts})
    return found


def kit_item(ident: str) -> KitInfo:
    """An Equipment card or a Beast by id (ids are unique across the two files)."""
    return kit().get(ident) or KitInfo(ident, "")


def card(card_id: str) -> CardInfo:
    """The card, or a placeholder naming the id (content replaced under a running table)."""
    return cards().get(card_id) or CardInfo(card_id, 0, "", ())


def token(token_id: str) -> TokenInfo:
    return tokens().get(token_id) or TokenInfo(token_id, "", 0)


def theater(card_id: str) -> TheaterInfo:
    return theater_cards().get(card_id) or TheaterInfo(card_id, "", "")
