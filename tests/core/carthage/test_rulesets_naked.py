"""Naked and Afraid (rulebook: Modular Rulesets - Active Conditions): "At any time during the
Actions Phase, before or after a card is played or resolved, player(s) may take 1 Movement for
the cost of 3 Armor. (NOTE: Movement Action may be played as a response to a card played, but
not during the time a card's Action(s) are resolving)."""

from __future__ import annotations

from harena.core.carthage.hexgrid import Hex
from tests.core.carthage.ruleset_helpers import with_rulesets
from tests.core.carthage.table_helpers import choices, give, kind, play


def test_the_all_or_nothing_dodge() -> None:
    # rulebook: "A player reveals All or Nothing, the opponent can immediately take the Naked and
    # Afraid Action of 1 Movement and lose 3 Armor in order to avoid the Damage from All or Nothing"
    game = with_rulesets("naked_and_afraid", [Hex(0, 0), Hex(1, 0)])
    s = game.state
    play(game, 0, "all-or-nothing")
    prompt = game.prompts()[0]
    assert prompt.kind == "naked_and_afraid" and prompt.seat == 1
    assert s.players[1].armor == 15  # nothing has resolved yet
    game.act(1, "naked")
    assert kind(game) == "move_step"
    game.act(1, "dir:E")
    assert s.players[1].at == Hex(2, 0) and s.players[1].armor == 12
    assert s.players[0].armor == 13  # All or Nothing resolved: its -2 Armor, and no one to hit


def test_passing_lets_the_card_resolve() -> None:
    game = with_rulesets("naked_and_afraid", [Hex(0, 0), Hex(1, 0)])
    play(game, 0, "all-or-nothing")
    game.act(1, "pass")
    assert game.state.players[1].armor == 15 - 7


def test_never_while_a_card_resolves() -> None:
    # "not during the time a card's Action(s) are resolving": once the first effect runs, the
    # only prompts are the card's own
    game = with_rulesets("naked_and_afraid", [Hex(0, 0), Hex(2, 0)])
    play(game, 0, "lunge")  # Move 1, Damage 2: bob, 2 hexes away, may be hit
    assert kind(game) == "naked_and_afraid"
    game.act(1, "pass")
    assert kind(game) == "move_step" and game.prompts()[0].seat == 0
    assert "naked" not in choices(game)


def test_before_a_card_is_played_its_player_may_step() -> None:
    # "before ... a card is played": the play prompt offers it
    game = with_rulesets("naked_and_afraid", [Hex(0, 0), Hex(3, 0)])
    s = game.state
    give(game, 0, "guard")
    s.turn = 0
    game.state_changed()
    assert "naked" in choices(game, 0)
    game.act(0, "naked")
    game.act(0, "dir:E")
    assert s.players[0].at == Hex(1, 0) and s.players[0].armor == 12
    assert kind(game) == "play_card" and game.prompts()[0].seat == 0  # still to play


def test_everyone_else_is_asked_in_turn_order_and_only_with_more_than_3_armor() -> None:
    # ruling (docs/rulings.md): paying 3 Armor must not eliminate the payer
    game = with_rulesets("naked_and_afraid", [Hex(0, 0), Hex(3, 0), Hex(-3, 0), Hex(0, 3)])
    s = game.state
    s.players[2].armor = 3
    play(game, 0, "charging-rhino")  # Move 4, Damage 3: everyone 3 hexes away is in reach
    assert game.prompts()[0].seat == 1
    game.act(1, "pass")
    assert game.prompts()[0].seat == 3  # seat 2 cannot pay
    game.act(3, "pass")
    assert kind(game) == "move_step" and game.prompts()[0].seat == 0  # the Rhino resolves


def test_only_gladiators_the_card_can_reach_are_asked() -> None:
    # ruling (docs/rulings.md): the window is a dodge; a card that cannot reach a gladiator,
    # or deals no Damage at all, leaves it nothing to dodge and asks nobody
    game = with_rulesets("naked_and_afraid", [Hex(0, 0), Hex(2, 0), Hex(-3, 0)])
    play(game, 0, "lunge")  # Move 1 + reach 1: 2 hexes
    assert [p.seat for p in game.prompts()] == [1]
    game.act(1, "pass")
    assert "naked_and_afraid" not in [p.kind for p in game.prompts()]  # the third, 3 hexes away
    game = with_rulesets("naked_and_afraid", [Hex(0, 0), Hex(1, 0)])
    play(game, 0, "guard")  # no Damage
    assert kind(game) != "naked_and_afraid"


def test_not_offered_unless_chosen() -> None:
    game = with_rulesets("", [Hex(0, 0), Hex(1, 0)])
    play(game, 0, "all-or-nothing")
    assert game.state.players[1].armor == 8
    assert "naked" not in choices(game)


def test_the_window_is_public_in_the_view() -> None:
    game = with_rulesets("naked_and_afraid", [Hex(0, 0), Hex(1, 0)])
    play(game, 0, "all-or-nothing")
    for seat in (None, 0, 1):
        assert game.view(seat)["board"]["rulesets"]["window"] == 1
