"""The rules of Equipment cards (rulebook: Equipment Cards - Mini Expansion #2 and its
Clarifying Rules), as `game.equipment_rules`: they do nothing unless the table turns option
`equipment` on.

Using one: in the Action phase, in place of an Action card, the player discards a Starting Deck
card from hand ("Only Starting Deck cards may be used when Discarding"), then resolves a face-up
Equipment card of their gladiator, which turns face down. In the Favor phase a face-down card is
Readied for its cost. The Gear rules (`effects.GearRule`) that Equipment, Legend cards and
Beasts may use are run here too, and so are the conditions they leave on a gladiator for the
rest of the Action phase (Heavy Scutum, Sturdy Boots, Weighted Bola).
"""

from __future__ import annotations

from harena.core.carthage.cards import CardSet
from harena.core.carthage.choices import ReadyEquipment, UseEquipment
from harena.core.carthage.effects import Gear, GearRule
from harena.core.carthage.equipment import EquipmentCard
from harena.core.carthage.part import Part
from harena.core.carthage.state import Frame, Phase, Source, Wait
from harena.core.engine import Choice


class EquipmentRules(Part):
    def equipment_on(self) -> bool:
        return self.game.config.options.get("equipment", "off") == "on"

    def equipment(self, seat: int) -> tuple[EquipmentCard, ...]:
        """The seat's three Equipment cards, face up or down (none with the option off)."""
        if not self.equipment_on():
            return ()
        return self.content.equipment_of(self.state.players[seat].colour)

    def ready_equipment(self, seat: int) -> list[EquipmentCard]:
        spent = self.state.players[seat].spent
        return [e for e in self.equipment(seat) if e.id not in spent]

    # -- the Action phase ---------------------------------------------------------------------

    def equipment_choices(self, seat: int) -> tuple[Choice, ...]:
        """One choice per face-up Equipment card and Starting card in hand to discard for it."""
        ready = self.ready_equipment(seat)
        if not ready:  # the option off (most tables), or every card spent
            return ()
        p = self.state.players[seat]
        cards = self.state.cards
        starting = [i for i in p.hand if self.content.card(cards[i]).card_set is CardSet.STARTING]
        return tuple(
            UseEquipment.of(e.id, i, f"{e.name} (discard {self.game.board.card_name(i)}): {e.text}")
            for e in ready
            for i in starting
        )

    def use_equipment(self, seat: int, equipment_id: str, instance: int) -> None:
        s = self.state
        p = s.players[seat]
        card = self.content.equipment_card(equipment_id)
        p.hand.remove(instance)
        p.discard.append(instance)
        p.spent.append(equipment_id)
        s.turn = (seat + 1) % len(s.players)
        discarded = self.game.board.card_name(instance)
        self.game.emit(
            f"{self.game.board.name_of(seat)} discards {discarded} and uses {card.name}: {card.text}"
        )
        frame = Frame(seat, Source.EQUIPMENT, equipment_id)
        for chosen in self.game.hooks.card_chosen:
            chosen(frame)
        s.stack.append(frame)

    def mark_hobbled(self, frame: Frame) -> None:
        """rulebook: Weighted Bola - "cannot activate Movement Actions for their NEXT CARD
        played during this Round": the card (or Equipment) played next loses its Movement."""
        conditions = self.state.players[frame.owner].conditions
        if GearRule.HOBBLE.value in conditions:
            conditions.remove(GearRule.HOBBLE.value)
            frame.hobbled = True
            self.game.emit(
                f"{self.game.board.name_of(frame.owner)} is tangled in the Bola: no Movement on this card"
            )

    # -- the Favor phase ----------------------------------------------------------------------

    def ready_choices(self, seat: int) -> list[Choice]:
        favor = self.state.players[seat].favor
        return [
            ReadyEquipment.of(e.id, f"Ready {e.name} ({e.ready}): {e.text}")
            for e in self.equipment(seat)
            if e.id in self.state.players[seat].spent and e.ready <= favor
        ]

    def ready(self, seat: int, equipment_id: str) -> None:
        card = self.content.equipment_card(equipment_id)
        self.game.favor_phase.spend(seat, card.ready)
        self.state.players[seat].spent.remove(equipment_id)
        self.game.emit(
            f"{self.game.board.name_of(seat)} Readies {card.name} for {card.ready} Favor"
        )

    # -- Gear rules ---------------------------------------------------------------------------

    def run_gear(self, frame: Frame, op: Gear) -> None:
        s = self.state
        frame.pc += 1
        me = s.players[frame.owner]
        target = frame.target
        if op.rule is GearRule.TWIN_BLADES:
            # rulebook: Twin Blades - every opponent on a surrounding hex, 2 Favor per one damaged
            around = self.twin_blades_reach(frame)
            if self.twin_blades_ask(frame) is not None:
                frame.pc -= 1  # rulebook: 2 VS 2, teammates Damage one another "if they choose"
                frame.damage = op.amount
                frame.wait = Wait.TARGET
                return
            spared, frame.asked, frame.spared = frame.spared, [], []
            for seat in around:
                if s.phase is Phase.OVER:
                    return
                if seat not in spared:
                    self.game.board.deal_damage(frame, seat, op.amount)
                    self.game.board.change_favor(frame.owner, op.amount)
        elif op.rule is GearRule.HALVE_DAMAGE or op.rule is GearRule.SURE_FOOTED:
            if op.rule.value not in me.conditions:
                me.conditions.append(op.rule.value)
            self.game.emit(f"{self.game.board.name_of(frame.owner)}: {op.text.lower()}")
        elif not frame.hit or target is None or s.players[target].at is None:
            return
        elif op.rule is GearRule.HOBBLE:
            if op.rule.value not in s.players[target].conditions:
                s.players[target].conditions.append(op.rule.value)
            self.game.emit(
                f"{self.game.board.name_of(target)} is tangled: no Movement on their next card this round"
            )
        elif op.rule is GearRule.SWAP:
            # ruling: a swap is not Movement - no token is taken, none flips (docs/rulings.md)
            if not self.game.team_mode.swap_allowed(frame.owner, target):
                self.game.emit(
                    f"The chain holds: {self.game.board.name_of(frame.owner)} and {self.game.board.name_of(target)} "
                    "cannot change places"
                )
                return
            me.at, s.players[target].at = s.players[target].at, me.at
            self.game.emit(
                f"{self.game.board.name_of(frame.owner)} and {self.game.board.name_of(target)} change places"
            )

    def twin_blades_reach(self, frame: Frame) -> list[int]:
        """Whom Twin Blades can hit: everyone on a surrounding hex ("0 Range")."""
        return self.game.board.damage_targets(Frame(frame.owner, frame.source, frame.ref), 1)

    def twin_blades_ask(self, frame: Frame) -> int | None:
        """The next surrounding teammate its player has not yet chosen to hit or spare."""
        return next(
            (
                t
                for t in self.twin_blades_reach(frame)
                if self.game.board.is_teammate(frame.owner, t) and t not in frame.asked
            ),
            None,
        )

    def incoming_damage(self, seat: int, amount: int) -> int:
        """rulebook: Heavy Scutum - "50% less Damage ... rounded up (3 Damage = 2 Damage, 4
        Damage = 2 Damage)": the Damage taken is half, rounded up."""
        players = self.state.players
        if 0 <= seat < len(players) and GearRule.HALVE_DAMAGE.value in players[seat].conditions:
            return (amount + 1) // 2
        return amount  # (and the Essedari Maximo, past the seats, carries no Equipment)

    def knockback_immune(self, seat: int) -> bool:
        """rulebook: Sturdy Boots - "Players cannot Knockback the Gaul for the rest of the
        current Actions Phase"."""
        players = self.state.players
        return 0 <= seat < len(players) and GearRule.SURE_FOOTED.value in players[seat].conditions

    def clear_conditions(self) -> None:
        """Every Gear condition lasts to the end of the Action phase at most."""
        for p in self.state.players:
            p.conditions.clear()
