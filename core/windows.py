"""Reaction windows at a table: open for a fixed time, answered for whoever holds nothing.

A game marks the prompts of a reaction window with a `default` (core/engine.py: Spartacus asks
"react?" of every Dominus who could react by public facts, after a Scheme is launched or a lot
won). Asking everyone alike hides who holds a Reaction, but a person should not have to press a
key for a window they cannot use, nor learn from its timing who could.

So a table with a person among those asked holds the window open for a fixed time
(`ClockPolicy.window`, 10 seconds unless the table chose otherwise), whatever happens:
- a person's answer is held by the table, not given to the game, until the time is up (they
  may change it meanwhile); nobody else's view changes when they answer;
- when the time is up the table gives the game every held answer, and the default ("Let it
  be") for each person who gave none: one who holds nothing playable never presses a key;
- bots answer at once, as always (whether a bot holds a card changes nothing of the timing),
  and a window with no person asked (a table of bots alone, `harena simulate`) never waits.

What others see (who has answered, when the window closes, every byte of their views) is the
same whether anyone holds a Reaction or not: `tests/core/test_windows.py` proves it with the
secrecy checker's comparison. The trade-off (docs/rulings.md): every window with a person in it
lasts its full time, even when everyone has answered. Pure: the table passes in the time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from harena.core.engine import Game, Prompt

WINDOW_SECONDS = 10.0  # a table's reaction window unless it chose otherwise
CHOICES = (0, 5, 10, 20, 30)  # what the create-table form offers (0: off, answered by keys)


@dataclass
class HeldWindow:
    """An open window at a table: when it closes, and the answers held for persons."""

    closes: float
    held: dict[int, str] = field(default_factory=dict)


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


def nothing_to_play(prompt: dict[str, object]) -> bool:
    """A window prompt (as a view shows it) whose only choice is its default: the seat holds
    nothing that answers, and is not asked for a key while the table holds the window."""
    choices = prompt.get("choices")
    return (
        prompt.get("default") is not None
        and isinstance(choices, list)
        and [c[0] for c in choices] == [prompt["default"]]
    )
