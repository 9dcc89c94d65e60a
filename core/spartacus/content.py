"""All Spartacus content, read from `data/*.toml` and validated: `load_content()`.

The package's own content is loaded once per process and shared (it is immutable).
`load_content(folder)` reads another folder with the same four files, e.g. the printed cards of
an owner's copy (docs/cards.md), or broken files in tests. Anything wrong raises `ContentError`
naming the file, the entry and the field. `_read_data_file` is the only function in
core/spartacus that touches a file.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from harena.core.datafile import (
    check_keys,
    entries,
    get_int,
    get_list,
    read_data_file,
    unique,
)
from harena.core.spartacus.board import ArenaBoard, Hex
from harena.core.spartacus.cards import CardKind, House, IntrigueCard, MarketCard
from harena.core.spartacus.parse import parse_house, parse_intrigue_card, parse_market_card
from harena.core.spartacus.schema import (
    ContentError,
    Where,
)

__all__ = ["FILES", "Content", "ContentError", "default_content", "load_content"]

FILES = ("rules.toml", "houses.toml", "market.toml", "intrigue.toml")
LENGTHS = ("quick", "standard", "advanced")  # rules: Setup 7
STARTING_COMBATANTS = 8  # rules: Setup 3 - eight white-bordered Gladiators, eight Slaves
MAX_PLAYERS = 4


@dataclass(frozen=True, eq=False)
class Content:
    """Everything in the box. Look-ups by id raise KeyError for an unknown id."""

    houses: tuple[House, ...]
    market: tuple[MarketCard, ...]
    intrigue: tuple[IntrigueCard, ...]
    hand_limits: tuple[tuple[int, int], ...]  # (from this Influence, this many cards), ascending
    lengths: Mapping[str, int]  # game type -> starting Influence
    target: int  # Influence that wins (rules: Game Objective)
    bank: int  # denarii in the box
    board: ArenaBoard
    cards: Mapping[str, MarketCard | IntrigueCard] = field(init=False, repr=False)
    _houses: Mapping[str, House] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        every: dict[str, MarketCard | IntrigueCard] = {c.id: c for c in self.market}
        every.update({c.id: c for c in self.intrigue})
        object.__setattr__(self, "cards", MappingProxyType(every))
        object.__setattr__(self, "_houses", {h.id: h for h in self.houses})

    def house(self, house_id: str) -> House:
        return self._houses[house_id]

    def hand_limit(self, influence: int) -> int:
        """rules: Maximum Hand Size - printed below the Influence track."""
        size = self.hand_limits[0][1]
        for start, cards in self.hand_limits:
            if influence >= start:
                size = cards
        return size

    def market_deck(self, starting: bool | None = None) -> list[str]:
        """Market card ids, one per physical card; `starting` filters white borders."""
        return [
            c.id for c in self.market if starting is None or c.starting == starting
            for _ in range(c.copies)
        ]  # fmt: skip

    def intrigue_deck(self) -> list[str]:
        return [c.id for c in self.intrigue for _ in range(c.copies)]


@cache
def default_content() -> Content:
    """The content shipped in the package, loaded and checked once per process."""
    return _load(None)


def load_content(data_dir: str | Path | None = None) -> Content:
    """Read and validate the four data files from `data_dir`; None: the package's own."""
    return default_content() if data_dir is None else _load(data_dir)


def _load(data_dir: str | Path | None) -> Content:
    raw = {name: _read_data_file(name, data_dir) for name in FILES}
    hand_limits, lengths, target, bank, board = _parse_rules(raw["rules.toml"])
    market = _parse_cards(raw["market.toml"], "market.toml", parse_market_card)
    intrigue = _parse_cards(raw["intrigue.toml"], "intrigue.toml", parse_intrigue_card)
    clash = {c.id for c in market} & {c.id for c in intrigue}
    if clash:
        raise ContentError(f"intrigue.toml: card id {min(clash)!r} is used in market.toml too")
    houses = _parse_houses(raw["houses.toml"])
    _check_box(houses, market, intrigue)
    return Content(
        houses, market, intrigue, hand_limits, MappingProxyType(lengths), target, bank, board
    )


def _read_data_file(name: str, data_dir: str | Path | None) -> dict[str, Any]:
    return read_data_file("harena.core.spartacus", name, data_dir, Where)


def _parse_cards(raw: dict[str, Any], file: str, parse: Any) -> tuple[Any, ...]:
    check_keys(raw, Where(file), {"card"})
    cards = tuple(
        parse(e, Where(file, f"card {n}"))
        for n, e in enumerate(entries(raw, "card", Where(file)), 1)
    )
    unique([c.id for c in cards], Where(file), "card")
    return cards


