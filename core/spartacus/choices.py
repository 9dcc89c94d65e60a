"""Typed choices: what a prompt offers carries what it picks, so the rules apply the choice the
prompt builder made instead of parsing its id again (as Carthage's `core/carthage/choices.py`).
The ids (what clients send and saved action logs hold) are the same as ever: each is made here
from the typed value, and `Spartacus.offered` hands the rules the offered value for an id.

Most choices name one card instance (`OnCard`, its verb an enum), a seat (`OnSeat`) or a sum
(`OnSum`); a choice that is a fixed word is a `Say`. The rest carry their own fields. The ids,
by prompt kind, are listed in `rules`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from harena.core.engine import Choice


class Favour(Enum):
    """What an ask of denarii is for (`asks`)."""

    INVITE = "invite"  # the Host invites the Dominus asked
    ACCEPT = "accept"  # the invited Dominus accepts
    SPARE = "spare"  # the Host turns the thumb up on the asked Dominus's combatant
    SUPPORT = "support"  # the asker supports the asked Dominus's Scheme


class Word(Enum):
    """The choices that are one fixed id."""

    END = "end"  # an Intrigue turn, a combatant's action
    ASK_SHOW = "ask:show"  # ask for support for a Scheme, showing it
    ASK_HIDE = "ask:hide"  # ... keeping it hidden
    BUY = "buy"  # the Influence a Scheme lacks
    WITHDRAW = "withdraw"  # a Scheme, back to the hand
    SUPPORT = "support"  # another's Scheme
    REFUSE = "refuse"  # support, or an invitation
    PASS = "pass"  # a reaction window: let it be
    ACCEPT = "accept"  # an invitation
    CLOSE = "close"  # the Open Market
    OFFER_SEND = "offer-send"
    OFFER_CANCEL = "offer-cancel"
    NO_BET = "bet:none"
    FIRST = "first"  # initiative
    SECOND = "second"
    ATTACK = "attack"
    NO_EQUIPMENT = "equip:none"
    THUMBS_UP = "thumbs:up"
    THUMBS_DOWN = "thumbs:down"


@dataclass(frozen=True, slots=True)
class Say(Choice):
    """A fixed word: the id is the word."""

    word: Word

    @classmethod
    def of(cls, word: Word, label: str) -> Say:
        return cls(word.value, label, word)


class CardAct(Enum):
    """What a choice does with one card instance: "<verb>:<card>"."""

    DISCARD = "discard"  # to the hand limit
    SELL = "sell"  # an Intrigue card, for its value
    POST = "post"  # a Guard on your table
    SCHEME = "scheme"  # a Scheme from hand
    REACT = "react"  # a Reaction card, in a window or at an invitation
    GUARD_HAND = "guard-hand"  # a Guard from hand against a Scheme
    GUARD_TABLE = "guard-table"  # a Guard from your table against a Scheme
    PICK = "pick"  # the victim of a Scheme's effect
    UNPAY = "unpay"  # a gladiator or slave not paid for at upkeep
    BANK = "bank"  # an asset sold to the Bank
    OFFER_CARD = "offer-card"  # a card put in (or out of) a trade offer
    FIGHTER = "fighter"  # a combatant sent to the Arena
    EQUIP = "equip"  # an Equipment card for the combatant


@dataclass(frozen=True, slots=True)
class OnCard(Choice):
    """ "<verb>:<card instance>"."""

    act: CardAct
    card: int

    @classmethod
    def of(cls, act: CardAct, card: int, label: str) -> OnCard:
        return cls(f"{act.value}:{card}", label, act, card)


class SeatAct(Enum):
    """What a choice does with one seat: "<verb>:<seat>"."""

    TARGET = "target"  # a Scheme's target
    INVITE = "invite"  # a House to the games
    OFFER = "offer"  # a trade offer to that Dominus


@dataclass(frozen=True, slots=True)
class OnSeat(Choice):
    """ "<verb>:<seat>"."""

    act: SeatAct
    seat: int

    @classmethod
    def of(cls, act: SeatAct, seat: int, label: str) -> OnSeat:
        return cls(f"{act.value}:{seat}", label, act, seat)


class SumAct(Enum):
    """What a choice does with a number of denarii: "<verb>:<n>"."""

    BID = "bid"
    OFFER_PRICE = "offer-price"


@dataclass(frozen=True, slots=True)
class OnSum(Choice):
    """ "<verb>:<n>"."""

    act: SumAct
    amount: int

    @classmethod
    def of(cls, act: SumAct, amount: int, label: str) -> OnSum:
        return cls(f"{act.value}:{amount}", label, act, amount)


@dataclass(frozen=True, slots=True)
class ChooseHouse(Choice):
    """ "house:<house id>"."""

    house: str

    @classmethod
    def of(cls, house: str, label: str) -> ChooseHouse:
        return cls(f"house:{house}", label, house)


@dataclass(frozen=True, slots=True)
class GiveDenarii(Choice):
    """ "give:<seat>:<amount>": a gift, at any time."""

    to: int
    amount: int

    @classmethod
    def of(cls, to: int, amount: int, label: str) -> GiveDenarii:
        return cls(f"give:{to}:{amount}", label, to, amount)


@dataclass(frozen=True, slots=True)
class AskDenarii(Choice):
    """ "ask:<seat>:<amount>:<favour>": an ask, not binding."""

    asked: int
    amount: int
    favour: Favour

    @classmethod
    def of(cls, asked: int, amount: int, favour: Favour, label: str) -> AskDenarii:
        return cls(f"ask:{asked}:{amount}:{favour.value}", label, asked, amount, favour)


@dataclass(frozen=True, slots=True)
class AnswerAsk(Choice):
    """ "payask:<index>" (pay it) or "refuseask:<index>" (say no)."""

    index: int
    pay: bool

    @classmethod
    def of(cls, index: int, pay: bool, label: str) -> AnswerAsk:
        return cls(f"{'payask' if pay else 'refuseask'}:{index}", label, index, pay)


@dataclass(frozen=True, slots=True)
class UseAbility(Choice):
    """ "power:<ability>:<asset|->[:<cycled card>]": a House ability, through an asset or not,
    and the card a Cycle discards (if any)."""

    ability: str
    asset: int | None
    cycled: int | None

    @classmethod
    def of(cls, ability: str, asset: int | None, cycled: int | None, label: str) -> UseAbility:
        ref = "-" if asset is None else asset
        suffix = "" if cycled is None else f":{cycled}"
        return cls(f"power:{ability}:{ref}{suffix}", label, ability, asset, cycled)


@dataclass(frozen=True, slots=True)
class ExhaustAsset(Choice):
    """ "exhaust:<asset>[:<cycled card>]": a card ability on your table."""

    asset: int
    cycled: int | None

    @classmethod
    def of(cls, asset: int, cycled: int | None, label: str) -> ExhaustAsset:
        suffix = "" if cycled is None else f":{cycled}"
        return cls(f"exhaust:{asset}{suffix}", label, asset, cycled)


def held_card(choice_id: str) -> tuple[CardAct, int] | None:
    """A Scheme's secret reply, kept in the state as its id until every reply is in, read
    back: what it does with which card (None: it lets the Scheme be)."""
    verb, _, card = choice_id.partition(":")
    return (CardAct(verb), int(card)) if card else None


class BetOn(Enum):
    """What a bet is on (rules: Making Bets); the value is `state.Bet.kind`."""

    WIN = "win"
    WOUND = "wound"
    DECAP = "decap"


@dataclass(frozen=True, slots=True)
class PlaceBet(Choice):
    """ "bet:win:<seat>:<n>" (on that seat's combatant), "bet:wound:<n>", "bet:decap:<n>"."""

    on: BetOn
    seat: int  # whose combatant wins (BetOn.WIN only; else -1)
    amount: int

    @classmethod
    def of(cls, on: BetOn, seat: int, amount: int, label: str) -> PlaceBet:
        whose = f"{seat}:" if on is BetOn.WIN else ""
        return cls(f"bet:{on.value}:{whose}{amount}", label, on, seat, amount)


@dataclass(frozen=True, slots=True)
class StepTo(Choice):
    """ "step:<direction>": a combatant's step (the board's name for the direction)."""

    direction: str

    @classmethod
    def of(cls, direction: str, label: str) -> StepTo:
        return cls(f"step:{direction}", label, direction)


@dataclass(frozen=True, slots=True)
class LoseDie(Choice):
    """ "lose:atk|def|spd": the die a wounded combatant gives up."""

    pool: str

    @classmethod
    def of(cls, pool: str, label: str) -> LoseDie:
        return cls(f"lose:{pool}", label, pool)


class Reply(Enum):
    """An answer to a trade offer: "<reply>:<offer id>"."""

    ACCEPT = "accept"
    DECLINE = "decline"
    COUNTER = "counter"


@dataclass(frozen=True, slots=True)
class AnswerOffer(Choice):
    """ "accept:<offer>", "decline:<offer>", "counter:<offer>"."""

    reply: Reply
    offer: int

    @classmethod
    def of(cls, reply: Reply, offer: int, label: str) -> AnswerOffer:
        return cls(f"{reply.value}:{offer}", label, reply, offer)


def posted_guard(choice_id: str) -> int | None:
    """The card a "post:<card>" id names (None: not such an id), for an id no prompt offered:
    a second Guard in hand stands for the first copy's choice (`intrigue.offered_as`)."""
    verb, _, card = choice_id.partition(":")
    return int(card) if verb == CardAct.POST.value and card.isdigit() else None
