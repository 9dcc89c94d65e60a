"""Positions for the Equipment, Legend and Beast tests: a real game with the options on."""

from __future__ import annotations

from harena.core.carthage.hexgrid import Hex
from harena.core.carthage.rules import Carthage
from tests.core.carthage.table_helpers import arena, give

# by_seat colours: seat 0 Blue Retiarius, 1 Red Dimachaerus, 2 Green Murmillo,
# 3 Yellow Thracian, 4 Purple Gaul.
BLUE, RED, GREEN, YELLOW, PURPLE = range(5)


def kit_arena(
    positions: list[Hex | None], tokens: dict[Hex, str] | None = None, **options: str
) -> Carthage:
    """Like `table_helpers.arena`, with table options (equipment, legends, beasts...); a None
    position is a seat out of the arena."""
    return arena(positions, tokens, **{"equipment": "on", **options})


def use(game: Carthage, seat: int, equipment_id: str, discard: str = "guard") -> int:
    """`seat` discards a new Starting card `discard` and uses `equipment_id`; a spare card in
    hand keeps the Action phase open. Returns the discarded card's instance."""
    instance = give(game, seat, discard)
    give(game, seat, "hail-the-crowd")
    game.state.turn = seat
    game.state_changed()
    game.act(seat, f"equip:{equipment_id}:{instance}")
    return instance


def beast(game: Carthage, seat: int, beast_id: str, at: Hex) -> None:
    """Make `seat` an eliminated player who plays `beast_id`, standing on `at`."""
    p = game.state.players[seat]
    p.alive = False
    p.beast = beast_id
    p.armor = game.content.beast(beast_id).armor
    p.at = at
    game.state.eliminated.append(seat)
    game.state_changed()
