"""Hidden cards dealt again, for both games' determinizers (`core/<game>/determinize.py`): what
a seat may not know is sampled anew the same way in Carthage and in Spartacus, so a search bot
and the secrecy checker see one rule for "the same cards, each pile its size"."""

from __future__ import annotations

from typing import Any

from harena.core.engine import Rng


def deal_again(piles: list[list[Any]], rng: Rng) -> None:
    """The cards of `piles` dealt back at random, each pile keeping its size. The pool is
    sorted first, so where the cards were does not matter, only which they are."""
    pool = sorted(c for pile in piles for c in pile)
    rng.shuffle(pool)
    for pile in piles:
        pile[:], pool = pool[: len(pile)], pool[len(pile) :]
