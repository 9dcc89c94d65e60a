"""rules: Setup - house selection in die-roll order, starting resources, the decks.

Seat order is clockwise. Every player rolls a die (ties for the highest roll again); the
highest chooses a House first and takes the Host marker, then the others choose clockwise.
Once every House is taken, each receives its starting resources (Setup 2-5).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harena.core.engine import Prompt
from harena.core.plural import denarii
from harena.core.spartacus.cards import CardKind
from harena.core.spartacus.choices import ChooseHouse
from harena.core.spartacus.holdings import gain
from harena.core.spartacus.state import Asset, Phase, Player, SpartacusState

if TYPE_CHECKING:
    from harena.core.spartacus.rules import Spartacus


def initial_state(game: Spartacus) -> SpartacusState:
    content = game.content
    cards = content.market_deck() + content.intrigue_deck()
    n_market = len(content.market_deck())
    intrigue = list(range(n_market, len(cards)))
    game.rng.shuffle(intrigue)  # rules: Setup 8 (the market deck is shuffled after dealing)
    return SpartacusState(
        cards=cards,
        players=[Player() for _ in range(game.players)],
        bank=content.bank,
        coins=content.bank,
        market_deck=list(range(n_market)),
        intrigue_deck=intrigue,
    )


def roll_for_first(game: Spartacus) -> None:
    """rules: Setup 1 - the highest roll chooses first and receives the Host marker."""
    s = game.state
    rolling = list(range(game.players))
    while len(rolling) > 1:
        rolls = {seat: game.rng.roll() for seat in rolling}
        game.emit(
            "Rolls for the first choice: "
            + ", ".join(f"Seat {k + 1} rolls {v}" for k, v in rolls.items())
        )
        best = max(rolls.values())
        rolling = [seat for seat, v in rolls.items() if v == best]
    first = rolling[0]
    s.host = first
    s.house_order = [(first + k) % game.players for k in range(game.players)]
    game.emit(f"Seat {first + 1} chooses a House first and is the Host")


def prompts(game: Spartacus) -> list[Prompt]:
    s = game.state
    taken = {p.house for p in s.players}
    choices = tuple(
        ChooseHouse.of(h.id, f"{h.name}: {h.text}")
        for h in game.content.houses
        if h.id not in taken
    )
    return [Prompt(s.house_order[0], "choose_house", "Choose your House", choices)]


def apply(game: Spartacus, seat: int, chosen: ChooseHouse) -> None:
    s = game.state
    s.players[seat].house = chosen.house
    s.house_order.pop(0)
    game.emit(f"Seat {seat + 1} takes the {game.content.house(s.players[seat].house).name}")
    if not s.house_order:
        deal(game)
        game.start_round()


def deal(game: Spartacus) -> None:
    """rules: Setup 2-8, in house-choosing order from the Host."""
    s = game.state
    content = game.content
    start = content.lengths[game.config.options.get("length", "standard")]
    piles: dict[CardKind, list[int]] = {CardKind.GLADIATOR: [], CardKind.SLAVE: []}
    rest: list[int] = []
    for i in s.market_deck:
        card = game.card(i)
        (piles[card.kind] if card.starting else rest).append(i)
    for pile in piles.values():
        game.rng.shuffle(pile)  # rules: Setup 3
    order = [(s.host + k) % game.players for k in range(game.players)]
    for seat in order:
        p = s.players[seat]
        house = content.house(p.house)
        p.influence = start  # rules: Setup 6-7
        gain(game, seat, house.denarii)  # rules: Setup 5
        for kind, count in ((CardKind.GLADIATOR, house.gladiators), (CardKind.SLAVE, house.slaves)):
            p.assets.extend(Asset(piles[kind].pop()) for _ in range(count))
        for _ in range(house.guards):  # rules: Setup 4 - face up on the table
            guard = next(
                i for i in reversed(s.intrigue_deck) if game.card(i).kind is CardKind.GUARD
            )
            s.intrigue_deck.remove(guard)
            p.assets.append(Asset(guard))
        names = ", ".join(game.card(a.card).name for a in p.assets)
        game.emit(
            f"{game.name_of(seat)} starts with {denarii(p.denarii)}, {start} Influence: {names}"
        )
    s.market_deck = rest + piles[CardKind.GLADIATOR] + piles[CardKind.SLAVE]
    game.rng.shuffle(s.market_deck)  # rules: Setup 8
    s.phase = Phase.MAINTENANCE
