"""rules: Market Phase - the Open Market, then (see `auction`) the auctions and the Host title.

In the Open Market every Dominus acts at once: sell Resources to the Bank, or offer another
Dominus a trade: any of your Gladiators, Slaves, Equipment and Guards, with denarii either way,
for any of theirs (FAQ 5: the only time these cards change hands; Intrigue cards never do). An
offer is built like a hand of cards on the table: toggle each card in or out, name the denarii,
send. The other side accepts, declines or counters by rebuilding any part and sending it back;
counters go back and forth at most twice. Offers to several Dominus at once are separate offers
(one at a time to each); while yours are out, you may still trade or close, but the game waits
for their answers, not for you. A draft is its drafter's secret until sent: if its recipient
closes meanwhile, the proposer can only cancel it. Closing hides your denarii and withdraws your
offers; when everyone has closed, the auction begins. Each Dominus makes at most `offer_limit`
offers per Market (a table option; ruling: keeps every Market finite).

Choice ids: "bank:<asset>", "offer:<seat>", "close"; composing "offer-card:<asset>" (in or out;
either side's card), "offer-price:<n>" (n < 0: the recipient pays), "offer-send", "offer-cancel";
answering "accept:<offer>", "decline:<offer>", "counter:<offer>".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harena.core.engine import Choice, Prompt
from harena.core.plural import denarii
from harena.core.spartacus import auction
from harena.core.spartacus.cards import CardKind
from harena.core.spartacus.choices import (
    AnswerOffer,
    CardAct,
    OnCard,
    OnSeat,
    OnSum,
    Reply,
    Say,
    SeatAct,
    SumAct,
    Word,
)
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
    Terms,
)

if TYPE_CHECKING:
    from harena.core.spartacus.rules import Spartacus

MAX_PRICE = 30  # the largest sum one offer names (a longer list helps nobody)
_TRADABLE = frozenset({CardKind.GLADIATOR, CardKind.SLAVE, CardKind.EQUIPMENT, CardKind.GUARD})


def start(game: Spartacus) -> None:
    s = game.state
    s.phase = Phase.MARKET
    n = game.players
    limit = int(game.config.options.get("market_offers", str(OFFERS_PER_MARKET)))
    s.market = MarketState(closed=[False] * n, offers_made=[0] * n, offer_limit=limit)
    game.emit(f"Round {s.round}: Market - the Open Market is open")


def _market(game: Spartacus) -> MarketState:
    assert game.state.market is not None
    return game.state.market


def tradable(game: Spartacus, seat: int) -> list[int]:
    return [a.card for a in game.state.players[seat].assets if game.card(a.card).kind in _TRADABLE]


def _asset_label(game: Spartacus, card: int) -> str:
    owner = owner_of(game, card)
    asset = (
        next(a for a in game.state.players[owner].assets if a.card == card)
        if owner is not None
        else None
    )
    return label(game.card(card), asset) if asset else game.card(card).name


def _cards_text(game: Spartacus, cards: list[int]) -> str:
    return ", ".join(_asset_label(game, c) for c in cards) if cards else "nothing"


def describe(game: Spartacus, offer: Offer, terms: Terms | None = None) -> str:
    t = offer.terms if terms is None else terms
    money = ""
    if t.price > 0:
        money = f" and {denarii(t.price)} from {game.name_of(offer.proposer)}"
    elif t.price < 0:
        money = f" and {denarii(-t.price)} from {game.name_of(offer.recipient)}"
    return (f"{game.name_of(offer.proposer)} gives {_cards_text(game, t.give)}, "
            f"{game.name_of(offer.recipient)} gives {_cards_text(game, t.want)}{money}")  # fmt: skip


def count(game: Spartacus, what: str, seat: int) -> None:
    """Public deal counts per seat (offers sent, trades done, Bank sales), for `simulate`."""
    tally = game.state.deals.setdefault(what, [0] * game.players)
    tally[seat] += 1


def other_party(offer: Offer, seat: int) -> int:
    return offer.recipient if seat == offer.proposer else offer.proposer


def _live(m: MarketState, proposer: int, recipient: int) -> bool:
    return any(o.proposer == proposer and o.recipient == recipient for o in m.offers)


# --- prompts --------------------------------------------------------------------------------------


def prompts(game: Spartacus) -> list[Prompt]:
    m = _market(game)
    if m.auction is not None or all(m.closed):
        return auction.prompts(game)
    out: list[Prompt] = []
    for seat in range(game.players):
        if m.closed[seat]:
            continue
        drafting = next((o for o in m.offers if o.answer == seat and o.draft is not None), None)
        if drafting is not None:
            out.append(_draft_prompt(game, drafting))
            continue
        answers = [o for o in m.offers if o.step is OfferStep.OPEN and o.answer == seat]
        if answers:
            out.extend(_answer_prompt(game, o) for o in answers)
            continue
        # With offers out and awaiting others, the game waits for them, not for this seat (an
        # unsent draft counts for nobody else: whom it is for is its drafter's secret).
        waiting = any(o.sent and seat in (o.proposer, o.recipient) for o in m.offers)
        out.append(_main_prompt(game, seat, standing=waiting))
    return out


def _main_prompt(game: Spartacus, seat: int, standing: bool = False) -> Prompt:
    m = _market(game)
    choices: list[Choice] = []
    seen: set[tuple[str, bool, bool, int]] = set()
    for a in game.state.players[seat].assets:
        card = game.card(a.card)
        key = (card.id, a.wounded, a.champion, a.favor)
        if card.kind in _TRADABLE and key not in seen:
            seen.add(key)
            sell = f"Sell {label(card, a)} to the Bank for {card.value}"
            choices.append(OnCard.of(CardAct.BANK, a.card, sell))
    if m.offers_made[seat] < m.offer_limit:
        for other in range(game.players):
            if other != seat and not m.closed[other] and not _live(m, seat, other):
                trade = f"Offer {game.name_of(other)} a trade"
                choices.append(OnSeat.of(SeatAct.OFFER, other, trade))
    close = "Close: hide your denarii and leave the Open Market"
    if standing:
        close += " (withdraws your offers)"
    choices.append(Say.of(Word.CLOSE, close))
    # what cannot be undone is asked twice: closing is for good (offers withdrawn, no more
    # trades or Bank sales), and the Bank never sells back
    final = tuple(c.id for c in choices if isinstance(c, (Say, OnCard)))
    return Prompt(
        seat, "open_market", "The Open Market", tuple(choices), standing=standing,
        confirm=final,
    )  # fmt: skip


def _price_range(game: Spartacus, offer: Offer) -> range:
    """Both treasuries are open while their owners are in the Open Market, so the range shows
    nothing hidden; an offer never names more than its payer holds now."""
    mine = min(free_denarii(game, offer.proposer), MAX_PRICE)
    theirs = min(free_denarii(game, offer.recipient), MAX_PRICE)
    return range(-theirs, mine + 1)


def _draft_prompt(game: Spartacus, offer: Offer) -> Prompt:
    seat = offer.answer
    other = other_party(offer, seat)
    draft = offer.draft
    assert draft is not None
    cancel_text = "Cancel the offer" if not offer.sent else "Cancel the counter (back to the offer)"
    cancel = Say.of(Word.OFFER_CANCEL, cancel_text)
    if _market(game).closed[other]:
        text = f"Offer to {game.name_of(other)}: they have left the Open Market"
        return Prompt(seat, "compose_offer", text, (cancel,))
    draft = _pruned(game, offer, draft)  # a prompt only reads: the draft itself is pruned on send
    choices: list[Choice] = []
    for owner, chosen, verb in ((seat, _side(offer, draft, seat), "Give"),
                                (other, _side(offer, draft, other), "Ask for")):  # fmt: skip
        for c in tradable(game, owner):
            mark = "[x]" if c in chosen else "[ ]"
            pick = f"{mark} {verb} {_asset_label(game, c)}"
            choices.append(OnCard.of(CardAct.OFFER_CARD, c, pick))
    for n in _price_steps(game, offer, draft.price):
        price = f"Denarii: {_money(game, offer, seat, n)}"
        choices.append(OnSum.of(SumAct.OFFER_PRICE, n, price))
    if draft.give or draft.want:  # something must change hands besides coins (a gift is `give:`)
        choices.append(Say.of(Word.OFFER_SEND, "Send: " + describe(game, offer, draft)))
    verb = "Counter" if offer.sent else "Offer"
    money = _money(game, offer, seat, draft.price)
    money = money[0].lower() + money[1:] if money.startswith(("You", "No")) else money
    text = (
        f"{verb} to {game.name_of(other)}: pick cards each way and the denarii ({money}), then send"
    )
    return Prompt(seat, "compose_offer", text, tuple(choices) + (cancel,))


def _price_steps(game: Spartacus, offer: Offer, now: int) -> list[int]:
    """A few sums near the one named (1 and 5 either way, and none), so the whole offer fits
    one page of keys; any sum in range is a few presses away."""
    bounds = _price_range(game, offer)
    steps = sorted({now - 5, now - 1, 0, now + 1, now + 5} - {now})
    return [n for n in steps if n in bounds]


def _side(offer: Offer, terms: Terms, seat: int) -> list[int]:
    return terms.give if seat == offer.proposer else terms.want


def _pruned(game: Spartacus, offer: Offer, terms: Terms) -> Terms:
    """The terms without the cards sold or lost since they were picked."""
    give = [c for c in terms.give if owner_of(game, c) == offer.proposer]
    want = [c for c in terms.want if owner_of(game, c) == offer.recipient]
    return Terms(give, want, terms.price)


def _money(game: Spartacus, offer: Offer, seat: int, n: int) -> str:
    """`n` as the drafter reads it: n > 0, the proposer pays."""
    if n == 0:
        return "No denarii"
    payer, amount = (offer.proposer, n) if n > 0 else (offer.recipient, -n)
    if payer == seat:
        return f"You pay {amount}"
    return f"{game.name_of(payer)} pays you {amount}"


def _answer_prompt(game: Spartacus, offer: Offer) -> Prompt:
    i = offer.id
    choices = [
        AnswerOffer.of(Reply.ACCEPT, i, "Accept"),
        AnswerOffer.of(Reply.DECLINE, i, "Decline"),
    ]
    if offer.counters < COUNTERS_PER_OFFER:
        text = "Counter: change any part and send it back"
        choices.append(AnswerOffer.of(Reply.COUNTER, i, text))
    return Prompt(offer.answer, "answer_offer", "Trade: " + describe(game, offer), tuple(choices))


# --- choices --------------------------------------------------------------------------------------


def apply(game: Spartacus, seat: int, chosen: Choice) -> None:
    m = _market(game)
    if m.auction is not None:
        assert isinstance(chosen, OnSum)
        auction.apply(game, seat, chosen)
        return
    name = game.name_of(seat)
    match chosen:
        case OnCard(act=CardAct.BANK, card=ref):
            card = game.card(ref)
            discard_asset(game, seat, ref)
            count(game, "bank_sales", seat)
            game.emit(
                f"{name} sells {card.name} to the Bank for {denarii(gain(game, seat, card.value))}"
            )
        case OnSeat(act=SeatAct.OFFER, seat=other):
            m.offers_made[seat] += 1
            m.offers.append(Offer(m.next_offer, seat, other, answer=seat))
            m.next_offer += 1
        case Say(word=Word.CLOSE):
            _close(game, seat)
        case AnswerOffer(reply=reply, offer=ref):
            _answer(game, next(o for o in m.offers if o.id == ref), reply)
        case _:  # the draft's own choices
            drafting = next(o for o in m.offers if o.answer == seat and o.draft is not None)
            _compose(game, drafting, chosen)


def _close(game: Spartacus, seat: int) -> None:
    m = _market(game)
    name = game.name_of(seat)
    m.closed[seat] = True
    game.state.players[seat].hidden = True  # rules: Closing the Open Market
    game.emit(f"{name} closes and hides their denarii")
    for made in [o for o in m.offers if seat in (o.proposer, o.recipient) and o.sent]:
        m.offers.remove(made)  # sent, so public: withdrawn or no longer answerable
        game.emit(f"{name} has left the Open Market: the offer between {game.name_of(made.proposer)} "
                  f"and {game.name_of(made.recipient)} is off")  # fmt: skip
    # A draft (never sent) addressed to `seat` stays until its proposer cancels it (its prompt
    # now offers nothing else): dropping it here would show the table whom the draft was for.
    # The closing seat's own unsent drafts cannot exist: a drafter's only prompt is the draft.
    if all(m.closed):
        auction.start(game)


def _compose(game: Spartacus, offer: Offer, chosen: Choice) -> None:
    m = _market(game)
    draft = offer.draft
    assert draft is not None
    match chosen:
        case Say(word=Word.OFFER_CANCEL):
            _cancel(m, offer)
        case OnCard(act=CardAct.OFFER_CARD, card=card):
            side = draft.give if owner_of(game, card) == offer.proposer else draft.want
            if card in side:
                side.remove(card)
            else:
                side.append(card)
        case OnSum(act=SumAct.OFFER_PRICE, amount=price):
            draft.price = price
        case Say(word=Word.OFFER_SEND):
            who = game.name_of(offer.answer)
            countered = offer.sent
            offer.terms, offer.draft, offer.sent = _pruned(game, offer, draft), None, True
            offer.answer = other_party(offer, offer.answer)
            if countered:
                offer.counters += 1
                game.emit(f"{who} counters: " + describe(game, offer))
            else:
                count(game, "offers", offer.proposer)
                game.emit("Offer: " + describe(game, offer))


def _cancel(m: MarketState, offer: Offer) -> None:
    if offer.sent:
        # The counter is dropped: the terms sent stand, to be answered. It still counts as
        # a counter, or counter-and-cancel could go on for ever (ruling: every Market ends).
        offer.draft = None
        offer.counters += 1
    else:
        m.offers.remove(offer)


def _answer(game: Spartacus, offer: Offer, reply: Reply) -> None:
    m = _market(game)
    who = game.name_of(offer.answer)
    if reply is Reply.COUNTER:
        offer.draft = offer.terms.copy()
        return
    m.offers.remove(offer)
    if reply is Reply.DECLINE:
        game.emit(f"{who} declines the trade")
    elif not _still_possible(game, offer):
        game.emit("The trade falls through: what was offered is no longer there")
    else:
        _trade(game, offer)


def _still_possible(game: Spartacus, offer: Offer) -> bool:
    t = offer.terms
    if any(owner_of(game, c) != offer.proposer for c in t.give):
        return False
    if any(owner_of(game, c) != offer.recipient for c in t.want):
        return False
    payer = offer.proposer if t.price > 0 else offer.recipient
    return free_denarii(game, payer) >= abs(t.price)


def _trade(game: Spartacus, offer: Offer) -> None:
    """Only transfers are enforced; both sides move at once."""
    t = offer.terms
    text = describe(game, offer)
    moving = [(c, offer.proposer, offer.recipient) for c in t.give]
    moving += [(c, offer.recipient, offer.proposer) for c in t.want]
    assets = [(taker, lose_asset(game, giver, card)) for card, giver, taker in moving]
    for taker, asset in assets:
        take_asset(game, taker, asset)
    payer, payee = (
        (offer.proposer, offer.recipient) if t.price > 0 else (offer.recipient, offer.proposer)
    )
    transfer(game, payer, payee, abs(t.price))
    count(game, "trades", offer.proposer)
    count(game, "trades", offer.recipient)
    game.emit("Trade done: " + text)
