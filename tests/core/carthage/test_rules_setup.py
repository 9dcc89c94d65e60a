"""Setup (rulebook: Setup 1-8) and the registration of the game."""

from __future__ import annotations

from core.carthage.hexgrid import Hex, distance
from core.carthage.rules import Carthage
from core.engine import game_class
from tests.core.carthage.table_helpers import choices, kind, new_carthage


def test_carthage_registers_itself_for_2_to_5_players() -> None:
    assert game_class("carthage") is Carthage
    assert (Carthage.min_players, Carthage.max_players) == (2, 5)


def test_setup_gives_15_armor_0_favor_shuffled_decks_a_row_of_5_and_3_theater_discards() -> None:
    game = new_carthage(4, seed=9)
    s = game.state
    assert all(p.armor == 15 and p.favor == 0 and len(p.deck) == 10 for p in s.players)
    assert len(s.row) == 5 and len(s.action_deck) == 70
    assert len(s.theater_discard) == 3 and len(s.theater_deck) == 17
    # First Match with 4 players: the centre Favor token and one more (rulebook: Setup 4)
    assert len(s.tokens) == 5 and Hex(0, 0) in s.tokens


def test_gladiators_are_placed_in_turn_order_on_the_edge_never_adjacent() -> None:
    # rulebook: Setup 5
    game = new_carthage(5, seed=4)
    s = game.state
    order = [(s.starting + k) % 5 for k in range(5)]
    for seat in order:
        assert kind(game) == "place_gladiator" and game.prompts()[0].seat == seat
        options = choices(game, seat)
        placed = [p.at for p in s.players if p.at is not None]
        for choice in options:
            q, r = map(int, choice.removeprefix("hex:").split(","))
            h = Hex(q, r)
            assert game.arena.is_edge(h)
            assert all(distance(h, other) > 1 for other in placed)
        game.act(seat, options[0])
    assert s.round == 1
    if kind(game) == "play_card":  # else a Theater card is resolving before the draw
        assert all(len(p.hand) == 5 for p in s.players)
