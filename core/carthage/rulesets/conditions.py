"""Five of the six Active Conditions (rulebook: Modular Rulesets - Active Conditions); the sixth,
Naked and Afraid, is a response window of its own (`naked`).

They act at fixed moments the round code calls: the game's start (Battle Hardened's 20 Armor),
the start of the Action phase (Battle Hardened, Featured Match), every step (Crocodile Island)
and the end of the Action phase (Strict Discipline, then The Southern Winds). Rulings:
docs/rulings.md, "Active Conditions".
"""

from __future__ import annotations

from harena.core.carthage.choices import FocusCard
from harena.core.carthage.part import Part
from harena.core.carthage.state import MAX_ARMOR, START_ARMOR, Frame, Phase, Source
from harena.core.engine import Choice, Prompt


class ActiveConditions(Part):
    def starting_armor(self) -> int:
        """rulebook: Battle Hardened - "Every player begins the game with 20 Armor"."""
        if self.game.ruleset_table.active("battle-hardened"):
            return min(MAX_ARMOR, self.game.ruleset_table.ruleset("battle-hardened").start)
        return START_ARMOR

    def least_armored(self) -> list[int]:
        order = self.game.ruleset_table.turn_order()
        least = min(self.state.players[i].armor for i in order)
        return [i for i in order if self.state.players[i].armor == least]

    def start_of_actions(self) -> None:
        """rulebook: Battle Hardened, Featured Match - "At the start (beginning) of the Actions
        Phase". ruling: after the Theater card, before the hands are drawn; Battle Hardened
        first (the rulebook's order); every gladiator tied for the least Armor gains."""
        s = self.state
        if self.game.ruleset_table.active("battle-hardened"):
            gain = self.game.ruleset_table.ruleset("battle-hardened").value
            for seat in self.least_armored():
                if s.players[seat].armor < MAX_ARMOR and self.game.ruleset_table.usable_by(
                    "battle-hardened", seat
                ):
                    self.game.emit(
                        f"Battle Hardened: {self.game.board.name_of(seat)} has the least Armor"
                    )
                    self.game.board.gain_armor(seat, gain)
        if self.game.ruleset_table.active("featured-match"):
            crowd = len(s.theater_discard)
            self.game.emit(f"Featured Match: {crowd} cards in the Theater discard pile")
            for seat in self.game.ruleset_table.turn_order():
                if self.game.ruleset_table.usable_by("featured-match", seat):
                    self.game.board.change_favor(seat, crowd)

    def stepped(self, seat: int) -> None:
        """rulebook: Crocodile Island - "Each Hex which is outside the Inner Circle deals -1
        Armor when stepped on". ruling: a step is Movement (a card's, a token's, a ruleset's);
        a gladiator knocked back is not stepping."""
        at = self.state.players[seat].at
        beast = self.game.beast_rules.is_beast(
            seat
        )  # rulebook: Active Rulesets do not affect Arena Beasts
        if (
            self.game.ruleset_table.active("crocodile-island")
            and at is not None
            and not beast
            and not self.arena.in_inner_circle(at)
        ):
            self.game.emit(f"Crocodile Island: the water bites {self.game.board.name_of(seat)}")
            self.game.board.lose_armor(
                seat, self.game.ruleset_table.ruleset("crocodile-island").value, "loses"
            )

    def end_of_actions(self) -> bool:
        """rulebook: Strict Discipline, The Southern Winds - "At the end of the Actions Phase".
        ruling: after a late Theater card (Phase 2 C ends the phase), before King of the Hill;
        Strict Discipline first, then The Southern Winds (the rulebook's order), so a gladiator
        who paid Armor for Strict Discipline may be the one the Winds carry. True: something
        was started, so the round waits for it."""
        s = self.state
        if self.state.rulesets.end_round == s.round or s.phase is not Phase.AFTER_ACTIONS:
            return False
        self.state.rulesets.end_round = s.round
        started = False
        if self.game.ruleset_table.active("strict-discipline"):
            self.state.rulesets.strict = [
                i for i in self.game.ruleset_table.turn_order() if self.may_strict(i)
            ]
            started = bool(self.state.rulesets.strict)
        if not started:
            started = self.southern_winds()
        return started

    def may_strict(self, seat: int) -> bool:
        return (
            self.game.ruleset_table.usable_by("strict-discipline", seat)
            and self.game.board.may_focus(seat)
            and self.state.players[seat].armor
            > self.game.ruleset_table.ruleset("strict-discipline").armor
        )

    def southern_winds(self) -> bool:
        """rulebook: The Southern Winds - "the player(s) with the least Armor gain 2
        Movement", in turn order from the Starting Player."""
        s = self.state
        if not self.game.ruleset_table.active("the-southern-winds") or s.phase is Phase.OVER:
            return False
        seats = [
            i
            for i in self.least_armored()
            if self.game.ruleset_table.usable_by("the-southern-winds", i)
        ]
        if not seats:
            return False
        names = ", ".join(self.game.board.name_of(i) for i in seats)
        self.game.emit(f"The Southern Winds carry {names}")
        for seat in reversed(seats):  # the stack runs the first seat first
            s.stack.append(Frame(seat, Source.RULESET, "the-southern-winds"))
        return True

    def strict_prompt(self) -> Prompt | None:
        if not self.state.rulesets.strict:
            return None
        seat = self.state.rulesets.strict[0]
        cost = self.game.ruleset_table.ruleset("strict-discipline").armor
        choices = tuple(
            FocusCard.of(i, self.game.board.card_name(i)) for i in self.state.players[seat].discard
        )
        return Prompt(
            seat,
            "strict_discipline",
            f"Strict Discipline: Focus a card for {cost} Armor?",
            (*choices, Choice("skip", "Do not Focus")),
        )

    def apply_strict(self, seat: int, chosen: Choice) -> None:
        self.state.rulesets.strict.pop(0)
        if isinstance(chosen, FocusCard):  # else "skip"
            self.game.emit(
                f"Strict Discipline: {self.game.board.name_of(seat)} pays Armor to Focus"
            )
            self.game.board.focus(seat, chosen.instance)
            self.game.board.lose_armor(
                seat, self.game.ruleset_table.ruleset("strict-discipline").armor, "loses"
            )
        self.state.rulesets.strict = [
            i for i in self.state.rulesets.strict if self.state.players[i].alive
        ]
        if not self.state.rulesets.strict:
            self.southern_winds()
