"""How the Carthage heuristic bot plays the Modular Rulesets, and Lobby and Initiate: mixed
into `harena.core.carthage.bots.HeuristicBot`, reading only the seat's view.

Its sense of them: Favor left over after the cards worth buying goes to Initiate (acting first
strikes first), to Ordinance when its Armor is low, to Discipline (a cheap Focus) while its Armor
is high, to Retain on the row's best card, to a Lobby or Campaign that brings a Theater card good
for it. It answers Naked and Afraid only to dodge a revealed card that would hit it for more than
the 3 Armor the step costs (or kill it), and then steps away from the attacker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from harena.core.carthage.cards import CardSet, Recipients
from harena.core.carthage.effects import Armor, Damage, Favor, FocusFromDiscard, Move, StrikeBonus
from harena.core.carthage.hexgrid import Hex, distance

if TYPE_CHECKING:
    from harena.core.carthage.bots import Situation
    from harena.core.carthage.cards import ActionCard
    from harena.core.carthage.content import Content

ARMOR_HIGH = 12  # above this, a point of Armor is worth paying for a Focus
ARMOR_LOW = 9
FOCUS_BELOW = 2.5


class RulesetScoring:
    content: Content
    by_name: dict[str, ActionCard]
    labels: dict[str, str]

    if TYPE_CHECKING:

        def worth(self, card: ActionCard) -> float: ...
        def worst_discard(self, board: dict[str, Any], seat: int) -> float | None: ...
        def buy_value(self, board: dict[str, Any], slot: int) -> float: ...

    # -- the Favor menu -------------------------------------------------------------------------

    def score_ruleset_favor(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        mine = board["players"][me.seat]
        name, _, arg = choice.partition(":")
        if name == "initiate":
            return 0.3  # the first card of the round strikes first
        if name == "actuate":
            return 0.2 if self.cost_in_label(choice) <= 2 else -1.0
        if name == "lobby":
            return self.theater_value(arg, me, board) - 1.5
        if name == "campaign":
            best = max(
                (self.theater_value(c, me, board) for c in board["theater"]["discard"]), default=0.0
            )
            return best - 2.5
        if name == "ordinance":
            return 1.2 if me.armor < ARMOR_LOW else -0.5
        if name == "discipline":
            worst = self.worst_discard(board, me.seat)
            return (
                1.5 if worst is not None and worst < FOCUS_BELOW and me.armor > ARMOR_HIGH else -1.0
            )
        if name == "outbreak":
            return 0.4 if me.gap() > 2 else -1.0
        if name == "concentrate":
            bought = [
                c for c in mine["discard"] if self.content.card(c).card_set is not CardSet.STARTING
            ]
            return 0.4 if bought and mine["deck_size"] >= 5 else -1.0
        if name == "intimidate":
            return 0.5 if self.best_foe_card(me, board) >= 7.0 else -1.0
        if name == "repair":
            best = max((self.worth(self.content.card(c)) for c in mine["discard"]), default=0.0)
            return 0.3 if best >= 6.0 else -1.0  # its best card in next round's hand
        if name == "retain":
            return 0.35 if mine["favor"] <= 2 else -1.0
        if name == "taunt":
            return 0.1 if board["players"][int(arg)]["favor"] >= 3 else -1.0
        return -1.0  # Renovate: the bot leaves the tokens where they are

    def cost_in_label(self, choice: str) -> int:
        label = self.labels.get(choice, "")
        try:
            return int(label.split("(", 1)[1].split(")", 1)[0])
        except (IndexError, ValueError):
            return 99

    def best_foe_card(self, me: Situation, board: dict[str, Any]) -> float:
        best = 0.0
        for p in board["players"]:
            if p["seat"] != me.seat and p["alive"]:
                for card_id in p["discard"]:
                    card = self.content.card(card_id)
                    if card.card_set is not CardSet.STARTING:
                        best = max(best, self.worth(card))
        return best

    def theater_value(self, card_id: str, me: Situation, board: dict[str, Any]) -> float:
        """What next round's Theater card is worth to this seat against the others, judged from
        the board now: its effects for each likely recipient."""
        card = self.content.theater(card_id)
        if card.recipients is None:
            return 0.0
        players = [p for p in board["players"] if p["alive"]]
        who = self.recipients(card.recipients, players, board)
        each = 0.0
        for effect in card.effects:
            if isinstance(effect, Armor):
                each += effect.amount * (1.2 if me.armor < ARMOR_LOW else 0.6)
            elif isinstance(effect, Favor):
                each += effect.amount * 0.4
            elif isinstance(effect, Move):
                each += effect.steps * 0.3
            elif isinstance(effect, FocusFromDiscard):
                each += 0.5
        others = sum(1 for p in players if p["seat"] in who and p["seat"] != me.seat)
        return each * ((me.seat in who) - others / max(len(players) - 1, 1))

    def recipients(
        self, who: Recipients, players: list[dict[str, Any]], board: dict[str, Any]
    ) -> set[int]:
        seats = {p["seat"] for p in players}
        if who is Recipients.ALL:
            return seats
        if who is Recipients.STARTING_PLAYER:
            start = (
                board["initiator"] if board["initiator"] is not None else board["starting_player"]
            )
            return {start}
        if who in (Recipients.LEAST_ARMOR, Recipients.MOST_ARMOR):
            armors = [p["armor"] for p in players]
            best = min(armors) if who is Recipients.LEAST_ARMOR else max(armors)
            return {p["seat"] for p in players if p["armor"] == best}
        arena = self.content.arena
        edge = {p["seat"] for p in players if p["at"] is not None and arena.is_edge(Hex(*p["at"]))}
        if who is Recipients.OUTER_EDGE:
            return edge
        if who is Recipients.INNER_CIRCLE:
            return {
                p["seat"]
                for p in players
                if p["at"] is not None and arena.in_inner_circle(Hex(*p["at"]))
            }
        return set()  # most Favor: unknown until the fighting is over

    # -- the second choices ---------------------------------------------------------------------

    def card_of_label(self, choice: str) -> ActionCard | None:
        label = self.labels.get(choice, "")
        return self.by_name.get(label.split(" (")[0].split("'s ")[-1])

    def score_campaign_lobby(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        return self.theater_value(choice.removeprefix("lobby:"), me, board)

    def score_discipline_card(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        if choice == "back":
            return -FOCUS_BELOW
        card = self.card_of_label(choice)
        return -self.worth(card) if card is not None else -99.0

    score_strict_discipline_card = score_discipline_card

    def score_strict_discipline(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        if choice == "skip":
            return -FOCUS_BELOW
        if me.armor <= ARMOR_HIGH:
            return -99.0  # the Armor is worth more than thinning the deck
        card = self.card_of_label(choice)
        return -self.worth(card) if card is not None else -99.0

    def score_intimidate_card(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        if choice == "back":
            return 0.0
        card = self.content.card(choice.split(":")[2])
        return self.worth(card)

    def score_repair_card(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        if choice == "back":
            return 0.0
        card = self.card_of_label(choice)
        return self.worth(card) if card is not None else 0.0

    def score_retain_card(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        if choice == "back":
            return -1.0
        return self.buy_value(board, int(choice.removeprefix("retain:")))

    def score_renovate_token(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        return -1.0 if choice == "back" else 0.0

    score_renovate_to = score_renovate_token

    # -- Naked and Afraid -----------------------------------------------------------------------

    def score_naked_and_afraid(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        if choice == "pass":
            return 0.0
        threat = self.threat(me, board)
        if threat <= 0:
            return -1.0
        lethal = threat >= me.armor
        return (25.0 if lethal else 0.0) + threat - 3.0 - 0.5

    def threat(self, me: Situation, board: dict[str, Any]) -> int:
        """The Damage the revealed card can deal this seat, if one step away would escape it."""
        in_play = board["in_play"]
        if in_play is None or in_play["side"] is None or me.at is None:
            return 0
        attacker = board["players"][in_play["seat"]]
        if attacker["at"] is None:
            return 0
        side = self.content.card(in_play["card"]).sides[in_play["side"]]
        steps, reach, damage = 0, 0, 0
        for effect in side.effects:
            if isinstance(effect, Move) and damage == 0:
                steps += effect.steps
            elif isinstance(effect, Damage):
                reach = max(reach, effect.reach)
                damage += effect.amount
            elif isinstance(effect, StrikeBonus):
                damage += sum(e.amount for e in effect.effects if isinstance(e, Damage))
        gap = distance(me.at, Hex(*attacker["at"]))
        if damage == 0 or gap > steps + reach or gap + 1 <= steps + reach:
            return 0  # out of reach already, or one step would not be enough
        return damage

    def flee_value(self, to: Hex, board: dict[str, Any]) -> float:
        """A Naked and Afraid step: as far from the card's player as possible."""
        in_play = board["in_play"]
        if in_play is None or board["players"][in_play["seat"]]["at"] is None:
            return 0.0
        return float(distance(to, Hex(*board["players"][in_play["seat"]]["at"])))
