"""The heuristic bot with the Modular Rulesets, and with Initiate and Lobby: it reads only its
seat's view (as every bot does)."""

from __future__ import annotations

from harena.core.carthage.bots import HeuristicBot
from harena.core.carthage.hexgrid import Hex, distance
from tests.core.carthage.ruleset_helpers import favor_phase, with_rulesets
from tests.core.carthage.table_helpers import kind, play


def test_the_bot_dodges_all_or_nothing_with_naked_and_afraid_and_steps_away() -> None:
    game = with_rulesets("naked_and_afraid", [Hex(0, 0), Hex(1, 0)])
    play(game, 0, "all-or-nothing")
    bot = HeuristicBot(1)
    assert bot.choose(game.view(1)) == "naked"
    game.act(1, "naked")
    assert kind(game) == "move_step"
    step = bot.choose(game.view(1))
    game.act(1, step)
    assert distance(game.state.players[1].at, game.state.players[0].at) == 2
    assert game.state.players[1].armor == 12


def test_the_bot_lets_a_small_hit_resolve() -> None:
    game = with_rulesets("naked_and_afraid", [Hex(0, 0), Hex(1, 0)])
    play(game, 0, "jab")  # Damage 1: not worth 3 Armor
    assert HeuristicBot(1).choose(game.view(1)) == "pass"


def test_the_bot_initiates_with_favor_it_cannot_spend_on_a_card() -> None:
    game = favor_phase("", [1, 0])
    assert "initiate" in [c.id for c in game.prompts()[0].choices]
    assert HeuristicBot(1).choose(game.view(0)) == "initiate"


def test_the_bot_uses_ordinance_when_its_armor_is_low() -> None:
    game = favor_phase("ordinance", [3, 0])
    game.state.players[0].armor = 5
    game.state.row = game.state.row[:0]  # nothing to buy
    game.state_changed()
    assert HeuristicBot(1).choose(game.view(0)) == "ordinance"


def test_the_bot_answers_strict_discipline_by_its_armor() -> None:
    from tests.core.carthage.test_rulesets_conditions import end_of_actions

    game = end_of_actions("strict_discipline", [18, 5])
    assert kind(game) == "strict_discipline"
    assert HeuristicBot(1).choose(game.view(0)).startswith("focus:")  # plenty of Armor
    game.act(0, "skip")
    assert HeuristicBot(1).choose(game.view(1)) == "skip"  # Armor is short


def test_the_bot_lobbies_a_theater_card_that_favours_it_and_not_one_for_everyone() -> None:
    game = favor_phase("", [4, 0])
    s = game.state
    s.row = []
    s.initiator = 1  # Initiate is taken
    s.players[0].armor = 6  # the least Armor: Favored Underdog is its alone
    s.theater_discard = ["healers-tent", "favored-underdog", "games-of-plenty"]
    game.state_changed()
    assert HeuristicBot(1).choose(game.view(0)) == "lobby:favored-underdog"
    s.theater_discard = ["healers-tent", "games-of-plenty"]  # good for everyone alike
    game.state_changed()
    assert HeuristicBot(1).choose(game.view(0)) == "pass"
