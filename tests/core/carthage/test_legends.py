"""Theater Legend cards (rulebook: Theater Legend Cards - Mini Expansion #1): 15 Action cards
that a table shuffles into the Action Deck; they load, sit on the cost curve, and play."""

from __future__ import annotations

from collections import Counter

from harena.core.carthage.balance import card_value
from harena.core.carthage.cards import CardSet
from harena.core.carthage.content import default_content
from harena.core.carthage.hexgrid import Hex
from tests.core.carthage.kit_helpers import kit_arena
from tests.core.carthage.table_helpers import new_carthage, play

O, E1, W1, E3 = Hex(0, 0), Hex(1, 0), Hex(-1, 0), Hex(3, 0)


def test_there_are_15_legend_cards_on_the_cost_curve() -> None:
    # rulebook: "Included in the Action Cards are 15 Theater Legend Cards"
    legends = default_content().legend_cards
    assert sum(c.copies for c in legends) == 15
    assert all(c.card_set is CardSet.LEGEND for c in legends)
    for card in legends:
        assert abs(card.cost - card_value(card)) <= 1, card.name


def test_a_table_with_legends_shuffles_them_into_the_action_deck() -> None:
    # rulebook: "Simply add these into the Action deck during game setup"
    content = default_content()
    on = new_carthage(4, 3, legends="on").state
    off = new_carthage(4, 3).state
    in_play = lambda s: Counter(s.cards[i] for i in s.action_deck + s.row)  # noqa: E731
    assert sum(in_play(on).values()) == 90 and sum(in_play(off).values()) == 75
    legend_ids = {c.id for c in content.legend_cards}
    assert legend_ids <= set(in_play(on)) and not legend_ids & set(in_play(off))


def test_flammas_fury_moves_strikes_and_pays_on_a_hit() -> None:
    game = kit_arena([O, E3])
    play(game, 0, "flammas-fury")
    game.act(0, "dir:E")
    game.act(0, "dir:E")
    assert game.state.players[1].armor == 12 and game.state.players[0].favor == 3


def test_columbus_blades_cut_every_adjacent_opponent_for_3() -> None:
    game = kit_arena([O, E1, W1])
    play(game, 0, "columbus-blades")
    assert [p.armor for p in game.state.players] == [15, 12, 12]
    assert game.state.players[0].favor == 6


def test_missio_gives_5_armor() -> None:
    game = kit_arena([O, E3])
    play(game, 0, "missio")
    assert game.state.players[0].armor == 20
