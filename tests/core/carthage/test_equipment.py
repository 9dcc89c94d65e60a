"""Equipment cards (rulebook: Equipment Cards - Mini Expansion #2, and its Clarifying Rules):
one test per card, and the rules of using, turning face down and Readying them."""

from __future__ import annotations

from harena.core.carthage.balance import effects_value
from harena.core.carthage.content import default_content
from harena.core.carthage.hexgrid import Hex
from harena.core.carthage.state import Phase
from tests.core.carthage.kit_helpers import BLUE, GREEN, PURPLE, RED, YELLOW, kit_arena, use
from tests.core.carthage.table_helpers import choices, give, kind, play

O = Hex(0, 0)
E1, E2, E3, E4 = Hex(1, 0), Hex(2, 0), Hex(3, 0), Hex(4, 0)
W1, W2 = Hex(-1, 0), Hex(-2, 0)
FAR = Hex(-3, 3)


def armors(game) -> list[int]:
    return [p.armor for p in game.state.players]


# --- using, face down, Ready -------------------------------------------------------------------


def test_each_gladiator_has_its_3_equipment_cards_face_up_at_the_start() -> None:
    # rulebook: "take the 3 matching Equipment Cards and place them face up"
    game = kit_arena([O, E2, FAR, W2, Hex(0, 3)])
    for seat in range(5):
        equipment = game.view(seat)["board"]["players"][seat]["equipment"]
        assert len(equipment) == 3 and all(e["ready"] for e in equipment)
    owners = {e.colour for e in default_content().equipment}
    assert len(owners) == 5


def test_equipment_is_used_in_place_of_a_card_after_discarding_a_starting_card() -> None:
    # rulebook: "players may use any face up Equipment Card in place of an Action Card, but
    # must first Discard a card"
    game = kit_arena([O, E1])
    discarded = use(game, BLUE, "galerus")
    me = game.state.players[BLUE]
    assert discarded in me.discard and discarded not in me.hand
    assert armors(game) == [16, 13]
    assert len(me.hand) == 1  # the spare card: the discard and the Equipment were the turn's card


def test_only_starting_deck_cards_may_be_discarded_for_equipment() -> None:
    # rulebook: "(Note: Only Starting Deck cards may be used when Discarding)"
    game = kit_arena([O, E1])
    bought = give(game, BLUE, "heavy-blow")
    starting = give(game, BLUE, "jab")
    game.state.turn = BLUE
    game.state_changed()
    ids = choices(game, BLUE)
    assert f"equip:galerus:{starting}" in ids
    assert not any(c.startswith("equip:") and c.endswith(f":{bought}") for c in ids)
    game.state.players[BLUE].hand.remove(starting)
    game.state_changed()
    assert not any(c.startswith("equip:") for c in choices(game, BLUE))


def test_used_equipment_is_face_down_until_readied_in_the_favor_phase_for_its_cost() -> None:
    # rulebook: "flipped face down and may not be used again until the Ready cost has been paid.
    # During the Favor Phase a player may pay to Ready the Equipment Card"
    game = kit_arena([O, E1])
    use(game, BLUE, "galerus")
    game.state.turn = BLUE
    game.state_changed()
    assert not any(c.startswith("equip:galerus") for c in choices(game, BLUE))
    assert {"id": "galerus", "ready": False} in game.view(RED)["board"]["players"][BLUE][
        "equipment"
    ]
    s = game.state
    s.phase, s.turn = Phase.FAVOR, BLUE
    s.players[BLUE].favor = 4
    s.players[RED].passed = True
    game.state_changed()
    assert "ready:galerus" in choices(game, BLUE)  # Ready 2
    assert "ready:weighted-bola" not in choices(game, BLUE)  # face up already
    game.act(BLUE, "ready:galerus")
    assert s.players[BLUE].favor == 2 and s.players[BLUE].spent == []


def test_a_ready_costs_what_the_card_says_and_needs_that_much_favor() -> None:
    game = kit_arena([O, E1])
    game.state.players[RED].at = E3
    use(game, BLUE, "fishermans-net")  # Ready 3
    s = game.state
    s.phase, s.turn = Phase.FAVOR, BLUE
    s.players[BLUE].favor = 2
    s.players[RED].passed = True
    game.state_changed()
    assert "ready:fishermans-net" not in choices(game, BLUE)


