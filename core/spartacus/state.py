"""Everything that changes during a game of Spartacus, as one dataclass tree (`SpartacusState`).

Cards are physical copies: `cards[i]` is the card id of instance `i`; every pile (decks, discard
piles, hands, a house's table, the auction lots, a scheme being launched) holds instance ids, so
each copy is in exactly one place (a property test checks it). Decks are lists whose *end* is
the top. Denarii are conserved: the houses' treasuries, the Bank and the bets on the Arena board
always add up to the coins in the box (checked by the property tests).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from harena.core.spartacus.board import CENTRE, Hex

# rules: Maintenance Phase - Wound Recovery.
HEAL_FROM = 4  # 4-6: the wounded marker comes off
DIE_ON = 1  # 1: the combatant dies
GUARD_SAVES_FROM = 4  # rules: Guards - 4-6 cancels the Scheme
CARDS_PER_INTRIGUE = 3  # rules: Receive Cards
FAVOR_TRIBUTE = 2  # rules: Tribute - per Favor marker
CHAMPION_TRIBUTE = 6  # per Champion marker
FAVORS_FOR_CHAMPION = 3  # rules: Crowning a Champion
BET_AMOUNTS = (1, 2, 3)  # rules: Making Bets
UNOPPOSED_WOUNDS_FROM = 3  # FAQ 2
# rulings (docs/rulings.md): bounds that keep every game finite.
OFFERS_PER_MARKET = 4  # offers one Dominus may make in one Open Market (the table may set it)
COUNTERS_PER_OFFER = 2  # counters per offer, both sides together
# A fight has no round limit (rules: Defeat); only combatants who both stop attacking could
# make it last for ever, so this many rounds in a row without an attack are settled by a
# Speed roll-off (docs/rulings.md; bench/spartacus_fights.py measures how rare that is).
QUIET_ROUNDS = 10


class Phase(Enum):
    HOUSES = "houses"  # rules: Setup 1 - choosing House boards
    MAINTENANCE = "maintenance"
    INTRIGUE = "intrigue"
    MARKET = "market"
    ARENA = "arena"
    FINAL = "final"  # rules: Game Objective - several at 12 settle it in the Arena
    OVER = "over"


@dataclass
class Asset:
    """A Resource card on a house's table: Gladiator, Slave, Equipment or Guard."""

    card: int
    exhausted: bool = False
    wounded: bool = False
    favor: int = 0
    champion: bool = False


@dataclass
class Player:
    house: str = ""
    influence: int = 0
    denarii: int = 0
    hand: list[int] = field(default_factory=list)  # Intrigue cards, hidden
    assets: list[Asset] = field(default_factory=list)
    hidden: bool = False  # rules: Closing the Open Market - denarii hidden until the Arena


# --- Intrigue -------------------------------------------------------------------------------------


class SchemeStep(Enum):
    TARGET = "target"  # choose_target
    ASK = "ask"  # short of Influence: ask for support (shown or hidden), pay, or withdraw
    SUPPORT = "support"  # the others decide, all at once
    PAY = "pay"  # after support, still short: pay (Solonius) or withdraw
    REACT = "react"  # the reaction window: everyone asked answers at once, in secret
    PICK = "pick"  # the schemer picks the victim of a Wound, Kill or Exhaust


@dataclass
class Scheme:
    card: int
    schemer: int
    step: SchemeStep = SchemeStep.TARGET
    target: int = -1  # -1 until chosen
    revealed: bool = False  # shown to the players asked for support
    answers: list[bool | None] = field(default_factory=list)  # per seat; None: not yet / not asked
    bought: int = 0  # Influence paid for in denarii (Solonius)
    # the reaction window: the seats asked, clockwise from the schemer's left, and their
    # secret replies ("pass", "react:<card>", "guard-hand:<card>", "guard-table:<asset>")
    queue: list[int] = field(default_factory=list)
    replies: list[str | None] = field(default_factory=list)
    effect: int = 0  # the effect waiting for a pick


@dataclass
class IntrigueState:
    turn: int  # whose Intrigue turn
    turns_done: int = 0
    used: dict[str, int] = field(default_factory=dict)  # house ability id -> uses this turn
    asked: list[int] = field(default_factory=list)  # schemes that found no support this turn
    discarding: bool = False  # end of turn: down to the hand limit
    scheme: Scheme | None = None
    guard_roll: list[int] = field(default_factory=list)  # the last Guard roll: [seat, roll], public


# --- Market ---------------------------------------------------------------------------------------


class OfferStep(Enum):
    DRAFT = "draft"  # being composed by `answer` (a new offer, or a counter to the terms sent)
    OPEN = "open"  # sent: waiting for `answer` to accept, decline or counter


@dataclass
class Terms:
    """What a trade moves: any of each side's Resource cards, and denarii one way."""

    give: list[int] = field(default_factory=list)  # cards of the proposer's table
    want: list[int] = field(default_factory=list)  # cards of the recipient's table
    price: int = 0  # denarii the proposer pays (negative: the recipient pays)

    def copy(self) -> Terms:
        return Terms(list(self.give), list(self.want), self.price)


@dataclass
class Offer:
    id: int  # unique in its Market: a Dominus may have offers out to several others at once
    proposer: int
    recipient: int
    terms: Terms = field(default_factory=Terms)  # the terms last sent (public once sent)
    draft: Terms | None = field(default_factory=Terms)  # being composed by `answer`, secret
    sent: bool = False
    counters: int = 0
    answer: int = -1  # whose move: composing the draft, or answering the terms

    @property
    def step(self) -> OfferStep:
        return OfferStep.DRAFT if self.draft is not None else OfferStep.OPEN