def _parse_houses(raw: dict[str, Any]) -> tuple[House, ...]:
    file = "houses.toml"
    check_keys(raw, Where(file), {"house"})
    houses = tuple(
        parse_house(e, Where(file, f"house {n}"))
        for n, e in enumerate(entries(raw, "house", Where(file)), 1)
    )
    unique([h.id for h in houses], Where(file), "house")
    unique([a.id for h in houses for a in h.abilities], Where(file), "ability")
    if len(houses) < MAX_PLAYERS:
        raise ContentError(
            f"{file}: {len(houses)} houses, but up to {MAX_PLAYERS} players each need one"
        )
    return houses


def _parse_rules(
    raw: dict[str, Any],
) -> tuple[tuple[tuple[int, int], ...], dict[str, int], int, int, ArenaBoard]:
    file = "rules.toml"
    check_keys(raw, Where(file), {"game", "hand_limit", "length", "arena"})
    game = check_keys(raw.get("game"), Where(file, "[game]"), {"target_influence", "bank_denarii"})
    target = get_int(game, "target_influence", Where(file, "[game]"), minimum=1)
    bank = get_int(game, "bank_denarii", Where(file, "[game]"), minimum=1)
    limits: list[tuple[int, int]] = []
    for n, entry in enumerate(entries(raw, "hand_limit", Where(file)), 1):
        where = Where(file, f"hand_limit {n}")
        check_keys(entry, where, {"from_influence", "cards"})
        start = get_int(entry, "from_influence", where, minimum=0)
        if limits and start <= limits[-1][0]:
            raise where.error("hand_limit rows must go up in 'from_influence'")
        if not limits and start != 0:
            raise where.error("the first hand_limit row must start 'from_influence = 0'")
        limits.append((start, get_int(entry, "cards", where, minimum=1)))
    lengths = check_keys(raw.get("length"), Where(file, "[length]"), set(LENGTHS))
    starting = {}
    for name in LENGTHS:
        starting[name] = get_int(
            lengths, name, Where(file, "[length]"), minimum=0, maximum=target - 1
        )
    where = Where(file, "[arena]")
    arena = check_keys(raw.get("arena"), where, {"radius", "start_i", "start_ii"})
    radius = get_int(arena, "radius", where, minimum=1)
    starts = []
    for key in ("start_i", "start_ii"):
        value = get_list(arena, key, where)
        if len(value) != 2 or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in value
        ):
            raise where.error(f"field {key!r}: a hex is written [q, r], not {value!r}")
        starts.append(Hex(value[0], value[1]))
    board = ArenaBoard(radius, (starts[0], starts[1]))
    for key, h in zip(("start_i", "start_ii"), starts, strict=False):
        if h not in board:
            raise where.error(
                f"field {key!r}: hex {list(h)} is outside an arena of radius {radius}"
            )
    if starts[0] == starts[1]:
        raise where.error("hexes I and II must differ")
    return tuple(limits), starting, target, bank, board


def _check_box(
    houses: tuple[House, ...], market: tuple[MarketCard, ...], intrigue: tuple[IntrigueCard, ...]
) -> None:
    """rules: Setup 3-4 - enough white-bordered cards and Guards for any four houses."""
    for kind, what in ((CardKind.GLADIATOR, "gladiators"), (CardKind.SLAVE, "slaves")):
        count = sum(c.copies for c in market if c.starting and c.kind is kind)
        if count != STARTING_COMBATANTS:
            raise ContentError(
                f"market.toml: {count} starting {what} (starting = true), but the game has "
                f"{STARTING_COMBATANTS} (rules: Setup 3)"
            )
        need = sum(heapq.nlargest(MAX_PLAYERS, (getattr(h, what) for h in houses)))
        if need > count:
            raise ContentError(
                f"houses.toml: the houses need {need} starting {what}, the box has {count}"
            )
    guards = sum(c.copies for c in intrigue if c.kind is CardKind.GUARD)
    need = sum(heapq.nlargest(MAX_PLAYERS, (h.guards for h in houses)))
    if need > guards:
        raise ContentError(
            f"houses.toml: the houses need {need} starting Guards, intrigue.toml has {guards}"
        )
    if not any(c.kind is not CardKind.EQUIPMENT and not c.starting for c in market):
        raise ContentError(
            "market.toml: the Market deck needs gladiators or slaves besides the starting ones"
        )