def test_without_the_option_there_is_no_equipment() -> None:
    game = kit_arena([O, E1], equipment="off")
    give(game, BLUE, "jab")
    game.state_changed()
    assert not any(c.startswith("equip:") for c in choices(game, BLUE))
    assert game.view(BLUE)["board"]["players"][BLUE]["equipment"] == []


def test_every_ready_cost_is_on_the_cost_curve() -> None:
    # docs/cards.md: ready = worth - 1 (the Starting card given up), give or take 1
    for card in default_content().equipment:
        assert abs(card.ready - (effects_value(card.effects) - 1)) <= 1, card.name


# --- the five the rulebook clarifies -----------------------------------------------------------


def test_twin_blades_damages_every_adjacent_opponent_for_2_favor_each() -> None:
    # rulebook: "Deal 2 Damage to every opponent who is occupying a Hex which is immediately
    # surrounding the Hex you currently occupy. Gain 2 Favor per opponent which is Damaged.
    # (Note: Twin Blades has 0 Range)."
    game = kit_arena([E1, O, W1, W2])
    use(game, RED, "twin-blades")
    assert armors(game) == [13, 15, 13, 15]  # the one 2 hexes away is out of reach
    assert game.state.players[RED].favor == 4


def test_weighted_bola_has_range_2_and_takes_the_movement_of_the_next_card() -> None:
    # rulebook: "Weighted Bola (Range +2) - Impacted player cannot activate Movement Actions
    # for their NEXT CARD played during this Round."
    game = kit_arena([O, E3])
    use(game, BLUE, "weighted-bola")  # Damage 2 (Range +2)
    assert armors(game) == [15, 13]
    play(game, RED, "lunge")  # Move 1, Damage 2: no Move, and nobody in reach
    assert game.state.players[RED].at == E3 and kind(game) == "play_card"
    play(game, RED, "advance")  # the card after moves again
    assert kind(game) == "move_step"


def test_heavy_scutum_halves_damage_rounded_up_for_the_rest_of_the_action_phase() -> None:
    # rulebook: "player takes 50% less Damage for the REST OF THE Actions Phase rounded up.
    # (E.g. 3 Damage = 2 Damage, 4 Damage = 2 Damage)."
    game = kit_arena([E1, FAR, E2, W2])
    use(game, GREEN, "heavy-scutum")
    play(game, BLUE, "trident-strike")  # Damage 3 (Range +1) -> 2
    assert game.state.players[GREEN].armor == 13
    play(game, BLUE, "heavy-blow")  # Damage 4 -> 2
    assert game.state.players[GREEN].armor == 11
    game.theater_phase.start_round()  # a new round: the shield is down
    assert game.state.players[GREEN].conditions == []


def test_curved_sica_switches_places_with_the_impacted_opponent() -> None:
    # rulebook: "On Impact, the Thracian switches places with the Impacted opponent."
    game = kit_arena([E1, FAR, W2, O])
    use(game, YELLOW, "curved-sica")  # Damage 3, Strike Bonus: switch
    assert game.state.players[YELLOW].at == E1 and game.state.players[BLUE].at == O
    assert game.state.players[BLUE].armor == 12


def test_curved_sica_does_not_switch_on_a_miss() -> None:
    game = kit_arena([E3, FAR, W2, O])
    use(game, YELLOW, "curved-sica")
    assert game.state.players[YELLOW].at == O


def test_sturdy_boots_stop_knockback_but_the_gauls_own_movement_is_still_taken() -> None:
    # rulebook: "Players cannot Knockback the Gaul for the rest of the current Actions Phase.
    # However, the Gaul must still use Movement Actions if required as an Action."
    game = kit_arena([W1, FAR, Hex(-3, 0), Hex(3, -3), O])
    use(game, PURPLE, "sturdy-boots")
    play(game, BLUE, "gallic-shove")  # Damage 1, Knockback 1: no extra Damage for a blocked one
    assert game.state.players[PURPLE].at == O and game.state.players[PURPLE].armor == 14
    play(game, PURPLE, "advance")
    assert kind(game) == "move_step"


# --- harena's ten ------------------------------------------------------------------------------


def test_fishermans_net_reaches_3_hexes_and_takes_2_favor() -> None:
    game = kit_arena([O, E3])
    game.state.players[RED].favor = 5
    use(game, BLUE, "fishermans-net")
    assert armors(game) == [15, 12] and game.state.players[RED].favor == 3


