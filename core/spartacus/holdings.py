"""What a house holds and how it changes: drawing and discarding cards, paying and receiving
denarii, Influence, and combatants leaving the house. Every change of that kind goes through
here, so the invariants (coins conserved, Influence never negative, a Champion's loss costs
Influence) hold in one place."""

from __future__ import annotations

from typing import TYPE_CHECKING

from harena.core.plural import counted
from harena.core.spartacus.cards import CardKind, IntrigueCard, MarketCard
from harena.core.spartacus.state import Asset

if TYPE_CHECKING:
    from harena.core.spartacus.rules import Spartacus


def draw_intrigue(game: Spartacus, seat: int, count: int) -> list[int]:
    """Draw from the Intrigue deck, shuffling the discard pile in when it runs out."""
    s = game.state
    drawn: list[int] = []
    for _ in range(count):
        if not s.intrigue_deck:
            if not s.intrigue_discard:
                break
            s.intrigue_deck, s.intrigue_discard = s.intrigue_discard, []
            game.rng.shuffle(s.intrigue_deck)
            game.emit("The Intrigue discard pile is shuffled into a new deck")
        drawn.append(s.intrigue_deck.pop())
    s.players[seat].hand.extend(drawn)
    if drawn:
        names = ", ".join(game.card(i).name for i in drawn)
        game.emit(f"You draw {names}", seats=[seat],
                  redacted=f"{game.name_of(seat)} draws {counted(len(drawn), 'Intrigue card')}")  # fmt: skip
    return drawn


def draw_market(game: Spartacus) -> int | None:
    s = game.state
    if not s.market_deck and s.market_discard:
        s.market_deck, s.market_discard = s.market_discard, []
        game.rng.shuffle(s.market_deck)
        game.emit("The Market discard pile is shuffled into a new deck")
    return s.market_deck.pop() if s.market_deck else None


def discard_intrigue(game: Spartacus, seat: int, card: int) -> None:
    game.state.players[seat].hand.remove(card)
    game.state.intrigue_discard.append(card)


def gain(game: Spartacus, seat: int, amount: int) -> int:
    """The Bank pays `seat` (as much as it holds). Returns what was paid."""
    s = game.state
    paid = max(0, min(amount, s.bank))
    s.bank -= paid
    s.players[seat].denarii += paid
    return paid


def pay_bank(game: Spartacus, seat: int, amount: int) -> int:
    """`seat` pays the Bank (as much as it has). Returns what was paid."""
    s = game.state
    paid = max(0, min(amount, s.players[seat].denarii))
    s.players[seat].denarii -= paid
    s.bank += paid
    return paid


def transfer(game: Spartacus, giver: int, taker: int, amount: int) -> int:
    players = game.state.players
    paid = max(0, min(amount, players[giver].denarii))
    players[giver].denarii -= paid
    players[taker].denarii += paid
    return paid


def change_influence(game: Spartacus, seat: int, delta: int) -> int:
    """Influence never goes below 0. Returns the actual change."""
    p = game.state.players[seat]
    new = max(0, p.influence + delta)
    change = new - p.influence
    p.influence = new
    return change


def find_asset(game: Spartacus, seat: int, card: int) -> Asset:
    return next(a for a in game.state.players[seat].assets if a.card == card)


def owner_of(game: Spartacus, card: int) -> int | None:
    for seat, p in enumerate(game.state.players):
        if any(a.card == card for a in p.assets):
            return seat
    return None


def lose_asset(game: Spartacus, seat: int, card: int) -> Asset:
    """A card leaves `seat`'s table (dies, is sold or traded). Losing a Champion costs 1
    Influence (rules: Crowning a Champion)."""
    p = game.state.players[seat]
    asset = find_asset(game, seat, card)
    p.assets.remove(asset)
    if asset.champion:
        change_influence(game, seat, -1)
        game.emit(f"{game.name_of(seat)} loses a Champion and 1 Influence")
    return asset


def discard_asset(game: Spartacus, seat: int, card: int) -> None:
    """Dead, executed or sold: to the Market discard pile (a Guard to the Intrigue pile)."""
    lose_asset(game, seat, card)
    if game.card(card).kind is CardKind.GUARD:
        game.state.intrigue_discard.append(card)
    else:
        game.state.market_discard.append(card)


def take_asset(game: Spartacus, seat: int, asset: Asset) -> None:
    """A card joins `seat`'s table; gaining a Champion gives 1 Influence (docs/rulings.md)."""
    game.state.players[seat].assets.append(asset)
    if asset.champion:
        change_influence(game, seat, 1)
        game.emit(f"{game.name_of(seat)} gains a Champion and 1 Influence")


def assets_of(game: Spartacus, seat: int, kind: CardKind) -> list[Asset]:
    return [a for a in game.state.players[seat].assets if game.card(a.card).kind is kind]


def combatants(game: Spartacus, seat: int) -> list[Asset]:
    return [a for a in game.state.players[seat].assets if game.card(a.card).kind in _COMBATANTS]


def ready_combatants(game: Spartacus, seat: int) -> list[Asset]:
    """May enter the Arena: neither exhausted nor wounded (rules: Exhausted cards cannot be used)."""
    return [a for a in combatants(game, seat) if not a.exhausted and not a.wounded]


def favor_count(asset: Asset) -> int:
    """Favor markers, a Champion marker counting as the three Favors it replaced."""
    return asset.favor + (3 if asset.champion else 0)


def committed(game: Spartacus, seat: int) -> int:
    """Denarii promised on the table and not yet paid: a hidden bid, bids of earlier tie
    rounds, a bet placed but not yet revealed. Gifts cannot spend them."""
    s = game.state
    total = 0
    auction = s.market.auction if s.market else None
    if auction is not None:
        total += auction.totals[seat] + (auction.bids[seat] or 0)
    if s.arena is not None and s.arena.bets and not s.arena.staked:
        bet = s.arena.bets[seat]
        total += bet.amount if bet is not None else 0
    return total


def free_denarii(game: Spartacus, seat: int) -> int:
    return game.state.players[seat].denarii - committed(game, seat)


def label(card: MarketCard | IntrigueCard, asset: Asset) -> str:
    """A card on a table as players talk about it: "Crixus (4/3/2, Champion, wounded)"."""
    bits = []
    if isinstance(card, MarketCard) and card.combatant:
        bits.append(f"{card.atk}/{card.defence}/{card.spd}")
    if asset.champion:
        bits.append("Champion")
    if asset.favor:
        bits.append(f"{asset.favor} Favor")
    if asset.wounded:
        bits.append("wounded")
    elif asset.exhausted:
        bits.append("exhausted")
    return card.name + (f" ({', '.join(bits)})" if bits else "")


_COMBATANTS = frozenset({CardKind.GLADIATOR, CardKind.SLAVE})
