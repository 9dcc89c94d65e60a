"""rules: Market Phase - the Open Market, then (see `auction`) the auctions and the Host title.

In the Open Market every Dominus acts at once: sell Resources to the Bank, or offer another
Dominus a trade of Gladiators, Slaves, Equipment and Guards, with denarii either way (FAQ 5:
the only time these cards change hands; Intrigue cards never do). An offer is composed in small
steps (what you give, what you want, the denarii), then the other side accepts, declines or
counters with another sum; counters go back and forth at most twice. A draft is its proposer's
secret until made: if its recipient closes meanwhile, the proposer can only cancel it. Closing
hides your denarii; when everyone has closed, the auction begins. Each Dominus makes at most 3
offers per Market (ruling: keeps every Market finite).

Choice ids: "bank:<asset>", "offer:<seat>", "close"; composing "offer-give:<asset>|none",
"offer-want:<asset>|none", "offer-price:<n>" (n < 0: they pay you), "offer-cancel"; answering
"accept:<proposer>", "decline:<proposer>", "counter:<proposer>:<n>".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harena.core.engine import Choice, Prompt
from harena.core.spartacus import auction
from harena.core.spartacus.cards import CardKind
from harena.core.spartacus.holdings import (
    discard_asset,
    free_denarii,
    gain,
    label,
    lose_asset,
    owner_of,
    take_asset,
    transfer,
)
from harena.core.spartacus.state import (
    COUNTERS_PER_OFFER,
    OFFERS_PER_MARKET,
    MarketState,
    Offer,
    OfferStep,
    Phase,
)

if TYPE_CHECKING:
    from harena.core.spartacus.rules import Spartacus

MAX_PRICE = 30  # the largest sum one offer names (a longer list helps nobody)
_TRADABLE = frozenset({CardKind.GLADIATOR, CardKind.SLAVE, CardKind.EQUIPMENT, CardKind.GUARD})


def start(game: Spartacus) -> None:
    s = game.state
    s.phase = Phase.MARKET
    n = game.players
    s.market = MarketState(closed=[False] * n, offers_made=[0] * n)
    game.emit(f"Round {s.round}: Market - the Open Market is open")


def _market(game: Spartacus) -> MarketState:
    assert game.state.market is not None
    return game.state.market


def tradable(game: Spartacus, seat: int) -> list[int]:
    return [a.card for a in game.state.players[seat].assets if game.card(a.card).kind in _TRADABLE]


def _asset_label(game: Spartacus, card: int | None) -> str:
    if card is None:
        return "nothing"
    owner = owner_of(game, card)
    asset = (
        next(a for a in game.state.players[owner].assets if a.card == card)
        if owner is not None
        else None
    )
    return label(game.card(card), asset) if asset else game.card(card).name


def describe(game: Spartacus, offer: Offer) -> str:
    gives = _asset_label(game, offer.give)
    wants = _asset_label(game, offer.want)
    money = ""
    if offer.price > 0:
        money = f" and {offer.price} denarii from {game.name_of(offer.proposer)}"
    elif offer.price < 0:
        money = f" and {-offer.price} denarii from {game.name_of(offer.recipient)}"
    return f"{game.name_of(offer.proposer)} gives {gives}, {game.name_of(offer.recipient)} gives {wants}{money}"


# --- prompts --------------------------------------------------------------------------------------


def prompts(game: Spartacus) -> list[Prompt]:
    m = _market(game)
    if m.auction is not None or all(m.closed):
        return auction.prompts(game)
    out: list[Prompt] = []
    for seat in range(game.players):
        if m.closed[seat]:
            continue
        answers = [o for o in m.offers if o.step is OfferStep.OPEN and o.answer == seat]
        if answers:
            out.extend(_answer_prompt(game, o) for o in answers)
            continue
        mine = next((o for o in m.offers if o.proposer == seat), None)
        if mine is None:
            out.append(_main_prompt(game, seat))
        elif mine.step is not OfferStep.OPEN:
            out.append(_draft_prompt(game, mine))
    return out


def _main_prompt(game: Spartacus, seat: int) -> Prompt:
    m = _market(game)
    choices = []
    seen: set[tuple[str, bool, bool, int]] = set()
    for a in game.state.players[seat].assets:
        card = game.card(a.card)
        key = (card.id, a.wounded, a.champion, a.favor)
        if card.kind in _TRADABLE and key not in seen:
            seen.add(key)
            choices.append(
                Choice(f"bank:{a.card}", f"Sell {label(card, a)} to the Bank for {card.value}")
            )
    if m.offers_made[seat] < OFFERS_PER_MARKET:
        for other in range(game.players):
            if other != seat and not m.closed[other]:
                choices.append(Choice(f"offer:{other}", f"Offer {game.name_of(other)} a trade"))
    choices.append(Choice("close", "Close: hide your denarii and leave the Open Market"))
    return Prompt(seat, "open_market", "The Open Market", tuple(choices))


def _price_range(game: Spartacus, offer: Offer) -> range:
    mine = min(free_denarii(game, offer.proposer), MAX_PRICE)
    theirs = min(free_denarii(game, offer.recipient), MAX_PRICE)
    return range(-theirs, mine + 1)


def _draft_prompt(game: Spartacus, offer: Offer) -> Prompt:
    seat = offer.proposer
    cancel = Choice("offer-cancel", "Cancel the offer")
    if _market(game).closed[offer.recipient]:
        text = f"Offer to {game.name_of(offer.recipient)}: they have left the Open Market"
        return Prompt(seat, "compose_offer", text, (cancel,))
    if offer.step is OfferStep.GIVE:
        choices = [
            Choice(f"offer-give:{c}", f"Give {_asset_label(game, c)}") for c in tradable(game, seat)
        ]
        choices.append(Choice("offer-give:none", "Give no card"))
        text = f"Offer to {game.name_of(offer.recipient)}: what do you give?"
    elif offer.step is OfferStep.WANT:
        choices = [Choice(f"offer-want:{c}", f"Ask for {_asset_label(game, c)}")
                   for c in tradable(game, offer.recipient)]  # fmt: skip
        if offer.give is not None:
            choices.append(Choice("offer-want:none", "Ask for no card"))
        text = f"Offer to {game.name_of(offer.recipient)}: what do you want?"
    else:
        choices = [
            Choice(f"offer-price:{n}", _money(game, offer, n)) for n in _price_range(game, offer)
        ]
        text = f"Offer to {game.name_of(offer.recipient)}: how many denarii, and who pays?"
    return Prompt(seat, "compose_offer", text, tuple(choices) + (cancel,))


def _money(game: Spartacus, offer: Offer, n: int) -> str:
    if n == 0:
        return "No denarii"
    if n > 0:
        return f"You pay {n}"
    return f"{game.name_of(offer.recipient)} pays you {-n}"


def _answer_prompt(game: Spartacus, offer: Offer) -> Prompt:
    p = offer.proposer
    choices = [Choice(f"accept:{p}", "Accept"), Choice(f"decline:{p}", "Decline")]
    if offer.counters < COUNTERS_PER_OFFER:
        for n in _price_range(game, offer):
            if n != offer.price:
                choices.append(
                    Choice(f"counter:{p}:{n}", "Counter: " + _counter_text(game, offer, n))
                )
    return Prompt(offer.answer, "answer_offer", "Trade: " + describe(game, offer), tuple(choices))


def _counter_text(game: Spartacus, offer: Offer, n: int) -> str:
    if n == 0:
        return "no denarii"
    payer, amount = (offer.proposer, n) if n > 0 else (offer.recipient, -n)
    return f"{game.name_of(payer)} pays {amount}"


# --- choices --------------------------------------------------------------------------------------


def apply(game: Spartacus, seat: int, choice: str) -> None:
    m = _market(game)
    if m.auction is not None:
        auction.apply(game, seat, choice)
        return
    verb, _, rest = choice.partition(":")
    name = game.name_of(seat)
    if verb == "bank":
        card = game.card(int(rest))
        discard_asset(game, seat, int(rest))
        game.emit(
            f"{name} sells {card.name} to the Bank for {gain(game, seat, card.value)} denarii"
        )
    elif verb == "offer":
        m.offers_made[seat] += 1
        m.offers.append(Offer(seat, int(rest)))
    elif verb == "close":
        m.closed[seat] = True
        game.state.players[seat].hidden = True  # rules: Closing the Open Market
        game.emit(f"{name} closes and hides their denarii")
        for made in [o for o in m.offers if o.recipient == seat and o.step is OfferStep.OPEN]:
            m.offers.remove(made)  # a countered offer: it can no longer be answered
            game.emit(f"{name} has left the Open Market", seats=[made.proposer])
        # A draft addressed to `seat` stays until its proposer cancels it (its prompt now offers
        # nothing else): dropping it here would show the table whom the draft was for.
        if all(m.closed):
            auction.start(game)
    elif verb.startswith("offer-"):
        _compose(game, next(o for o in m.offers if o.proposer == seat), verb, rest)
    else:
        _answer(
            game, next(o for o in m.offers if o.proposer == int(rest.split(":")[0])), verb, rest
        )


def _compose(game: Spartacus, offer: Offer, verb: str, rest: str) -> None:
    m = _market(game)
    if verb == "offer-cancel":
        m.offers.remove(offer)
    elif verb == "offer-give":
        offer.give = None if rest == "none" else int(rest)
        offer.step = OfferStep.WANT
    elif verb == "offer-want":
        offer.want = None if rest == "none" else int(rest)
        offer.step = OfferStep.PRICE
    else:
        offer.price = int(rest)
        offer.step = OfferStep.OPEN
        offer.answer = offer.recipient
        game.emit("Offer: " + describe(game, offer))


def _answer(game: Spartacus, offer: Offer, verb: str, rest: str) -> None:
    m = _market(game)
    who = game.name_of(offer.answer)
    if verb == "counter":
        offer.price = int(rest.split(":")[1])
        offer.counters += 1
        offer.answer = offer.recipient if offer.answer == offer.proposer else offer.proposer
        game.emit(f"{who} counters: " + describe(game, offer))
        return
    m.offers.remove(offer)
    if verb == "decline":
        game.emit(f"{who} declines the trade")
    elif not _still_possible(game, offer):
        game.emit("The trade falls through: what was offered is no longer there")
    else:
        _trade(game, offer)


def _still_possible(game: Spartacus, offer: Offer) -> bool:
    if offer.give is not None and owner_of(game, offer.give) != offer.proposer:
        return False
    if offer.want is not None and owner_of(game, offer.want) != offer.recipient:
        return False
    payer = offer.proposer if offer.price > 0 else offer.recipient
    return free_denarii(game, payer) >= abs(offer.price)


def _trade(game: Spartacus, offer: Offer) -> None:
    """Only transfers are enforced; both sides move at once."""
    text = describe(game, offer)
    for card, giver, taker in ((offer.give, offer.proposer, offer.recipient),
                               (offer.want, offer.recipient, offer.proposer)):  # fmt: skip
        if card is not None:
            take_asset(game, taker, lose_asset(game, giver, card))
    payer, payee = (
        (offer.proposer, offer.recipient) if offer.price > 0 else (offer.recipient, offer.proposer)
    )
    transfer(game, payer, payee, abs(offer.price))
    game.emit("Trade done: " + text)
