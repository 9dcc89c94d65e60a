"""The heuristic bot reads what a House's abilities do from the data (an owner may replace the
data files), never a House or ability by its id (rules: Setup - each House's abilities, printed
on its House card: core/spartacus/data/houses.toml)."""

from __future__ import annotations

import dataclasses

from harena.core.spartacus.bots import HeuristicBot, ability_use
from harena.core.spartacus.cards import CardKind
from harena.core.spartacus.content import Content, default_content
from harena.core.spartacus.valuation import house_uses


def renamed(content: Content) -> Content:
    """The same Houses and abilities under other ids, as a replaced data file might name them."""
    houses = tuple(
        dataclasses.replace(
            house,
            id=f"house{n}",
            abilities=tuple(
                dataclasses.replace(ability, id=f"house{n}-power{k}")
                for k, ability in enumerate(house.abilities)
            ),
        )
        for n, house in enumerate(content.houses)
    )
    return dataclasses.replace(content, houses=houses)


def test_the_reference_houses_abilities_are_told_apart_by_what_they_do() -> None:
    uses = {a.id: ability_use(a) for h in default_content().houses for a in h.abilities}
    assert uses == {
        "batiatus-training": "spare",  # exhaust a Gladiator: 2 denarii
        "batiatus-glory": "spare",  # exhaust a Gladiator with Favor: 2 denarii per Favor
        "glaber-patrol": "free",  # exhaust a Guard: draw
        "glaber-example": "sacrifice",  # a Guard and 5 denarii: 1 Influence
        "solonius-coin": None,  # used when launching a Scheme short of Influence
        "solonius-whispers": "paid",  # 1 denarius: draw
        "tullius-errands": None,  # exhaust a Slave: cycle an Intrigue card
        "tullius-trade": "free",  # exhaust a Slave: 1 denarius
    }


def test_what_a_house_gets_from_its_first_card_of_a_kind_is_read_from_its_abilities() -> None:
    assert house_uses(default_content()) == {
        ("batiatus", CardKind.GLADIATOR): 1.5,
        ("tullius", CardKind.SLAVE): 1.0,
        ("glaber", CardKind.GUARD): 1.0,
    }


def test_houses_renamed_in_the_data_keep_their_worth_to_the_bot() -> None:
    content = default_content()
    other = renamed(content)
    ids = {h.id: o.id for h, o in zip(content.houses, other.houses, strict=True)}
    assert house_uses(other) == {
        (ids[house], kind): worth for (house, kind), worth in house_uses(content).items()
    }
    reference, bot = HeuristicBot(1), HeuristicBot(1, other)
    powers = {a.id: o.id for h, g in zip(content.houses, other.houses, strict=True)
              for a, o in zip(h.abilities, g.abilities, strict=True)}  # fmt: skip
    assert bot.uses == {powers[power]: use for power, use in reference.uses.items()}
    assert bot.coin == {ids["solonius"]: reference.coin["solonius"]}
    assert bot.sacrificed == {powers["glaber-example"]: "guard"}
