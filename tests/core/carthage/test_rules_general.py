"""The General Clarifying Rules of the rulebook, one test each."""

from __future__ import annotations

from harena.core.carthage.hexgrid import Hex
from tests.core.carthage.table_helpers import arena, choices, give, play

O = Hex(0, 0)


def test_damage_can_be_inflicted_anywhere_in_the_arena_not_just_the_inner_circle() -> None:
    # rulebook: General Clarifying Rules, "Damage can be inflicted anywhere in the Arena"
    edge, beside = Hex(4, -4), Hex(4, -3)
    assert game_edge(edge) and game_edge(beside)
    game = arena([edge, beside])
    play(game, 0, "jab")
    assert game.state.players[1].armor == 14


def game_edge(h: Hex) -> bool:
    return arena([O, Hex(3, 0)]).arena.is_edge(h)


def test_anything_that_takes_armor_to_0_eliminates_even_a_players_own_card() -> None:
    # rulebook: General Clarifying Rules, "Anything that reduces a player's Armor to 0 or less"
    game = arena([O, Hex(3, 0), Hex(-3, 0)])
    game.state.players[0].armor = 1
    play(game, 0, "for-glory")  # Favor +5, Armor -1
    assert not game.state.players[0].alive and 0 in game.state.eliminated


def test_all_cards_in_hand_must_be_played_there_is_no_pass() -> None:
    # rulebook: General Clarifying Rules, "All cards in a player's hand must be played"
    game = arena([O, Hex(3, 0)])
    hand = [give(game, 0, "guard"), give(game, 0, "jab")]
    game.state.turn = 0
    game.state_changed()
    assert sorted(choices(game, 0)) == sorted(f"play:{i}" for i in hand)


def test_the_actions_before_a_knockback_happen_even_when_the_knockback_cannot() -> None:
    # rulebook: General Clarifying Rules, "the player still carries out the Action(s) BEFORE
    # the Knockback Damage, even if they aren't able to cause the Knockback Damage"
    game = arena([O, Hex(3, 0)])  # nobody adjacent: no damage, so no knockback
    game.state.players[0].armor = 10
    play(game, 0, "shield-bash")  # Armor +1, Damage 1, Knockback 2
    assert game.state.players[0].armor == 11
    assert game.state.players[1].armor == 15 and game.state.players[1].at == Hex(3, 0)
