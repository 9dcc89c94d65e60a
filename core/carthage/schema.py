"""Turn the tables of one Carthage data file into typed content, refusing anything wrong.

Every error is a `ContentError` that names the file, the entry and the field, so whoever edits
a data file (for example to enter the printed cards of their own copy) can fix it without
reading code. Checks that span two files (a deck naming a card, a layout naming a token) are in
`content`. The file format is documented field by field in docs/cards.md.
"""

from __future__ import annotations

import dataclasses
import typing
from enum import Enum
from functools import cache
from typing import Any

from harena.core import datafile
from harena.core.carthage.cards import (
    KING_OF_THE_HILL_VALUES,
    TOKEN_FIXED_VALUES,
    ActionCard,
    ArenaToken,
    CardSet,
    Recipients,
    Side,
    TheaterCard,
    TheaterTiming,
    TokenKind,
)
from harena.core.carthage.effects import (
    DESTINATION_EFFECTS,
    EFFECT_TYPES,
    Damage,
    Effect,
    Knockback,
    Move,
    OpponentLosesFavor,
    PassCard,
    RuleHook,
    StrikeBonus,
    Target,
    flatten,
)
from harena.core.carthage.hexgrid import Hex
from harena.core.datafile import (
    MISSING,
    DataFileError,
    check_keys,
    get_any,
    get_bool,
    get_enum,
    get_int,
    get_list,
    get_str,
    identify,
)

# Smallest legal value of a numeric effect field; Armor and Favor may be negative but not 0.
_MINIMUM = {"steps": 1, "amount": 1, "range": 0, "spaces": 1, "count": 1}
_NONZERO_KINDS = frozenset({"armor", "favor"})


class ContentError(DataFileError):
    """A Carthage data file is malformed or inconsistent; the message says where and why."""


class Where(datafile.Where):
    """A position in a data file, for error messages: "actions.toml: card 'slash', effect 2"."""

    Error = ContentError


def parse_hex(value: Any, where: Where) -> Hex:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(x, int) and not isinstance(x, bool) for x in value)
    ):
        raise where.error(f"a hex is written [q, r] with two whole numbers, not {value!r}")
    return Hex(value[0], value[1])


# --- effects --------------------------------------------------------------------------------------


def parse_effects(
    raw: Any, where: Where, allowed: frozenset[str], nested: bool = False
) -> tuple[Effect, ...]:
    """A list of effect tables, then the checks on their order (see docs/cards.md)."""
    if not isinstance(raw, list) or not raw:
        raise where.error("'effects' must be a non-empty list of effect tables")
    effects = tuple(
        _parse_effect(e, where.at(f"effect {i}"), allowed) for i, e in enumerate(raw, 1)
    )
    _check_sequence(effects, where, nested)
    if not nested:
        _check_references(effects, where)
    return effects


def _parse_effect(raw: Any, where: Where, allowed: frozenset[str]) -> Effect:
    if not isinstance(raw, dict) or "kind" not in raw:
        raise where.error('an effect is a table with a kind, like { kind = "damage", amount = 2 }')
    kind = raw["kind"]
    cls = EFFECT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        known = ", ".join(sorted(EFFECT_TYPES))
        raise where.error(f"unknown effect kind {kind!r} (known: {known})")
    if kind not in allowed:
        raise where.error(
            f"effect kind {kind!r} is not allowed here (allowed: {', '.join(sorted(allowed))})"
        )
    fields = _effect_fields(cls)
    check_keys(raw, where, {"kind"} | set(fields))
    kwargs: dict[str, Any] = {}
    for name, (hint, default) in fields.items():
        if hint is int:
            minimum = None if kind in _NONZERO_KINDS else _MINIMUM.get(name)
            value: Any = get_int(raw, name, where, default, minimum)
            if kind in _NONZERO_KINDS and value == 0:
                raise where.error(f"field {name!r} of {kind!r} must not be 0")
        elif hint is bool:
            value = get_bool(raw, name, where, default)
        elif isinstance(hint, type) and issubclass(hint, Enum):
            value = get_enum(hint, raw, name, where, default)
        else:  # the nested effects of a Strike Bonus or a Conditional
            inside = where.at(kind.replace("_", " "))
            value = parse_effects(get_any(raw, name, where, MISSING), inside, allowed, nested=True)
        kwargs[name] = value
    effect: Effect = cls(**kwargs)
    return effect


@cache
def _effect_fields(cls: type) -> dict[str, tuple[Any, Any]]:
    """A primitive's data fields: name -> (type, default or MISSING), from its dataclass, so
    a new primitive needs no parsing code unless it has a new kind of field."""
    hints = typing.get_type_hints(cls)
    return {
        f.name: (hints[f.name], MISSING if f.default is dataclasses.MISSING else f.default)
        for f in dataclasses.fields(cls)
    }


def _check_sequence(effects: tuple[Effect, ...], where: Where, nested: bool) -> None:
    for i, effect in enumerate(effects, 1):
        if isinstance(effect, StrikeBonus) and (i == 1 or not isinstance(effects[i - 2], Damage)):
            raise where.error(f"effect {i}: a strike_bonus must come right after a damage")
        if effect.kind in DESTINATION_EFFECTS:
            if nested:
                raise where.error(f"effect {i}: {effect.kind} belongs at the top level of a card")
            if i != len(effects):
                raise where.error(f"effect {i}: {effect.kind} says where the card goes after "
                                  "it resolves, so it must be the last effect")  # fmt: skip


