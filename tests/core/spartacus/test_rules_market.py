"""rules: Market Phase - Open Market, closing, auctions with hidden bids, the Host title."""

from __future__ import annotations

import pytest

from harena.core.spartacus.rules import Spartacus
from harena.core.spartacus.state import Phase
from tests.core.spartacus.helpers import (
    at_the_market,
    choices,
    coins,
    dice,
    give,
    kinds,
    offer_price,
)


def _close_all(game: Spartacus, but: tuple[int, ...] = ()) -> None:
    for seat in range(4):
        if seat not in but:
            game.act(seat, "close")


def test_the_open_market_is_open_to_everyone_at_once() -> None:
    game = at_the_market()
    assert kinds(game) == {s: "open_market" for s in range(4)}


def test_resources_sell_to_the_bank_for_their_value_but_intrigue_cards_never_trade() -> None:
    """rules: Open Market - sell Resources to the Bank; FAQ 5 - Intrigue cards never trade."""
    game = at_the_market()
    crixus = give(game, 0, "crixus")
    scheme = give(game, 0, "slander", hand=True)
    assert f"bank:{crixus}" in choices(game, 0)
    assert not any(str(scheme) in c for c in choices(game, 0))
    game.act(0, f"bank:{crixus}")
    assert game.state.players[0].denarii == 20 and crixus in game.state.market_discard


def test_an_offer_is_composed_then_accepted_and_both_sides_move() -> None:
    """rules: Open Market - buy, sell and trade Resource Cards among yourselves."""
    game = at_the_market()
    net = give(game, 0, "net")
    veteran = give(game, 1, "veteran")
    before = coins(game)
    game.act(0, "offer:1")
    assert kinds(game)[0] == "compose_offer"
    assert {f"offer-card:{net}", f"offer-card:{veteran}"} <= set(choices(game, 0))
    game.act(0, f"offer-card:{net}")
    game.act(0, f"offer-card:{veteran}")
    offer_price(game, 0, 3)  # and 3 denarii from me
    game.act(0, "offer-send")
    assert kinds(game)[1] == "answer_offer" and 0 not in kinds(game)
    game.act(1, "accept:0")
    s = game.state
    assert [a.card for a in s.players[0].assets] == [veteran]
    assert [a.card for a in s.players[1].assets] == [net]
    assert s.players[0].denarii == 7 and s.players[1].denarii == 13
    assert coins(game) == before


def test_a_trade_moves_any_set_of_cards_each_way() -> None:
    """rules: Open Market - any Resource cards (Gladiators, Slaves, Equipment, Guards) and
    denarii, in any combination, for any of theirs."""
    game = at_the_market()
    mine = [give(game, 0, c) for c in ("net", "veteran", "guard")]
    theirs = [give(game, 2, c) for c in ("crixus", "scutum")]
    game.act(0, "offer:2")
    for card in mine + theirs:
        game.act(0, f"offer-card:{card}")
    game.act(0, f"offer-card:{mine[2]}")  # picked twice: back out of the offer
    offer_price(game, 0, -4)  # and they pay me 4
    game.act(0, "offer-send")
    shown = game.view(3)["board"]["market"]["offers"][0]
    assert shown["give"] == mine[:2] and shown["want"] == theirs and shown["price"] == -4
    game.act(2, "accept:0")
    s = game.state
    assert sorted(a.card for a in s.players[0].assets) == sorted([mine[2]] + theirs)
    assert sorted(a.card for a in s.players[2].assets) == sorted(mine[:2])
    assert s.players[0].denarii == 14 and s.players[2].denarii == 6


def test_a_counter_changes_any_part_and_goes_back_at_most_twice() -> None:
    """rules: Open Market - negotiate; ruling: at most 2 counters per offer."""
    game = at_the_market()
    veteran = give(game, 1, "veteran")
    net = give(game, 1, "net")
    mine = give(game, 0, "scutum")
    game.act(0, "offer:1")
    assert "offer-send" not in choices(game, 0)  # something must change hands
    game.act(0, f"offer-card:{veteran}")
    offer_price(game, 0, 2)
    game.act(0, "offer-send")
    game.act(1, "counter:0")
    assert kinds(game)[1] == "compose_offer"
    game.act(1, f"offer-card:{net}")  # Net too, if you add your Shield and 5 denarii
    game.act(1, f"offer-card:{mine}")
    offer_price(game, 1, 5)
    game.act(1, "offer-send")
    offer = game.view(2)["board"]["market"]["offers"][0]
    assert (offer["give"], offer["want"], offer["price"]) == ([mine], [veteran, net], 5)
    assert kinds(game)[0] == "answer_offer"
    game.act(0, "counter:0")
    offer_price(game, 0, 4)
    game.act(0, "offer-send")
    assert sorted(choices(game, 1)) == ["accept:0", "decline:0"]
    game.act(1, "decline:0")
    assert [a.card for a in game.state.players[1].assets] == [veteran, net]
    assert kinds(game) == {s: "open_market" for s in range(4)}


