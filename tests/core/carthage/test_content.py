"""The shipped Carthage content: counts, the cards the rulebook names, decks, tokens, layouts
(core/carthage/content.py and data/*.toml)."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from harena.core.carthage.balance import card_value
from harena.core.carthage.cards import (
    CardSet,
    Colour,
    GladiatorClass,
    Recipients,
    TheaterTiming,
    TokenKind,
    TokenTrigger,
)
from harena.core.carthage.content import Content, default_content, load_content
from harena.core.carthage.effects import (
    Armor,
    Condition,
    Conditional,
    Damage,
    DiscardCard,
    Favor,
    FocusFromDiscard,
    FocusThisCard,
    Hook,
    Knockback,
    Move,
    OpponentLosesFavor,
    PassCard,
    PassStartingPlayer,
    RuleHook,
    StrikeBonus,
    Target,
    flatten,
)
from harena.core.carthage.hexgrid import Hex


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content()


def effects(content: Content, card_id: str, side: int = 0) -> tuple:
    return content.card(card_id).sides[side].effects


# --- counts ---------------------------------------------------------------------------------------


def test_rulebook_components_75_action_cards_20_theater_cards_35_tokens(content: Content) -> None:
    """rulebook: Components."""
    assert len(content.action_deck()) == 75
    assert len(content.theater_deck()) == 20
    assert len(content.token_pool()) == 35


def test_rulebook_components_5_gladiators_with_10_card_starting_decks(content: Content) -> None:
    """rulebook: Components (50 Starting Deck cards, 10 per player), Setup 2 (colours)."""
    assert [g.colour for g in content.gladiators] == list(Colour)
    assert sum(len(g.starting_deck) for g in content.gladiators) == 50
    for gladiator in content.gladiators:
        assert len(gladiator.starting_deck) == 10
        for card_id in gladiator.starting_deck:
            assert content.card(card_id).card_set is CardSet.STARTING


def test_colours_and_classes_are_paired_as_the_rulebook_pairs_them(content: Content) -> None:
    """rulebook: Modular Rulesets, Retain - "Retairius (blue)", "Dimachaeri (red)"; the rest in
    the rulebook's order (docs/rulings.md, Carthage)."""
    pairs = {g.colour: g.gladiator_class for g in content.gladiators}
    assert pairs == {
        Colour.BLUE: GladiatorClass.RETIARIUS,
        Colour.RED: GladiatorClass.DIMACHAERUS,
        Colour.GREEN: GladiatorClass.MURMILLO,
        Colour.YELLOW: GladiatorClass.THRACIAN,
        Colour.PURPLE: GladiatorClass.GAUL,
    }
    assert content.gladiator("blue").name == "Blue Retiarius"


def test_starting_decks_are_equally_strong(content: Content) -> None:
    worth = {
        g.colour: round(sum(card_value(content.card(c)) for c in g.starting_deck), 6)
        for g in content.gladiators
    }
    assert len(set(worth.values())) == 1


def test_the_action_deck_holds_only_basic_cards_with_unique_ids(content: Content) -> None:
    assert all(c.card_set is CardSet.BASIC for c in content.action_cards)
    ids = [c.id for c in content.starting_cards + content.action_cards]
    assert len(ids) == len(set(ids))


# --- the cards the rulebook names -----------------------------------------------------------------


def test_fitted_laminar_is_a_slash_card_with_the_rulebooks_two_sides(content: Content) -> None:
    """rulebook: Action Cards - "+2 Armor ... +3 Damage ... OR +3 Movement ... +2 Armor"."""
    card = content.card("fitted-laminar")
    assert card.name == "Fitted Laminar" and card.is_slash
    assert effects(content, "fitted-laminar", 0) == (Armor(2), Damage(3))
    assert effects(content, "fitted-laminar", 1) == (Move(3), Armor(2))


def test_all_or_nothing_deals_7_then_costs_its_player_2_armor(content: Content) -> None:
    """rulebook: Action Card Clarifying Rules, All or Nothing."""
    assert effects(content, "all-or-nothing") == (Damage(7), Armor(-2))


def test_rousing_backflip_gives_7_favor_then_focuses_itself(content: Content) -> None:
    """rulebook: Action Card Clarifying Rules, Rousing Backflip."""
    assert effects(content, "rousing-backflip") == (Favor(7), FocusThisCard())


def test_for_glory_gives_5_favor_for_1_armor(content: Content) -> None:
    """rulebook: Action Card Clarifying Rules, For Glory."""
    assert effects(content, "for-glory") == (Favor(5), Armor(-1))


