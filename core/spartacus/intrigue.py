"""rules: Intrigue Phase - cards, house rules, card abilities and Schemes, turn by turn.

Each Dominus receives 3 Intrigue cards; then, from the Host clockwise, each takes a turn:
trade cards for denarii, use house and card abilities (exhausting cards), put Guards from the
hand on the table, launch Schemes (see `schemes`), and at the end discard to the hand limit.
Every action uses up a card, an exhaustion or a per-turn use, so a turn always ends.

Choice ids: "sell:<card>", "post:<guard>", "scheme:<card>", "power:<ability>[:<asset>][:<card>]"
(house ability; `-` when no asset), "exhaust:<asset>[:<card>]" (a card's ability; `<card>` is
the Intrigue card a Cycle discards), "end", then "discard:<card>" down to the hand limit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harena.core.engine import Choice, Prompt
from harena.core.plural import denarii
from harena.core.spartacus import schemes
from harena.core.spartacus.cards import (
    AssetKind,
    CardKind,
    Cycle,
    Draw,
    Gain,
    GainDenarii,
    GainInfluence,
    HouseAbility,
)
from harena.core.spartacus.choices import (
    CardAct,
    ExhaustAsset,
    OnCard,
    Say,
    UseAbility,
    Word,
    posted_guard,
)
from harena.core.spartacus.holdings import (
    change_influence,
    discard_asset,
    discard_intrigue,
    draw_intrigue,
    favor_count,
    find_asset,
    free_denarii,
    gain,
    pay_bank,
)
from harena.core.spartacus.state import CARDS_PER_INTRIGUE, Asset, IntrigueState, Phase

if TYPE_CHECKING:
    from harena.core.spartacus.rules import Spartacus

POST_LABEL = "Put a Guard on your table"
_KIND = {
    AssetKind.GLADIATOR: CardKind.GLADIATOR,
    AssetKind.SLAVE: CardKind.SLAVE,
    AssetKind.GUARD: CardKind.GUARD,
}


def start(game: Spartacus) -> None:
    s = game.state
    s.phase = Phase.INTRIGUE
    game.emit(f"Round {s.round}: Intrigue")
    for k in range(game.players):
        draw_intrigue(game, (s.host + k) % game.players, CARDS_PER_INTRIGUE)  # rules: Receive Cards
    s.intrigue = IntrigueState(turn=s.host)  # rules: from the Host, clockwise


# --- prompts --------------------------------------------------------------------------------------


def prompts(game: Spartacus) -> list[Prompt]:
    it = game.state.intrigue
    assert it is not None
    if it.scheme is not None:
        return schemes.prompts(game, it.scheme)
    seat = it.turn
    hand = game.state.players[seat].hand
    if it.discarding:
        limit = game.content.hand_limit(game.state.players[seat].influence)
        choices = tuple(OnCard.of(CardAct.DISCARD, c, game.card(c).name) for c in hand)
        return [Prompt(seat, "discard_to_limit", f"Discard down to {limit} cards", choices)]
    return [Prompt(seat, "intrigue_turn", "Your Intrigue turn", tuple(turn_choices(game, seat)))]


def turn_choices(game: Spartacus, seat: int) -> list[Choice]:
    it = game.state.intrigue
    assert it is not None
    hand = game.state.players[seat].hand
    out: list[Choice] = []
    for c in hand:
        card = game.card(c)
        if card.kind is CardKind.SCHEME and c not in it.asked and schemes.may_launch(game, seat, c):
            text = f"Scheme: {card.name} (Influence {card.influence}): {card.text}"
            out.append(OnCard.of(CardAct.SCHEME, c, text))
    guards = [c for c in hand if game.card(c).kind is CardKind.GUARD]
    for c in _one_of_each(game, guards):  # two Guards in hand: one choice, not two alike
        out.append(OnCard.of(CardAct.POST, c, POST_LABEL))
    out.extend(_house_choices(game, seat))
    out.extend(_card_ability_choices(game, seat))
    for c in hand:
        card = game.card(c)
        out.append(OnCard.of(CardAct.SELL, c, f"Trade {card.name} for {denarii(card.value)}"))
    out.append(Say.of(Word.END, "End your turn"))
    return out


def offered_as(game: Spartacus, seat: int, choice: str) -> str | None:
    """`post:<guard>` for a second Guard in hand stands for the first copy's choice (a log saved
    when both copies were offered replays); anything else stands for nothing."""
    card = posted_guard(choice)
    hand = game.state.players[seat].hand
    if card is None or card not in hand or game.card(card).kind is not CardKind.GUARD:
        return None
    same = [c for c in hand if game.state.cards[c] == game.state.cards[card]]
    return f"post:{same[0]}"


def stand_in(choice: str) -> Choice:
    """What a stand-in `post:<guard>` applies (`offered_as`): that very copy is posted, as
    before choices were typed, so a saved log replays to the same state."""
    card = posted_guard(choice)
    assert card is not None
    return OnCard.of(CardAct.POST, card, POST_LABEL)


def _one_of_each(game: Spartacus, cards: list[int]) -> list[int]:
    """The first copy of each card in `cards`: copies of one card are the same choice."""
    seen: set[str] = set()
    out = []
    for c in cards:
        if game.state.cards[c] not in seen:
            seen.add(game.state.cards[c])
            out.append(c)
    return out


def _distinct(assets: list[Asset], game: Spartacus) -> list[Asset]:
    """One of each kind of card: exhausting one House Slave or another is the same choice."""
    seen: set[tuple[str, int, bool]] = set()
    out = []
    for a in assets:
        key = (game.state.cards[a.card], favor_count(a), a.exhausted)
        if key not in seen:
            seen.add(key)
            out.append(a)
    return out


def _cycled(game: Spartacus, seat: int, gain_: Gain) -> list[tuple[int | None, str]]:
    """The cards a Cycle may discard (none: not a Cycle), and how a label says it."""
    if not isinstance(gain_, Cycle):
        return [(None, "")]
    return [(c, f", discarding {game.card(c).name}") for c in game.state.players[seat].hand]


def _house_choices(game: Spartacus, seat: int) -> list[Choice]:
    it = game.state.intrigue
    assert it is not None
    out: list[Choice] = []
    for ab in game.house_of(seat).abilities:
        if isinstance(ab.gain, schemes.SchemeInfluence):
            continue  # used while launching a Scheme
        if (
            (ab.per_turn and it.used.get(ab.id, 0) >= ab.per_turn)
            or free_denarii(game, seat) < ab.pay
            or (ab.below and game.state.players[seat].influence >= ab.below)
        ):
            continue
        for asset in _ability_assets(game, seat, ab):
            ref = None if asset is None else asset.card
            what = "" if asset is None else f" ({game.card(asset.card).name})"
            for cycled, text in _cycled(game, seat, ab.gain):
                label = f"{ab.name}{what}{text}: {ab.text}"
                out.append(UseAbility.of(ab.id, ref, cycled, label))
    return out


def _ability_assets(game: Spartacus, seat: int, ab: HouseAbility) -> list[Asset | None]:
    cost = ab.exhaust or ab.sacrifice
    if cost is None:
        return [None]
    kind = _KIND[cost]
    mine = [a for a in game.state.players[seat].assets if game.card(a.card).kind is kind]
    if ab.exhaust is not None:
        mine = [
            a
            for a in mine
            if not a.exhausted and not a.wounded and (not ab.favored or favor_count(a))
        ]
    return list(_distinct(mine, game))


def _card_ability_choices(game: Spartacus, seat: int) -> list[Choice]:
    out: list[Choice] = []
    ready = [a for a in game.state.players[seat].assets if not a.exhausted and not a.wounded]
    for asset in _distinct(ready, game):
        card = game.card(asset.card)
        ability = getattr(card, "ability", None)
        if ability is None:
            continue
        for cycled, text in _cycled(game, seat, ability):
            label = f"Exhaust {card.name}{text}: {card.text}"
            out.append(ExhaustAsset.of(asset.card, cycled, label))
    return out


# --- choices --------------------------------------------------------------------------------------


def apply(game: Spartacus, seat: int, chosen: Choice) -> None:
    s = game.state
    it = s.intrigue
    assert it is not None
    if it.scheme is not None:
        schemes.apply(game, it.scheme, seat, chosen)
        return
    name = game.name_of(seat)
    match chosen:
        case OnCard(act=CardAct.DISCARD, card=card):
            discard_intrigue(game, seat, card)
            game.emit(f"{name} discards a card to the hand limit")
            _maybe_end_turn(game)
        case OnCard(act=CardAct.SELL, card=card):
            sold = game.card(card)
            discard_intrigue(game, seat, card)  # rules: Trade Cards for Denarii
            paid = gain(game, seat, sold.value)
            game.emit(f"{name} trades {sold.name} for {denarii(paid)}")
        case OnCard(act=CardAct.POST, card=card):
            s.players[seat].hand.remove(card)
            s.players[seat].assets.append(Asset(card))
            # rules: Guards - it cannot return to the hand
            game.emit(f"{name} puts a Guard on the table")
        case OnCard(act=CardAct.SCHEME, card=card):
            schemes.begin(game, seat, card)
        case UseAbility():
            _use_house_ability(game, seat, chosen)
        case ExhaustAsset(asset=ref, cycled=cycled):
            asset = find_asset(game, seat, ref)
            asset.exhausted = True
            card_ = game.card(asset.card)
            game.emit(f"{name} exhausts {card_.name}")
            _apply_gain(game, seat, card_.ability, asset, cycled)
        case Say(word=Word.END):
            it.discarding = True
            _maybe_end_turn(game)


def _use_house_ability(game: Spartacus, seat: int, chosen: UseAbility) -> None:
    it = game.state.intrigue
    assert it is not None
    ab = next(a for a in game.house_of(seat).abilities if a.id == chosen.ability)
    it.used[ab.id] = it.used.get(ab.id, 0) + 1
    asset = None if chosen.asset is None else find_asset(game, seat, chosen.asset)
    if ab.pay:
        pay_bank(game, seat, ab.pay)
    game.emit(f"{game.name_of(seat)} uses {ab.name}")
    if asset is not None and ab.exhaust is not None:
        asset.exhausted = True
    elif asset is not None:
        discard_asset(game, seat, asset.card)  # sacrificed
    _apply_gain(game, seat, ab.gain, asset, chosen.cycled)


def _apply_gain(
    game: Spartacus, seat: int, gain_: Gain, asset: Asset | None, cycled: int | None
) -> None:
    name = game.name_of(seat)
    if isinstance(gain_, GainDenarii):
        amount = gain_.amount * (favor_count(asset) if gain_.per_favor and asset else 1)
        game.emit(f"{name} gains {denarii(gain(game, seat, amount))}")
    elif isinstance(gain_, Draw):
        draw_intrigue(game, seat, gain_.count)
    elif isinstance(gain_, Cycle):
        if cycled is not None:
            discard_intrigue(game, seat, cycled)
            game.emit(f"{name} discards an Intrigue card")
        draw_intrigue(game, seat, 1)
    elif isinstance(gain_, GainInfluence):
        game.emit(f"{name} gains {change_influence(game, seat, gain_.amount)} Influence")


def _maybe_end_turn(game: Spartacus) -> None:
    """rules: End of Your Turn - discard to the Maximum Hand Size, then clockwise."""
    s = game.state
    it = s.intrigue
    assert it is not None
    p = s.players[it.turn]
    if len(p.hand) > game.content.hand_limit(p.influence):
        return
    it.turns_done += 1
    if it.turns_done >= game.players:
        s.intrigue = None
        game.end_phase()
        return
    s.intrigue = IntrigueState(turn=(it.turn + 1) % game.players, turns_done=it.turns_done)
