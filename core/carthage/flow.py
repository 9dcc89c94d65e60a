"""The round of Carthage: it runs the game forward until some seat must decide something
(rulebook: Round Order).

`advance()` resolves the effect stack, then moves the phase on through `theater_phase`,
`action_phase` and `favor_phase`. Turn order is seat order (clockwise), from the Starting Player.
"""

from __future__ import annotations

from collections.abc import Callable

from harena.core.carthage.part import Part
from harena.core.carthage.state import (
    SETUP_PHASES,
    Phase,
)


class Flow(Part):
    """`game.flow`: runs the round from phase to phase (see the module docstring)."""

    def advance(self) -> None:
        s = self.state
        while s.phase is not Phase.OVER:
            if s.stack:
                if not self.game.resolver.run_frames():
                    return
                continue
            if self.game.beast_rules.beast_waiting():
                return  # beast_rules: an eliminated player chooses a Beast, or where it enters
            if s.phase in SETUP_PHASES or self.game.rulesets.ruleset_waits():
                return  # setup, or a Modular Ruleset's prompt: one decision at a time
            if s.phase is Phase.THEATER:
                self.game.action_phase.begin_action_phase()
            elif s.phase is Phase.ACTION:
                if s.in_play is not None:
                    return  # a "/" card waits for its side
                if self.game.essedari_mode.opponent_turn():
                    continue
                seat = self.next_seat(self.game.action_phase.may_play)
                if seat is None:
                    self.game.action_phase.end_action_phase()
                    continue
                s.turn = seat
                return
            elif s.phase is Phase.AFTER_ACTIONS:
                if any(hook() for hook in self.game.hooks.after_actions):
                    continue
                self.game.action_phase.king_of_the_hill()
                self.game.action_phase.sudden_death()
                if self.state.phase is not Phase.OVER:  # (sudden death may have ended it)
                    self.game.favor_phase.begin_favor_phase()
            elif s.phase is Phase.FAVOR:
                if (
                    s.focus_pick is not None
                    or s.evaluate_buy is not None
                    or s.lobby_reveal is not None
                ):
                    return
                seat = self.game.favor_phase.next_buyer()
                if seat is None:
                    self.game.favor_phase.end_favor_phase()
                    self.game.theater_phase.start_round()
                    continue
                s.turn = seat
                return

    def next_seat(self, wants: Callable[[int], bool]) -> int | None:
        """The first living seat from `turn` clockwise for which `wants(seat)` holds."""
        s = self.state
        n = len(s.players)
        for k in range(n):
            seat = (s.turn + k) % n
            if s.players[seat].alive and wants(seat):
                return seat
        return None