@pytest.mark.parametrize("card_id", ["horned-charge", "charging-rhino"])
def test_horned_charge_and_charging_rhino_move_4_and_knock_back_2_in_one_line(
    content: Content, card_id: str
) -> None:
    """rulebook: Action Card Clarifying Rules, Horned Charge/Charging Rhino."""
    side = effects(content, card_id)
    assert side[0] == Move(4, straight=True)
    assert any(isinstance(e, Damage) for e in side)
    knockbacks = [e for e in flatten(side) if isinstance(e, Knockback)]
    assert knockbacks == [Knockback(2, along_move=True)]


def test_humiliate_takes_4_favor_only_if_its_2_damage_hits(content: Content) -> None:
    """rulebook: Action Card Clarifying Rules, Humiliate."""
    assert effects(content, "humiliate") == (
        Damage(2),
        StrikeBonus((OpponentLosesFavor(4, Target.DAMAGED),)),
    )


def test_hurled_insult_is_passed_to_the_opponent_who_lost_the_favor(content: Content) -> None:
    """rulebook: Action Card Clarifying Rules, Hurled Insult."""
    side = effects(content, "hurled-insult")
    assert any(isinstance(e, OpponentLosesFavor) and e.target is Target.ANY for e in side)
    assert side[-1] == PassCard()


def test_javelin_gives_1_favor_deals_1_damage_and_is_passed_to_the_damaged(
    content: Content,
) -> None:
    """rulebook: Action Card Clarifying Rules, Javelin."""
    first, damage, last = effects(content, "javelin")
    assert first == Favor(1)
    assert isinstance(damage, Damage) and damage.amount == 1 and damage.range >= 1
    assert last == PassCard()


def test_the_final_blow_asks_for_a_discard_unless_played_fifth(content: Content) -> None:
    """rulebook: Action Card Clarifying Rules, The Final Blow."""
    side = effects(content, "the-final-blow")
    assert Conditional(Condition.NOT_PLAYED_FIFTH, (DiscardCard(1),)) in side
    assert any(isinstance(e, Damage) for e in side)


def test_slash_gives_3_favor_when_it_damages(content: Content) -> None:
    """rulebook: Player Modes, 2 VS 2 - "Using the Slash Action Card ... to receive 3 Favor"."""
    side = effects(content, "slash")
    assert isinstance(side[0], Damage)
    assert side[1] == StrikeBonus((Favor(3),))


def test_calm_before_the_storm_lets_every_player_focus_a_card_if_they_wish(
    content: Content,
) -> None:
    """rulebook: Theater Card Clarifying Rules, Calm Before the Storm."""
    card = content.theater("calm-before-the-storm")
    assert card.recipients is Recipients.ALL
    assert card.effects == (FocusFromDiscard(optional=True),)


def test_favored_underdog_grants_3_actions_to_the_least_armored(content: Content) -> None:
    """rulebook: Theater Card Clarifying Rules, Favored Underdog."""
    card = content.theater("favored-underdog")
    assert card.recipients is Recipients.LEAST_ARMOR
    assert len(card.effects) == 3


def test_turning_moment_makes_the_starting_player_pass_the_token(content: Content) -> None:
    """rulebook: Theater Card Clarifying Rules, Turning Moment."""
    card = content.theater("turning-moment")
    assert card.timing is TheaterTiming.NOW
    assert card.recipients is Recipients.STARTING_PLAYER
    assert card.effects == (PassStartingPlayer(),)


def test_theater_cards_resolve_now_or_after_the_action_phase(content: Content) -> None:
    """rulebook: Phase 1 C - "Some Actions resolve immediately, and some ... after"."""
    timings = Counter(card.timing for card in content.theater_cards)
    assert timings[TheaterTiming.NOW] and timings[TheaterTiming.AFTER_ACTIONS]


def test_only_the_listed_rule_hooks_are_used(content: Content) -> None:
    used = {
        e.hook for card in content.theater_cards for e in card.effects if isinstance(e, RuleHook)
    }
    assert used == set(Hook)


def test_reference_cards_follow_the_cost_curve(content: Content) -> None:
    """docs/cards.md: a card's cost is its value on the curve, give or take 1."""
    for card in content.action_cards:
        assert abs(card.cost - card_value(card)) <= 1.0, card.name


def test_every_card_has_readable_text(content: Content) -> None:
    assert content.card("fitted-laminar").text == "Armor +2, Damage 3 / Move 3, Armor +2"
    for card in content.action_cards + content.starting_cards:
        assert card.text
    for theater in content.theater_cards:
        assert theater.text


