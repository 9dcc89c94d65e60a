"""A one-prompt game with 23 choices, to page through the prompt bar (High Card offers 3)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harena.core.engine import Choice, Game, Prompt, Result, register, unregister

CHOICES = 23


@dataclass
class PickState:
    picked: str | None = None


class PickOne(Game):
    name = "pickone"
    title = "Pick One"
    min_players = 1
    max_players = 2
    State = PickState

    state: PickState

    def setup(self) -> PickState:
        return PickState()

    def prompts(self) -> list[Prompt]:
        if self.state.picked is not None:
            return []
        return [
            Prompt(
                0,
                "pick",
                "Pick one item",
                tuple(Choice(f"item:{i}", f"item number {i}") for i in range(1, CHOICES + 1)),
            )
        ]

    def apply(self, seat: int, choice: str) -> None:
        self.state.picked = choice
        self.emit(f"seat {seat} picked {choice}")

    def board_view(self, seat: int | None) -> dict[str, Any]:
        return {"picked": self.state.picked}

    def result(self) -> Result | None:
        return None if self.state.picked is None else Result((0,), f"picked {self.state.picked}")


def install() -> None:
    register(PickOne)


def uninstall() -> None:
    unregister(PickOne.name)
