"""The Essedari Maximo's Actions and each mode's figures, read from `data/essedari.toml` and
validated like the other Carthage data files (errors name the file, the entry and the field).

The companion app's tables are not public, so his behaviour is harena's design, kept as data
an owner can retune: a deck of Actions per mode, shuffled with the game's Rng and drawn one per
Action (docs/essedari.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from harena.core.carthage.essedari.track import CROSS_ANGLES
from harena.core.carthage.schema import Where
from harena.core.datafile import (
    check_keys,
    get_bool,
    get_enum,
    get_int,
    get_list,
    get_str,
    identify,
    read_data_file,
    unique,
)

FILE = "essedari.toml"


class Mode(Enum):
    SOLO = "solo"
    COOP = "coop"


class Attack(Enum):
    """What he throws after moving; the reach is the rulebook's Range + 1 (adjacent counts)."""

    NONE = "none"
    JAVELIN = "javelin"  # Range +1
    ARROW = "arrow"  # Range +3
    NET = "net"  # Range +1, solo: no Movement next Round

    @property
    def reach(self) -> int:
        return {"none": 0, "javelin": 2, "arrow": 4, "net": 2}[self.value]


# rulebook: Solo Rules, "Below are some Actions that are not found in Co-op Mode".
SOLO_ONLY = ("cross", "net", "favor_loss", "trample", "crush")


@dataclass(frozen=True, slots=True)
class ChariotAction:
    id: str
    name: str
    modes: tuple[Mode, ...]
    move: int  # spaces counter-clockwise along the track (0 with a Cross)
    chase: bool  # `move` is a most: he stops at the first hex next to a gladiator
    cross: int  # 45 or 90: a dash across the Inner Circle instead; 0: none
    damage: int  # before the round's bonus (rulebook: Co-op Rules, Damage rises)
    attack: Attack
    favor_loss: int  # solo Javelin: "lose 2 Favor" within Range 1
    trample: bool  # solo: 3 Damage to a player whose hex he moves over
    crush: bool  # solo: a player whose hex he ends on loses the game
    copies: int

    @property
    def text(self) -> str:
        if self.cross:
            parts = [f"Cross {self.cross} degrees"]
        else:
            parts = [f"Chase up to {self.move}" if self.chase else f"Move {self.move}"]
        parts.append(f"Damage {self.damage}")
        if self.attack is not Attack.NONE:
            parts.append(f"{self.attack.value.capitalize()} (Range +{self.attack.reach - 1})")
        if self.favor_loss:
            parts.append(f"-{self.favor_loss} Favor")
        if self.trample:
            parts.append("Trample")
        if self.crush:
            parts.append("Crush")
        return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class ModeRules:
    armor: int  # solo: his Armor; co-op: per player
    min_tokens: int  # rulebook: Essedari setup, "a minimum of 4 ... Co-op and 3 ... Solo"
    min_players: int
    max_players: int
    damage_bonus: tuple[int, ...]  # added to every Action's Damage, round by round
    deck: tuple[str, ...]  # action ids, one per copy, in file order


@dataclass(frozen=True, eq=False)
class EssedariContent:
    rounds: int
    actions_per_round: int
    trample_damage: int
    actions: Mapping[str, ChariotAction]
    modes: Mapping[Mode, ModeRules]

    def action(self, action_id: str) -> ChariotAction:
        return self.actions[action_id]


@cache
def default_essedari() -> EssedariContent:
    return load_essedari(None)


def load_essedari(data_dir: str | Path | None) -> EssedariContent:
    raw = read_data_file("harena.core.carthage", FILE, data_dir, Where)
    check_keys(raw, Where(FILE), {"chariot", "solo", "coop", "action"})
    chariot = check_keys(
        raw.get("chariot"),
        Where(FILE, "[chariot]"),
        {"rounds", "actions_per_round", "trample_damage"},
    )
    rounds = get_int(chariot, "rounds", Where(FILE, "[chariot]"), minimum=1)
    per_round = get_int(chariot, "actions_per_round", Where(FILE, "[chariot]"), minimum=1)
    trample = get_int(chariot, "trample_damage", Where(FILE, "[chariot]"), minimum=0)
    actions = tuple(
        _parse_action(entry, Where(FILE, f"action {n}"))
        for n, entry in enumerate(get_list(raw, "action", Where(FILE)), 1)
    )
    unique([a.id for a in actions], Where(FILE), "action")
    modes = {mode: _parse_mode(raw.get(mode.value), mode, rounds, actions) for mode in Mode}
    return EssedariContent(
        rounds,
        per_round,
        trample,
        MappingProxyType({a.id: a for a in actions}),
        MappingProxyType(modes),
    )


