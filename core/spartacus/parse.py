"""Parse one card or house entry of a Spartacus data file (the fields are in docs/cards.md)."""

from __future__ import annotations

from typing import Any

from harena.core.datafile import (
    check_keys,
    get_bool,
    get_enum,
    get_int,
    get_list,
    get_str,
    identify,
)
from harena.core.spartacus.cards import (
    PICK_EFFECTS,
    AssetKind,
    CardKind,
    DiscardRandom,
    GainDenarii,
    GainInfluence,
    House,
    HouseAbility,
    IntrigueCard,
    MarketCard,
    SchemeInfluence,
    Slot,
    Steal,
    TargetRule,
    Who,
)
from harena.core.spartacus.schema import (
    COMBAT_EFFECTS,
    EVENT_EFFECT_KINDS,
    GAINS,
    INTRIGUE_EFFECTS,
    SCHEME_EFFECT_KINDS,
    Where,
    parse_effect,
    parse_effects,
)

_MARKET_FIELDS = {"id", "name", "kind", "value", "copies", "starting", "atk", "def", "spd", "slot",
                  "combat", "ability", "text"}  # fmt: skip
_INTRIGUE_FIELDS = {"id", "name", "kind", "value", "copies", "influence", "cost", "target",
                    "effects", "against_you", "answers", "text"}  # fmt: skip
REACTION_EVENTS = tuple(EVENT_EFFECT_KINDS)  # "scheme", "invitation", "auction_won", "wounded"
_CARD_GAINS = frozenset({"gain_denarii", "draw", "cycle"})


def parse_market_card(raw: Any, where: Where) -> MarketCard:
    ident, where = identify(raw, where, "card")
    check_keys(raw, where, _MARKET_FIELDS)
    kind = get_enum(CardKind, raw, "kind", where)
    if kind not in (CardKind.GLADIATOR, CardKind.SLAVE, CardKind.EQUIPMENT):
        raise where.error(
            f"field 'kind': a Market card is a gladiator, slave or equipment, not {kind.value!r}"
        )
    common: dict[str, Any] = {
        "id": ident,
        "name": get_str(raw, "name", where),
        "kind": kind,
        "value": get_int(raw, "value", where, minimum=0),
        "copies": get_int(raw, "copies", where, 1, minimum=1),
        "combat": parse_effects(raw, "combat", where, COMBAT_EFFECTS),
        "text": get_str(raw, "text", where, ""),
    }
    ability = None
    if "ability" in raw:
        ability = parse_effect(raw["ability"], where.at("ability"), GAINS, _CARD_GAINS)
    if kind is CardKind.EQUIPMENT:
        for key in ("atk", "def", "spd", "starting"):
            if key in raw:
                raise where.error(f"field {key!r} is for gladiators and slaves, not equipment")
        if ability is not None:
            raise where.error("field 'ability': equipment has no Intrigue ability")
        if not common["combat"]:
            raise where.error("equipment needs at least one 'combat' effect")
        return MarketCard(**common, slot=get_enum(Slot, raw, "slot", where))
    if "slot" in raw:
        raise where.error("field 'slot' is for equipment only")
    return MarketCard(
        **common,
        starting=get_bool(raw, "starting", where, False),
        atk=get_int(raw, "atk", where, minimum=1, maximum=9),
        defence=get_int(raw, "def", where, minimum=1, maximum=9),
        spd=get_int(raw, "spd", where, minimum=1, maximum=9),
        ability=ability,
    )


