"""The Modular Rulesets as data: `rulesets.toml`, read and validated (rulebook: Modular Rulesets).

Each ruleset is a rule in code (`favor_actions`, `conditions`, `naked`), so the file must name
exactly the 17 the rulebook names; its numbers and texts are the printed ones and an owner may
change them. A table turns rulesets on with the option `rulesets` (`option_name`: the id with
"_" for "-", as the other Carthage options spell their values).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache
from pathlib import Path

from harena.core.carthage.schema import ContentError, Where
from harena.core.datafile import (
    check_keys,
    entries,
    get_enum,
    get_int,
    get_str,
    identify,
    read_data_file,
    unique,
)

FILE = "rulesets.toml"

# rulebook order: the Favor Actions, then the Active Conditions
FAVOR_ACTIONS = (
    "actuate", "campaign", "outbreak", "concentrate", "discipline", "intimidate", "ordinance",
    "renovate", "repair", "retain", "taunt",
)  # fmt: skip
ACTIVE_CONDITIONS = (
    "battle-hardened", "crocodile-island", "featured-match", "naked-and-afraid",
    "strict-discipline", "the-southern-winds",
)  # fmt: skip
RULESET_IDS = FAVOR_ACTIONS + ACTIVE_CONDITIONS
RECOMMENDED_MOST = 4  # "It is recommended to not play with more than a total of 4"


class RulesetKind(Enum):
    FAVOR_ACTION = "favor_action"
    ACTIVE_CONDITION = "active_condition"


@dataclass(frozen=True, slots=True)
class Ruleset:
    id: str
    name: str
    kind: RulesetKind
    text: str
    cost: int = 0  # Favor
    armor: int = 0  # Armor it costs
    value: int = 0  # its X (see rulesets.toml)
    start: int = 0  # Battle Hardened: the starting Armor

    @property
    def option_name(self) -> str:
        return self.id.replace("-", "_")


def option_name(ruleset_id: str) -> str:
    return ruleset_id.replace("-", "_")


def ruleset_id(option: str) -> str:
    return option.replace("_", "-")


OPTION_NAMES = tuple(option_name(r) for r in RULESET_IDS)

_FIELDS = frozenset({"id", "name", "kind", "text", "cost", "armor", "value", "start"})


def load_rulesets(data_dir: str | Path | None = None) -> dict[str, Ruleset]:
    """Every ruleset by id, in rulebook order; anything wrong raises ContentError naming the
    file, the entry and the field."""
    raw = read_data_file("harena.core.carthage", FILE, data_dir, Where)
    where = Where(FILE)
    check_keys(raw, where, {"ruleset"})
    found: dict[str, Ruleset] = {}
    items = entries(raw, "ruleset", where)
    ids = []
    for index, item in enumerate(items):
        ident, at = identify(item, where.at(f"ruleset {index + 1}"), "ruleset")
        check_keys(item, at, _FIELDS)
        if ident not in RULESET_IDS:
            raise at.error(
                f"no rule for this ruleset (the rulebook's are: {', '.join(RULESET_IDS)})"
            )
        kind = get_enum(RulesetKind, item, "kind", at)
        expected = (
            RulesetKind.FAVOR_ACTION if ident in FAVOR_ACTIONS else RulesetKind.ACTIVE_CONDITION
        )
        if kind is not expected:
            raise at.error(f"field 'kind': {ident} is a {expected.value}, not a {kind.value}")
        ids.append(ident)
        found[ident] = Ruleset(
            ident,
            get_str(item, "name", at),
            kind,
            get_str(item, "text", at),
            get_int(item, "cost", at, 0, minimum=0, maximum=15),
            get_int(item, "armor", at, 0, minimum=0, maximum=19),
            get_int(item, "value", at, 0, minimum=0, maximum=20),
            get_int(item, "start", at, 0, minimum=0, maximum=20),
        )
    unique(ids, where, "ruleset")
    missing = [r for r in RULESET_IDS if r not in found]
    if missing:
        raise where.error(f"missing ruleset(s): {', '.join(missing)}")
    return {r: found[r] for r in RULESET_IDS}


@cache
def default_rulesets() -> dict[str, Ruleset]:
    return load_rulesets()


__all__ = [
    "ACTIVE_CONDITIONS", "FAVOR_ACTIONS", "OPTION_NAMES", "RECOMMENDED_MOST", "RULESET_IDS",
    "ContentError", "Ruleset", "RulesetKind", "default_rulesets", "load_rulesets", "option_name",
    "ruleset_id",
]  # fmt: skip