def _check_references(effects: tuple[Effect, ...], where: Where) -> None:
    """Effects that act on "the opponent" or "the damaged player" need an earlier effect that
    picks one; a knockback along the move needs a straight move."""
    earlier: list[Effect] = []
    for effect in flatten(effects):
        hit = any(isinstance(e, Damage) for e in earlier)
        if isinstance(effect, Knockback) and not hit:
            raise where.error("a knockback needs a damage before it: only the damaged moves")
        if (
            isinstance(effect, Knockback)
            and effect.along_move
            and not any(isinstance(e, Move) and e.straight for e in earlier)
        ):
            raise where.error("a knockback with along_move needs a straight move before it")
        if isinstance(effect, OpponentLosesFavor) and effect.target is Target.DAMAGED and not hit:
            raise where.error('opponent_loses_favor with target "damaged" needs a damage '
                              'before it (or use target = "any")')  # fmt: skip
        if isinstance(effect, PassCard) and not any(
            isinstance(e, (Damage, OpponentLosesFavor)) for e in earlier
        ):
            raise where.error("pass_card needs an opponent to pass to: a damage or an "
                              "opponent_loses_favor before it")  # fmt: skip
        earlier.append(effect)


# --- Action cards, Theater cards, tokens ----------------------------------------------------------

_CARD_FIELDS = frozenset({"id", "name", "cost", "copies", "effects", "side"})


def parse_action_card(
    raw: Any, where: Where, card_set: CardSet, allowed: frozenset[str]
) -> ActionCard:
    ident, where = identify(raw, where, "card")
    check_keys(raw, where, _CARD_FIELDS)
    starting = card_set is CardSet.STARTING
    cost = get_int(raw, "cost", where, 0 if starting else MISSING, minimum=0)
    if "effects" in raw and "side" in raw:
        raise where.error("give either 'effects' (one side) or two [[...side]] tables, not both")
    if "side" in raw:
        sides_raw = get_list(raw, "side", where)
        if len(sides_raw) != 2:
            raise where.error(f'a "/" card has exactly 2 sides, not {len(sides_raw)}')
        sides = tuple(
            _parse_side(side, where.at(f"side {n}"), allowed) for n, side in enumerate(sides_raw, 1)
        )
    else:
        sides = (Side(parse_effects(get_any(raw, "effects", where, MISSING), where, allowed)),)
    return ActionCard(
        id=ident,
        name=get_str(raw, "name", where),
        cost=cost,
        sides=sides,
        card_set=card_set,
        copies=get_int(raw, "copies", where, 1, minimum=1),
    )


def _parse_side(raw: Any, where: Where, allowed: frozenset[str]) -> Side:
    check_keys(raw, where, {"effects"})
    return Side(parse_effects(get_any(raw, "effects", where, MISSING), where, allowed))


_THEATER_FIELDS = frozenset({"id", "name", "timing", "recipients", "effects", "flavor", "copies"})


def parse_theater_card(raw: Any, where: Where, allowed: frozenset[str]) -> TheaterCard:
    ident, where = identify(raw, where, "theater card")
    check_keys(raw, where, _THEATER_FIELDS)
    timing = get_enum(TheaterTiming, raw, "timing", where)
    recipients = None if "recipients" not in raw else get_enum(Recipients, raw, "recipients", where)
    effects = parse_effects(get_any(raw, "effects", where, MISSING), where, allowed)
    if recipients is None and not all(isinstance(e, RuleHook) for e in effects):
        raise where.error("missing field 'recipients' (only a card of rule_hook effects has none)")
    if recipients is Recipients.MOST_FAVOR and timing is not TheaterTiming.AFTER_ACTIONS:
        raise where.error('recipients "most_favor" needs timing "after_actions": Favor is 0 '
                          "for everyone before the Action phase")  # fmt: skip
    if any(e.kind == "pass_starting_player" for e in effects) and (
        recipients is not Recipients.STARTING_PLAYER
    ):
        raise where.error('pass_starting_player needs recipients "starting_player"')
    return TheaterCard(
        id=ident,
        name=get_str(raw, "name", where),
        timing=timing,
        recipients=recipients,
        effects=effects,
        flavor=get_str(raw, "flavor", where, ""),
        copies=get_int(raw, "copies", where, 1, minimum=1),
    )


_TOKEN_FIELDS = frozenset({"id", "kind", "value", "count"})


def parse_token(raw: Any, where: Where) -> ArenaToken:
    ident, where = identify(raw, where, "token")
    check_keys(raw, where, _TOKEN_FIELDS)
    kind = get_enum(TokenKind, raw, "kind", where)
    fixed = TOKEN_FIXED_VALUES.get(kind)
    if fixed is None:
        value = get_int(raw, "value", where, minimum=1)
    else:
        value = get_int(raw, "value", where, fixed)
    if fixed is not None and value != fixed:
        raise where.error(f"field 'value': a {kind.value} token's value is always {fixed}")
    if kind is TokenKind.KING_OF_THE_HILL and value not in KING_OF_THE_HILL_VALUES:
        raise where.error(f"field 'value': King of the Hill is +3 or +4, not {value}")
    return ArenaToken(ident, kind, value, get_int(raw, "count", where, 1, minimum=1))
