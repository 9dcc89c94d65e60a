"""Setup (rulebook: Setup 1-8) and the registration of the game."""

from __future__ import annotations

import pytest

from harena.core.carthage.hexgrid import Hex, distance
from harena.core.carthage.rules import Carthage
from harena.core.engine import GameConfigError, default_players, game_class, make_config
from tests.core.carthage.table_helpers import choices, kind, new_carthage


def test_carthage_registers_itself_for_2_to_5_players_and_1_in_essedari_solo() -> None:
    assert game_class("carthage") is Carthage
    assert (Carthage.min_players, Carthage.max_players) == (1, 5)
    assert default_players("carthage") == 2
    with pytest.raises(GameConfigError, match="1 player plays essedari=solo"):
        make_config("carthage", 1, 1)
    assert make_config("carthage", 1, 1, {"essedari": "solo"}).players == 1


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


def test_from_the_starting_player_clockwise_each_player_chooses_a_gladiator() -> None:
    # rulebook: Setup 2, "Beginning with the Starting Player, and proceeding clockwise"
    game = new_carthage(3, seed=6, gladiators="choose")
    s = game.state
    order = [(s.starting + k) % 3 for k in range(3)]
    picks = ["gladiator:purple", "gladiator:green", "gladiator:red"]
    for seat, pick in zip(order, picks, strict=False):
        assert kind(game) == "choose_gladiator" and game.prompts()[0].seat == seat
        assert pick in choices(game, seat)
        game.act(seat, pick)
        assert pick not in choices(game)  # each colour once
    assert [s.players[seat].colour for seat in order] == ["purple", "green", "red"]
    # the chosen colour's Starting Deck, 10 cards, shuffled (Setup 2-3)
    murmillo = game.content.gladiator("green").starting_deck
    green = s.players[order[1]]
    assert sorted(s.cards[i] for i in green.deck) == sorted(murmillo)
    assert kind(game) == "place_gladiator" and game.prompts()[0].seat == s.starting
    assert game.view(None)["board"]["players"][order[0]]["name"] == "Purple Gaul"


def test_the_gladiator_prompt_names_each_class_and_its_own_cards() -> None:
    game = new_carthage(2, seed=1, gladiators="choose")
    labels = dict((c.id, c.label) for c in game.prompts()[0].choices)
    assert len(labels) == 5
    assert labels["gladiator:blue"].startswith(
        "Blue Retiarius: Trident Thrust (Damage 1 (Range +1))"
    )


def pick_tokens(game: Carthage, picks: list[str]) -> None:
    seat = game.prompts()[0].seat
    for pick in picks:
        game.act(seat, pick)


def test_in_later_games_the_last_player_picks_players_plus_one_tokens_at_least_4() -> None:
    # rulebook: Arena Tokens, "the player to the right of the Starting Player (Last Player)
    # chooses the Arena Tokens ... players plus one, with a minimum of 4 ... any number of Pillar"
    game = new_carthage(4, seed=2, tokens="players_choose")
    s = game.state
    assert kind(game) == "pick_tokens"
    assert game.prompts()[0].seat == (s.starting - 1) % 4
    pick_tokens(
        game, ["take:favor-1", "take:pillar", "take:pillar", "take:armor-1", "take:damage-1"]
    )
    pick_tokens(game, ["take:crocodile"])
    assert "done" not in choices(game)  # 4 tokens besides pillars, 5 needed with 4 players
    pick_tokens(game, ["take:favor-2"])
    assert "done" in choices(game)
    pick_tokens(game, ["take:pillar", "take:pillar", "take:pillar"])
    assert "take:pillar" not in choices(game)  # the box holds 5
    game.act(game.prompts()[0].seat, "done")
    assert kind(game) == "place_token" and game.prompts()[0].seat == s.starting
    assert sorted(s.token_pool) == sorted(
        ["favor-1", "armor-1", "damage-1", "crocodile", "favor-2"] + ["pillar"] * 5
    )


def test_players_place_one_token_each_in_turn_order_inside_the_inner_circle_pillars_anywhere() -> (
    None
):
    # rulebook: Arena Tokens, Token Rules
    game = new_carthage(2, seed=3, tokens="players_choose")
    s = game.state
    pick_tokens(
        game, ["take:favor-2", "take:armor-1", "take:damage-1", "take:movement-1", "take:pillar"]
    )
    game.act(game.prompts()[0].seat, "done")
    seat = s.starting
    game.act(seat, "token:favor-2")
    hexes = {
        Hex(*map(int, c.removeprefix("hex:").split(",")))
        for c in choices(game)
        if c.startswith("hex:")
    }
    assert hexes == set(game.arena.inner_circle)  # Favor: inside the red border
    game.act(seat, "back")  # changed their mind: take another token
    game.act(seat, "token:pillar")
    hexes = {c for c in choices(game) if c.startswith("hex:")}
    assert "hex:4,0" in hexes  # a pillar may go outside the Inner Circle
    game.act(seat, "hex:4,0")
    assert game.prompts()[0].seat == (seat + 1) % 2  # one token each, in turn order
    assert game.board.is_pillar(Hex(4, 0))


def test_one_token_must_be_on_the_centre_so_the_last_one_goes_there_if_it_is_free() -> None:
    # rulebook: Token Rules, "One Arena Token must be on the center hexagon"
    game = new_carthage(2, seed=3, tokens="players_choose")
    pick_tokens(game, ["take:favor-1", "take:armor-1", "take:damage-1", "take:movement-1"])
    game.act(game.prompts()[0].seat, "done")
    for spot in ("hex:1,0", "hex:-1,0", "hex:0,1"):
        seat = game.prompts()[0].seat
        game.act(seat, choices(game)[0])  # take a token
        game.act(seat, spot)
    seat = game.prompts()[0].seat
    game.act(seat, choices(game)[0])
    assert choices(game) == ["hex:0,0"]
    game.act(seat, "hex:0,0")
    assert kind(game) == "place_gladiator" and len(game.state.tokens) == 4
