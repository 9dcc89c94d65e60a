"""Everything that changes during a game of Carthage, as one dataclass tree (`CarthageState`).

Cards are physical copies: `cards[i]` is the card id of card instance `i`, and every pile (a
player's deck, hand, discard and focus, the Action row and deck, the card in play, the Evaluated
pile) holds instance ids, so each copy is in exactly one place at a time (a test checks it).
Decks are lists whose *end* is the top. Nothing here is derived from content except ids, so the
state round-trips through `core.codec` and a snapshot never depends on object identity.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from harena.core.carthage.essedari.state import EssedariState
from harena.core.carthage.hexgrid import Direction, Hex
from harena.core.carthage.rulesets.state import RulesetState

# rulebook: Setup 3.
START_ARMOR = 15
MAX_ARMOR = 20
MAX_FAVOR = 15  # "a max. of 15 Favor per Round"
HAND_SIZE = 5  # rulebook: Phase 2 A
ROW_SIZE = 5  # rulebook: Setup 7
THEATER_BURN = 3  # rulebook: Setup 6
# rulebook: Favor Options.
INITIATE_COST = 1
FOCUS_COST = 3
EVALUATE_BASE_COST = 2
LOBBY_COST = 2
# ruling (docs/rulings.md): Focus may not shrink a player's cards below a full hand.
MIN_PLAYER_CARDS = HAND_SIZE


class Phase(Enum):
    GLADIATORS = "gladiators"  # rulebook: Setup 2, Choose Your Gladiator
    TOKEN_PICK = "token_pick"  # rulebook: Arena Tokens, the Last Player picks the tokens
    TOKEN_PLACEMENT = "token_placement"  # ... then players place them in turn order
    RULESET_PICK = "ruleset_pick"  # rulebook: 2 VS 3 Mode, the team of 2 selects 4 rulesets
    PLACEMENT = "placement"  # rulebook: Setup 5
    THEATER = "theater"  # rulebook: Phase 1; its card resolves on the stack
    ACTION = "action"  # rulebook: Phase 2 A-B
    AFTER_ACTIONS = "after_actions"  # rulebook: Phase 2 C, a Theater card resolving late
    FAVOR = "favor"  # rulebook: Phase 3
    OVER = "over"


SETUP_PHASES = (
    Phase.GLADIATORS,
    Phase.RULESET_PICK,
    Phase.TOKEN_PICK,
    Phase.TOKEN_PLACEMENT,
    Phase.PLACEMENT,
)


class Source(Enum):
    """What a resolving frame's effects come from."""

    CARD = "card"
    TOKEN = "token"
    THEATER = "theater"
    RULESET = "ruleset"  # a Modular Ruleset's Movement (core/carthage/rulesets)
    EQUIPMENT = "equipment"  # an Equipment card used in place of an Action card
    BEAST = "beast"  # an Arena Beast's Action


class Wait(Enum):
    """The decision a frame is waiting for; each is one prompt kind."""

    MOVE_STEP = "move_step"  # dir:NE ...
    TARGET = "choose_target"  # target:<seat>, whom a Damage hits
    OPPONENT = "choose_opponent"  # target:<seat>, who loses Favor ("any" opponent)
    KNOCKBACK = "knockback_direction"  # dir:NE ... when two directions are equally straight
    DISCARD = "discard_card"  # discard:<instance>
    FOCUS = "focus_card"  # focus:<instance> | skip
    START_PLAYER = "pass_starting_player"  # start:<seat>


@dataclass
class PlayerState:
    colour: str
    deck: list[int]
    hand: list[int] = field(default_factory=list)
    discard: list[int] = field(default_factory=list)
    focus: list[int] = field(default_factory=list)
    armor: int = START_ARMOR
    favor: int = 0
    at: Hex | None = None
    alive: bool = True
    passed: bool = False  # in this Favor phase
    spent: list[str] = field(default_factory=list)  # Equipment face down (equipment.py)
    conditions: list[str] = field(default_factory=list)  # GearRule values on you this phase
    beast: str | None = None  # the Arena Beast an eliminated player plays (beasts.py)
    returned: bool = False  # came back as an Arena Beast: "can no longer win the game"


