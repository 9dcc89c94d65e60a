"""The ruleset table (`game.ruleset_table`), what every ruleset module shares: which rulesets
this table plays, and their data."""

from __future__ import annotations

from harena.core.carthage.part import Part
from harena.core.carthage.rulesets.catalog import Ruleset, default_rulesets, option_name, ruleset_id
from harena.core.engine import split_multi


class RulesetTable(Part):
    """`game.ruleset_table`: the Modular Rulesets this table plays, and their data."""

    def prepare_rulesets(self) -> None:
        """From the table's option `rulesets` (docs/rulings.md: a table chooses them at its
        creation and keeps them for the whole game)."""
        self.ruleset_defs = default_rulesets()
        chosen = split_multi(self.game.config.options.get("rulesets", ""))
        self.active_rulesets = frozenset(ruleset_id(name) for name in chosen)

    def active(self, ruleset: str) -> bool:
        """In play at this table: chosen at its creation, or (2 vs 3) by the team of two."""
        if ruleset in self.active_rulesets:
            return True
        team = self.state.team_rulesets  # empty but in 2 vs 3
        return bool(team) and option_name(ruleset) in team

    def usable_by(self, ruleset: str, seat: int) -> bool:
        """In play and `seat` may use it: rulebook, 2 VS 3 Mode - the team of two "may
        exclusively use" its rulesets, "however the team of 3 can still be affected" (a Favor
        Action, a response, a gain is theirs alone; a harm, a price, reaches everyone)."""
        return self.active(ruleset) and self.game.team_mode.may_use_ruleset(
            seat, option_name(ruleset)
        )

    def ruleset(self, ruleset: str) -> Ruleset:
        return self.ruleset_defs[ruleset]

    def turn_order(self) -> list[int]:
        """Living seats clockwise from the Starting Player."""
        s = self.state
        n = len(s.players)
        return [(s.starting + k) % n for k in range(n) if s.players[(s.starting + k) % n].alive]

    def step_free(self, seat: int) -> bool:
        """`seat` has a hex to step to."""
        at = self.state.players[seat].at
        return at is not None and any(
            self.game.board.can_enter(h) for h in self.arena.neighbours(at)
        )
