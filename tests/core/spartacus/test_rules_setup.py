"""rules: Setup 1-8 - house selection, starting resources, game length; and the turn order."""

from __future__ import annotations

import pytest

from harena.core.spartacus.cards import CardKind
from harena.core.spartacus.state import Phase
from tests.core.spartacus.helpers import HOUSES, choices, coins, new_game, started


def test_the_highest_roll_chooses_first_and_is_the_host_then_clockwise() -> None:
    """rules: Setup 1 - the highest roll chooses a House first and receives the Host marker."""
    game = new_game(4, seed=5)
    s = game.state
    assert s.phase is Phase.HOUSES
    assert game.awaited() == [s.host]
    assert s.house_order == [(s.host + k) % 4 for k in range(4)]
    assert any(line.startswith("Rolls for the first choice") for line in game.log_for(None))
    game.act(s.host, "house:glaber")
    nxt = (s.host + 1) % 4
    assert game.awaited() == [nxt]
    assert "house:glaber" not in choices(game, nxt)
    assert len(choices(game, nxt)) == 3


def test_each_house_starts_with_the_resources_of_its_board() -> None:
    """rules: Setup 2-6 - starting denarii, gladiators, slaves and face-up Guards."""
    game = started(4, seed=2)
    s = game.state
    for p in s.players:
        house = game.content.house(p.house)
        kinds = [game.card(a.card).kind for a in p.assets]
        assert kinds.count(CardKind.GLADIATOR) == house.gladiators
        assert kinds.count(CardKind.SLAVE) == house.slaves
        assert kinds.count(CardKind.GUARD) == house.guards  # rules: Setup 4 - on the table
        starting = [
            game.card(a.card).starting
            for a in p.assets
            if game.card(a.card).kind is not CardKind.GUARD
        ]
        assert all(starting)  # rules: Setup 3 - the white-bordered cards
    assert coins(game) == game.content.bank  # the rest of the coins form the Bank (Setup 5)


def test_the_starting_cards_left_over_go_back_into_the_market_deck() -> None:
    """rules: Setup 3 - the remaining cards are returned to the Market Deck."""
    game = new_game(3, seed=4)
    from tests.core.spartacus.helpers import choose_houses

    choose_houses(game, HOUSES[:3])
    s = game.state
    dealt = sum(
        1 for p in s.players for a in p.assets if game.card(a.card).kind is not CardKind.GUARD
    )
    in_deck = sum(1 for c in s.market_deck if game.card(c).starting)
    assert dealt + in_deck == 16


@pytest.mark.parametrize(("length", "influence"), [("quick", 7), ("standard", 4), ("advanced", 1)])
def test_the_game_type_sets_the_starting_influence(length: str, influence: int) -> None:
    """rules: Setup 7 - Quick 7, Standard 4, Advanced 1."""
    game = started(4, seed=3, length=length)
    assert {p.influence for p in game.state.players} == {influence}


def test_the_host_starts_the_first_intrigue_phase_after_maintenance() -> None:
    """rules: Setup 1 and The Game Turn - Maintenance, then Intrigue from the Host."""
    game = started(4, seed=1)
    s = game.state
    if s.phase is Phase.MAINTENANCE:  # someone cannot pay: not with the reference houses
        pytest.fail("the reference houses can all pay their first upkeep")
    assert s.phase is Phase.INTRIGUE and s.round == 1
    assert s.intrigue is not None and s.intrigue.turn == s.host
    assert game.awaited() == [s.host]
    assert all(len(p.hand) == 3 for p in s.players)  # rules: Receive Cards


def test_two_players_is_a_variant_that_plays() -> None:
    game = started(2, seed=9)
    assert game.state.phase is Phase.INTRIGUE
    assert {p.house for p in game.state.players} == {"batiatus", "glaber"}