@dataclass
class Auction:
    """One lot (or the Host title when `card` is None) being bid for."""

    card: int | None
    bidders: list[int]
    bids: list[int | None]  # this bidding round, per seat
    totals: list[int]  # bids already on the table from earlier (tied) rounds, per seat


@dataclass
class MarketState:
    closed: list[bool]
    offers_made: list[int]
    offer_limit: int = OFFERS_PER_MARKET  # offers per Dominus in this Market (a table option)
    next_offer: int = 0
    offers: list[Offer] = field(default_factory=list)
    lots: list[int] = field(default_factory=list)  # face down on the Arena board
    auction: Auction | None = None
    # The last auction settled, public, so screens can show it once the next lot is up:
    # [card instance or -1 for the Host title, winner or -1, price], and each bidder's total.
    last_sale: list[int] = field(default_factory=list)
    last_bids: list[int] = field(default_factory=list)


# --- Reactions to other events -------------------------------------------------------------------


@dataclass
class ReactionWindow:
    """rules: Intrigue Phase - Reactions "can be played in response to other events": an event
    waits while every Dominus its Reactions could serve (by public facts) answers at once."""

    event: str  # "auction_won" or "wounded" (the cards' `answers`)
    seat: int  # the event's Dominus: the auction's winner, the wounded combatant's owner
    card: int  # the lot won, or the wounded combatant
    price: int = 0  # what the winner paid
    asked: list[int] = field(default_factory=list)
    answers: list[str | None] = field(default_factory=list)  # per seat: "pass", "react:<card>"


# --- Arena ----------------------------------------------------------------------------------------


class ArenaStep(Enum):
    INVITE = "invite"
    ANSWER = "answer"
    COMBATANT = "combatant"
    EQUIP = "equip"
    BETS = "bets"
    FIGHT = "fight"
    THUMBS = "thumbs"


@dataclass
class Fighter:
    seat: int
    card: int  # the combatant's instance
    equipment: list[int] = field(default_factory=list)
    atk: int = 0
    defence: int = 0
    spd: int = 0
    at: Hex = CENTRE

    def pool(self, name: str) -> int:
        return {"atk": self.atk, "def": self.defence, "spd": self.spd}[name]


@dataclass
class Bet:
    kind: str  # "win", "wound", "decap"
    on: int  # the seat whose combatant wins ("win" only; else -1)
    amount: int


@dataclass
class Fight:
    round: int = 0
    order: list[int] = field(default_factory=list)  # fighter indices in acting order
    acting: int = 0  # position in `order`
    chooser: int | None = None  # fighter who won initiative and picks first or second
    moves: int = 0  # hexes the acting fighter may still move
    attacked: bool = False
    struck: bool = False  # an attack was made this round (by either combatant)
    quiet: int = 0  # rounds in a row, before this one, without an attack
    moved_first: bool = False  # moved before attacking: the action's moves are over once it attacks
    damage: int = 0  # dice the defender still has to give up
    defender: int | None = None
    # The last roll, public, so screens can draw it as dice: "initiative" (each fighter's Speed
    # dice) or "attack" (the attacker's Attack dice, the other's Defense dice), per fighter index.
    roll_kind: str = ""
    roll_dice: list[list[int]] = field(default_factory=lambda: [[], []])
    roll_by: int | None = None  # the attacker (fighter index) of an "attack" roll


@dataclass
class ArenaState:
    step: ArenaStep = ArenaStep.INVITE
    asked: list[int] = field(default_factory=list)  # invited (accepted or refused)
    invitee: int | None = None
    fighters: list[Fighter] = field(default_factory=list)
    slot: int = 0  # equipment slot being chosen, index into Slot
    bets: list[Bet | None] = field(default_factory=list)
    betted: list[bool] = field(default_factory=list)  # placed, still hidden
    staked: bool = False  # all bets revealed: the stakes are off the treasuries, on the board
    fight: Fight | None = None
    loser: int | None = None  # fighter index
    outcome: str = ""  # "yield", "wound", "decapitation"
    contenders: list[int] = field(default_factory=list)  # FINAL: still in contention


# --- Deals ----------------------------------------------------------------------------------------


@dataclass
class Ask:
    """A public request for denarii in return for a favour (see `asks`); not binding."""

    asker: int
    asked: int
    amount: int
    favour: str  # asks.Favour's value
    moment: str  # the favour's moment: the ask is open while it lasts
    paid: bool = False
    refused: bool = False  # the Dominus asked said no (public; they may still pay it)


@dataclass
class SpartacusState:
    cards: list[str]
    players: list[Player]
    bank: int
    coins: int  # every denarius in the box (the invariant's total)
    market_deck: list[int]
    intrigue_deck: list[int]
    market_discard: list[int] = field(default_factory=list)
    intrigue_discard: list[int] = field(default_factory=list)
    host: int = 0
    phase: Phase = Phase.HOUSES
    round: int = 0
    house_order: list[int] = field(default_factory=list)  # seats still to choose a House
    discard_due: list[int] = field(default_factory=list)  # Maintenance: gladiators unpaid, per seat
    intrigue: IntrigueState | None = None
    market: MarketState | None = None
    arena: ArenaState | None = None
    window: ReactionWindow | None = None  # an event waiting for Reactions (see `reactions`)
    winners: list[int] = field(default_factory=list)
    reason: str = ""
    # public counts per seat: "offers" sent, "trades" done, "bank_sales" (for `harena simulate`)
    deals: dict[str, list[int]] = field(default_factory=dict)
    # gifts this round, [giver, taker, amount, moment]: each seat's view shows its own (as its
    # log does); moment: the favour moment it was given in (asks.current, "" if none)
    gifts: list[list[int | str]] = field(default_factory=list)
    # asks this round, public (see `asks`); kept until the round ends so their indices hold
    asks: list[Ask] = field(default_factory=list)