# the fields of an Action in the data file
ACTION_KEYS = frozenset(
    {
        "id", "name", "modes", "move", "chase", "cross", "damage", "attack", "favor_loss",
        "trample", "crush", "copies",
    }
)  # fmt: skip


def _parse_action(raw: Any, where: Where) -> ChariotAction:
    ident, where = identify(raw, where, "action")
    check_keys(raw, where, ACTION_KEYS)
    modes = tuple(
        get_enum(Mode, {"mode": m}, "mode", where.at("modes"))
        for m in get_list(raw, "modes", where)
    )
    if not modes:
        raise where.error("field 'modes' must name solo, coop or both")
    move = get_int(raw, "move", where, 0, minimum=0, maximum=6)  # rulebook: Co-op, "1-6 spaces"
    cross = get_int(raw, "cross", where, 0)
    if cross and cross not in CROSS_ANGLES:
        raise where.error(
            f"field 'cross': {cross} degrees; he crosses at 45 or 90, never 135 (rulebook: Solo Rules, Cross)"
        )
    if bool(cross) == bool(move):
        raise where.error(
            "an Action either moves (field 'move', 1-6) or crosses (field 'cross'), not both or neither"
        )
    if cross and raw.get("chase"):
        raise where.error("field 'chase': a Cross dashes to its landing hex, it does not chase")
    action = ChariotAction(
        ident,
        get_str(raw, "name", where),
        modes,
        move,
        get_bool(raw, "chase", where, False),
        cross,
        get_int(raw, "damage", where, minimum=0),
        get_enum(Attack, raw, "attack", where, Attack.NONE),
        get_int(raw, "favor_loss", where, 0, minimum=0),
        get_bool(raw, "trample", where, False),
        get_bool(raw, "crush", where, False),
        get_int(raw, "copies", where, 1, minimum=1),
    )
    if Mode.COOP in modes:
        _refuse_solo_only(action, where)
    return action


def _refuse_solo_only(action: ChariotAction, where: Where) -> None:
    """A Co-op Action uses nothing only the Solo Rules have."""
    used = [
        name for name, on in (
            ("cross", action.cross), ("net", action.attack is Attack.NET), ("favor_loss", action.favor_loss),
            ("trample", action.trample), ("crush", action.crush),
        ) if on
    ]  # fmt: skip
    if used:
        raise where.error(
            f"{used[0]} is a Solo Action, not found in Co-op Mode (rulebook: Solo Rules)"
        )


def _parse_mode(raw: Any, mode: Mode, rounds: int, actions: tuple[ChariotAction, ...]) -> ModeRules:
    where = Where(FILE, f"[{mode.value}]")
    if raw is None:
        raise where.error("missing table")
    check_keys(raw, where, {"armor", "min_tokens", "min_players", "max_players", "damage_bonus"})
    bonus = get_list(raw, "damage_bonus", where)
    if len(bonus) != rounds or not all(
        isinstance(b, int) and not isinstance(b, bool) and b >= 0 for b in bonus
    ):
        raise where.error(
            f"field 'damage_bonus' must list {rounds} whole numbers of 0 or more, one per round"
        )
    low = get_int(raw, "min_players", where, minimum=1, maximum=5)
    high = get_int(raw, "max_players", where, minimum=low, maximum=5)
    deck = tuple(a.id for a in actions if mode in a.modes for _ in range(a.copies))
    if not deck:
        raise where.error(f"no [[action]] is played in {mode.value} mode")
    return ModeRules(
        get_int(raw, "armor", where, minimum=1),
        get_int(raw, "min_tokens", where, minimum=0),
        low,
        high,
        tuple(bonus),
        deck,
    )
