"""rules: Auction and Contest for the Host Title (FAQ 6).

As many Market cards as players are laid face down and auctioned one at a time: every Dominus
bids at once and in secret; the bids are revealed together; the highest pays the Bank. Tied
leaders place their bids on the table and bid again, adding to them, until one leads. If every
bid of the first round is zero the card is discarded. Then the Host title goes the same way,
except that when every bid is zero all bidders roll a die and the highest becomes Host.
ruling (docs/rulings.md): tied leaders always bid again (even one who has nothing left to add:
whether they can is hidden), and if none of them adds anything in a re-bid they roll off as for
the Host title, so a tie always ends. At the end the hidden denarii are public again.
A lot won opens a Reaction window (`reactions`: another Dominus may claim it) before the next.

Choice ids: "bid:<n>".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harena.core.engine import Choice, Prompt
from harena.core.plural import denarii
from harena.core.spartacus import reactions
from harena.core.spartacus.cards import MarketCard
from harena.core.spartacus.choices import OnSum, SumAct
from harena.core.spartacus.holdings import draw_market, pay_bank, take_asset
from harena.core.spartacus.state import Asset, Auction

if TYPE_CHECKING:
    from harena.core.spartacus.rules import Spartacus


def start(game: Spartacus) -> None:
    m = game.state.market
    assert m is not None
    lots = [draw_market(game) for _ in range(game.players)]
    m.lots = [c for c in lots if c is not None]
    game.emit(f"The Open Market closes; {len(m.lots)} cards are laid out for auction")
    _next_lot(game)


def _next_lot(game: Spartacus) -> None:
    m = game.state.market
    assert m is not None
    n = game.players
    card = m.lots.pop(0) if m.lots else None
    m.auction = Auction(card, list(range(n)), [None] * n, [0] * n)
    if card is None:
        game.emit("Contest for the Host title: bid in secret")
    else:
        c = game.card(card)
        game.emit(f"Auction: {c.name} ({_stats(c)}) - bid in secret")


def _stats(card: MarketCard) -> str:
    if card.combatant:
        return f"{card.kind.value} {card.atk}/{card.defence}/{card.spd}"
    return card.slot.value if card.slot else card.kind.value


def prompts(game: Spartacus) -> list[Prompt]:
    m = game.state.market
    assert m is not None and m.auction is not None
    a = m.auction
    what = "the Host title" if a.card is None else game.card(a.card).name
    out = []
    for seat in a.bidders:
        if a.bids[seat] is not None:
            continue
        can = game.state.players[seat].denarii - a.totals[seat]
        text = f"Bid for {what}" + (
            f" (adding to your {a.totals[seat]} on the table)" if a.totals[seat] else ""
        )
        out.append(Prompt(seat, "bid", text, _bid_choices(game, can)))
    return out


def _bid_choices(game: Spartacus, most: int) -> tuple[Choice, ...]:
    """0 to `most` denarii: the same few tuples all game long, built once (a bid is asked of
    every bidder after every bid, and its choices are a good part of what a prompt costs)."""
    choices = game.bid_choices.get(most)
    if choices is None:
        choices = tuple(OnSum.of(SumAct.BID, n, denarii(n)) for n in range(most + 1))
        game.bid_choices[most] = choices
    return choices


def apply(game: Spartacus, seat: int, chosen: OnSum) -> None:
    m = game.state.market
    assert m is not None and m.auction is not None
    a = m.auction
    a.bids[seat] = chosen.amount
    game.emit(f"You bid {a.bids[seat]}", seats=[seat], redacted=f"{game.name_of(seat)} has bid")
    if all(a.bids[s] is not None for s in a.bidders):
        _reveal(game, a)


def _reveal(game: Spartacus, a: Auction) -> None:
    first_round = not any(a.totals)
    added = {s: a.bids[s] or 0 for s in a.bidders}
    for s in a.bidders:
        a.totals[s] += added[s]
    game.emit("Bids revealed: " + ", ".join(f"{game.name_of(s)} {a.totals[s]}" for s in a.bidders))
    _remember(game, a, winner=-1, price=0)
    best = max(a.totals[s] for s in a.bidders)
    leaders = [s for s in a.bidders if a.totals[s] == best]
    if best == 0:
        if a.card is None:
            _host_roll_off(game, leaders)  # rules: Auction Canceled by Host
        else:
            game.state.market_discard.append(a.card)  # rules: Canceled Auctions
            _remember(game, a, winner=-1, price=0)
            game.emit(f"Nobody bids: {game.card(a.card).name} is discarded")
            _next_lot(game)
        return
    if len(leaders) > 1:
        # Decided from the revealed bids alone: whether the leaders could add anything is their
        # hidden denarii's secret, so they are always asked (docs/rulings.md, auction ties).
        stuck = not first_round and not any(added[s] for s in leaders)
        if not stuck:  # rules: Resolving Ties - bid again, adding to the earlier bids
            game.emit("Tied: " + ", ".join(game.name_of(s) for s in leaders) + " bid again")
            a.bidders = leaders
            a.bids = [None] * game.players
            return
        winner = _roll_off(game, leaders)
    else:
        winner = leaders[0]
    _award(game, a, winner, a.totals[winner])


def _roll_off(game: Spartacus, seats: list[int]) -> int:
    while len(seats) > 1:
        rolls = {s: game.rng.roll() for s in seats}
        game.emit("Roll-off: " + ", ".join(f"{game.name_of(s)} {v}" for s, v in rolls.items()))
        best = max(rolls.values())
        seats = [s for s, v in rolls.items() if v == best]
    return seats[0]


def _host_roll_off(game: Spartacus, seats: list[int]) -> None:
    m = game.state.market
    assert m is not None and m.auction is not None
    _award(game, m.auction, _roll_off(game, seats), 0)


def _remember(game: Spartacus, a: Auction, *, winner: int, price: int) -> None:
    m = game.state.market
    assert m is not None
    m.last_sale = [-1 if a.card is None else a.card, winner, price]
    m.last_bids = [a.totals[s] if s in a.bidders else -1 for s in range(game.players)]


def _award(game: Spartacus, a: Auction, winner: int, price: int) -> None:
    paid = pay_bank(game, winner, price)
    _remember(game, a, winner=winner, price=paid)
    if a.card is None:
        game.state.host = winner  # rules: Contest for the Host Title
        game.emit(f"{game.name_of(winner)} pays {paid} and becomes the Host")
        _end_market(game)
        return
    take_asset(game, winner, Asset(a.card))
    m = game.state.market
    assert m is not None
    m.auction = None  # settled: the lot is on the winner's table now
    game.emit(f"{game.name_of(winner)} buys {game.card(a.card).name} for {paid}")
    # rules: Reactions "in response to other events": an auction won (not the Host title,
    # docs/rulings.md); the next lot waits for the answers
    if not reactions.open_window(game, "auction_won", winner, a.card, paid):
        _next_lot(game)


def next_lot(game: Spartacus) -> None:
    """After the Reactions to a lot won: the next lot, or the Host title."""
    _next_lot(game)


def _end_market(game: Spartacus) -> None:
    """rules: Ending the Market Phase - the hidden denarii go back to the treasuries."""
    s = game.state
    for p in s.players:
        p.hidden = False
    game.emit(
        "Treasuries: "
        + ", ".join(f"{game.name_of(i)} {p.denarii}" for i, p in enumerate(s.players))
    )
    s.market = None
    game.end_phase()
