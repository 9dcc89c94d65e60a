"""The heuristic bot's deals for favours (core/spartacus/dealer.py), by value: it pays the Host
to be invited or to spare, asks a fee for a favour it would not do for free, pays an ask worth
its price and no other, honours what it was paid, never asks what it would refuse to pay in the
other's seat, and never pays the denarii its upkeep needs."""

from __future__ import annotations

from harena.core.spartacus import bribes
from harena.core.spartacus.bots import HeuristicBot
from harena.core.spartacus.rules import Spartacus
from tests.core.spartacus.helpers import give
from tests.core.spartacus.test_asks import at_the_thumbs
from tests.core.spartacus.test_rules_arena import _arena, _begin, _finish, _two_fighters


def bot() -> HeuristicBot:
    return HeuristicBot(1)


def deal(game: Spartacus, seat: int) -> str | None:
    return bot().standing(game.view(seat))


def decide(game: Spartacus, seat: int) -> str:
    return bot().choose(game.view(seat))


def thumbs_over(second: str) -> Spartacus:
    """Seat 0 hosts; seat 2's `second` (no Favor) lost to seat 1's Veteran."""
    game = _arena()
    _two_fighters(game, second=second)
    for seat in range(4):
        game.act(seat, "bet:none")
    _finish(game, loser=1, outcome="yield")
    return game


def test_the_host_asks_a_fee_to_spare_and_spares_only_if_paid() -> None:
    game = at_the_thumbs()
    price = bribes.spare_price(bot().content, game.view(0))
    assert 1 <= price < bribes.spare_worth(bot().content, game.view(2))
    assert deal(game, 0) == f"ask:2:{price}:spare"
    game.act(0, f"ask:2:{price}:spare")
    assert deal(game, 0) is None  # once per moment
    assert decide(game, 0) == "thumbs:down"  # unpaid
    game.act(2, "payask:0")
    assert decide(game, 0) == "thumbs:up"  # paid: it honours the deal


def test_the_owner_pays_a_clearly_good_ask_and_not_a_clearly_bad_one() -> None:
    game = thumbs_over("secutor")
    value = bribes.spare_worth(bot().content, game.view(2))
    game.act(0, "ask:2:1:spare")
    assert value > 1 and deal(game, 2) == "payask:0"
    bad = thumbs_over("house-slave")
    value = bribes.spare_worth(bot().content, bad.view(2))
    assert value < 8
    bad.act(0, "ask:2:8:spare")
    assert deal(bad, 2) == "refuseask:0"  # not paid: said no, so nobody waits on it
    bad.act(2, "refuseask:0")
    assert deal(bad, 2) is None
    assert decide(bad, 0) == "thumbs:down"


def test_a_bot_never_asks_what_it_would_refuse_to_pay_in_the_other_seat() -> None:
    """The symmetric case: whatever the owner holds, the Host bot's price is one the owner bot
    pays, or it asks nothing."""
    for denarii in range(0, 12):
        for second in ("secutor", "house-slave", "veteran"):
            game = thumbs_over(second)
            game.state.players[2].denarii = denarii
            game.state_changed()
            ask = deal(game, 0)
            if ask is None:
                continue
            game.act(0, ask)
            assert deal(game, 2) == "payask:0", (denarii, second, ask)


def test_the_owner_pays_unasked_only_when_the_host_would_execute_and_upkeep_allows() -> None:
    game = at_the_thumbs()
    assert deal(game, 2) == f"give:0:{bribes.SPARE_FEE}"
    game.act(2, f"give:0:{bribes.SPARE_FEE}")
    assert deal(game, 2) is None  # it dealt once in this moment
    assert decide(game, 0) == "thumbs:up"
    poor = at_the_thumbs()
    poor.state.players[2].denarii = bot().reserve(poor.view(2)) + 1  # 1 to spare: not the fee
    poor.state_changed()
    assert deal(poor, 2) is None
    favoured = at_the_thumbs()
    loser = favoured.state.arena.fighters[1]
    next(a for a in favoured.state.players[2].assets if a.card == loser.card).favor = 1
    favoured.state_changed()
    assert deal(favoured, 2) is None and deal(favoured, 0) is None  # spared anyway: no deal
    assert decide(favoured, 0) == "thumbs:up"


