"""The Favor phase (rulebook: Phase 3, Favor Options)."""

from __future__ import annotations

from harena.core.carthage.hexgrid import Hex
from harena.core.carthage.rules import Carthage
from harena.core.carthage.state import Phase
from tests.core.carthage.table_helpers import arena, choices, kind


def favor_phase(favor: list[int]) -> Carthage:
    game = arena([Hex(0, 0), Hex(3, 0)])
    s = game.state
    s.starting = 1  # seat 0 is the Last Player and buys first
    for p, f in zip(s.players, favor, strict=False):
        p.favor = f
    game.favor_phase.begin_favor_phase()
    game.flow.advance()
    return game


def test_the_last_player_buys_first_and_a_bought_card_goes_to_the_discard_and_is_replaced() -> None:
    game = favor_phase([10, 0])
    s = game.state
    assert kind(game) == "favor" and game.prompts()[0].seat == 0
    cheapest = min(range(5), key=lambda k: game.content.card(s.cards[s.row[k]]).cost)
    bought = s.row[cheapest]
    cost = game.content.card(s.cards[bought]).cost
    deck_before = len(s.action_deck)
    game.act(0, f"buy:{cheapest}")
    assert bought in s.players[0].discard
    assert len(s.row) == 5 and bought not in s.row
    assert len(s.action_deck) == deck_before - 1
    assert s.players[0].favor == 10 - cost


def test_initiate_costs_1_once_per_phase_and_makes_the_buyer_starting_player_next_round() -> None:
    game = favor_phase([3, 3])
    game.act(0, "initiate")
    assert "initiate" not in choices(game, 1)
    game.act(1, "pass")
    game.act(0, "pass")
    assert game.state.round == 2 and game.state.starting == 0


def test_focus_costs_3_and_removes_a_discarded_card_for_good() -> None:
    game = favor_phase([3, 0])
    s = game.state
    p = s.players[0]
    p.discard, p.deck = p.deck[:3], p.deck[3:]
    game.flow.advance()
    game.act(0, "focus")
    assert kind(game) == "focus_card"
    card = p.discard[0]
    game.act(0, f"focus:{card}")
    assert card in p.focus and card not in p.discard


def test_evaluate_costs_2_plus_the_evaluates_before_it_and_lets_its_buyer_buy_first() -> None:
    # ruling: the X of Evaluate (docs/rulings.md)
    game = favor_phase([15, 15])
    s = game.state
    old_row = list(s.row)
    game.act(0, "evaluate")
    assert s.evaluated == old_row and len(s.row) == 5
    assert s.players[0].favor == 13
    assert kind(game) == "evaluate_buy"
    game.act(0, "decline")
    assert game.prompts()[0].seat == 1
    game.act(1, "evaluate")
    assert s.players[1].favor == 12


def test_lobby_puts_a_theater_discard_on_top_of_the_deck_and_may_stay_secret() -> None:
    game = favor_phase([2, 1])
    s = game.state
    card = s.theater_discard[0]
    game.act(0, f"lobby:{card}")
    assert s.theater_deck[-1] == card
    assert kind(game) == "lobby_reveal"
    game.act(0, "hide")
    assert game.board_view(0)["theater"]["top_known"] == card
    assert game.board_view(1)["theater"]["top_known"] is None
    assert game.board_view(None)["theater"]["top_known"] is None
    game.act(1, "pass")
    assert s.theater_card == card  # the next round flips it


def test_passing_leaves_the_phase_and_favor_resets_to_0() -> None:
    game = favor_phase([9, 9])
    game.act(0, "pass")
    assert game.state.players[0].favor == 0
    assert 0 not in {p.seat for p in game.prompts()}
    game.act(1, "pass")
    assert game.state.round == 2 and game.state.phase is not Phase.FAVOR
