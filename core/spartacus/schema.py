"""Turn the tables of one Spartacus data file into typed content, refusing anything wrong.

Every error is a `ContentError` naming the file, the entry and the field ("intrigue.toml: card
'slander', effect 1: unknown effect kind 'influnce'"), so whoever types in the printed cards of
their own copy can fix a mistake without reading code. Checks spanning files are in `content`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from harena.core import datafile
from harena.core.datafile import (
    DataFileError,
    check_keys,
    describe,
    get_bool,
    get_enum,
    get_int,
    get_list,
)
from harena.core.spartacus.cards import (
    Cycle,
    Denarii,
    DiscardRandom,
    Draw,
    DrawFor,
    Exhaust,
    ExtraDice,
    GainDenarii,
    GainInfluence,
    Heal,
    Influence,
    KeenStrike,
    Kill,
    Pool,
    Reroll,
    Roll,
    SchemeInfluence,
    Steal,
    Victim,
    Who,
    Wound,
)


class ContentError(DataFileError):
    """A Spartacus data file is malformed or inconsistent; the message says where and why."""


class Where(datafile.Where):
    """A place in a data file, for messages: "market.toml: card 'crixus', field 'atk'"."""

    Error = ContentError


# --- effects --------------------------------------------------------------------------------------

Parser = Callable[[dict[str, Any], Where], Any]


def _positive(t: dict[str, Any], key: str, w: Where) -> int:
    return get_int(t, key, w, minimum=1)


def _nonzero(t: dict[str, Any], key: str, w: Where) -> int:
    value = get_int(t, key, w)
    if value == 0:
        raise w.error(f"field {key!r} must not be 0")
    return value


# kind -> (fields, parser). The docs/cards.md tables list the same.
COMBAT_EFFECTS: dict[str, tuple[frozenset[str], Parser]] = {
    "extra_dice": (frozenset({"pool", "count"}),
                   lambda t, w: ExtraDice(get_enum(Pool, t, "pool", w), _positive(t, "count", w))),
    "reroll": (frozenset({"roll", "count", "at_most"}),
               lambda t, w: Reroll(get_enum(Roll, t, "roll", w), _positive(t, "count", w),
                                   get_int(t, "at_most", w, minimum=1, maximum=5))),
    "keen_strike": (frozenset({"threshold"}),
                    lambda t, w: KeenStrike(get_int(t, "threshold", w, minimum=2, maximum=6))),
}  # fmt: skip

GAINS: dict[str, tuple[frozenset[str], Parser]] = {
    "gain_denarii": (frozenset({"amount", "per_favor"}),
                     lambda t, w: GainDenarii(_positive(t, "amount", w),
                                              get_bool(t, "per_favor", w, False))),
    "draw": (frozenset({"count"}), lambda t, w: Draw(_positive(t, "count", w))),
    "cycle": (frozenset(), lambda t, w: Cycle()),
    "gain_influence": (frozenset({"amount"}), lambda t, w: GainInfluence(_positive(t, "amount", w))),
    "scheme_influence": (frozenset({"denarii", "most"}),
                         lambda t, w: SchemeInfluence(_positive(t, "denarii", w),
                                                      _positive(t, "most", w))),
}  # fmt: skip

INTRIGUE_EFFECTS: dict[str, tuple[frozenset[str], Parser]] = {
    "influence": (frozenset({"who", "amount"}),
                  lambda t, w: Influence(get_enum(Who, t, "who", w), _nonzero(t, "amount", w))),
    "denarii": (frozenset({"who", "amount"}),
                lambda t, w: Denarii(get_enum(Who, t, "who", w), _nonzero(t, "amount", w))),
    "steal": (frozenset({"amount"}), lambda t, w: Steal(_positive(t, "amount", w))),
    "draw": (frozenset({"who", "count"}),
             lambda t, w: DrawFor(get_enum(Who, t, "who", w, Who.YOU), _positive(t, "count", w))),
    "discard_random": (frozenset({"count"}), lambda t, w: DiscardRandom(_positive(t, "count", w))),
    "wound": (frozenset({"victim"}), lambda t, w: Wound(get_enum(Victim, t, "victim", w))),
    "kill": (frozenset({"victim"}), lambda t, w: Kill(get_enum(Victim, t, "victim", w))),
    "exhaust": (frozenset({"victim"}), lambda t, w: Exhaust(get_enum(Victim, t, "victim", w))),
    "heal": (frozenset(), lambda t, w: Heal()),
}  # fmt: skip

# A Scheme's effects: all but the one that answers an event (it needs the event).
SCHEME_EFFECT_KINDS = frozenset(INTRIGUE_EFFECTS) - {"heal"}
# A Reaction's effects happen after it cancels a Scheme; these are the kinds that make sense then.
REACTION_EFFECT_KINDS = frozenset({"influence", "denarii", "draw", "steal", "discard_random"})
# The effects a Reaction may have, by the event it answers. An auction is won while treasuries
# are hidden: nothing that takes "as much as they have" from the winner (its sum would tell).
EVENT_EFFECT_KINDS = {
    "scheme": REACTION_EFFECT_KINDS,
    "invitation": frozenset(),
    "auction_won": frozenset({"draw", "influence"}),
    "wounded": frozenset({"heal", "draw", "influence"}),
}


def parse_effect(raw: Any, where: Where, table: dict[str, tuple[frozenset[str], Parser]],
                 allowed: frozenset[str] | None = None) -> Any:  # fmt: skip
    """One `{ kind = "...", ... }` table, checked against the primitives allowed here."""
    if not isinstance(raw, dict):
        raise where.error(
            f'an effect is a table like {{ kind = "draw", count = 1 }}, not {describe(raw)}'
        )
    kinds = sorted(allowed if allowed is not None else table)
    kind = raw.get("kind")
    if kind not in kinds:
        raise where.error(f"unknown effect kind {kind!r} (known here: {', '.join(kinds)})")
    fields, parse = table[kind]
    check_keys(raw, where, fields | {"kind"})
    return parse(raw, where)


def parse_effects(raw: dict[str, Any], key: str, where: Where,
                  table: dict[str, tuple[frozenset[str], Parser]],
                  allowed: frozenset[str] | None = None) -> tuple[Any, ...]:  # fmt: skip
    items = get_list(raw, key, where, [])
    return tuple(
        parse_effect(e, where.at(f"{key} {n}"), table, allowed) for n, e in enumerate(items, 1)
    )