def parse_intrigue_card(raw: Any, where: Where) -> IntrigueCard:
    ident, where = identify(raw, where, "card")
    check_keys(raw, where, _INTRIGUE_FIELDS)
    kind = get_enum(CardKind, raw, "kind", where)
    if kind not in (CardKind.SCHEME, CardKind.REACTION, CardKind.GUARD):
        raise where.error(
            f"field 'kind': an Intrigue card is a scheme, reaction or guard, not {kind.value!r}"
        )
    allowed = {
        CardKind.SCHEME: {"influence", "cost", "target", "effects"},
        CardKind.REACTION: {"influence", "effects", "against_you", "answers"},
        CardKind.GUARD: set(),
    }[kind]
    for key in ("influence", "cost", "target", "effects", "against_you", "answers"):
        if key in raw and key not in allowed:
            raise where.error(f"field {key!r} is not used by a {kind.value}")
    answers = get_str(raw, "answers", where, "scheme")
    if answers not in REACTION_EVENTS:
        raise where.error(
            f"field 'answers' must be one of {', '.join(REACTION_EVENTS)}, not {answers!r}"
        )
    if answers != "scheme" and "against_you" in raw:
        raise where.error("field 'against_you' is for a Reaction that answers a scheme")
    effect_kinds = EVENT_EFFECT_KINDS[answers] if kind is CardKind.REACTION else SCHEME_EFFECT_KINDS
    effects = parse_effects(raw, "effects", where, INTRIGUE_EFFECTS, effect_kinds)
    target = (
        get_enum(TargetRule, raw, "target", where) if kind is CardKind.SCHEME else TargetRule.SELF
    )
    if kind is CardKind.SCHEME:
        if not effects:
            raise where.error("a scheme needs at least one effect")
        hits = (*PICK_EFFECTS, Steal, DiscardRandom)
        aims = any(getattr(e, "who", None) is Who.TARGET or isinstance(e, hits) for e in effects)
        if aims and target is TargetRule.SELF:
            raise where.error('its effects hit a target, so \'target\' must be "other" or "any"')
    return IntrigueCard(
        id=ident,
        name=get_str(raw, "name", where),
        kind=kind,
        value=get_int(raw, "value", where, minimum=0),
        copies=get_int(raw, "copies", where, 1, minimum=1),
        influence=get_int(raw, "influence", where, 0, minimum=0),
        cost=get_int(raw, "cost", where, 0, minimum=0),
        target=target,
        effects=effects,
        against_you=get_bool(raw, "against_you", where, False),
        answers=answers,
        text=get_str(raw, "text", where, ""),
    )


def parse_house(raw: Any, where: Where) -> House:
    ident, where = identify(raw, where, "house")
    check_keys(
        raw, where, {"id", "name", "denarii", "gladiators", "slaves", "guards", "ability", "text"}
    )
    abilities = tuple(
        _parse_ability(a, where.at(f"ability {n}"))
        for n, a in enumerate(get_list(raw, "ability", where), 1)
    )
    return House(
        id=ident,
        name=get_str(raw, "name", where),
        denarii=get_int(raw, "denarii", where, minimum=0),
        gladiators=get_int(raw, "gladiators", where, minimum=0),
        slaves=get_int(raw, "slaves", where, minimum=0),
        guards=get_int(raw, "guards", where, minimum=0),
        abilities=abilities,
        text=get_str(raw, "text", where, ""),
    )


def _parse_ability(raw: Any, where: Where) -> HouseAbility:
    ident, where = identify(raw, where, "ability")
    check_keys(
        raw,
        where,
        {
            "id",
            "name",
            "gain",
            "exhaust",
            "favored",
            "sacrifice",
            "pay",
            "per_turn",
            "text",
            "below_influence",
        },
    )
    gain = parse_effect(raw.get("gain"), where.at("gain"), GAINS)
    exhaust = get_enum(AssetKind, raw, "exhaust", where) if "exhaust" in raw else None
    sacrifice = get_enum(AssetKind, raw, "sacrifice", where) if "sacrifice" in raw else None
    favored = get_bool(raw, "favored", where, False)
    pay = get_int(raw, "pay", where, 0, minimum=0)
    per_turn = get_int(raw, "per_turn", where, 0, minimum=0)
    below = get_int(raw, "below_influence", where, 0, minimum=0)
    if favored and exhaust is not AssetKind.GLADIATOR:
        raise where.error("'favored' needs exhaust = \"gladiator\"")
    if isinstance(gain, GainDenarii) and gain.per_favor and not favored:
        raise where.error("a gain 'per_favor' needs favored = true")
    if isinstance(gain, SchemeInfluence):
        if exhaust or sacrifice or pay or per_turn:
            raise where.error("scheme_influence is paid when a Scheme is launched: give it no cost")
    elif exhaust is None and sacrifice is None and per_turn == 0:
        raise where.error("an ability with no card to exhaust or sacrifice needs 'per_turn'")
    if isinstance(gain, GainInfluence) and per_turn == 0:
        raise where.error("an ability that gains Influence needs 'per_turn'")
    return HouseAbility(ident, get_str(raw, "name", where), gain, exhaust, favored, sacrifice, pay,
                        per_turn, get_str(raw, "text", where, ""), below)  # fmt: skip
