"""The heuristic bot's judgement of Equipment and Arena Beasts (mixed into `bots.HeuristicBot`).

Equipment: use a face-up card when what it does now beats the Starting card given up for it
(and the Ready cost of getting it back); Ready it in the Favor phase when the Favor is there.
Beasts: always return (a Beast cannot win, but it still hunts the leader of the table), as the
toughest, hardest-hitting Beast left, entering beside the gladiators.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from harena.core.carthage.balance import effects_value
from harena.core.carthage.effects import Damage, Effect, Gear, GearRule, flatten
from harena.core.carthage.hexgrid import Hex, distance

if TYPE_CHECKING:
    from harena.core.carthage.bots import Situation
    from harena.core.carthage.content import Content


class KitScorer:
    content: Content

    if TYPE_CHECKING:

        def side_value(self, effects: tuple[Effect, ...], me: Situation, fifth: bool) -> float: ...
        def card_in_hand(self, board: dict[str, Any], instance: int) -> Any: ...

    def score_equipment(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        _, equipment_id, instance = choice.split(":")
        card = self.content.equipment_card(equipment_id)
        given_up = self.card_in_hand(board, int(instance))
        fifth = me.hand_size == 1
        now = self.side_value(card.effects, me, fifth)
        lost = max(self.side_value(side.effects, me, fifth) for side in given_up.sides)
        return now - 0.5 * lost - 0.3 * card.ready

    def gear_now(self, effects: tuple[Effect, ...], me: Situation, hits: bool = False) -> float:
        """What the Gear rules among `effects` are worth on this board (`hits`: the Damage
        before them is expected to hit), on the scale of `bots.side_value`."""
        value = 0.0
        for effect in flatten(effects):
            if not isinstance(effect, Gear):
                continue
            if effect.rule is GearRule.TWIN_BLADES and me.at is not None:
                adjacent = sum(distance(me.at, h) == 1 for h, _ in me.foes.values())
                kill = any(
                    distance(me.at, h) == 1 and a <= effect.amount for h, a in me.foes.values()
                )
                value += adjacent * effect.amount * 3.6 + (25 if kill else 0)
            elif effect.rule is GearRule.HALVE_DAMAGE:
                value += 4.0 if me.gap() <= 3 else 0.5
            elif effect.rule is GearRule.SURE_FOOTED:
                value += 1.0 if me.gap() <= 3 else 0.2
            elif hits or me.gap() <= 1:
                value += 0.7  # hobble, swap: they follow a Damage, and pay only on its hit
        return value

    def gear_value(self, effect: Gear) -> float:
        """A Gear rule on a card, whatever the board: on the scale of `bots.static_value`
        (a point of Damage is 2)."""
        if effect.rule is GearRule.TWIN_BLADES:
            return 2.5 * effect.amount
        return 3.0 if effect.rule is GearRule.HALVE_DAMAGE else 1.0

    def score_ready(self, choice: str) -> float:
        card = self.content.equipment_card(choice.removeprefix("ready:"))
        return 1.0 + 0.5 * effects_value(card.effects) - 0.3 * card.ready

    # -- Arena Beasts -------------------------------------------------------------------------

    def score_choose_beast(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        if choice == "decline":
            return -99.0
        beast = self.content.beast(choice.removeprefix("beast:"))
        damage = sum(e.amount for e in flatten(beast.effects) if isinstance(e, Damage))
        return beast.armor * 0.5 + damage * 2.0

    def score_place_beast(self, choice: str, me: Situation, board: dict[str, Any]) -> float:
        q, r = choice.removeprefix("hex:").split(",")
        gap = me.gap(Hex(int(q), int(r)))
        return -gap if gap < 99 else 0.0
