"""The shipped reference content (core/spartacus/data) loads and has what the rules need."""

from __future__ import annotations

from collections import Counter

from harena.core.spartacus.cards import CardKind, GainInfluence, KeenStrike, SchemeInfluence, Slot
from harena.core.spartacus.content import default_content


def test_the_four_houses_each_have_starting_resources_and_two_intrigue_abilities() -> None:
    """rules: Setup 1-2 - a House board with Starting Resources; issue 5: two abilities each."""
    content = default_content()
    assert [h.id for h in content.houses] == ["batiatus", "glaber", "solonius", "tullius"]
    for house in content.houses:
        assert len(house.abilities) == 2
        assert house.denarii > 0 and house.gladiators + house.slaves >= 3


def test_house_abilities_do_what_the_issue_describes() -> None:
    content = default_content()
    solonius = content.house("solonius")
    assert isinstance(solonius.abilities[0].gain, SchemeInfluence)
    tullius = content.house("tullius")
    assert all(a.exhaust is not None and a.exhaust.value == "slave" for a in tullius.abilities)
    glaber = content.house("glaber")
    assert {a.exhaust or a.sacrifice for a in glaber.abilities} == {
        glaber.abilities[0].exhaust,
        glaber.abilities[1].sacrifice,
    }
    assert isinstance(glaber.abilities[1].gain, GainInfluence)
    batiatus = content.house("batiatus")
    assert all(a.exhaust is not None and a.exhaust.value == "gladiator" for a in batiatus.abilities)


def test_eight_starting_gladiators_and_eight_starting_slaves() -> None:
    """rules: Setup 3 - the white-bordered cards."""
    content = default_content()
    kinds = Counter(content.cards[c].kind for c in content.market_deck(starting=True))
    assert kinds == {CardKind.GLADIATOR: 8, CardKind.SLAVE: 8}


def test_the_named_cards_are_in_the_decks() -> None:
    content = default_content()
    for name in ("crixus", "spartacus", "varro", "theokeles"):
        assert content.cards[name].kind is CardKind.GLADIATOR
    assert content.cards["jupiters-cock"].kind is CardKind.REACTION
    assert any(isinstance(e, KeenStrike) for e in content.cards["theokeles"].combat)


def test_the_market_deck_has_every_kind_of_resource_and_each_equipment_slot() -> None:
    content = default_content()
    cards = [content.cards[c] for c in content.market_deck(starting=False)]
    assert {c.kind for c in cards} == {CardKind.GLADIATOR, CardKind.SLAVE, CardKind.EQUIPMENT}
    assert {c.slot for c in cards if c.kind is CardKind.EQUIPMENT} == set(Slot)


def test_the_intrigue_deck_holds_schemes_reactions_and_guards() -> None:
    content = default_content()
    kinds = Counter(content.cards[c].kind for c in content.intrigue_deck())
    assert kinds == {CardKind.SCHEME: 30, CardKind.REACTION: 8, CardKind.GUARD: 12}
    answers = Counter(
        c.answers for c in content.intrigue if c.kind is CardKind.REACTION for _ in range(c.copies)
    )
    # rules: Reactions "can be played in response to other events": an invitation, an auction
    # won and a combatant wounded besides a Scheme (Envy of the Forum and Medicus took the third
    # Counter-Plot's and the second Informant's places, so the deck still holds 50)
    assert answers == {"scheme": 5, "invitation": 1, "auction_won": 1, "wounded": 1}
    assert any(c.kind is CardKind.SCHEME and c.influence > 7 for c in content.intrigue)


def test_the_hand_limit_grows_with_influence() -> None:
    """rules: Maximum Hand Size - listed below your current Influence."""
    content = default_content()
    limits = [content.hand_limit(i) for i in range(13)]
    assert limits == sorted(limits) and limits[0] >= 3


def test_game_lengths_are_the_rulebook_starting_influence() -> None:
    """rules: Setup 7 - Quick 7, Standard 4, Advanced 1."""
    assert dict(default_content().lengths) == {"quick": 7, "standard": 4, "advanced": 1}
    assert default_content().target == 12
