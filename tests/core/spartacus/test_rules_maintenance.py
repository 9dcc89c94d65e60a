"""rules: Maintenance Phase - card activation, wound recovery, general balance."""

from __future__ import annotations

from harena.core.spartacus import maintenance
from harena.core.spartacus.rules import Spartacus
from harena.core.spartacus.state import Phase
from tests.core.spartacus.helpers import choices, clear_table, coins, dice, give, kinds, started


def _maintenance(setup: object = None) -> Spartacus:
    game = started(4, seed=1)
    s = game.state
    s.phase = Phase.MAINTENANCE
    s.intrigue = None
    for seat in range(4):
        clear_table(game, seat)
        s.players[seat].denarii = 5
    return game


def test_exhausted_cards_are_readied_except_the_wounded() -> None:
    """rules: Card Activation."""
    game = _maintenance()
    tired = give(game, 0, "veteran", exhausted=True)
    hurt = give(game, 0, "crixus", exhausted=True, wounded=True)
    dice(game, 2)  # Crixus stays wounded
    maintenance.start(game)
    p = game.state.players[0]
    assert not next(a for a in p.assets if a.card == tired).exhausted
    crixus = next(a for a in p.assets if a.card == hurt)
    assert crixus.exhausted and crixus.wounded


def test_recovery_rolls_heal_on_4_to_6_keep_on_2_to_3_and_kill_on_1() -> None:
    """rules: Wound Recovery - 4-6 heal and activate, 2-3 stay wounded, 1 dies."""
    game = _maintenance()
    healed = give(game, 1, "veteran", exhausted=True, wounded=True)
    stays = give(game, 1, "secutor", exhausted=True, wounded=True)
    dies = give(game, 1, "hoplomachus", exhausted=True, wounded=True)
    dice(game, 4, 3, 1)
    maintenance.start(game)
    p = game.state.players[1]
    by_card = {a.card: a for a in p.assets}
    assert not by_card[healed].wounded and not by_card[healed].exhausted
    assert by_card[stays].wounded and by_card[stays].exhausted
    assert dies not in by_card and dies in game.state.market_discard


def test_slaves_earn_and_gladiators_cost_one_denarius_each() -> None:
    """rules: General Balance - +1 per active Slave, -1 per active Gladiator."""
    game = _maintenance()
    for _ in range(3):
        give(game, 2, "house-slave")
    give(game, 2, "house-slave", exhausted=True, wounded=True)  # not active
    give(game, 2, "veteran")
    give(game, 2, "veteran", exhausted=True, wounded=True)  # wounded: no upkeep
    dice(game, 2, 2)
    before = coins(game)
    maintenance.start(game)
    assert game.state.players[2].denarii == 5 + 3 - 1
    assert coins(game) == before


def test_a_gladiator_you_cannot_pay_for_is_discarded_by_your_choice() -> None:
    """rules: General Balance - if you cannot pay for a Gladiator, you must discard it."""
    game = _maintenance()
    game.state.players[3].denarii = 1
    keep = give(game, 3, "crixus")
    lose = give(game, 3, "thracian-recruit")
    maintenance.start(game)
    assert kinds(game) == {3: "discard_gladiator"}
    assert sorted(choices(game, 3)) == sorted([f"unpay:{keep}", f"unpay:{lose}"])
    game.act(3, f"unpay:{lose}")
    p = game.state.players[3]
    assert [a.card for a in p.assets] == [keep] and p.denarii == 0
    assert game.state.phase is Phase.INTRIGUE


def test_a_gift_in_time_saves_a_gladiator() -> None:
    """rules: Setup 5 - denarii change hands at any time, even while upkeep is due."""
    game = _maintenance()
    game.state.players[3].denarii = 0
    give(game, 3, "crixus")
    maintenance.start(game)
    assert kinds(game) == {3: "discard_gladiator"}
    game.act(0, "give:3:1")
    assert game.state.phase is Phase.INTRIGUE
    assert len(game.state.players[3].assets) == 1 and game.state.players[3].denarii == 0
