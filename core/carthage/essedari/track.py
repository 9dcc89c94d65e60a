"""Where the Essedari Maximo drives (rulebook: Essedari Maximo Rules).

"The Essedari Maximo always moves counter clockwise along the outside edge of the Inner
Circle": the ring of hexes just outside the Inner Circle. His position is an index into that
ring in counter-clockwise order, so a move of k spaces is k steps along the list.

Cross (solo): a dash across the Inner Circle "in a 45 or 90 degree angle (but never 135)". The
angle is between his heading along the ring and his dash; a chord at angle a to a circle's
tangent spans 2a of it, so 90 degrees lands him opposite (half the ring on) and 45 degrees a
quarter of the ring on (rounded up to the next hex); 135 degrees would span three quarters,
i.e. turn him back clockwise, which he never does. He dashes in a straight hex line.
"""

from __future__ import annotations

from functools import cache

from harena.core.carthage.hexgrid import Arena, Hex, distance, ring

CROSS_ANGLES = (45, 90)


@cache  # an Arena is immutable and hashed by identity: one per content
def track(arena: Arena) -> tuple[Hex, ...]:
    """The ring just outside the Inner Circle, counter-clockwise."""
    radius = max(distance(arena.centre, h) for h in arena.inner_circle) + 1
    return tuple(reversed(ring(arena.centre, radius)))


def along(hexes: tuple[Hex, ...], pos: int, spaces: int) -> list[int]:
    """The track positions he enters moving `spaces` counter-clockwise from `pos`."""
    return [(pos + k) % len(hexes) for k in range(1, spaces + 1)]


def cross_steps(hexes: tuple[Hex, ...], angle: int) -> int:
    """How far round the ring a dash at `angle` lands him (see the module docstring)."""
    if angle not in CROSS_ANGLES:
        raise ValueError(f"the Essedari Maximo crosses at 45 or 90 degrees, never {angle}")
    return -(-len(hexes) * 2 * angle // 360)


def cross_path(hexes: tuple[Hex, ...], pos: int, angle: int) -> list[Hex]:
    """The hexes he enters dashing across the Inner Circle, the landing hex last."""
    start = hexes[pos]
    end = hexes[(pos + cross_steps(hexes, angle)) % len(hexes)]
    return hex_line(start, end)[1:]


def hex_line(a: Hex, b: Hex) -> list[Hex]:
    """The straight hex line from a to b, both included (cube interpolation, nudged off
    ties the same way every time)."""
    n = distance(a, b)
    out = []
    for i in range(n + 1):
        t = i / n if n else 0.0
        q = a.q + (b.q - a.q) * t + 1e-6
        r = a.r + (b.r - a.r) * t + 1e-6
        out.append(_round(q, r))
    return out


def _round(q: float, r: float) -> Hex:
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return Hex(int(rq), int(rr))
