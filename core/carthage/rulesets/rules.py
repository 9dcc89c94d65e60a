"""The Modular Rulesets as one mixin of `harena.core.carthage.rules.Carthage`: the prompts they
open, the choices they take, and the effects of their Movement (rulebook: Modular Rulesets)."""

from __future__ import annotations

from harena.core.carthage.effects import Armor, Effect, Move
from harena.core.carthage.rulesets.conditions import ActiveConditions
from harena.core.carthage.rulesets.favor_actions import FavorActions
from harena.core.carthage.rulesets.naked import NakedAndAfraid
from harena.core.engine import Prompt


class RulesetRules(FavorActions, ActiveConditions, NakedAndAfraid):
    def ruleset_prompt(self) -> Prompt | None:
        """A ruleset's open decision, if any (prompts.open_prompts asks after the stack's)."""
        return self.favor_pick_prompt() or self.strict_prompt() or self.naked_prompt()

    def ruleset_waits(self) -> bool:
        """A ruleset prompt is open outside the stack: the round must wait (phases.advance)."""
        return self.rs.pick is not None or bool(self.rs.strict)

    def apply_ruleset_choice(self, seat: int, choice: str) -> bool:
        """Apply a choice made at a ruleset's prompt; False: not one of theirs."""
        if self.rs.pick is not None:
            self.apply_favor_pick(seat, choice)
        elif self.rs.strict:
            self.apply_strict(seat, choice)
        elif self.window_open() or choice == "naked":
            self.apply_naked(seat, choice)
        else:
            return False
        return True

    def ruleset_effects(self, ref: str) -> tuple[Effect, ...]:
        """What a ruleset frame resolves: Movement, paid for first (Naked and Afraid)."""
        rule = self.ruleset(ref)
        if ref == "naked-and-afraid":
            return (Armor(-rule.armor), Move(rule.value))
        return (Move(rule.value),)
