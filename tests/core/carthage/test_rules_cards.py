"""Playing cards: "/" sides, drawing, The Final Blow, Rousing Backflip (rulebook: Phase 2;
Action Cards; Action Card Clarifying Rules)."""

from __future__ import annotations

from harena.core.carthage.hexgrid import Hex
from tests.core.carthage.table_helpers import arena, choices, give, kind, play

O, E1, E3 = Hex(0, 0), Hex(1, 0), Hex(3, 0)


def test_a_slash_card_asks_which_side_and_resolves_only_that_side() -> None:
    # rulebook: Action Cards, Fitted Laminar
    game = arena([O, E1])
    play(game, 0, "fitted-laminar")
    assert kind(game) == "choose_side"
    assert choices(game, 0) == ["side:0", "side:1"]
    game.act(0, "side:0")  # Armor +2, Damage 3
    assert game.state.players[0].armor == 17
    assert game.state.players[1].armor == 12
    assert kind(game) == "play_card"


def test_drawing_past_the_end_of_the_deck_reshuffles_the_discard_pile() -> None:
    # rulebook: Phase 2 A
    game = arena([O, E3])
    p = game.state.players[0]
    deck = list(p.deck)
    p.deck, p.discard = deck[:2], deck[2:]
    game.action_phase.draw(0, 5)
    assert len(p.hand) == 5
    assert set(deck[:2]) <= set(p.hand)
    assert len(p.deck) == 5 and not p.discard


def test_the_final_blow_asks_for_a_discard_unless_it_is_the_last_card() -> None:
    # rulebook: Action Card Clarifying Rules, The Final Blow
    game = arena([O, E1])
    give(game, 0, "guard")
    play(game, 0, "the-final-blow")  # two spare cards in hand: not the last card
    assert kind(game) == "discard_card"
    spare = game.state.players[0].hand[0]
    game.act(0, f"discard:{spare}")
    assert spare in game.state.players[0].discard
    assert game.state.players[1].armor == 9
    last = give(game, 0, "the-final-blow")
    game.act(0, f"play:{game.state.players[0].hand[0]}")  # the Guard
    game.act(0, f"play:{last}")
    log = game.log_for(None)
    assert sum("discards" in line for line in log) == 1  # none for the last card
    assert log.count("Blue Retiarius deals 6 Damage to Red Dimachaerus") == 2


def test_rousing_backflip_gives_7_favor_then_focuses_itself_for_free() -> None:
    # rulebook: Action Card Clarifying Rules, Rousing Backflip
    game = arena([O, E3])
    card = play(game, 0, "rousing-backflip")
    assert game.state.players[0].favor == 7
    assert card in game.state.players[0].focus


def test_for_glory_gives_5_favor_and_costs_1_armor() -> None:
    game = arena([O, E3])
    play(game, 0, "for-glory")
    assert (game.state.players[0].favor, game.state.players[0].armor) == (5, 14)


def test_hurled_insult_goes_to_the_opponent_who_lost_the_favor() -> None:
    # rulebook: Action Card Clarifying Rules, Hurled Insult
    game = arena([O, E3, Hex(-3, 0)])
    game.state.players[2].favor = 5
    card = play(game, 0, "hurled-insult")
    assert kind(game) == "choose_opponent"
    game.act(0, "target:2")
    assert game.state.players[2].favor == 2
    assert card in game.state.players[2].discard


def test_horned_charge_hits_only_straight_ahead_and_knocks_back_along_the_line() -> None:
    # rulebook: Horned Charge/Charging Rhino, one straight line
    game = arena([Hex(-3, 0), Hex(2, 0)])
    play(game, 0, "horned-charge")
    game.act(0, "dir:E")
    assert choices(game, 0) == ["dir:E"]  # every later step keeps the line
    while kind(game) == "move_step":
        game.act(0, "dir:E")
    assert game.state.players[0].at == Hex(1, 0)  # stopped by the gladiator ahead
    assert game.state.players[1].at == Hex(4, 0)
    assert game.state.players[1].armor == 13
