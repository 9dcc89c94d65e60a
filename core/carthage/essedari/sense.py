"""What a bot can read about the Essedari Maximo from its view and the public data: where
his next Action may take him and what standing on a hex would cost when he comes.

Co-op shows his next Action, so the risk is exact; in solo only his deck's make-up is public
(docs/essedari.md), so the risk is the average over the Actions he might draw.
"""

from __future__ import annotations

from typing import Any

from harena.core.carthage.essedari.actions import Attack, Mode, default_essedari
from harena.core.carthage.essedari.path import planned_path
from harena.core.carthage.hexgrid import Hex, distance

DEATH = 30.0  # what being trampled to death or crushed weighs against a point of Damage


def chariot_of(board: dict[str, Any]) -> dict[str, Any] | None:
    return board.get("essedari")


def danger(board: dict[str, Any], h: Hex, seat: int) -> float:
    """Expected loss (Armor, or DEATH) for `seat`'s gladiator standing on `h` when he next
    acts."""
    ess = board["essedari"]
    content = default_essedari()
    mode = Mode(ess["mode"])
    track = tuple(Hex(*x) for x in ess["track"])
    pos = track.index(Hex(*ess["at"]))
    rules = content.modes[mode]
    bonus = rules.damage_bonus[min(max(board["round"], 1), content.rounds) - 1]
    if ess["next"] is not None:
        draws = [content.action(ess["next"]["id"])]
    else:
        draws = [content.action(a) for a in rules.deck]
    gladiators = frozenset(
        [
            Hex(*p["at"])
            for p in board["players"]
            if p["alive"] and p["at"] is not None and p["seat"] != seat
        ]
        + [h]
    )
    total = 0.0
    for action in draws:
        path = [x for _, x in planned_path(track, pos, action, mode, gladiators)]
        damage = action.damage + bonus
        if h in path:
            if mode is Mode.COOP or (action.crush and h == path[-1]):
                total += DEATH
            elif action.trample:
                total += content.trample_damage
        elif any(distance(h, x) == 1 for x in path):
            total += damage
        elif (
            path
            and action.attack is not Attack.NONE
            and distance(h, path[-1]) <= action.attack.reach
        ):
            total += damage * 0.5  # he throws at the nearest: maybe someone else
    return total / len(draws)


def spaces_ahead(board: dict[str, Any], h: Hex, reach: int = 6) -> int | None:
    """How many spaces on he first drives next to `h` (None: not within `reach`): where a
    gladiator waits for him to come by."""
    ess = board["essedari"]
    track = [Hex(*x) for x in ess["track"]]
    pos = track.index(Hex(*ess["at"]))
    for k in range(1, reach + 1):
        if distance(h, track[(pos + k) % len(track)]) == 1:
            return k
    return None
