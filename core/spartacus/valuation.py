"""What a Resource card is worth to a House, in denarii, read from the public board alone.

The heuristic bot prices every deal with this one function, for itself and (to keep its offers
fair to the other side) for the House it deals with: both sides of a trade are valued the same
way from what the table can see (cards on tables, Influence, open treasuries), never from a hand.

Worth = the printed Bank value, adjusted for what the card does for this holder over the next
few rounds: a combatant's dice and abilities, its Favor and Champion markers (tribute, and the
Influence a Champion carries), the upkeep a Gladiator costs and the income a Slave brings, and
whether the holder would be left without anyone to send to the Arena.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Mapping
from typing import Any

from harena.core.spartacus.cards import (
    CardKind,
    GainDenarii,
    GainInfluence,
    IntrigueCard,
    MarketCard,
)
from harena.core.spartacus.content import Content

Asset = Mapping[str, Any]  # a card on a table, as the board view shows it

INFLUENCE = 5.0  # denarii a point of Influence is worth (Glaber pays 3 and a Guard for one)
HORIZON = 3  # rounds of upkeep and income that count
AVERAGE_STRENGTH = 5.0  # a starting recruit's `strength`
ONLY_FIGHTER = 3.0  # a House with no combatant cannot be invited, so cannot win the games


def ready_to_fight(board: Mapping[str, Any], seat: int) -> list[Asset]:
    """`seat`'s Gladiators and Slaves that could be sent to the Arena now (a board view)."""
    return [a for a in board["players"][seat]["assets"]
            if a["kind"] in ("gladiator", "slave") and not a["exhausted"] and not a["wounded"]]  # fmt: skip


def strength(card: MarketCard | IntrigueCard, favor: int = 0, champion: bool = False) -> float:
    """How good a combatant is in the Arena: attack and defence dice count most."""
    assert isinstance(card, MarketCard)  # a Gladiator or Slave
    return (
        1.2 * card.atk
        + 1.0 * card.defence
        + 0.6 * card.spd
        + 0.5 * len(card.combat)
        + 0.3 * favor
        + champion
    )


def _combatant(content: Content, asset: Asset) -> bool:
    card = content.cards[asset["card"]]
    return isinstance(card, MarketCard) and card.combatant


def house_uses(content: Content) -> Mapping[tuple[str, CardKind], float]:
    """(House id, card kind) -> what the first card of that kind is worth more to that House, read
    from its abilities (the data files may be replaced): an ability used once a turn that
    exhausts or sacrifices a card of the kind for denarii or Influence. A turn's use is worth
    half its denarii plus 0.5, or its Influence, fitted to the reference Houses (Batiatus's
    Training Fees, 2 denarii a Gladiator: 1.5; Tullius's Trade Routes, 1 a Slave: 1.0; Glaber's
    Make an Example, a Guard and 5 denarii for a point of Influence: 1.0)."""
    known = _uses.get(content)
    if known is not None:
        return known
    uses: dict[tuple[str, CardKind], float] = {}
    for house in content.houses:
        for ability in house.abilities:
            used = ability.exhaust or ability.sacrifice
            if used is None or ability.per_turn != 1 or ability.favored:
                continue
            gain = ability.gain
            if isinstance(gain, GainDenarii) and not gain.per_favor:
                worth_of_use = 0.5 + 0.5 * gain.amount
            elif isinstance(gain, GainInfluence):
                worth_of_use = 1.0 * gain.amount
            else:
                continue
            key = (house.id, CardKind(used.value))
            uses[key] = max(uses.get(key, 0.0), worth_of_use)
    _uses[content] = uses
    return uses


_uses: weakref.WeakKeyDictionary[Content, Mapping[tuple[str, CardKind], float]] = (
    weakref.WeakKeyDictionary()
)


def worth(content: Content, asset: Asset, others: Iterable[Asset], house: str = "") -> float:
    """What `asset` is worth to `house` (its other cards: `others`)."""
    card = content.cards[asset["card"]]
    others = list(others)
    same_kind = any(content.cards[a["card"]].kind is card.kind for a in others)
    fighters = any(_combatant(content, a) for a in others)
    return _worth(content, card, asset, house, same_kind, fighters)


def _worth(
    content: Content,
    card: MarketCard | IntrigueCard,
    asset: Asset,
    house: str,
    same_kind: bool,
    fighters: bool,
) -> float:
    """`worth`, given what it reads of the other cards: whether one is of the same kind (only
    the first card of a kind serves the House's ability) and whether one is a combatant."""
    value = float(card.value)
    if not same_kind:
        value += house_uses(content).get((house, card.kind), 0.0)  # the first card does it
    if card.kind is CardKind.GUARD:
        return value + 1.0  # keeps a Scheme off the table
    if card.kind is CardKind.EQUIPMENT:
        return value if fighters else 0.6 * value
    assert isinstance(card, MarketCard)
    value += 0.8 * (strength(card, asset["favor"], asset["champion"]) - AVERAGE_STRENGTH)
    if card.ability is not None:
        value += 1.5
    if card.kind is CardKind.GLADIATOR:
        value -= 0.5 * HORIZON  # 1 denarius upkeep a round, while it fights for you
    else:
        value += 0.5 * HORIZON  # a Slave earns 1 a round when not exhausted
    value += 2.0 * asset["favor"] + (6.0 + INFLUENCE if asset["champion"] else 0.0)
    if asset["wounded"]:
        value *= 0.6  # may die of its wounds (1 in 6) and misses the next games
    if not fighters:
        value += ONLY_FIGHTER
    return float(max(value, 0.0))