def test_galerus_guards_and_deals_2_with_range_1() -> None:
    game = kit_arena([O, E2])
    use(game, BLUE, "galerus")
    assert armors(game) == [16, 13]


def test_sweeping_cut_steps_in_and_cuts_for_favor() -> None:
    game = kit_arena([E2, O])
    use(game, RED, "sweeping-cut")
    game.act(RED, "dir:E")
    assert armors(game) == [13, 15] and game.state.players[RED].favor == 2


def test_leather_manica_moves_2_and_gives_2_armor() -> None:
    game = kit_arena([FAR, O])
    use(game, RED, "leather-manica")
    game.act(RED, "dir:E")
    game.act(RED, "dir:E")
    assert game.state.players[RED].at == E2 and game.state.players[RED].armor == 17


def test_murmillos_gladius_strikes_and_guards_on_a_hit() -> None:
    game = kit_arena([FAR, E1, O])
    use(game, GREEN, "murmillo-gladius")
    assert game.state.players[RED].armor == 13 and game.state.players[GREEN].armor == 16


def test_shield_rush_charges_straight_and_knocks_back_along_the_line() -> None:
    game = kit_arena([E3, FAR, O])
    use(game, GREEN, "shield-rush")
    game.act(GREEN, "dir:E")
    game.act(GREEN, "dir:E")
    assert game.state.players[GREEN].at == E2
    assert game.state.players[BLUE].at == E4 and game.state.players[BLUE].armor == 13


def test_parmula_guards_and_strikes() -> None:
    game = kit_arena([E1, FAR, W2, O])
    use(game, YELLOW, "parmula")
    assert game.state.players[YELLOW].armor == 17 and game.state.players[BLUE].armor == 13


def test_hunters_greaves_run_3_and_strike_for_favor() -> None:
    game = kit_arena([E4, FAR, W2, O])
    use(game, YELLOW, "hunters-greaves")
    for _ in range(3):
        game.act(YELLOW, "dir:E")
    assert game.state.players[BLUE].armor == 13 and game.state.players[YELLOW].favor == 2


def test_gallic_longsword_deals_2_and_knocks_back_2_on_a_hit() -> None:
    game = kit_arena([E1, FAR, W2, Hex(3, -3), O])
    use(game, PURPLE, "gallic-longsword")
    assert game.state.players[BLUE].armor == 13 and game.state.players[BLUE].at == E3


def test_war_horn_gives_3_favor_and_any_opponent_loses_2() -> None:
    game = kit_arena([E3, W2, Hex(3, -3), FAR, O])
    game.state.players[RED].favor = 3
    use(game, PURPLE, "war-horn")
    assert game.state.players[PURPLE].favor == 3
    game.act(PURPLE, "target:1")
    assert game.state.players[RED].favor == 1


# --- rulings (docs/rulings.md) -----------------------------------------------------------------


def test_heavy_scutum_also_halves_the_damage_of_a_blocked_knockback() -> None:
    game = kit_arena([O, FAR, E1, Hex(-3, 0)], {E2: "spiked-pillar"})
    use(game, GREEN, "heavy-scutum")
    play(game, BLUE, "gallic-shove")  # Damage 1 -> 1; into the Spiked Pillar 1 + 1 more -> 1
    assert game.state.players[GREEN].armor == 13  # unshielded: 12


def test_a_seat_that_can_afford_only_a_ready_is_still_asked() -> None:
    game = kit_arena([O, E1])
    use(game, BLUE, "galerus")  # Ready 2
    s = game.state
    s.row = [i for i in s.row if game.content.card(s.cards[i]).cost > 2]
    s.initiator = RED  # Initiate is taken; nothing else costs 2 or less
    s.lobbied = None
    s.theater_discard = []
    s.phase, s.turn = Phase.FAVOR, BLUE
    s.players[BLUE].favor = 2
    s.players[RED].passed = True
    game.state_changed()
    game.flow.advance()
    assert game.prompts()[0].seat == BLUE and "ready:galerus" in choices(game, BLUE)


def test_the_curved_sica_switch_takes_no_token_and_flips_none() -> None:
    game = kit_arena([E1, FAR, W2, O], {E1: "favor-2", O: "armor-1"})
    use(game, YELLOW, "curved-sica")
    s = game.state
    assert s.players[YELLOW].favor == 0 and s.players[BLUE].armor == 12  # no token resolved
    assert s.tokens[E1].face_up and s.tokens[O].face_up
