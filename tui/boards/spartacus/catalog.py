"""The printed, public content of Spartacus (cards, houses, the arena), as the board reads it.

Only what is the same for every seat: card names, texts and dice, house abilities, the shape of
the arena. Never a game's state (the board reads that from the view alone).
"""

from __future__ import annotations

from functools import cache

from harena.core.spartacus.cards import House, IntrigueCard, MarketCard
from harena.core.spartacus.content import Content, default_content

Card = MarketCard | IntrigueCard


@cache
def content() -> Content:
    return default_content()


def card(card_id: str) -> Card | None:
    return content().cards.get(card_id)


def house(house_id: str) -> House | None:
    try:
        return content().house(house_id)
    except KeyError:
        return None


def dice(card_id: str) -> tuple[int, int, int] | None:
    """(ATK, DEF, SPD) printed on a gladiator or slave; None for anything else."""
    c = card(card_id)
    if isinstance(c, MarketCard) and c.combatant:
        return (c.atk, c.defence, c.spd)
    return None


def card_text(card_id: str) -> str:
    c = card(card_id)
    return "" if c is None else c.text


def kind_word(card_id: str) -> str:
    c = card(card_id)
    return "" if c is None else c.kind.value


def scheme_needs(card_id: str) -> int:
    """The Influence a Scheme requires (0 for any other card)."""
    c = card(card_id)
    return c.influence if isinstance(c, IntrigueCard) else 0
