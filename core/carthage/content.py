"""All Carthage content, read from `data/*.toml` and validated: `load_content()`.

The default content is loaded once per process and shared by every game: it is immutable
(frozen dataclasses, tuples, read-only mappings). `load_content(data_dir)` reads another folder
with the same files, e.g. the printed cards of an owner's copy (docs/cards.md), or broken
files in tests. Anything wrong raises `ContentError` naming the file, the entry and the field.

`_read_data_file` is the only function in core/carthage that touches a file.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol, TypeVar

from harena.core.carthage.beasts import Beast, check_beasts, parse_beast
from harena.core.carthage.cards import (
    ActionCard,
    ArenaToken,
    CardSet,
    Colour,
    Gladiator,
    GladiatorClass,
    TheaterCard,
    TokenLayout,
    TokenPlacement,
)
from harena.core.carthage.effects import ACTION_EFFECTS, KIT_EFFECTS, THEATER_EFFECTS, Hook
from harena.core.carthage.equipment import EquipmentCard, check_equipment, parse_equipment
from harena.core.carthage.hexgrid import Arena, Hex, hexes_within
from harena.core.carthage.schema import (
    ContentError,
    Where,
    parse_action_card,
    parse_hex,
    parse_theater_card,
    parse_token,
)
from harena.core.datafile import (
    check_keys,
    get_enum,
    get_id,
    get_int,
    get_list,
    get_str,
    identify,
    read_data_file,
    unique,
)

__all__ = ["Content", "ContentError", "default_content", "load_content"]

# rulebook: Components.
GLADIATORS = 5
STARTING_DECK_SIZE = 10
ACTION_DECK_SIZE = 75
THEATER_DECK_SIZE = 20
ARENA_TOKENS = 35
PLAYER_COUNTS = range(2, 6)

# The expansions a table may turn on (issue 13): Legend cards, Equipment, Arena Beasts.
KIT_FILES = ("legends.toml", "equipment.toml", "beasts.toml")
FILES = ("arena.toml", "tokens.toml", "gladiators.toml", "actions.toml", "theater.toml", *KIT_FILES)
LEGEND_CARDS = 15  # rulebook: Theater Legend Cards, "Included in the Action Cards are 15"


@dataclass(frozen=True, eq=False)
class Content:
    """Everything in the box. Look-ups by id raise KeyError for an unknown id."""

    arena: Arena
    gladiators: tuple[Gladiator, ...]  # in Colour order
    starting_cards: tuple[ActionCard, ...]
    action_cards: tuple[ActionCard, ...]  # the Action Deck's card kinds, in file order
    theater_cards: tuple[TheaterCard, ...]
    tokens: tuple[ArenaToken, ...]
    layouts: tuple[TokenLayout, ...]
    legend_cards: tuple[ActionCard, ...] = ()  # CardSet.LEGEND, option `legends`
    equipment: tuple[EquipmentCard, ...] = ()  # option `equipment`
    beasts: tuple[Beast, ...] = ()  # option `beasts`
    cards: Mapping[str, ActionCard] = field(init=False, repr=False)
    theaters: Mapping[str, TheaterCard] = field(init=False, repr=False)  # the Favor menu's Lobby

    def __post_init__(self) -> None:
        every = {c.id: c for c in self.starting_cards + self.action_cards + self.legend_cards}
        object.__setattr__(self, "cards", MappingProxyType(every))
        theaters = {c.id: c for c in self.theater_cards}
        object.__setattr__(self, "theaters", MappingProxyType(theaters))

    def card(self, card_id: str) -> ActionCard:
        return self.cards[card_id]

    def gladiator(self, colour: Colour | str) -> Gladiator:
        colour = Colour(colour)
        return next(g for g in self.gladiators if g.colour is colour)

    def theater(self, card_id: str) -> TheaterCard:
        return self.theaters[card_id]

    def token(self, token_id: str) -> ArenaToken:
        return _by_id(self.tokens, token_id)

    def layout(self, layout_id: str) -> TokenLayout:
        return _by_id(self.layouts, layout_id)

    def action_deck(self) -> tuple[str, ...]:
        """The Action Deck as card ids, one per physical card, in file order (shuffle it)."""
        return tuple(c.id for c in self.action_cards for _ in range(c.copies))

    def legend_deck(self) -> tuple[str, ...]:
        """The Theater Legend cards, shuffled into the Action Deck when a table turns them on."""
        return tuple(c.id for c in self.legend_cards for _ in range(c.copies))

    def equipment_card(self, equipment_id: str) -> EquipmentCard:
        return _by_id(self.equipment, equipment_id)

    def equipment_of(self, colour: str) -> tuple[EquipmentCard, ...]:
        return tuple(e for e in self.equipment if e.colour.value == colour)

    def beast(self, beast_id: str) -> Beast:
        return _by_id(self.beasts, beast_id)

    def theater_deck(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.theater_cards for _ in range(c.copies))

    def token_pool(self) -> tuple[str, ...]:
        """Every Arena token in the box, one id per physical token."""
        return tuple(t.id for t in self.tokens for _ in range(t.count))


class _Identified(Protocol):
    @property
    def id(self) -> str: ...


_T = TypeVar("_T", bound=_Identified)


def _by_id(items: tuple[_T, ...], ident: str) -> _T:
    for item in items:
        if item.id == ident:
            return item
    raise KeyError(ident)


# --- loading --------------------------------------------------------------------------------------


@cache
def default_content() -> Content:
    """The content shipped in the package, loaded and checked once per process."""
    return _load(None)


def load_content(data_dir: str | Path | None = None) -> Content:
    """Read and validate the data files (FILES) from `data_dir`; None: the package's own,
    shared by every caller."""
    return default_content() if data_dir is None else _load(data_dir)


def _load(data_dir: str | Path | None) -> Content:
    raw = {name: _read_data_file(name, data_dir) for name in FILES}
    tokens = _parse_list(raw["tokens.toml"], "token", "tokens.toml", parse_token)
    _check_total(tokens, "tokens.toml", "Arena tokens", ARENA_TOKENS, lambda t: t.count)
    arena, layouts = _parse_arena(raw["arena.toml"], {t.id: t for t in tokens})
    action_cards = _parse_list(
        raw["actions.toml"], "card", "actions.toml",
        lambda r, w: parse_action_card(r, w, CardSet.BASIC, ACTION_EFFECTS),
    )  # fmt: skip
    _check_total(action_cards, "actions.toml", "Action Deck cards", ACTION_DECK_SIZE,
                 lambda c: c.copies)  # fmt: skip
    starting_cards, gladiators = _parse_gladiators(raw["gladiators.toml"], action_cards)
    theater_cards = _parse_list(
        raw["theater.toml"], "theater", "theater.toml",
        lambda r, w: parse_theater_card(r, w, THEATER_EFFECTS),
    )  # fmt: skip
    _check_total(theater_cards, "theater.toml", "Theater cards", THEATER_DECK_SIZE,
                 lambda c: c.copies)  # fmt: skip
    legend_cards = _parse_list(
        raw["legends.toml"], "card", "legends.toml",
        lambda r, w: parse_action_card(r, w, CardSet.LEGEND, KIT_EFFECTS),
    )  # fmt: skip
    _check_total(legend_cards, "legends.toml", "Theater Legend cards", LEGEND_CARDS,
                 lambda c: c.copies)  # fmt: skip
    taken = {c.id for c in action_cards + starting_cards}
    for card in legend_cards:
        if card.id in taken:
            raise ContentError(f"legends.toml: duplicate card id {card.id!r}: "
                               "actions.toml or gladiators.toml has it too")  # fmt: skip
    equipment = _parse_list(raw["equipment.toml"], "equipment", "equipment.toml", parse_equipment)
    check_equipment(equipment, "equipment.toml")
    beasts = _parse_list(raw["beasts.toml"], "beast", "beasts.toml", parse_beast)
    check_beasts(beasts, "beasts.toml")
    return Content(
        arena, gladiators, starting_cards, action_cards, theater_cards, tokens, layouts,
        legend_cards, equipment, beasts,
    )  # fmt: skip


def _read_data_file(name: str, data_dir: str | Path | None) -> dict[str, Any]:
    return read_data_file("harena.core.carthage", name, data_dir, Where)


def _parse_list(raw: dict[str, Any], key: str, file: str, parse: Any) -> tuple[Any, ...]:
    """The [[key]] tables of a file, parsed, with unique ids."""
    check_keys(raw, Where(file), {key})
    items = tuple(
        parse(entry, Where(file, f"{key} {n}"))
        for n, entry in enumerate(get_list(raw, key, Where(file)), 1)
    )
    unique([item.id for item in items], Where(file), key.replace("_", " "))
    return items


def _check_total(items: tuple[Any, ...], file: str, what: str, expected: int, count: Any) -> None:
    total = sum(count(item) for item in items)
    if total != expected:
        raise ContentError(
            f"{file}: {total} {what} in all, but the game has {expected} (rulebook: Components)"
        )


# --- gladiators -----------------------------------------------------------------------------------


def _parse_gladiators(
    raw: dict[str, Any], action_cards: tuple[ActionCard, ...]
) -> tuple[tuple[ActionCard, ...], tuple[Gladiator, ...]]:
    file = "gladiators.toml"
    check_keys(raw, Where(file), {"starting_card", "gladiator"})
    starting = _parse_list(
        {"starting_card": raw.get("starting_card", [])}, "starting_card", file,
        lambda r, w: parse_action_card(r, w, CardSet.STARTING, ACTION_EFFECTS),
    )  # fmt: skip
    basic_ids = {c.id for c in action_cards}
    for card in starting:
        if card.id in basic_ids:
            raise ContentError(f"{file}: duplicate card id {card.id!r}: actions.toml has it too")
    starting_ids = {c.id for c in starting}
    gladiators = _parse_list(
        {"gladiator": raw.get("gladiator", [])}, "gladiator", file,
        lambda r, w: _parse_gladiator(r, w, starting_ids, basic_ids),
    )  # fmt: skip
    colours = Counter(g.colour for g in gladiators)
    classes = Counter(g.gladiator_class for g in gladiators)
    if len(gladiators) != GLADIATORS or len(colours) != GLADIATORS or len(classes) != GLADIATORS:
        raise ContentError(
            f"{file}: the game has {GLADIATORS} gladiators, one per colour and one per class; "
            f"found {len(gladiators)} ({', '.join(g.name for g in gladiators)})"
        )
    return starting, tuple(sorted(gladiators, key=lambda g: list(Colour).index(g.colour)))


def _parse_gladiator(
    raw: Any, where: Where, starting_ids: set[str], basic_ids: set[str]
) -> Gladiator:
    ident, where = identify(raw, where, "gladiator")
    check_keys(raw, where, {"id", "colour", "class", "deck", "ability"})
    colour = get_enum(Colour, raw, "colour", where)
    if colour.value != ident:
        raise where.error(f"a gladiator's id is its colour: {colour.value!r}, not {ident!r}")
    deck = get_list(raw, "deck", where)
    for card_id in deck:
        if card_id in basic_ids:
            raise where.error(f"field 'deck': {card_id!r} is an Action Deck card (actions.toml),"
                              " not a starting card")  # fmt: skip
        if card_id not in starting_ids:
            raise where.error(f"field 'deck': no starting card {card_id!r} "
                              "(define it as a [[starting_card]] in gladiators.toml)")  # fmt: skip
    if len(deck) != STARTING_DECK_SIZE:
        raise where.error(f"field 'deck': a Starting Deck has {STARTING_DECK_SIZE} cards, "
                          f"not {len(deck)} (rulebook: Components)")  # fmt: skip
    ability = get_enum(Hook, raw, "ability", where) if "ability" in raw else None
    return Gladiator(colour, get_enum(GladiatorClass, raw, "class", where), tuple(deck), ability)


# --- the arena and token layouts ------------------------------------------------------------------


def _parse_arena(
    raw: dict[str, Any], tokens: dict[str, ArenaToken]
) -> tuple[Arena, tuple[TokenLayout, ...]]:
    file = "arena.toml"
    check_keys(raw, Where(file), {"arena", "layout"})
    where = Where(file, "[arena]")
    table = check_keys(
        raw.get("arena"), where, {"radius", "hexes", "inner_radius", "inner_circle", "centre"}
    )
    centre = parse_hex(table.get("centre", [0, 0]), where.at("centre"))
    cells = _hex_set(table, "radius", "hexes", centre, where)
    inner = _hex_set(table, "inner_radius", "inner_circle", centre, where)
    outside = sorted(inner - cells)
    if outside:
        raise where.error(f"Inner Circle hex {list(outside[0])} is outside the arena")
    if centre not in inner:
        raise where.error(f"the centre {list(centre)} must be inside the Inner Circle")
    arena = Arena(tuple(cells), frozenset(inner), centre)
    layouts = _parse_list(
        {"layout": raw.get("layout", [])}, "layout", file,
        lambda r, w: _parse_layout(r, w, arena, tokens),
    )  # fmt: skip
    if not any(layout.id == "first-match" for layout in layouts):
        raise ContentError(f"{file}: missing the 'first-match' layout (rulebook: Setup 4)")
    return arena, layouts


def _hex_set(
    table: dict[str, Any], radius: str, listed: str, centre: Hex, where: Where
) -> set[Hex]:
    """Hexes given as a radius around the centre or as a list of [q, r]: exactly one of them."""
    if (radius in table) == (listed in table):
        raise where.error(f"give exactly one of {radius!r} and {listed!r}")
    if radius in table:
        return set(hexes_within(centre, get_int(table, radius, where, minimum=1)))
    hexes = [parse_hex(h, where.at(listed)) for h in get_list(table, listed, where)]
    for h, n in Counter(hexes).items():
        if n > 1:
            raise where.error(f"field {listed!r} lists hex {list(h)} twice")
    return set(hexes)


def _parse_layout(
    raw: Any, where: Where, arena: Arena, tokens: dict[str, ArenaToken]
) -> TokenLayout:
    ident, where = identify(raw, where, "layout")
    check_keys(raw, where, {"id", "name", "tokens"})
    placements = []
    for n, entry in enumerate(get_list(raw, "tokens", where), 1):
        at = where.at(f"token {n}")
        check_keys(entry, at, {"token", "at", "min_players"})
        token_id = get_id(entry, "token", at)
        if token_id not in tokens:
            raise at.error(f"no token {token_id!r} in tokens.toml")
        h = parse_hex(entry.get("at"), at.at("at"))
        if h not in arena:
            raise at.error(f"hex {list(h)} is outside the arena")
        if tokens[token_id].kind.inner_circle_only and not arena.in_inner_circle(h):
            raise at.error(f"hex {list(h)} is outside the Inner Circle, where only pillars may "
                           "go (rulebook: Token Rules)")  # fmt: skip
        players = get_int(entry, "min_players", at, PLAYER_COUNTS[0], minimum=PLAYER_COUNTS[0])
        if players > PLAYER_COUNTS[-1]:
            raise at.error(f"field 'min_players': the game takes at most {PLAYER_COUNTS[-1]}")
        placements.append(TokenPlacement(token_id, h, players))
    layout = TokenLayout(ident, get_str(raw, "name", where), tuple(placements))
    _check_layout(layout, where, arena, tokens)
    return layout


def _check_layout(
    layout: TokenLayout, where: Where, arena: Arena, tokens: dict[str, ArenaToken]
) -> None:
    for h, n in Counter(p.at for p in layout.placements).items():
        if n > 1:
            raise where.error(f"two tokens on hex {list(h)}")
    for token_id, n in Counter(p.token for p in layout.placements).items():
        if n > tokens[token_id].count:
            raise where.error(f"uses {n} {token_id!r} tokens; the box has {tokens[token_id].count}")
    for players in PLAYER_COUNTS:
        placed = layout.for_players(players)
        if not any(p.at == arena.centre for p in placed):
            raise where.error(f"with {players} players no token is on the centre hex "
                              "(rulebook: Token Rules)")  # fmt: skip
        counted = sum(tokens[p.token].kind.counts_toward_setup for p in placed)
        needed = max(4, players + 1)
        if counted < needed:
            raise where.error(f"with {players} players it places {counted} tokens besides "
                              f"pillars; the rulebook asks for {needed} (Arena Tokens)")  # fmt: skip
