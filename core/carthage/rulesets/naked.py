"""Naked and Afraid: 1 Movement for 3 Armor, as a response (rulebook: Modular Rulesets - Active
Conditions, Naked and Afraid).

"At any time during the Actions Phase, before or after a card is played or resolved ... but not
during the time a card's Action(s) are resolving." ruling (docs/rulings.md): the moments are
(1) the player whose turn it is, before choosing a card (the choice "naked" in the play prompt:
"before a card is played"), and (2) a response window once a card is revealed (its side chosen)
and before its first effect resolves: every other gladiator is asked in turn order after the
card's player, one at a time, each seeing the earlier answers ("after a card is played"). The
moment after a card resolves is the moment before the next is played, so (1) and the next
card's window cover it. The card's frame waits on the stack while the window is open, so the
rule "never during its resolution" holds by construction. Each gladiator takes it at most once
per window, and only with more than 3 Armor (paying would eliminate them) and a free hex.
"""

from __future__ import annotations

from collections.abc import Iterable

from harena.core.carthage.effects import (
    Conditional,
    Damage,
    Effect,
    Gear,
    GearRule,
    Move,
    StrikeBonus,
)
from harena.core.carthage.hexgrid import distance
from harena.core.carthage.part import Part
from harena.core.carthage.state import Frame, Phase, Source
from harena.core.engine import Choice, Prompt

RULESET = "naked-and-afraid"


class NakedAndAfraid(Part):
    def naked_ok(self, seat: int) -> bool:
        p = self.state.players[seat]
        return (
            self.game.ruleset_table.usable_by(RULESET, seat)
            and self.state.phase is Phase.ACTION
            and p.alive
            and p.armor > self.game.ruleset_table.ruleset(RULESET).armor
            and self.game.ruleset_table.step_free(seat)
        )

    def naked_label(self) -> str:
        rule = self.game.ruleset_table.ruleset(RULESET)
        return f"Naked and Afraid: step {rule.value} for {rule.armor} Armor"

    def naked_turn_choices(self, seat: int) -> tuple[Choice, ...]:
        """The play prompt's extra choice: before a card is played."""
        return (Choice("naked", self.naked_label()),) if self.naked_ok(seat) else ()

    def card_revealed(self) -> None:
        """A card's side is chosen: open the window for everyone else, in turn order after its
        player (action_phase.choose_side calls this)."""
        s = self.state
        if not self.game.ruleset_table.active(RULESET) or s.in_play is None or not s.stack:
            return
        n = len(s.players)
        owner = s.in_play.seat
        frame = s.stack[-1]
        threat = card_threat(self.content.card(frame.ref).sides[frame.side].effects)
        at = s.players[owner].at
        self.state.rulesets.window = [
            seat for seat in ((owner + k) % n for k in range(1, n))
            if threat is not None and at is not None and (mine := s.players[seat].at) is not None
            and distance(at, mine) <= threat
        ]  # fmt: skip

    def holds_frame(self, frame: Frame) -> bool:
        """Whether the card frame about to resolve must wait for the window (resolve.run_frames
        asks before each operation); drops the seats that cannot answer now."""
        if not self.state.rulesets.window or frame.source is not Source.CARD or frame.pc != 0:
            return False
        while self.state.rulesets.window and not self.naked_ok(self.state.rulesets.window[0]):
            self.state.rulesets.window.pop(0)
        return bool(self.state.rulesets.window)

    def window_open(self) -> bool:
        s = self.state
        if not self.state.rulesets.window or not s.stack:
            return False
        top = s.stack[-1]
        return top.wait is None and top.source is Source.CARD and top.pc == 0

    def naked_prompt(self) -> Prompt | None:
        s = self.state
        if not self.window_open() or s.in_play is None:
            return None
        seat = self.state.rulesets.window[0]
        card = self.game.board.card_name(s.in_play.instance)
        text = (
            f"{self.game.board.name_of(s.in_play.seat)} plays {card}: respond before it resolves?"
        )
        choices = (Choice("naked", self.naked_label()), Choice("pass", "Let it resolve"))
        return Prompt(seat, "naked_and_afraid", text, choices)

    def apply_naked(self, seat: int, choice: str) -> None:
        if self.window_open():
            self.state.rulesets.window.pop(0)
        if choice != "naked":
            return
        rule = self.game.ruleset_table.ruleset(RULESET)
        self.game.emit(
            f"{self.game.board.name_of(seat)} goes Naked and Afraid: {rule.armor} Armor for {rule.value} step"
        )
        self.state.stack.append(Frame(seat, Source.RULESET, RULESET))


def card_threat(effects: Iterable[Effect]) -> int | None:
    """How far from its player a card can hurt someone: its Movement plus its longest Damage
    reach (Twin Blades: adjacent); None when it deals no Damage. ruling: the Naked and Afraid
    window asks only gladiators within that (docs/rulings.md): a step is a dodge, and a card
    that cannot reach a gladiator leaves it nothing to dodge."""
    steps, reach = 0, None
    for effect in effects:
        if isinstance(effect, Move):
            steps += effect.steps
        elif isinstance(effect, Damage):
            reach = max(reach or 0, effect.reach)
        elif isinstance(effect, Gear) and effect.rule is GearRule.TWIN_BLADES:
            reach = max(reach or 0, 1)
        elif isinstance(effect, (StrikeBonus, Conditional)):
            inner = card_threat(effect.effects)
            if inner is not None:
                reach = max(reach or 0, inner)
    return None if reach is None else steps + reach