def test_a_counter_being_drafted_is_the_drafters_until_sent() -> None:
    """ruling (docs/rulings.md, Market): the terms sent stay public; the counter's changes are
    its drafter's until sent, and cancelling it brings the terms sent back to be answered."""
    game = at_the_market()
    veteran, net = give(game, 1, "veteran"), give(game, 1, "net")
    game.act(0, "offer:1")
    game.act(0, f"offer-card:{veteran}")
    game.act(0, "offer-send")
    game.act(1, "counter:0")
    before = game.view(2)
    game.act(1, f"offer-card:{net}")
    offer_price(game, 1, -3)
    assert game.view(2) == before and game.view(0)["board"] == before["board"]
    assert game.view(1)["board"]["market"]["my_draft"]["want"] == [veteran, net]
    game.act(1, "offer-cancel")
    assert kinds(game)[1] == "answer_offer"
    shown = game.view(2)["board"]["market"]["offers"][0]
    assert shown["want"] == [veteran] and shown["counters"] == 1  # a counter begun is spent
    game.act(1, "counter:0")
    game.act(1, "offer-cancel")
    assert sorted(choices(game, 1)) == ["accept:0", "decline:0"]  # so the Market always ends


def test_offers_to_several_dominus_at_once_are_separate_offers() -> None:
    """rules: Open Market - all players at once; an offer out does not stop its proposer."""
    game = at_the_market()
    a, b = give(game, 1, "veteran"), give(game, 2, "veteran")
    for seat, card in ((1, a), (2, b)):
        game.act(0, f"offer:{seat}")
        game.act(0, f"offer-card:{card}")
        offer_price(game, 0, 4)
        game.act(0, "offer-send")
    assert kinds(game) == {1: "answer_offer", 2: "answer_offer", 3: "open_market"}
    assert 0 not in game.awaited()  # the game waits for the answers, not for the proposer
    assert "offer:3" in choices_standing(game, 0) and "offer:1" not in choices_standing(game, 0)
    game.act(2, "accept:1")
    game.act(1, "decline:0")
    assert [x.card for x in game.state.players[0].assets] == [b]
    assert game.state.players[0].denarii == 6


def choices_standing(game: Spartacus, seat: int) -> list[str]:
    return [c.id for p in game.prompts_for(seat) if p.standing and p.kind == "open_market"
            for c in p.choices]  # fmt: skip


def test_closing_withdraws_your_offers_and_ends_those_made_to_you() -> None:
    game = at_the_market()
    veteran = give(game, 1, "veteran")
    game.act(0, "offer:1")
    game.act(0, f"offer-card:{veteran}")
    game.act(0, "offer-send")
    game.act(0, "close")
    assert game.state.market.offers == [] and kinds(game)[1] == "open_market"
    assert "is off" in game.log_for(None)[-1]


def test_a_trade_falls_through_if_the_card_has_gone_meanwhile() -> None:
    game = at_the_market()
    veteran = give(game, 1, "veteran")
    game.act(0, "offer:1")
    game.act(0, f"offer-card:{veteran}")
    offer_price(game, 0, 2)
    game.act(0, "offer-send")
    game.state.players[1].assets.clear()  # gone (e.g. sold in another deal)
    game.state.market_discard.append(veteran)
    game.state_changed()
    game.act(1, "accept:0")
    assert game.state.players[0].denarii == 10
    assert "falls through" in game.log_for(None)[-1]


def test_an_offer_names_no_more_denarii_than_the_payer_holds() -> None:
    """ruling (docs/rulings.md, Market): both treasuries are open in the Open Market, so the
    sums offered are bounded by them and show nothing hidden."""
    game = at_the_market()
    veteran = give(game, 1, "veteran")
    game.state.players[1].denarii, game.state.bank = 3, game.state.bank + 7
    game.state_changed()
    game.act(0, "offer:1")
    game.act(0, f"offer-card:{veteran}")
    offer_price(game, 0, 10)  # all I hold
    assert "offer-price:11" not in choices(game, 0)
    offer_price(game, 0, -3)  # all they hold
    assert "offer-price:-4" not in choices(game, 0)
    with pytest.raises(AssertionError):
        offer_price(game, 0, -4)


def test_offers_are_limited_so_the_market_always_ends() -> None:
    """ruling: at most 4 offers per Dominus per Market (the table option market_offers)."""
    game = at_the_market()
    for _ in range(4):
        game.act(0, "offer:1")
        game.act(0, "offer-cancel")
    assert not any(c.startswith("offer:") for c in choices(game, 0))
    assert "close" in choices(game, 0)
    few = at_the_market(market_offers="2")
    for _ in range(2):
        few.act(0, "offer:1")
        few.act(0, "offer-cancel")
    assert not any(c.startswith("offer:") for c in choices(few, 0))


