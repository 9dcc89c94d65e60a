"""Arena Beasts (rulebook: Arena Beasts), as data: Armor, where the Beast enters, when in the
Action phase it acts, and its Action as effect primitives.

Read from `data/beasts.toml` by `content`; the rules are in `beast_rules`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from harena.core.carthage.effects import Effect, describe
from harena.core.carthage.schema import ContentError, Where, parse_effects
from harena.core.datafile import MISSING, check_keys, get_any, get_enum, get_int, get_str, identify

BEASTS = 8  # the count (the rulebook names no number)
# A Beast hunts: it moves, bites, knocks down, and may shake off a wound. It never gains or
# takes Favor and plays no cards.
BEAST_EFFECTS = frozenset({"move", "damage", "strike_bonus", "knockback", "armor"})


class BeastTiming(Enum):
    """rulebook: "resolve each Round in Turn Order at the beginning or end of the Action Phase"."""

    START = "start"
    END = "end"


class BeastEntry(Enum):
    """Where the Beast "immediately enters the Arena according to the rules listed on its card"."""

    EDGE = "edge"  # any free outer-edge hex, as gladiators do at setup
    INNER_CIRCLE = "inner_circle"  # any free hex of the Inner Circle


@dataclass(frozen=True, slots=True)
class Beast:
    id: str
    name: str
    armor: int
    acts: BeastTiming
    enters: BeastEntry
    effects: tuple[Effect, ...]
    flavor: str = ""

    @property
    def text(self) -> str:
        when = "start" if self.acts is BeastTiming.START else "end"
        return f"Armor {self.armor}; at the {when} of the Action phase: {describe(self.effects)}"


def parse_beast(raw: Any, where: Where) -> Beast:
    ident, where = identify(raw, where, "beast")
    check_keys(raw, where, {"id", "name", "armor", "acts", "enters", "effects", "flavor"})
    effects = parse_effects(get_any(raw, "effects", where, MISSING), where, BEAST_EFFECTS)
    return Beast(
        ident,
        get_str(raw, "name", where),
        get_int(raw, "armor", where, minimum=1),
        get_enum(BeastTiming, raw, "acts", where),
        get_enum(BeastEntry, raw, "enters", where),
        effects,
        get_str(raw, "flavor", where, ""),
    )


def check_beasts(items: tuple[Beast, ...], file: str) -> None:
    if len(items) != BEASTS:
        raise ContentError(f"{file}: {len(items)} Arena Beasts, but the game has {BEASTS}")
