"""Damage, Range, Strike Bonus, Knockback, pillars, the Crocodile and elimination (rulebook:
Action Cards; Arena Token Definitions; General and Action Card Clarifying Rules; How to Win)."""

from __future__ import annotations

from harena.core.carthage.hexgrid import Hex
from tests.core.carthage.table_helpers import arena, choices, kind, play

O = Hex(0, 0)
E1, E2, E3 = Hex(1, 0), Hex(2, 0), Hex(3, 0)


def test_knockback_moves_the_damaged_gladiator_straight_away_from_the_attacker() -> None:
    game = arena([O, E1])
    play(game, 0, "gallic-shove")  # Damage 1, Knockback 1
    assert game.state.players[1].at == E2
    assert game.state.players[1].armor == 14


def test_a_knockback_off_the_arena_cannot_happen_and_deals_1_more_damage() -> None:
    game = arena([E3, Hex(4, 0)])
    play(game, 0, "gallic-shove")
    assert game.state.players[1].at == Hex(4, 0)
    assert game.state.players[1].armor == 13


def test_a_knockback_into_a_pillar_deals_1_more_damage() -> None:
    game = arena([O, E1], {E2: "pillar"})
    play(game, 0, "gallic-shove")
    assert game.state.players[1].at == E1
    assert game.state.players[1].armor == 13


def test_a_knockback_into_another_gladiator_deals_1_more_damage_to_the_knocked_one_only() -> None:
    game = arena([O, E1, E2])
    play(game, 0, "gallic-shove")
    assert [p.armor for p in game.state.players] == [15, 13, 15]
    assert game.state.players[1].at == E1


def test_a_spiked_pillar_deals_1_more_on_top_of_the_blocked_knockback() -> None:
    # rulebook: Spiked Pillar "deals +1 Damage when a player is knocked into it"
    game = arena([O, E1], {E2: "spiked-pillar"})
    play(game, 0, "gallic-shove")
    assert game.state.players[1].armor == 12


def test_a_knockback_stopped_short_moves_as_far_as_it_can_then_deals_1_more() -> None:
    game = arena([O, E1], {E3: "pillar"})
    play(game, 0, "shield-bash")  # Armor +1, Damage 1, Knockback 2
    assert game.state.players[1].at == E2
    assert game.state.players[1].armor == 13


def test_landing_on_a_crocodile_costs_1_armor() -> None:
    # rulebook: Crocodile Token "If a player lands on the Crocodile Token they lose 1 Armor"
    game = arena([O, E1], {E2: "crocodile"})
    play(game, 0, "gallic-shove")
    assert game.state.players[1].at == E2
    assert game.state.players[1].armor == 13


def test_knocked_onto_another_token_does_not_trigger_it() -> None:
    # ruling: only the Crocodile acts on a knockback landing (docs/rulings.md)
    game = arena([O, E1], {E2: "favor-2"})
    play(game, 0, "gallic-shove")
    assert game.state.players[1].favor == 0
    assert game.state.tokens[E2].face_up


def test_the_strike_bonus_happens_only_if_the_damage_was_done() -> None:
    # rulebook: Damage with Strike Bonus
    game = arena([O, E3])
    play(game, 0, "slash")  # Damage 2, Strike Bonus: Favor +3
    assert game.state.players[0].favor == 0
    game.state.players[1].at = E1
    play(game, 0, "slash")
    assert game.state.players[0].favor == 3
    assert game.state.players[1].armor == 13


def test_humiliate_takes_favor_only_when_its_damage_hits() -> None:
    # rulebook: Action Card Clarifying Rules, Humiliate
    game = arena([O, E3])
    game.state.players[1].favor = 6
    play(game, 0, "humiliate")
    assert game.state.players[1].favor == 6
    game.state.players[1].at = E1
    play(game, 0, "humiliate")
    assert game.state.players[1].favor == 2


def test_with_several_opponents_in_reach_the_player_chooses_whom_to_damage() -> None:
    game = arena([O, E1, Hex(-1, 0)])
    play(game, 0, "jab")
    assert kind(game) == "choose_target"
    assert sorted(choices(game, 0)) == ["target:1", "target:2"]
    game.act(0, "target:2")
    assert [p.armor for p in game.state.players] == [15, 15, 14]


def test_range_adds_up_to_x_hexes_of_reach() -> None:
    # rulebook: General Clarifying Rules, "All players have a Range of 0"
    game = arena([O, E2])
    play(game, 0, "trident-thrust")  # Damage 1, Range +1
    assert game.state.players[1].armor == 14
    game.state.players[1].at = E3
    play(game, 0, "trident-thrust")
    assert game.state.players[1].armor == 14


def test_javelin_is_passed_to_the_damaged_opponents_discard_pile() -> None:
    # rulebook: Action Card Clarifying Rules, Javelin
    game = arena([O, E3])
    javelin = play(game, 0, "javelin")
    assert javelin in game.state.players[1].discard
    assert game.state.players[0].favor == 1


def test_armor_never_rises_above_20_and_favor_above_15() -> None:
    # rulebook: Setup 3
    game = arena([O, E3])
    game.state.players[0].armor = 19
    game.state.players[0].favor = 13
    play(game, 0, "rally")  # Armor +2, Favor +2
    assert game.state.players[0].armor == 20
    play(game, 0, "salute-the-editor")  # Favor +6
    assert game.state.players[0].favor == 15


def test_a_gladiator_at_0_armor_is_eliminated_and_the_last_one_standing_wins() -> None:
    # rulebook: How to Win
    game = arena([O, E1, E3])
    game.state.players[1].armor = 2
    play(game, 0, "slash")
    assert not game.state.players[1].alive
    assert game.state.players[1].at is None
    assert game.result() is None
    game.state.players[2].armor = 1
    game.state.players[2].at = E1
    play(game, 0, "jab")
    result = game.result()
    assert result is not None and result.winners == (0,)
    assert game.prompts() == []


def test_all_or_nothing_eliminates_the_opponent_first_when_both_would_fall() -> None:
    # rulebook: Action Card Clarifying Rules, All or Nothing
    game = arena([O, E1, E3])
    game.state.players[0].armor = 2
    game.state.players[1].armor = 7
    play(game, 0, "all-or-nothing")
    assert game.state.eliminated == [1, 0]
    assert game.result() is not None and game.result().winners == (2,)


def test_all_or_nothing_wins_a_duel_even_if_it_would_kill_its_player() -> None:
    game = arena([O, E1])
    game.state.players[0].armor = 2
    game.state.players[1].armor = 7
    play(game, 0, "all-or-nothing")
    assert game.state.eliminated == [1]
    assert game.result() is not None and game.result().winners == (0,)
