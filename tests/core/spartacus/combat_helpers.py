"""A fight set up through the Arena's own prompts, with the dice under the test's control."""

from __future__ import annotations

from harena.core.spartacus import arena
from harena.core.spartacus.board import Hex
from harena.core.spartacus.rules import Spartacus
from tests.core.spartacus.helpers import clear_table, dice, give, started


def fight(
    first: str, second: str, *faces: int, seed: int = 1, equip: tuple[str, ...] = ()
) -> Spartacus:
    """Seat 1's `first` (hex I) against seat 2's `second` (hex II); seat 0 hosts. `faces` are
    the dice from the first initiative roll on. `equip`: equipment for seat 1, in slot order."""
    game = started(4, seed=seed)
    s = game.state
    s.intrigue = None
    s.host = 0
    for seat, p in enumerate(s.players):
        clear_table(game, seat)
        p.denarii = 0  # nobody bets: the fight starts as soon as both are in
        p.influence = 5
    a = give(game, 1, first)
    b = give(game, 2, second)
    gear = [give(game, 1, e) for e in equip]
    arena.start(game)
    game.state_changed()
    game.act(0, "invite:1")
    game.act(1, "accept")
    game.act(1, f"fighter:{a}")
    for g in gear:
        game.act(1, f"equip:{g}")
    while game.prompts_for(1) and game.prompts_for(1)[0].kind == "choose_equipment":
        game.act(1, "equip:none")
    game.act(0, "invite:2")
    game.act(2, "accept")
    dice(game, *faces)
    game.act(2, f"fighter:{b}")
    return game


def place(game: Spartacus, a: tuple[int, int], b: tuple[int, int]) -> None:
    fighters = game.state.arena.fighters
    fighters[0].at, fighters[1].at = Hex(*a), Hex(*b)
    game.state_changed()


def more_dice(game: Spartacus, *faces: int) -> None:
    game.rng.faces.extend(faces)