# --- tokens and layouts ---------------------------------------------------------------------------


def test_every_kind_of_arena_token_is_in_the_box(content: Content) -> None:
    """rulebook: Arena Token Definitions; King of the Hill comes as +3 and +4."""
    assert {t.kind for t in content.tokens} == set(TokenKind)
    hills = sorted(t.value for t in content.tokens if t.kind is TokenKind.KING_OF_THE_HILL)
    assert hills == [3, 4]


def test_token_semantics_follow_the_definitions(content: Content) -> None:
    """rulebook: Arena Token Definitions, Token Rules."""
    assert content.token("pillar").kind.blocks and content.token("spiked-pillar").kind.blocks
    assert content.token("spiked-pillar").value == 1  # +1 Damage when knocked into it
    assert content.token("crocodile").effects == (Armor(-1),)
    assert content.token("damage-knockback").effects == (Damage(1), Knockback(1))
    assert content.token("movement-2").effects == (Move(2),)
    hill = content.token("king-of-the-hill-4")
    assert hill.kind.trigger is TokenTrigger.ROUND_END and hill.effects == (Favor(4),)
    assert hill.kind.flips_when_left and not hill.kind.needs_face_up
    assert content.token("favor-1").kind.needs_face_up
    assert not TokenKind.PILLAR.inner_circle_only and TokenKind.CROCODILE.inner_circle_only


def test_first_match_puts_favor_on_the_centre_and_one_more_favor_at_4_and_5_players(
    content: Content,
) -> None:
    """rulebook: Setup 4 - Setup for Your First Game."""
    layout = content.layout("first-match")
    centre = [p for p in layout.for_players(2) if p.at == content.arena.centre]
    assert len(centre) == 1 and content.token(centre[0].token).kind is TokenKind.FAVOR
    extra_4 = set(layout.for_players(4)) - set(layout.for_players(3))
    extra_5 = set(layout.for_players(5)) - set(layout.for_players(4))
    for extra in (extra_4, extra_5):
        assert len(extra) == 1
        assert content.token(extra.pop().token).kind is TokenKind.FAVOR


def test_the_quick_start_scenarios_exist(content: Content) -> None:
    """rulebook: Scenario Set-Ups."""
    assert [layout.name for layout in content.layouts] == [
        "First Match", "Junkyard Dogs", "Center Stage", "Dodging Teeth", "Bloody Mound",
        "Vicious Theater", "The Great Divide", "Edge of Death",
    ]  # fmt: skip


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_layout_obeys_the_token_rules(content: Content, players: int) -> None:
    """rulebook: Arena Tokens - players + 1 tokens, minimum 4, pillars on top; Token Rules -
    only pillars outside the Inner Circle, one token on the centre."""
    arena = content.arena
    for layout in content.layouts:
        placed = layout.for_players(players)
        kinds = [content.token(p.token).kind for p in placed]
        assert sum(not k.blocks for k in kinds) >= max(4, players + 1)
        assert any(p.at == arena.centre for p in placed)
        for p, kind in zip(placed, kinds, strict=False):
            assert p.at in arena
            assert kind.blocks or arena.in_inner_circle(p.at)


def test_five_gladiators_can_start_on_the_edge_apart_in_every_layout(content: Content) -> None:
    """rulebook: Setup 5 - on the outside edge, not adjacent to one another."""
    arena = content.arena
    for layout in content.layouts:
        blocked = {p.at for p in layout.placements if content.token(p.token).kind.blocks}
        free = [h for h in arena.hexes if arena.is_edge(h) and h not in blocked]
        chosen: list[Hex] = []
        for h in sorted(free, key=lambda h: (h.q, h.r)):
            if all(h not in arena.neighbours(c) for c in chosen):
                chosen.append(h)
        assert len(chosen) >= 5, layout.name


# --- loading --------------------------------------------------------------------------------------


def test_the_default_content_is_loaded_once_and_shared() -> None:
    assert load_content() is load_content() is default_content()


def test_content_is_immutable(content: Content) -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        content.arena = None
    with pytest.raises(dataclasses.FrozenInstanceError):
        content.card("slash").cost = 0
    with pytest.raises(TypeError):
        content.cards["slash"] = content.card("jab")
    assert isinstance(content.action_cards, tuple)


def test_unknown_ids_raise_key_error(content: Content) -> None:
    with pytest.raises(KeyError):
        content.card("fireball")
    with pytest.raises(KeyError):
        content.layout("nowhere")