def trade_gain(
    content: Content,
    house: str,
    holding: list[Asset],
    gets: list[Asset],
    gives: list[Asset],
    denarii_in: int,
) -> float:
    """What a trade is worth to a House holding `holding`: what it gets, less what it gives,
    plus the denarii it receives (negative: pays). Each card is valued against what the House
    would hold after the trade (so giving away your last fighter costs the most)."""
    appraiser = Appraiser(content)
    return appraiser.trade_gain(house, appraiser.holding(holding), gets, gives, denarii_in)


# What `worth` reads of another card: its kind (the enum's value: a str hashes in C, an Enum
# member in Python) and whether it fights.
Facts = tuple[str, bool]


class Holding:
    """A House's cards as `worth` reads them (each ref once: a ref names one card): each card's
    facts, with counts, so "the others" of one card is a subtraction, not a scan."""

    __slots__ = ("facts", "fighters", "kinds")

    def __init__(self, facts: dict[int, Facts], kinds: dict[str, int], fighters: int) -> None:
        self.facts = facts  # ref -> facts
        self.kinds = kinds  # kind -> how many
        self.fighters = fighters  # how many combatants

    def others(self, ref: int, kind: str) -> tuple[bool, bool]:
        """Whether the cards other than `ref` hold one of `kind`, and one that fights."""
        own = self.facts.get(ref)
        same = self.kinds.get(kind, 0) - (own is not None and own[0] == kind)
        fighters = self.fighters - (own is not None and own[1])
        return same > 0, fighters > 0

    def changed(self, gone: dict[int, Facts], added: dict[int, Facts]) -> Holding:
        """These cards less `gone` (by ref) and with `added`."""
        facts = dict(self.facts)
        kinds = dict(self.kinds)
        fighters = self.fighters
        for ref in gone:
            old = facts.pop(ref, None)
            if old is not None:
                kinds[old[0]] -= 1
                fighters -= old[1]
        for ref, new in added.items():
            if ref not in facts:
                facts[ref] = new
                kinds[new[0]] = kinds.get(new[0], 0) + 1
                fighters += new[1]
        return Holding(facts, kinds, fighters)


class Appraiser:
    """`worth` and `trade_gain` for many trades in a row (one decision weighs hundreds): each
    card's kind read once, a House's cards summed up once (`Holding`), and each card's worth
    computed once for each thing it depends on (its own markers, the House, the two facts it
    reads of the other cards). Its memo is keyed on everything `worth` reads, yet one lives for
    a single decision only, so nothing grows from game to game."""

    def __init__(self, content: Content) -> None:
        self.content = content
        self._facts: dict[str, Facts] = {}  # card id -> facts
        self._worths: dict[tuple[str, int, bool, bool, str, bool, bool], float] = {}

    def holding(self, assets: list[Asset]) -> Holding:
        facts = self.facts_of(assets)
        kinds: dict[str, int] = {}
        for kind, _ in facts.values():
            kinds[kind] = kinds.get(kind, 0) + 1
        return Holding(facts, kinds, sum(fights for _, fights in facts.values()))

    def facts_of(self, assets: list[Asset]) -> dict[int, Facts]:
        """ref -> facts, in order."""
        return {a["ref"]: self._card_facts(a["card"]) for a in assets}

    def trade_gain(
        self,
        house: str,
        holding: Holding,
        gets: list[Asset],
        gives: list[Asset],
        denarii_in: int,
    ) -> float:
        """As the module's `trade_gain` (the same sums, in the same order)."""
        after = holding.changed(self.facts_of(gives), self.facts_of(gets))
        got = sum(self.worth(a, after, house) for a in gets)
        lost = sum(self.worth(a, holding, house) for a in gives)
        return got - lost + denarii_in

    def worth(self, asset: Asset, among: Holding, house: str) -> float:
        """`worth(asset, others, house)`, the others being `among` less `asset`."""
        kind = self._card_facts(asset["card"])[0]
        same_kind, fighters = among.others(asset["ref"], kind)
        key = (
            asset["card"], asset["favor"], asset["champion"], asset["wounded"], house,
            same_kind, fighters,
        )  # fmt: skip
        known = self._worths.get(key)
        if known is None:
            card = self.content.cards[asset["card"]]
            known = self._worths[key] = _worth(
                self.content, card, asset, house, same_kind, fighters
            )
        return known

    def _card_facts(self, card_id: str) -> Facts:
        known = self._facts.get(card_id)
        if known is None:
            card = self.content.cards[card_id]
            combatant = isinstance(card, MarketCard) and card.combatant
            known = self._facts[card_id] = (card.kind.value, combatant)
        return known


def sale_gain(content: Content, house: str, holding: list[Asset], asset: Asset) -> float:
    """Selling to the Bank: its printed value, less what keeping it is worth."""
    card = content.cards[asset["card"]]
    others = [a for a in holding if a["ref"] != asset["ref"]]
    return card.value - worth(content, asset, others, house)
