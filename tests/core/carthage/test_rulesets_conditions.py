"""The Active Conditions (rulebook: Modular Rulesets - Active Conditions), one test or more each;
Naked and Afraid has its own file."""

from __future__ import annotations

from harena.core.carthage.hexgrid import Hex
from harena.core.carthage.state import Phase
from tests.core.carthage.ruleset_helpers import with_rulesets
from tests.core.carthage.table_helpers import choices, kind, new_carthage, play


def test_battle_hardened_every_player_begins_with_20_armor() -> None:
    # rulebook: Battle Hardened - "Every player begins the game with 20 Armor."
    game = new_carthage(3, rulesets="battle_hardened")
    assert [p.armor for p in game.state.players] == [20, 20, 20]
    assert [p.armor for p in new_carthage(3).state.players] == [15, 15, 15]


def test_battle_hardened_the_least_armored_gain_1_at_the_start_of_the_actions_phase() -> None:
    # rulebook: Battle Hardened - "At the start of the Actions Phase, the player(s) with the
    # least Armor gain 1 Armor." ruling: every gladiator tied for the least gains (docs/rulings.md)
    game = with_rulesets("battle_hardened", [Hex(0, 0), Hex(3, 0), Hex(-3, 0)])
    s = game.state
    for p, armor in zip(s.players, [12, 12, 17], strict=False):
        p.armor = armor
    game.action_phase.begin_action_phase()
    assert [p.armor for p in s.players] == [13, 13, 17]


def test_crocodile_island_each_step_outside_the_inner_circle_costs_1_armor() -> None:
    # rulebook: Crocodile Island - "Each Hex which is outside the Inner Circle deals -1 Armor when
    # stepped on. (E.g. If a player steps on 3 Hex's outside the Inner Circle they will
    # immediately lose 3 Armor)."
    game = with_rulesets("crocodile_island", [Hex(1, 0), Hex(-3, 0)])
    play(game, 0, "sprint")  # Move 4
    for direction in ("E", "E", "E", "W"):  # 2,0 inside; 3,0 4,0 3,0 outside
        game.act(0, f"dir:{direction}")
    assert game.state.players[0].at == Hex(3, 0)
    assert game.state.players[0].armor == 15 - 3


def test_crocodile_island_is_off_unless_chosen_and_knockback_is_not_a_step() -> None:
    game = with_rulesets("", [Hex(2, 0), Hex(-3, 0)])
    play(game, 0, "advance")
    game.act(0, "dir:E")
    game.act(0, "dir:E")
    assert game.state.players[0].armor == 15
    # ruling (docs/rulings.md): a gladiator knocked back outside the Inner Circle is not stepping
    game = with_rulesets("crocodile_island", [Hex(1, 0), Hex(2, 0)])
    play(game, 0, "shield-bash")  # Armor +1, Damage 1, Knockback 2
    assert game.state.players[1].at == Hex(4, 0)
    assert game.state.players[1].armor == 15 - 1


def test_featured_match_favor_equal_to_the_theater_discard_pile() -> None:
    # rulebook: Featured Match - "At the beginning of the Actions Phase each player gains Favor
    # equal to the number of cards in the Theater Discard Pile."
    game = with_rulesets("featured_match", [Hex(0, 0), Hex(3, 0)])
    s = game.state
    crowd = len(s.theater_discard)
    assert crowd >= 3
    game.action_phase.begin_action_phase()
    assert [p.favor for p in s.players] == [crowd, crowd]


def end_of_actions(rulesets: str, armors: list[int]):
    game = with_rulesets(rulesets, [Hex(0, 0), Hex(3, 0), Hex(-3, 0)][: len(armors)])
    s = game.state
    for p, armor in zip(s.players, armors, strict=False):
        p.armor = armor
        p.discard, p.deck = p.deck[:3], p.deck[3:]
    s.starting = 0
    game.flow.advance()  # nobody holds a card: the Action phase ends
    game.state_changed()
    return game


def test_strict_discipline_each_player_may_focus_for_1_armor_at_the_end_of_the_actions_phase() -> (
    None
):
    # rulebook: Strict Discipline - "At the end of the Actions Phase, each player may Focus a card
    # for -1 Armor. (NOTE: May only be used once per Round)."
    game = end_of_actions("strict_discipline", [10, 10])
    s = game.state
    assert s.phase is Phase.AFTER_ACTIONS and kind(game) == "strict_discipline"
    card = s.players[0].discard[0]
    game.act(0, f"focus:{card}")
    assert card in s.players[0].focus and s.players[0].armor == 9
    assert game.prompts()[0].seat == 1 and "skip" in choices(game, 1)
    game.act(1, "skip")
    assert s.players[1].armor == 10 and s.round == 2  # asked once; nobody has Favor: next round


def test_the_southern_winds_the_least_armored_gain_2_movement_at_the_end_of_the_actions_phase() -> (
    None
):
    # rulebook: The Southern Winds - "At the end of the Actions Phase, the player(s) with the
    # least Armor gain 2 Movement."
    game = end_of_actions("the_southern_winds", [8, 12, 8])
    s = game.state
    assert kind(game) == "move_step" and game.prompts()[0].seat == 0
    game.act(0, "dir:E")
    game.act(0, "dir:E")
    assert s.players[0].at == Hex(2, 0)
    assert kind(game) == "move_step" and game.prompts()[0].seat == 2  # tied: both, in turn order
    game.act(2, "dir:W")
    game.act(2, "dir:E")
    assert s.round == 2 and s.players[1].at == Hex(3, 0)


def test_strict_discipline_comes_before_the_southern_winds() -> None:
    # ruling (docs/rulings.md): the rulebook's order; the Armor paid can make the Winds' choice
    game = end_of_actions("strict_discipline,the_southern_winds", [10, 10, 11])
    s = game.state
    game.act(0, f"focus:{s.players[0].discard[0]}")
    game.act(1, "skip")
    game.act(2, "skip")
    assert kind(game) == "move_step" and game.prompts()[0].seat == 0
