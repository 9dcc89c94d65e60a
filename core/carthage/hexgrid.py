"""The hex geometry of the Arena of Carthage: axial coordinates, directions, lines, the arena.

Hexes are pointy-top in axial coordinates `Hex(q, r)` (the third cube coordinate is s = -q - r).
On screen q grows to the east and r to the south-east, so a row of the board is a fixed r.

The six directions are numbered clockwise from north-east, and that order is part of the
contract: `neighbours()` and every table indexed by direction use it, and prompts may name a
direction by its member name (`Direction["NE"]`).

The `Arena` precomputes its neighbour tables once, so movement and knockback in the rules engine
are dictionary lookups (the engine must play a 4-player random game in well under 50 ms).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import IntEnum
from typing import NamedTuple


class Hex(NamedTuple):
    """One hex in axial coordinates. A NamedTuple: hashing and comparing it is as fast as a
    tuple's, which matters in the movement and knockback loops."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def step(self, direction: Direction, steps: int = 1) -> Hex:
        dq, dr = _OFFSETS[direction]
        return Hex(self.q + dq * steps, self.r + dr * steps)

    def neighbours(self) -> tuple[Hex, ...]:
        """The six neighbours in `Direction` order, in or out of any arena."""
        return tuple(Hex(self.q + dq, self.r + dr) for dq, dr in _OFFSETS)


class Direction(IntEnum):
    """The six hex directions, clockwise from north-east (pointy-top hexes)."""

    NE = 0
    E = 1
    SE = 2
    SW = 3
    W = 4
    NW = 5

    @property
    def offset(self) -> tuple[int, int]:
        return _OFFSETS[self]

    @property
    def opposite(self) -> Direction:
        return Direction((self + 3) % 6)

    def turned(self, sixths: int) -> Direction:
        """The direction `sixths` sixths of a turn clockwise (negative: anticlockwise)."""
        return Direction((self + sixths) % 6)


DIRECTIONS: tuple[Direction, ...] = tuple(Direction)  # built once: the rules ask for all six often

# (dq, dr) per Direction, in Direction order.
_OFFSETS: tuple[tuple[int, int], ...] = ((1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1))
_BY_OFFSET: dict[tuple[int, int], Direction] = {off: Direction(i) for i, off in enumerate(_OFFSETS)}


# --- measuring ------------------------------------------------------------------------------------


def distance(a: Hex, b: Hex) -> int:
    """Steps between two hexes on an open grid."""
    dq = a.q - b.q
    dr = a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def direction_to(a: Hex, b: Hex) -> Direction:
    """The direction from `a` to the adjacent hex `b`."""
    try:
        return _BY_OFFSET[(b.q - a.q, b.r - a.r)]
    except KeyError:
        raise ValueError(f"{b} is not adjacent to {a}") from None


