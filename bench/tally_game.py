"""Tally: an endless turn-based workload for the SSH load benchmark (not shipped as a game).

Seats take turns adding 1, 2 or 3 to a shared total. It has the shape of a real game's traffic
(a prompt for one seat, a board change and a log line everyone sees) without ever ending.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harena.core.bots import RandomBot
from harena.core.engine import Choice, Game, Prompt, Result, register


@dataclass
class TallyState:
    total: int = 0
    turn: int = 0


class Tally(Game):
    name = "tally"
    title = "Tally (benchmark)"
    min_players = 1
    max_players = 10
    State = TallyState
    bots = {"random": RandomBot}

    state: TallyState

    def setup(self) -> TallyState:
        return TallyState()

    def prompts(self) -> list[Prompt]:
        s = self.state
        return [
            Prompt(
                s.turn,
                "add",
                "Add to the total",
                tuple(Choice(f"add:{n}", f"add {n}") for n in (1, 2, 3)),
            )
        ]

    def apply(self, seat: int, choice: str) -> None:
        n = int(choice.removeprefix("add:"))
        self.state.total += n
        self.emit(f"seat {seat} adds {n} (total {self.state.total})")
        self.state.turn = (seat + 1) % self.players

    def board_view(self, seat: int | None) -> dict[str, Any]:
        return {"total": self.state.total, "turn": self.state.turn}

    def result(self) -> Result | None:
        return None


def install() -> None:
    register(Tally)