@dataclass
class BoardToken:
    token: str  # ArenaToken id
    face_up: bool = True


@dataclass
class Frame:
    """One list of effects being resolved for `owner`: a card side, a token, or a Theater card
    for one recipient. Frames stack: a token entered mid-move resolves on top of its card."""

    owner: int
    source: Source
    ref: str  # card, token or Theater card id
    side: int = 0
    pc: int = 0  # the next operation of the frame's program
    left: int | None = None  # steps of a Move (or cards of a Discard) still to do
    hit: bool = False  # the last Damage of this frame hit
    target: int | None = None  # "the opponent": last damaged, or last made to lose Favor
    move_dir: Direction | None = None  # a straight Move's direction, once chosen
    wait: Wait | None = None
    damage: int = 0  # the Damage waiting for its target
    pass_to: int | None = None  # PassCard: the card goes to this seat's discard
    focus_card: bool = False  # FocusThisCard
    hobbled: bool = False  # Weighted Bola: this card's Movement is lost
    asked: list[int] = field(default_factory=list)  # Twin Blades: teammates asked whether to hit
    spared: list[int] = field(default_factory=list)  # ... and those it spares


@dataclass
class InPlay:
    """The Action card being resolved; `side` is None until a "/" card's side is chosen."""

    seat: int
    instance: int
    side: int | None
    fifth: bool  # the last card of the hand (rulebook: The Final Blow)


@dataclass
class Lobbied:
    """The top Theater card was put there by Lobby; `revealed`: shown to everyone. `index` is
    where it was in the discard pile: while it is secret, the others see the pile with it still
    there (docs/rulings.md, a secret Lobby), and a later Lobby puts it back there."""

    seat: int
    revealed: bool
    index: int = 0


@dataclass
class CarthageState:
    cards: list[str]  # instance -> card id
    players: list[PlayerState]
    tokens: dict[Hex, BoardToken]
    action_deck: list[int]
    row: list[int]
    evaluated: list[int]  # the Focus Discard Pile that Evaluate fills (rulebook: Evaluate)
    theater_deck: list[str]
    theater_discard: list[str]  # end = the most recent
    starting: int
    phase: Phase = Phase.PLACEMENT
    round: int = 0
    turn: int = 0  # whose move it is: placement, Action or Favor phase
    placed: int = 0  # gladiators placed so far (Setup 5)
    chosen: int = 0  # gladiators chosen so far (Setup 2)
    token_pool: list[str] = field(default_factory=list)  # tokens picked, still to be placed
    token_held: str | None = None  # the token the seat to place has taken, before its hex
    theater_card: str | None = None  # this round's card
    after_actions: str | None = None  # a Theater card waiting for the end of the Action phase
    hooks: list[str] = field(default_factory=list)  # Hook values active this round
    stack: list[Frame] = field(default_factory=list)
    in_play: InPlay | None = None
    initiator: int | None = None  # bought Initiate: Starting Player next Theater phase
    evaluations: int = 0  # Evaluate bought this Favor phase
    evaluate_buy: int | None = None  # this seat may buy one card before anyone else
    focus_pick: int | None = None  # this seat paid for Focus and picks the card
    lobby_reveal: int | None = None  # this seat chooses whether to reveal its Lobby
    lobbied: Lobbied | None = None
    team_rulesets: list[str] = field(default_factory=list)  # 2 vs 3: the team of two's (teams.py)
    eliminated: list[int] = field(default_factory=list)  # in order
    winner: int | None = None
    rulesets: RulesetState = field(default_factory=RulesetState)  # the Modular Rulesets' part
    beast_offers: list[int] = field(default_factory=list)  # eliminated seats to ask, in order
    slain_beasts: list[str] = field(default_factory=list)  # Beasts out of the game
    essedari: EssedariState | None = None  # the solo/co-op opponent (table option essedari)
