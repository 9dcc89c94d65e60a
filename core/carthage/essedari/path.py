"""Where one of his Actions takes the Essedari Maximo, as a pure function of the board (the
rules move him along it; bots read it to keep off his path)."""

from __future__ import annotations

from harena.core.carthage.essedari.actions import ChariotAction, Mode
from harena.core.carthage.essedari.track import along, cross_path, cross_steps
from harena.core.carthage.hexgrid import Hex, distance


def planned_path(
    hexes: tuple[Hex, ...], pos: int, action: ChariotAction, mode: Mode, gladiators: frozenset[Hex]
) -> list[tuple[int | None, Hex]]:
    """The hexes `action` takes him through from track position `pos`, each with his track
    position there (None mid-dash), given where the living gladiators stand.

    A Chase stops at the first hex next to a gladiator (after one space at least: he "moves
    between 1-6 spaces"). In solo he never stops on a player he does not Crush: he drives one
    hex on instead (docs/essedari.md).
    """
    if action.cross:
        dash = cross_path(hexes, pos, action.cross)
        land = (pos + cross_steps(hexes, action.cross)) % len(hexes)
        path: list[tuple[int | None, Hex]] = [(None, h) for h in dash[:-1]] + [(land, dash[-1])]
    else:
        path = []
        for p in along(hexes, pos, action.move):
            path.append((p, hexes[p]))
            if action.chase and any(distance(hexes[p], g) == 1 for g in gladiators):
                break
    if mode is Mode.SOLO and not action.crush:
        while path and (last := path[-1][0]) is not None and path[-1][1] in gladiators:
            nxt = (last + 1) % len(hexes)
            path.append((nxt, hexes[nxt]))
    return path
