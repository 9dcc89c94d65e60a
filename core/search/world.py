"""A sampled world: a copy of a game in which everything a seat may not know is drawn again.

The copy shares the game's immutable content (cards, board) and deep-copies only the rules
state. It carries no log, no action history and no per-seat decision counts: the log holds
other seats' private lines, the history their hidden choices, and the counts how many steps a
hidden choice took. What is left is exactly what the seat may know plus a sample of the rest,
so a bot that plays on worlds cannot peek (tests/core/search/test_never_peeks.py).
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable

from harena.core.carthage import determinize as carthage_determinize
from harena.core.engine import Game, Rng
from harena.core.spartacus import determinize as spartacus_determinize

Determinizer = Callable[[Game, int | None, Rng], None]

DETERMINIZERS: dict[str, Determinizer] = {
    "carthage": carthage_determinize.determinize,
    "spartacus": spartacus_determinize.determinize,
}


def copy_game(game: Game) -> Game:
    """An independent copy for playing on: the state deep-copied (pickle is the fastest deep
    copy of a dataclass tree), the content shared, no log and no history."""
    return copier(game)()


def copier(game: Game) -> Callable[[], Game]:
    """Makes `copy_game(game)` as `game` is now, again and again: the state is pickled once and
    each copy only unpickles it (a paired search plays every candidate from the same world).
    `game` must not change while copies are still to be made."""
    frozen = pickle.dumps(game.state, pickle.HIGHEST_PROTOCOL)

    def twin() -> Game:
        copied = copy.copy(game)
        copied.state = pickle.loads(frozen)
        copied.events = []
        copied.actions = []
        copied._decisions = [0] * game.players
        copied.state_changed()
        return copied

    return twin


def sample_world(game: Game, seat: int, rng: Rng) -> Game:
    """A copy of `game` as `seat` may imagine it: its unknowns and the dice drawn from `rng`."""
    try:
        determinize = DETERMINIZERS[game.name]
    except KeyError:
        raise ValueError(f"no determinizer for {game.name!r}") from None
    world = copy_game(game)
    determinize(world, seat, rng)
    world.rng = Rng(rng.next64())
    world.state_changed()
    return world
