"""The Carthage heuristic bot: plays to win from its seat's view and the public card data.

It closes in on the nearest opponent, plays Damage when it can reach someone (the weakest first,
a kill above all), steps onto helpful face-up tokens and around Crocodiles, keeps its Armor up
when it runs low, buys the strongest cards it can afford, and Focuses away weak Starting cards.
It reads only `view["prompts"]` and `view["board"]` (plus the card texts every player can read
in the rulebook's card list), so it never sees another hand or the order of any deck.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from harena.core.bots import awaited_prompts
from harena.core.carthage.cards import ActionCard, CardSet, TokenKind
from harena.core.carthage.content import Content, default_content
from harena.core.carthage.effects import (
    Armor,
    Condition,
    Conditional,
    Damage,
    DiscardCard,
    Effect,
    Favor,
    Gear,
    Knockback,
    Move,
    OpponentLosesFavor,
    StrikeBonus,
    Target,
)
from harena.core.carthage.essedari import sense
from harena.core.carthage.hexgrid import Direction, Hex, distance
from harena.core.carthage.kit_bots import KitScorer
from harena.core.carthage.rulesets.bot import RulesetScoring
from harena.core.engine import Rng

LOW_ARMOR = 9  # below this, Armor is worth more than Favor
FOCUS_BELOW = 2.5  # a card worth less than this is better out of the deck
# Against the Essedari Maximo (tuned with bench/essedari_balance.py): how much a waiting
# gladiator wants a teammate close by, and a hex he will soon drive past.
FRIEND_W = 0.2
AHEAD_W = 2.0
TEAM_RULESET_TASTE = {
    "featured_match": 9.0,
    "battle_hardened": 8.0,
    "naked_and_afraid": 7.0,
    "retain": 6.0,
    "ordinance": 5.0,
    "the_southern_winds": 4.0,
    "strict_discipline": 3.0,
    "taunt": 2.0,
    "discipline": 1.0,
    "crocodile_island": -5.0,
}
"""What the team of two in a 2 vs 3 picks first: gains only they get (the bot uses them)."""


@dataclass(frozen=True)
class Situation:
    """What the bot makes of the board before a decision."""

    seat: int
    at: Hex | None
    armor: int
    foes: dict[int, tuple[Hex, int]]  # seat -> (hex, armor), living opponents in the arena
    hand_size: int
    mates: dict[int, tuple[Hex, int]] = field(default_factory=dict)  # living teammates (teams.py)
    friends: tuple[Hex, ...] = ()  # teammates against the Essedari Maximo, who are not foes

    def gap(self, at: Hex | None = None) -> int:
        """Hexes to the nearest opponent (99 when nobody is in the arena)."""
        here = self.at if at is None else at
        if here is None or not self.foes:
            return 99
        return min(distance(here, h) for h, _ in self.foes.values())


class HeuristicBot(RulesetScoring, KitScorer):
    """A greedy, aggressive Carthage player (see the module docstring)."""

    def __init__(self, seed: int, content: Content | None = None) -> None:
        self.rng = Rng.from_seed(seed)
        self.content = content or default_content()
        self.tokens = {t.id: t for t in self.content.tokens}
        self.by_name = {c.name: c for c in self.content.cards.values()}
        self.labels: dict[str, str] = {}  # the open prompt's choice labels
        self.steps: tuple[Any, int] = (None, 0)  # the card in play, and the steps it has taken
        self.strike = False  # a Damage follows the Move step being chosen

    def choose(self, view: dict[str, Any]) -> str:
        prompt = awaited_prompts(view)[0]
        board = view["board"]
        me = self.situation(view["seat"], board)
        ids = [choice_id for choice_id, _ in prompt["choices"]]
        self.labels = dict(prompt["choices"])
        scorer = getattr(self, "score_" + prompt["kind"], None)
        if scorer is None:  # pragma: no cover - every Carthage prompt kind has a scorer
            fallback: str = self.rng.choice(ids)
            return fallback
        if prompt["kind"] == "move_step":
            self.strike = self.strike_follows(board)
        scores = [scorer(choice_id, me, board) for choice_id in ids]
        best = max(scores)
        chosen: str = self.rng.choice([c for c, s in zip(ids, scores, strict=True) if s == best])
        return chosen

    def situation(self, seat: int, board: dict[str, Any]) -> Situation:
        players = board["players"]
        mine = players[seat]
        team = teammates(board, seat)
        others = {
            p["seat"]: (Hex(*p["at"]), p["armor"])
            for p in players
            if p["seat"] != seat and p["alive"] and p["at"] is not None
        }
        foes = {k: v for k, v in others.items() if k not in team}
        mates = {k: v for k, v in others.items() if k in team}
        at = None if mine["at"] is None else Hex(*mine["at"])
        chariot = sense.chariot_of(board)
        if chariot is not None:  # the Essedari Maximo is the only foe
            friends = tuple(h for h, _ in others.values())
            foes = {chariot["seat"]: (Hex(*chariot["at"]), chariot["armor"])}
            return Situation(seat, at, mine["armor"], foes, mine["hand_size"], friends=friends)
        return Situation(seat, at, mine["armor"], foes, mine["hand_size"], mates=mates)

    # -- setup --------------------------------------------------------------------------------

    def score_choose_gladiator(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        return 0.0  # the reference decks are balanced (docs/cards.md): any will do

    def score_pick_tokens(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        if choice == "done":
            return 2.0  # as few tokens as the rules allow: fights, not treasure hunts, win
        kind = self.tokens[choice.removeprefix("take:")].kind
        return (
            1.0 if kind in (TokenKind.DAMAGE, TokenKind.CROCODILE, TokenKind.SPIKED_PILLAR) else 0.0
        )

    def score_place_token(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        return -1.0 if choice == "back" else 0.0

    def score_place_gladiator(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        q, r = choice.removeprefix("hex:").split(",")
        gap = me.gap(Hex(int(q), int(r)))
        return -gap if gap < 99 else 0.0  # start near an opponent: close in sooner

    # -- the Action phase ---------------------------------------------------------------------

    def score_play_card(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        if choice.startswith("equip:"):
            return self.score_equipment(choice, me, board)  # kit_bots
        if choice == "naked":
            return -99.0  # 3 Armor to step before its own card: never worth it to this bot
        instance = int(choice.removeprefix("play:"))
        card = self.card_in_hand(board, instance)
        fifth = me.hand_size == 1
        return max(self.side_value(side.effects, me, fifth) for side in card.sides)

    def score_choose_side(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        card = self.content.card(board["in_play"]["card"])
        side = card.sides[int(choice.removeprefix("side:"))]
        return self.side_value(side.effects, me, me.hand_size == 0)

    def side_value(self, effects: tuple[Effect, ...], me: Situation, fifth: bool) -> float:
        """What resolving `effects` now is worth, following the card top to bottom."""
        gap = me.gap()
        value = 0.0
        hit = False
        for effect in effects:
            if isinstance(effect, Conditional):
                holds = fifth == (effect.when is Condition.PLAYED_FIFTH)
                if holds:
                    value += self.side_value(effect.effects, me, fifth)
                continue
            if isinstance(effect, Move):
                if gap < 99:
                    closer = min(effect.steps, max(gap - 1, 0))
                    value += closer * (0.6 if effect.straight else 1.2)
                    gap = max(1, gap - effect.steps) if not effect.straight else gap
                continue
            if isinstance(effect, Damage):
                hit = gap <= effect.reach
                if hit:
                    weakest = min(armor for _, armor in me.foes.values())
                    value += effect.amount * 3 + (25 if weakest <= effect.amount else 0)
                elif me.at is not None and any(
                    distance(me.at, h) <= effect.reach for h in me.friends
                ):
                    value -= effect.amount * 3  # it would hit a teammate (against the Essedari)
                elif me.at is not None:
                    # nobody else in reach: the Damage lands on a teammate in reach, if any; a
                    # strike bonus may still make it worth it, never a teammate's death
                    near = [a for h, a in me.mates.values() if distance(me.at, h) <= effect.reach]
                    if near:
                        hit = True
                        value -= effect.amount * 2.0 + (100 if min(near) <= effect.amount else 0)
                continue
            if isinstance(effect, StrikeBonus):
                if hit:
                    value += self.side_value(effect.effects, me, fifth)
                continue
            if isinstance(effect, Gear):
                value += self.gear_now((effect,), me, hit)  # kit_bots
                continue
            value += self.plain_value(effect, me.armor, hit)
        return value

    def plain_value(self, effect: Effect, armor: int, hit: bool) -> float:
        if isinstance(effect, Armor):
            if effect.amount > 0:
                gain = min(effect.amount, 20 - armor)
                return gain * (1.6 if armor < LOW_ARMOR else 0.7)
            return effect.amount * (2.0 if armor + effect.amount <= 3 else 1.0)
        if isinstance(effect, Favor):
            return effect.amount * 0.6
        if isinstance(effect, Knockback):
            return effect.spaces * 0.4 if hit else 0.0
        if isinstance(effect, OpponentLosesFavor):
            return effect.amount * 0.3 if hit or effect.target is Target.ANY else 0.0
        if isinstance(effect, DiscardCard):
            return -1.5 * effect.count
        if isinstance(effect, Gear):
            return self.gear_value(effect)  # kit_bots: Legend and Equipment rules
        return 0.0

    def card_in_hand(self, board: dict[str, Any], instance: int) -> ActionCard:
        for held, card_id in board["hand"]:
            if held == instance:
                return self.content.card(card_id)
        raise ValueError(f"card {instance} is not in this seat's hand")

    def score_move_step(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        assert me.at is not None
        to = me.at.step(Direction[choice.removeprefix("dir:")])
        if board.get("rulesets", {}).get("moving") == "naked-and-afraid":
            return self.flee_value(to, board)
        gap = me.gap(to)
        if sense.chariot_of(board) is not None:
            return self.chariot_step(to, gap, me, board)
        value = -abs(gap - 1) * 2.0 if gap < 99 else 0.0
        # next to a teammate, a Damage card with no opponent in reach would land on them
        beside_mate = any(distance(to, h) == 1 for h, _ in me.mates.values())
        return value - (0.5 if beside_mate else 0.0) + self.token_value(board, to, me, gap)

    def chariot_step(self, to: Hex, gap: int, me: Situation, board: dict[str, Any]) -> float:
        """Against the Essedari Maximo: close in when this card still strikes after the move,
        otherwise wait beside his track (he stops next to gladiators), off his next path."""
        value = self.token_value(board, to, me, gap) - sense.danger(board, to, me.seat) * 1.5
        if self.strike:
            return value - abs(gap - 1) * 2.0
        ring = distance(to, Hex(0, 0))
        value -= min(abs(ring - 2), abs(ring - 4)) * 1.0  # next to his track: he comes by
        ahead = sense.spaces_ahead(board, to)
        if ahead is not None:  # ahead of him, where a Chase stops
            value += AHEAD_W - ahead * 0.2
        if me.friends:  # together, so that where he stops both can strike
            value -= min(distance(to, h) for h in me.friends) * FRIEND_W
        return value

    def strike_follows(self, board: dict[str, Any]) -> bool:
        """Whether a Damage comes after the Move step being taken now (counted from the steps
        this bot has taken with the card in play)."""
        in_play = board["in_play"]
        if in_play is None or in_play["side"] is None:
            return False
        key = (
            board["round"],
            in_play["card"],
            in_play["side"],
            board["players"][in_play["seat"]]["hand_size"],
        )
        taken = self.steps[1] if self.steps[0] == key else 0
        self.steps = (key, taken + 1)
        effects = self.content.card(in_play["card"]).sides[in_play["side"]].effects
        walked = 0
        for k, effect in enumerate(effects):
            if isinstance(effect, Move):
                walked += effect.steps
                if walked > taken:
                    return any(isinstance(e, Damage) for e in effects[k + 1 :])
        return False

    def token_value(self, board: dict[str, Any], at: Hex, me: Situation, gap: int) -> float:
        for token in board["tokens"]:
            if Hex(*token["at"]) != at:
                continue
            kind = self.tokens[token["token"]].kind
            x = self.tokens[token["token"]].value
            if kind is TokenKind.CROCODILE:
                return -3.0
            if kind is TokenKind.KING_OF_THE_HILL:
                return 1.0
            if not token["face_up"]:
                return 0.0
            if kind is TokenKind.FAVOR:
                return x * 0.6
            if kind is TokenKind.ARMOR:
                return min(x, 20 - me.armor) * (1.6 if me.armor < LOW_ARMOR else 0.7)
            if kind in (TokenKind.DAMAGE, TokenKind.DAMAGE_KNOCKBACK):
                return x * 3.0 if gap == 1 else 0.0
            if kind is TokenKind.MOVEMENT:
                return 0.5
        return 0.0

    def score_choose_target(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        chariot = sense.chariot_of(board)
        if choice == "target:none":  # offered when a teammate is in reach: better than a mate
            return -50.0
        target = int(choice.removeprefix("target:"))
        if chariot is not None and target == chariot["seat"]:
            return 100.0  # him, else nobody: never a teammate
        armor: int = board["players"][target]["armor"]
        if chariot is not None:
            return -armor - 100.0
        return -armor - (100 if target in me.mates else 0)

    def score_choose_opponent(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        seat = int(choice.removeprefix("target:"))
        favor: int = board["players"][seat]["favor"]
        if sense.chariot_of(board) is not None:
            return -favor  # spare a teammate
        return favor - (100 if seat in me.mates else 0)

    def score_knockback_direction(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        return 0.0

    def score_pass_starting_player(
        self, choice: str, me: Situation, board: dict[str, Any]
    ) -> float:
        seat = int(choice.removeprefix("start:"))
        armor: int = board["players"][seat]["armor"]
        return armor + (100 if seat in teammates(board, me.seat) else 0)

    def score_pick_ruleset(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        """2 vs 3: rulesets only the two may use, best first; Crocodile Island bites them too."""
        return TEAM_RULESET_TASTE.get(choice.removeprefix("ruleset:"), 0.0)

    def score_discard_card(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        return -self.worth(self.card_in_hand(board, int(choice.removeprefix("discard:"))))

    def score_focus_card(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        if choice == "skip":
            return -FOCUS_BELOW
        # a discarded card is offered by instance id, labelled with its (public) name
        card = self.by_name.get(self.labels.get(choice, ""))
        return -self.worth(card) if card is not None else -99.0

    # -- the Favor phase ----------------------------------------------------------------------

    def score_favor(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        if choice.startswith("buy:"):
            return self.buy_value(board, int(choice.removeprefix("buy:")))
        if choice == "focus":
            worst = self.worst_discard(board, me.seat)
            return 1.0 if worst is not None and worst < FOCUS_BELOW else -1.0
        if choice == "pass":
            return 0.0
        if choice.startswith("ready:"):
            return self.score_ready(choice)  # kit_bots
        if choice not in ("evaluate", "focus"):
            return self.score_ruleset_favor(choice, me, board)  # Initiate, Lobby, rulesets
        if choice == "evaluate":  # a row nobody wants (all heals, say) is worth replacing
            best = max(
                (self.buy_value(board, slot) for slot, _ in enumerate(board["row"])), default=0.0
            )
            favor = board["players"][me.seat]["favor"]
            return 0.5 if best < 1.0 and favor >= 6 else -1.0
        return -1.0

    def score_evaluate_buy(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        if choice == "decline":
            return 0.0
        return self.buy_value(board, int(choice.removeprefix("buy:")))

    def score_lobby_reveal(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        return 1.0 if choice == "hide" else 0.0

    def buy_value(self, board: dict[str, Any], slot: int) -> float:
        card = self.content.card(board["row"][slot][1])
        return self.worth(card) - 3.0 + card.cost * 0.1

    def worst_discard(self, board: dict[str, Any], seat: int) -> float | None:
        pile = board["players"][seat]["discard"]
        if not pile:
            return None
        return min(self.worth(self.content.card(card_id)) for card_id in pile)

    def worth(self, card: ActionCard) -> float:
        """A card's value in the deck, whatever the board: its best side with an opponent in
        reach after its own movement."""
        best = 0.0
        for side in card.sides:
            value = 0.0
            for effect in side.effects:
                value += self.static_value(effect)
            best = max(best, value)
        return best + (0.0 if card.card_set is CardSet.STARTING else 0.5)

    def static_value(self, effect: Effect) -> float:
        if isinstance(effect, Damage):
            return effect.amount * 2.0 + effect.range * 0.5
        if isinstance(effect, Move):
            return effect.steps * (0.4 if effect.straight else 0.6)
        if isinstance(effect, (StrikeBonus, Conditional)):
            return 0.6 * sum(self.static_value(e) for e in effect.effects)
        if isinstance(effect, Armor):
            # heals win nothing by themselves: two bots that buy them can heal for ever
            return effect.amount * 0.5
        return self.plain_value(effect, 10, True)


def teammates(board: dict[str, Any], seat: int) -> frozenset[int]:
    """The other seats of `seat`'s team in a team mode (core/carthage/teams.py), else none."""
    teams = board.get("teams")
    if teams is None:
        return frozenset()
    team = next(m for m in teams["members"] if seat in m)
    return frozenset(m for m in team if m != seat)