def test_a_dominus_pays_the_host_to_be_invited_unless_sure_of_it() -> None:
    game = _arena()
    give(game, 0, "house-slave", exhausted=True)  # the Host cannot fight
    give(game, 1, "veteran")
    give(game, 2, "secutor")
    _begin(game)
    assert deal(game, 1) == f"give:0:{bribes.INVITE_FEE}"
    game.act(1, f"give:0:{bribes.INVITE_FEE}")
    assert deal(game, 1) is None
    assert decide(game, 0) == "invite:1"  # the Host invites who paid
    sure = _arena()
    give(sure, 1, "veteran")
    _begin(sure)
    assert deal(sure, 1) is None  # the only one who can be invited


def test_the_host_pays_an_ask_to_accept_worth_its_own_fight_and_not_a_dear_one() -> None:
    """A Host whose combatant waits for an opponent pays an invitee's fair ask to accept (the
    fight is worth Influence and Favor to it), never one dearer than that fight."""
    for price, paid in ((2, True), (9, False)):
        game = _arena()
        host = give(game, 0, "veteran")
        give(game, 1, "secutor")
        _begin(game)
        game.act(0, "invite:0")
        game.act(0, f"fighter:{host}")
        game.act(0, "invite:1")
        assert 2 <= bribes.host_fight_worth(bot().content, game.view(0)) < 9
        game.act(1, f"ask:0:{price}:accept")
        assert deal(game, 0) == ("payask:0" if paid else "refuseask:0")  # too dear: said no


def test_asked_for_support_a_bot_asks_the_fee_the_schemer_bot_pays_and_then_supports() -> None:
    from tests.core.spartacus.test_rules_schemes import _others, _turn

    game, schemer = _turn(influence=3)
    card = give(game, schemer, "favour-of-the-senate", hand=True)  # needs 5: +Influence for itself
    game.act(schemer, f"scheme:{card}")
    game.act(schemer, "ask:show")
    ally = _others(schemer)[0]
    assert decide(game, ally) == "refuse"  # unpaid, it would not help
    ask = deal(game, ally)
    assert ask == f"ask:{schemer}:{bribes.SUPPORT_FEE}:support"
    game.act(ally, ask)
    assert deal(game, ally) is None
    assert deal(game, schemer) == "payask:0"  # the same weighing, from the schemer's seat
    game.act(schemer, "payask:0")
    assert decide(game, ally) == "support"  # paid: it honours the deal
    game.state.players[schemer].denarii = 0  # a schemer who cannot pay is not asked
    game.state_changed()
    assert deal(game, _others(schemer)[1]) is None


def test_a_host_sells_an_invitation_to_whom_the_fight_is_worth_most_and_invites_the_payer() -> None:
    """rules: Arena - the Host invites; deals are not binding. A bot Host with a choice asks the
    fee of the candidate who values the fight most, only if that candidate would pay it (the
    symmetric rule), and invites whoever paid."""
    game = _arena()
    give(
        game, 0, "house-slave", exhausted=True
    )  # the Host cannot fight: every invitation is for sale
    give(game, 1, "veteran")
    give(game, 2, "secutor")
    _begin(game)
    worth = {c: bribes.fight_worth(bot().content, game.view(0), c) for c in (1, 2)}
    best = max(worth, key=worth.get)
    assert deal(game, 0) == f"ask:{best}:{bribes.INVITE_FEE}:invite"
    game.act(0, f"ask:{best}:{bribes.INVITE_FEE}:invite")
    assert deal(game, 0) is None  # one ask per moment
    assert deal(game, best) == "payask:0"  # worth the fee to them: they pay
    game.act(best, "payask:0")
    assert decide(game, 0) == f"invite:{best}"
    own = _arena()
    give(own, 0, "veteran")  # the Host sends its own combatant first: not for sale
    give(own, 1, "veteran")
    give(own, 2, "secutor")
    _begin(own)
    assert deal(own, 0) is None
    sure = _arena()
    give(sure, 0, "house-slave", exhausted=True)
    give(sure, 1, "veteran")
    _begin(sure)
    assert deal(sure, 0) is None  # one candidate: nothing to sell