def straight_direction(a: Hex, b: Hex) -> Direction | None:
    """The direction of the straight hex line from `a` through `b`, or None when `b` is not on
    one of the six lines through `a` (or is `a` itself)."""
    dq = b.q - a.q
    dr = b.r - a.r
    if dq == 0 and dr == 0:
        return None
    if dq == 0 or dr == 0 or dq == -dr:
        n = max(abs(dq), abs(dr))
        return _BY_OFFSET[(dq // n, dr // n)]
    return None


def walk(a: Hex, b: Hex) -> tuple[tuple[int, Direction], ...]:
    """How to go from `a` to `b` along at most two straight lines at 60 degrees: (steps,
    direction) pairs, the first line first. A hex is named this way on screen and in the log
    ("2 NE, 1 E of the centre"), as a player finds it on the drawn arena, never by its axial
    coordinates."""
    dq, dr = b.q - a.q, b.r - a.r
    n = distance(a, b)
    for first in Direction:
        (fq, fr), (sq, sr) = _OFFSETS[first], _OFFSETS[first.turned(1)]
        for k in range(1, n + 1):
            if (dq - k * fq, dr - k * fr) == ((n - k) * sq, (n - k) * sr):
                return ((k, first),) if k == n else ((k, first), (n - k, first.turned(1)))
    return ()  # a == b


def hex_name(h: Hex, centre: Hex) -> str:
    """A hex as players find it on the arena: "the centre", "3 NE of the centre", "2 NE, 1 E
    of the centre" (rulebook: the arena's centre hexagon is marked on the board)."""
    if h == centre:
        return "the centre"
    return ", ".join(f"{k} {d.name}" for k, d in walk(centre, h)) + " of the centre"


def knockback_directions(attacker: Hex, target: Hex) -> tuple[Direction, ...]:
    """Which way `target` is knocked "STRAIGHT ... away from the opponent" (rulebook: Action
    Cards, Knockback).

    Adjacent, or anywhere on one of the six straight lines through the attacker: that line,
    away from the attacker (one direction). At range off those lines: the direction closest in
    angle to the line from attacker to target; when the target lies exactly between two
    directions (e.g. two hexes away on a "corner"), both are returned, in `Direction` order, and
    the attacker chooses (ruling in docs/rulings.md, "Carthage").
    """
    if attacker == target:
        raise ValueError("a gladiator cannot knock itself back")
    straight = straight_direction(attacker, target)
    if straight is not None:
        return (straight,)
    vq = target.q - attacker.q
    vr = target.r - attacker.r
    vs = -vq - vr
    # Cube coordinates embed the hex plane isometrically (up to scale), so the cube dot product
    # ranks directions by angle exactly, in integers.
    scores = [vq * dq + vr * dr + vs * (-dq - dr) for dq, dr in _OFFSETS]
    best = max(scores)
    return tuple(Direction(i) for i, score in enumerate(scores) if score == best)


def line(start: Hex, direction: Direction, steps: int) -> tuple[Hex, ...]:
    """The `steps` hexes after `start` going straight in `direction` (start excluded)."""
    dq, dr = _OFFSETS[direction]
    return tuple(Hex(start.q + dq * i, start.r + dr * i) for i in range(1, steps + 1))


def ring(centre: Hex, radius: int) -> tuple[Hex, ...]:
    """The hexes exactly `radius` from `centre`, clockwise from the west corner."""
    if radius < 0:
        raise ValueError("a ring's radius cannot be negative")
    if radius == 0:
        return (centre,)
    hexes = []
    h = centre.step(Direction.W, radius)
    for direction in Direction:
        for _ in range(radius):
            hexes.append(h)
            h = h.step(direction)
    return tuple(hexes)


def hexes_within(centre: Hex, radius: int) -> tuple[Hex, ...]:
    """Every hex at most `radius` from `centre`, ring by ring outwards."""
    return tuple(h for k in range(radius + 1) for h in ring(centre, k))


def reading_order(hexes: Iterable[Hex]) -> tuple[Hex, ...]:
    """Top row first, west to east: the order a board is drawn in."""
    return tuple(sorted(hexes, key=lambda h: (h.r, h.q)))


# --- the arena ------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Arena:
    """The playing area: its hexes, the outer edge, the Inner Circle (the red border) and the
    centre hex. Built from `data/arena.toml` by `content.load_content`.

    rulebook: Setup 5 (gladiators start on the outside edge), Token Rules (tokens inside the
    Inner Circle, one on the centre hexagon).
    """

    hexes: tuple[Hex, ...]  # reading order
    inner_circle: frozenset[Hex]
    centre: Hex
    edge: frozenset[Hex] = field(init=False)
    _cells: frozenset[Hex] = field(init=False, repr=False)
    _steps: dict[Hex, tuple[Hex | None, ...]] = field(init=False, repr=False)
    _adjacent: dict[Hex, tuple[Hex, ...]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        cells = frozenset(self.hexes)
        if len(cells) != len(self.hexes):
            raise ValueError("an arena lists a hex twice")
        if self.centre not in cells:
            raise ValueError(f"the centre {self.centre} is not in the arena")
        if not self.inner_circle <= cells:
            outside = reading_order(self.inner_circle - cells)
            raise ValueError(f"Inner Circle hexes outside the arena: {list(outside)}")
        steps = {h: tuple(n if n in cells else None for n in h.neighbours()) for h in self.hexes}
        adjacent = {h: tuple(n for n in row if n is not None) for h, row in steps.items()}
        edge = frozenset(h for h, row in adjacent.items() if len(row) < 6)
        object.__setattr__(self, "hexes", reading_order(self.hexes))
        object.__setattr__(self, "_cells", cells)
        object.__setattr__(self, "_steps", steps)
        object.__setattr__(self, "_adjacent", adjacent)
        object.__setattr__(self, "edge", edge)

    @classmethod
    def hexagon(cls, radius: int, inner_radius: int) -> Arena:
        """A regular hexagonal arena around (0, 0) with a hexagonal Inner Circle."""
        centre = Hex(0, 0)
        return cls(
            hexes_within(centre, radius), frozenset(hexes_within(centre, inner_radius)), centre
        )

    def __contains__(self, h: object) -> bool:
        return h in self._cells

    def __iter__(self) -> Iterator[Hex]:
        return iter(self.hexes)

    def __len__(self) -> int:
        return len(self.hexes)

    def step(self, h: Hex, direction: Direction) -> Hex | None:
        """The neighbour of `h` in `direction`, or None past the edge of the arena."""
        return self._steps[h][direction]

    def neighbours(self, h: Hex) -> tuple[Hex, ...]:
        """The in-arena neighbours of `h`, in `Direction` order."""
        return self._adjacent[h]

    def is_edge(self, h: Hex) -> bool:
        return h in self.edge

    def in_inner_circle(self, h: Hex) -> bool:
        return h in self.inner_circle

    def ray(self, start: Hex, direction: Direction, steps: int) -> tuple[Hex, ...]:
        """Up to `steps` hexes straight from `start` (excluded), stopping at the arena's edge."""
        hexes: list[Hex] = []
        h = start
        for _ in range(steps):
            ahead = self._steps[h][direction]
            if ahead is None:
                break
            hexes.append(ahead)
            h = ahead
        return tuple(hexes)

    def within(self, h: Hex, radius: int) -> tuple[Hex, ...]:
        """The in-arena hexes at most `radius` from `h` (including `h`), nearest first."""
        return tuple(x for x in hexes_within(h, radius) if x in self._cells)

    def ring(self, radius: int) -> tuple[Hex, ...]:
        """The in-arena hexes exactly `radius` from the centre."""
        return tuple(x for x in ring(self.centre, radius) if x in self._cells)
