"""The chain of the 2 vs 2 Chained Match, as geometry (rulebook: Player Modes, 2 VS 2 Chained
Match: teammates "CANNOT have more than 1 Hex space between them for the entirety of the game";
"Chain cannot pass through Pillars").

ruling (docs/rulings.md): the chain runs from one gladiator's hex to the other's along a
shortest path. Adjacent teammates are always linked (nothing lies between them). Two hexes
apart, the chain passes through a hex next to both; it holds while at least one such hex is
not a Pillar (a gladiator or another token there is no obstacle: a chain is no body). Farther
apart, it is broken. Pure functions of positions and a pillar test: the rules (`teams`) and the
view use them alike.
"""

from __future__ import annotations

from collections.abc import Callable

from harena.core.carthage.hexgrid import Arena, Hex, distance

CHAIN_LENGTH = 2  # "no more than 1 Hex space between them"


def link_hexes(arena: Arena, a: Hex, b: Hex) -> tuple[Hex, ...]:
    """The hexes a chain between `a` and `b` could pass through: empty when adjacent, the hexes
    next to both when two apart (one on a straight line, two otherwise)."""
    if distance(a, b) != 2:
        return ()
    near_b = set(arena.neighbours(b))
    return tuple(h for h in arena.neighbours(a) if h in near_b)


def chain_via(arena: Arena, is_pillar: Callable[[Hex], bool], a: Hex, b: Hex) -> Hex | None:
    """The hex the chain passes through (the first non-pillar link hex), None when `a` and `b`
    are adjacent or the chain is broken."""
    return next((h for h in link_hexes(arena, a, b) if not is_pillar(h)), None)


def chain_holds(arena: Arena, is_pillar: Callable[[Hex], bool], a: Hex, b: Hex) -> bool:
    """Whether teammates on `a` and `b` keep their chain (see the module docstring)."""
    gap = distance(a, b)
    if gap <= 1:
        return True
    if gap > CHAIN_LENGTH:
        return False
    return chain_via(arena, is_pillar, a, b) is not None
