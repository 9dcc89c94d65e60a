"""Checks that hold after every decision of every game (used by the random-game tests)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgpack

from harena.core.spartacus.rules import Spartacus
from harena.core.spartacus.state import Phase, SchemeStep
from tests.core.spartacus.helpers import coins


def check_state(game: Spartacus, cards: bool = True) -> None:
    s = game.state
    assert coins(game) == s.coins, "denarii are conserved between the houses and the Bank"
    assert s.bank >= 0 and all(p.denarii >= 0 for p in s.players)
    assert all(p.influence >= 0 for p in s.players), "Influence never goes negative"
    if s.arena is not None:
        for f in s.arena.fighters:
            pools = (f.atk, f.defence, f.spd)
            assert min(pools) >= 0
            for i, n in enumerate(pools):
                others = pools[:i] + pools[i + 1 :]
                assert n > 0 or all(m <= 1 for m in others), f"Rule of One broken: {pools}"
    if cards and s.phase is not Phase.HOUSES:
        check_cards(game)


def check_cards(game: Spartacus) -> None:
    """Every card instance is in exactly one place."""
    s = game.state
    places: list[int] = s.market_deck + s.intrigue_deck + s.market_discard + s.intrigue_discard
    for p in s.players:
        places += p.hand + [a.card for a in p.assets]
    if s.market is not None:
        places += s.market.lots
        if s.market.auction is not None and s.market.auction.card is not None:
            places.append(s.market.auction.card)
    if s.intrigue is not None and s.intrigue.scheme is not None:
        places.append(s.intrigue.scheme.card)
    assert Counter(places) == Counter(range(len(s.cards)))


def check_view(game: Spartacus, seat: int | None) -> None:
    """Nothing hidden reaches a seat: other hands, hidden denarii, bids, bets, schemes."""
    view = game.view(seat)
    msgpack.packb(view)
    board = view["board"]
    s = game.state
    assert view["prompts"] == [p.to_view() for p in game.open_prompts() if p.seat == seat]
    assert board["hand"] == (
        None if seat is None else [[c, s.cards[c], game.card(c).name] for c in s.players[seat].hand]
    )
    for i, (p, shown) in enumerate(zip(s.players, board["players"], strict=False)):
        assert "hand" not in shown and shown["hand_size"] == len(p.hand)
        assert shown["denarii"] == (None if p.hidden and i != seat else p.denarii)
    if any(p.hidden for p in s.players):
        assert board["bank"] is None
    market: Any = board["market"]
    if market and market["auction"]:
        a = s.market.auction
        assert market["auction"]["my_bid"] == (None if seat is None else a.bids[seat])
        open_offers = [o for o in s.market.offers if o.sent]
        assert len(market["offers"]) == len(open_offers)
    arena: Any = board["arena"]
    if arena and not s.arena.staked:
        assert all(b is None for i, b in enumerate(arena["bets"]) if i != seat)
    intrigue: Any = board["intrigue"]
    if intrigue and intrigue["scheme"]:
        sc = s.intrigue.scheme
        launched = sc.step in (SchemeStep.REACT, SchemeStep.PICK)
        if not launched and seat != sc.schemer and not sc.revealed:
            assert intrigue["scheme"]["card"] is None and intrigue["scheme"]["target"] is None
    mine = sum(
        1
        for e in game.events
        if e.seats is not None and seat in e.seats and e.text.startswith("You ")
    )
    assert sum(1 for line in game.log_for(seat) if line.startswith("You ")) == min(
        mine, len(game.log_for(seat))
    )