def test_closing_hides_your_denarii_from_the_others() -> None:
    """rules: Closing the Open Market - take and hide your denarii."""
    game = at_the_market()
    game.act(2, "close")
    assert game.view(0)["board"]["players"][2]["denarii"] is None
    assert game.view(None)["board"]["players"][2]["denarii"] is None
    assert game.view(2)["board"]["players"][2]["denarii"] == 10
    assert game.view(0)["board"]["bank"] is None  # or the sum would give it away
    assert 2 not in kinds(game)


def test_as_many_lots_as_players_are_auctioned_one_at_a_time_with_hidden_bids() -> None:
    """rules: Auction - simultaneous hidden bids; the highest pays the Bank."""
    game = at_the_market()
    _close_all(game)
    m = game.state.market
    assert m.auction is not None and len(m.lots) == 3  # the first is up, three wait
    lot = m.auction.card
    assert kinds(game) == {s: "bid" for s in range(4)}
    game.act(0, "bid:4")
    view = game.view(1)
    assert view["board"]["market"]["auction"]["has_bid"] == [True, False, False, False]
    assert view["board"]["market"]["auction"]["my_bid"] is None
    assert "4" not in view["log"][-1]
    game.act(1, "bid:2")
    game.act(2, "bid:0")
    bank = game.state.bank
    game.act(3, "bid:1")
    assert any(a.card == lot for a in game.state.players[0].assets)
    assert game.state.players[0].denarii == 6 and game.state.bank == bank + 4
    assert game.state.players[1].denarii == 10  # the others keep their denarii


def test_tied_bidders_bid_again_adding_to_their_earlier_bids() -> None:
    """rules: Resolving Ties; FAQ 6."""
    game = at_the_market()
    _close_all(game)
    lot = game.state.market.auction.card
    for seat, bid in enumerate((3, 3, 1, 0)):
        game.act(seat, f"bid:{bid}")
    assert kinds(game) == {0: "bid", 1: "bid"}  # only the tied leaders
    assert game.view(2)["board"]["market"]["auction"]["on_table"][:2] == [3, 3]
    assert max(int(c.split(":")[1]) for c in choices(game, 0)) == 7  # 10 - 3 on the table
    game.act(0, "bid:1")
    game.act(1, "bid:2")
    assert any(a.card == lot for a in game.state.players[1].assets)
    assert game.state.players[1].denarii == 5 and game.state.players[0].denarii == 10


def test_ties_that_nobody_breaks_are_rolled_off() -> None:
    """ruling: tied leaders who add nothing in a re-bid roll off, so a tie always ends."""
    game = at_the_market()
    _close_all(game)
    lot = game.state.market.auction.card
    for seat, bid in enumerate((3, 3, 0, 0)):
        game.act(seat, f"bid:{bid}")
    dice(game, 2, 5)
    game.act(0, "bid:0")
    game.act(1, "bid:0")
    assert any(a.card == lot for a in game.state.players[1].assets)
    assert game.state.players[1].denarii == 7


def test_an_auction_where_everyone_bids_zero_is_cancelled_and_the_card_discarded() -> None:
    """rules: Canceled Auctions; FAQ 6 - the card is discarded."""
    game = at_the_market()
    _close_all(game)
    lot = game.state.market.auction.card
    for seat in range(4):
        game.act(seat, "bid:0")
    assert lot in game.state.market_discard
    assert game.state.market.auction.card != lot


def _to_host_contest(game: Spartacus) -> None:
    while game.state.market.auction.card is not None:
        for seat in range(4):
            game.act(seat, "bid:0")


def test_the_host_title_goes_to_the_highest_hidden_bid() -> None:
    """rules: Contest for the Host Title - the winner pays the Bank and takes the marker."""
    game = at_the_market()
    _close_all(game)
    _to_host_contest(game)
    for seat, bid in enumerate((1, 0, 5, 2)):
        game.act(seat, f"bid:{bid}")
    s = game.state
    assert s.host == 2 and s.players[2].denarii == 5
    assert s.phase is not Phase.MARKET  # on to the Arena
    assert not any(p.hidden for p in s.players)  # rules: Ending the Market Phase


def test_when_every_host_bid_is_zero_the_bidders_roll() -> None:
    """rules: Auction Canceled by Host; FAQ 6 - the bidders roll, the highest is Host."""
    game = at_the_market()
    _close_all(game)
    _to_host_contest(game)
    dice(game, 3, 6, 6, 1, 2, 4)  # seats 1 and 2 tie on 6 and roll again
    for seat in range(4):
        game.act(seat, "bid:0")
    assert game.state.host == 2
    assert any("Roll-off" in line for line in game.log_for(None))
