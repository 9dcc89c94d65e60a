"""Bots play from a seat's view alone: its prompts and what that seat may know.

Reading nothing but `Game.view(seat)` keeps bots honest (they cannot peek at hidden cards) and
means a bot can sit wherever a human can, over the same boundary.
"""

from __future__ import annotations

from typing import Any, Protocol

from harena.core.engine import Rng


class Bot(Protocol):
    def choose(self, view: dict[str, Any]) -> str:
        """The id of one choice offered in view["prompts"]."""
        ...


def awaited_prompts(view: dict[str, Any]) -> list[dict[str, Any]]:
    """The seat's prompts the game waits for: a bot leaves standing ones (gifts) alone."""
    prompts = [prompt for prompt in view["prompts"] if not prompt.get("standing")]
    if not prompts:
        raise ValueError("the bot was asked to act with no open prompt")
    return prompts


class RandomBot:
    """Uniformly random among the legal choices: the baseline, and the fuzzer of property tests."""

    reads_board = False  # it needs only view["prompts"] (Game.prompt_view)

    def __init__(self, seed: int) -> None:
        self.rng = Rng.from_seed(seed)

    def choose(self, view: dict[str, Any]) -> str:
        return self.rng.choice([cid for prompt in awaited_prompts(view) for cid, _ in prompt["choices"]])


def bot_seed(game_seed: int, seat: int) -> int:
    """A bot's own seed: derived from the game's so simulations repeat, but a separate stream,
    so a bot learns nothing about the game's hidden draws."""
    return Rng.from_seed(game_seed * 1_000_003 + seat).next64()
