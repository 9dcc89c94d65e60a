"""The Modular Rulesets' own decisions, as `game.rulesets`: the prompts they
open, the choices they take, and the effects of their Movement (rulebook: Modular Rulesets)."""

from __future__ import annotations

from harena.core.carthage.effects import Armor, Effect, Move
from harena.core.carthage.part import Part
from harena.core.engine import Choice, Prompt


class RulesetRules(Part):
    def ruleset_prompt(self) -> Prompt | None:
        """A ruleset's open decision, if any (prompts.open_prompts asks after the stack's)."""
        return (
            self.game.favor_actions.favor_pick_prompt()
            or self.game.conditions.strict_prompt()
            or self.game.naked.naked_prompt()
        )

    def ruleset_waits(self) -> bool:
        """A ruleset prompt is open outside the stack: the round must wait (flow.advance)."""
        return self.state.rulesets.pick is not None or bool(self.state.rulesets.strict)

    def apply_ruleset_choice(self, seat: int, chosen: Choice) -> bool:
        """Apply a choice made at a ruleset's prompt; False: not one of theirs."""
        choice = chosen.id
        if self.state.rulesets.pick is not None:
            self.game.favor_actions.apply_favor_pick(seat, chosen)
        elif self.state.rulesets.strict:
            self.game.conditions.apply_strict(seat, chosen)
        elif self.game.naked.window_open() or choice == "naked":
            self.game.naked.apply_naked(seat, choice)
        else:
            return False
        return True

    def ruleset_effects(self, ref: str) -> tuple[Effect, ...]:
        """What a ruleset frame resolves: Movement, paid for first (Naked and Afraid)."""
        rule = self.game.ruleset_table.ruleset(ref)
        if ref == "naked-and-afraid":
            return (Armor(-rule.armor), Move(rule.value))
        return (Move(rule.value),)
