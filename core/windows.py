"""Reaction windows at a table: open until every person asked has answered, or its time is up.

A game marks the prompts of a reaction window with a `default` (core/engine.py: Spartacus asks
"react?" of every Dominus who could react by public facts, after a Scheme is launched or a lot
won). Asking everyone alike hides who holds a Reaction; so must the window's closing.

So a table with a person among those asked holds the window open (issue 36):
- every person asked gets the same prompt, "Let it be" first, holding a Reaction or not, and
  the same live countdown (`ClockPolicy.window`, 10 seconds unless the table chose otherwise);
- a person's answer is held by the table, not given to the game, until the window closes (they
  may change it meanwhile); nobody else's view changes when they answer;
- the window closes as soon as every person asked has answered (an automatic pass counts), else
  when its time is up, with the default ("Let it be") for each person who gave none; the close
  depends on who has answered, never on what anyone holds or answered;
- bots answer at once, as always, and a window with no person asked (a table of bots alone,
  `harena simulate`) never waits;
- a person alone with bots (a guided game, `harena play`) is answered at once when "Let it be"
  is all they could answer: there is nobody at the table to hide it from.

What others see (when the window closes, every byte of their views) is the same whether anyone
holds a Reaction or not: `tests/core/test_windows.py` proves it with the secrecy checker's
comparison. Pure: the table passes in the time.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from harena.core.engine import Game, Prompt

WINDOW_SECONDS = 10.0  # a table's reaction window unless it chose otherwise
CHOICES = (0, 5, 10, 20, 30)  # what the create-table form offers (0: off, answered by keys)


@dataclass
class HeldWindow:
    """An open window at a table: when it closes at the latest, and the answers held for
    persons."""

    closes: float
    held: dict[int, str] = field(default_factory=dict)

    def answered_by(self, persons: Iterable[int]) -> bool:
        """Whether every one of `persons` (the persons asked) has an answer held: the window
        may close. Never true of nobody, so a window of bots alone is not closed by it."""
        asked = list(persons)
        return bool(asked) and all(seat in self.held for seat in asked)


def window_prompts(game: Game) -> dict[int, Prompt]:
    """seat -> its open reaction-window prompt (one per seat at most)."""
    return {p.seat: p for p in game.open_prompts() if p.default is not None and not p.standing}


def answer_for(prompt: Prompt, held: str | None) -> str:
    """What the table gives the game for a seat when the window closes: its held answer if
    still legal (it may have given its denarii away since), else the prompt's default."""
    ids = {c.id for c in prompt.choices}
    if held is not None and held in ids:
        return held
    assert prompt.default is not None
    return prompt.default


def only_default(prompt: Prompt) -> bool:
    """A window prompt whose only choice is its default: the seat holds nothing that answers
    (private to that seat: only a person alone with bots is answered for because of it)."""
    return prompt.default is not None and [c.id for c in prompt.choices] == [prompt.default]
