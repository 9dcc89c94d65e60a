"""High Card: a tiny game that exercises every part of the contract, for tests only.

Each seat holds a hidden hand; every round all seats play a card at the same time (hidden until
all are in); the highest card scores. It has hidden hands, simultaneous prompts, seeded shuffles,
private events with redacted public text, and an end with possibly several winners.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from harena.core.bots import RandomBot
from harena.core.engine import Choice, Game, OptionSpec, Prompt, Result, register

HAND = 3


@dataclass
class HighCardState:
    deck: list[int]
    hands: list[list[int]]
    played: list[int | None]
    points: list[int]
    round: int = 1
    rounds: int = 3


class HighCard(Game):
    name = "highcard"
    title = "High Card"
    min_players = 2
    max_players = 4
    options = (OptionSpec("rounds", "Rounds", ("1", "2", "3"), "3", "rounds to play"),)
    State = HighCardState
    bots = {"random": RandomBot}

    state: HighCardState

    def setup(self) -> HighCardState:
        deck = [n for n in range(1, 10) for _ in range(2)]
        self.rng.shuffle(deck)
        hands = []
        for seat in range(self.players):
            hand = sorted(deck.pop() for _ in range(HAND))
            hands.append(hand)
            self.emit(f"you drew {hand}", seats=[seat], redacted=f"seat {seat} drew {HAND} cards")
        rounds = int(self.config.options.get("rounds", "3"))
        return HighCardState(deck, hands, [None] * self.players, [0] * self.players, 1, rounds)

    def prompts(self) -> list[Prompt]:
        if self.result() is not None:
            return []
        s = self.state
        return [
            Prompt(
                seat,
                "play_card",
                f"Round {s.round}: play a card face down",
                tuple(Choice(f"card:{c}", f"play {c}") for c in sorted(set(s.hands[seat]))),
            )
            for seat in range(self.players)
            if s.played[seat] is None
        ]

    def apply(self, seat: int, choice: str) -> None:
        s = self.state
        card = int(choice.removeprefix("card:"))
        s.hands[seat].remove(card)
        s.played[seat] = card
        self.emit(f"you play {card} face down", seats=[seat], redacted=f"seat {seat} plays a card")
        if all(p is not None for p in s.played):
            self._reveal()

    def _reveal(self) -> None:
        s = self.state
        played = [p for p in s.played if p is not None]
        self.emit("revealed: " + ", ".join(f"seat {i} {p}" for i, p in enumerate(played)))
        best = max(played)
        if played.count(best) == 1:
            winner = played.index(best)
            s.points[winner] += 1
            self.emit(f"seat {winner} takes round {s.round}")
        else:
            self.emit(f"round {s.round} is tied")
        s.played = [None] * self.players
        s.round += 1

    def board_view(self, seat: int | None) -> dict[str, Any]:
        s = self.state
        return {
            "round": s.round,
            "deck": len(s.deck),
            "points": list(s.points),
            "hand_sizes": [len(h) for h in s.hands],
            "hand": None if seat is None else list(s.hands[seat]),
            "has_played": [p is not None for p in s.played],
            "my_card": None if seat is None else s.played[seat],
        }

    def result(self) -> Result | None:
        s = self.state
        if s.round <= s.rounds:
            return None
        best = max(s.points)
        winners = tuple(i for i, p in enumerate(s.points) if p == best)
        return Result(winners, f"most rounds won ({best})")

    def round_number(self) -> int:
        return min(self.state.round, self.state.rounds)


def install() -> None:
    register(HighCard)
