"""The six answers of the FAQ (shared/rules/spartacus-faq-ro.txt, English summary beside it),
one test each."""

from __future__ import annotations

from harena.core.spartacus import market
from harena.core.spartacus.combat import legal_losses
from harena.core.spartacus.state import Fighter
from tests.core.spartacus.combat_helpers import fight, more_dice, place
from tests.core.spartacus.helpers import (
    at_the_market,
    choices,
    clear_table,
    dice,
    give,
    kinds,
    started,
)


def test_faq_1_dice_are_health_and_each_wound_costs_a_die_from_a_pool_you_choose() -> None:
    """FAQ 1 (pp. 15-17): total dice = health; a wound removes one die, weakening later rolls."""
    game = fight("dimachaerus", "veteran", 6, 6, 1, 1)
    game.act(1, "first")
    place(game, (0, 0), (0, 1))
    more_dice(game, 6, 1, 1, 1, 1, 1, 1)  # one wound
    game.act(1, "attack")
    game.act(2, "lose:def")
    vet = game.state.arena.fighters[1]
    assert (vet.atk, vet.defence, vet.spd) == (3, 2, 2)  # health 8 -> 7
    game.act(1, "end")
    place(game, (0, 0), (0, 1))
    more_dice(game, 5, 5, 5, 6, 6)  # the veteran now rolls 3 attack dice against 1 defence
    game.act(2, "attack")
    assert game.log_for(None)[-1].startswith(
        "Solonius's Veteran Gladiator attacks: 5 5 5 against 6"
    )
    assert game.state.arena.fight.damage == 2  # two unopposed 5s
    game.act(1, "lose:atk")
    game.act(1, "lose:spd")
    dimachaerus = game.state.arena.fighters[0]
    assert (dimachaerus.atk, dimachaerus.defence, dimachaerus.spd) == (3, 1, 1)


def test_faq_2_sorted_pairs_ties_to_the_defender_unopposed_dice_on_3_or_more() -> None:
    """FAQ 2 (p. 16)."""
    game = fight("dimachaerus", "secutor", 6, 6, 1)  # ATK 4 against DEF 4, then 4 against 2
    game.act(1, "first")
    place(game, (0, 0), (0, 1))
    more_dice(game, 3, 5, 2, 4, 4, 5, 3, 1)  # sorted 5 4 3 2 against 5 4 3 1
    game.act(1, "attack")
    assert game.log_for(None)[-1].endswith("5 4 3 2 against 5 4 3 1: 1 wound")


def test_faq_3_initiative_is_the_sum_of_all_speed_dice_ties_roll_again() -> None:
    """FAQ 3 (p. 15)."""
    # Swift Thracian (3 Speed dice, rerolls one die of 3 or less): 1 1 2, a 1 rerolled to 2 = 5;
    # Veteran (2 dice): 3 2 = 5, a tie; again: 6 6 6 = 18 against 1 1 = 2.
    game = fight("swift-thracian", "veteran", 1, 1, 2, 2, 3, 2, 6, 6, 6, 1, 1)
    lines = [x for x in game.log_for(None) if "initiative" in x]
    assert lines[0].endswith("rolls 2 2 1 = 5, Solonius's Veteran Gladiator rolls 3 2 = 5")
    assert lines[1].endswith("rolls 6 6 6 = 18, Solonius's Veteran Gladiator rolls 1 1 = 2")
    assert kinds(game) == {1: "initiative"}
    assert sorted(choices(game, 1)) == ["first", "second"]


def test_faq_4_you_choose_the_lost_dice_but_never_break_the_rule_of_one() -> None:
    """FAQ 4 (pp. 16-17)."""
    f = Fighter(0, 0, atk=2, defence=1, spd=3)
    assert legal_losses(f) == ["atk", "spd"]
    f.atk = 1
    assert legal_losses(f) == ["spd"]
    f.spd = 1
    assert legal_losses(f) == ["atk", "def", "spd"]


def test_faq_5_only_the_open_market_moves_resources_and_intrigue_cards_never() -> None:
    """FAQ 5 (p. 10; p. 6): Gladiators, Slaves, Equipment and Guards change hands only in the
    Open Market; Intrigue cards never; nothing changes owner in the Intrigue phase."""
    game = started(4, seed=1)
    s = game.state
    seat = s.intrigue.turn
    give(game, seat, "crixus")
    give(game, seat, "slander", hand=True)
    intrigue_choices = choices(game, seat)
    assert not any(c.startswith(("offer", "bank:", "trade")) for c in intrigue_choices)
    s.intrigue = None
    for i in range(4):
        clear_table(game, i)
    crixus = give(game, 0, "crixus")
    scheme = give(game, 0, "slander", hand=True)
    market.start(game)
    game.state_changed()
    game.act(1, "offer:0")
    wants = [c for c in choices(game, 1) if c.startswith("offer-card:")]
    assert wants == [f"offer-card:{crixus}"] and f"offer-card:{scheme}" not in wants


def test_faq_6_hidden_bids_ties_add_all_zero_discards_host_ties_roll() -> None:
    """FAQ 6 (pp. 10-11)."""
    game = at_the_market()
    s = game.state
    for i in range(4):
        game.act(i, "close")
    first = s.market.auction.card
    for i in range(4):
        game.act(i, "bid:0")  # everyone zero: discarded
    assert first in s.market_discard
    for i, bid in enumerate((2, 2, 0, 1)):
        game.act(i, f"bid:{bid}")
    assert kinds(game) == {0: "bid", 1: "bid"}  # tied leaders bid again, adding
    game.act(0, "bid:3")
    game.act(1, "bid:1")
    assert s.players[0].denarii == 5
    while s.market.auction.card is not None:
        for i in range(4):
            game.act(i, "bid:0")
    dice(game, 6, 6, 2, 1, 4, 3)  # seats 0 and 1 tie on 6; 4 beats 3
    for i in range(4):
        game.act(i, "bid:0")
    assert s.host == 0
