"""The Arena board of Spartacus: a hexagon of hexes in axial coordinates, with the starting
hexes "I" and "II" (rules: Hosting the Event). Neighbour tables are built once per board, so
movement in the rules engine is a dictionary look-up."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple


class Hex(NamedTuple):
    q: int
    r: int


CENTRE = Hex(0, 0)


# Pointy-top axial directions, clockwise from north-east; prompts name them.
DIRECTIONS: dict[str, tuple[int, int]] = {
    "NE": (1, -1), "E": (1, 0), "SE": (0, 1), "SW": (-1, 1), "W": (-1, 0), "NW": (0, -1),
}  # fmt: skip


def distance(a: Hex, b: Hex) -> int:
    dq, dr = a.q - b.q, a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@dataclass(frozen=True, eq=False)
class ArenaBoard:
    radius: int
    starts: tuple[Hex, Hex]  # hexes I and II
    hexes: frozenset[Hex] = field(init=False)
    steps: dict[Hex, tuple[tuple[str, Hex], ...]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        n = self.radius
        cells = frozenset(
            Hex(q, r) for q in range(-n, n + 1) for r in range(-n, n + 1) if abs(q + r) <= n
        )
        steps = {
            h: tuple(
                (name, Hex(h.q + dq, h.r + dr))
                for name, (dq, dr) in DIRECTIONS.items()
                if Hex(h.q + dq, h.r + dr) in cells
            )
            for h in cells
        }
        object.__setattr__(self, "hexes", cells)
        object.__setattr__(self, "steps", steps)

    def __contains__(self, h: object) -> bool:
        return h in self.hexes
