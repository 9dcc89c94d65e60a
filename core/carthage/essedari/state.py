"""What changes about the Essedari Maximo during a game; `CarthageState.essedari` holds it
(None in the free-for-all)."""

from __future__ import annotations

from dataclasses import dataclass, field

from harena.core.carthage.essedari.actions import Mode


@dataclass
class EssedariState:
    mode: Mode
    pos: int  # where he stands on the track (track.track order, counter-clockwise)
    armor: int
    max_armor: int
    deck: list[str]  # his Action ids, end = the top; co-op shows the top, solo nothing
    discard: list[str] = field(default_factory=list)
    current: str | None = None  # the Action he took last (public: everyone saw it)
    actions: int = 0  # Actions taken this round
    lap_open: bool = False  # he has acted and the players are taking their turns
    lapped: list[int] = field(
        default_factory=list
    )  # seats that played a card since his last Action
    netted: list[int] = field(default_factory=list)  # may not Move this round (solo Net)
    net_next: list[int] = field(default_factory=list)  # netted this round: no Movement next round
    won: bool | None = None  # set when the game ends: the players defeated him, or not
    reason: str = ""
