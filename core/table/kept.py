"""Seats kept for a friend: the creator keeps a seat for a named player (their key, found by the
name the server knows them by: core/players.py). Nobody else may sit in it; a bot may hold it
meanwhile, playing as a stand-in does, and the friend takes it over on arrival (seating.sit).
A friend who never comes: the creator releases the seat, which is then open to anyone (its bot,
if one holds it, plays on until someone sits). Functions over a `Table`; each change is a
"keep" record (core/table/records.py applies it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from harena.core.engine import IllegalAction
from harena.core.table.seats import clean_text

if TYPE_CHECKING:
    from harena.core.table.front import Table


def keep_seat(table: Table, by: str | None, seat: int, identity: str, name: str) -> None:
    """Keep `seat` for the player `identity` (shown as `name`)."""
    if by != table.creator:
        raise IllegalAction("only the table's creator may keep a seat")
    if table.status not in ("waiting", "playing"):
        raise IllegalAction("this game is over")
    if not 0 <= seat < len(table.seats) or table.seats[seat].identity is not None:
        raise IllegalAction("only a free seat or a bot's can be kept")
    if table.seat_of(identity) is not None:
        raise IllegalAction(f"{name} sits at this table already")
    if any(s.kept_for == identity for s in table.seats):
        raise IllegalAction(f"a seat is kept for {name} already")
    table._record({"t": "keep", "seat": seat, "identity": identity, "name": clean_text(name, 32)})
    table._notify()


def release_seat(table: Table, by: str, seat: int) -> str:
    """The creator gives up waiting for the friend: the seat is open to anyone (its bot stays).
    Returns the friend's name."""
    if by != table.creator:
        raise IllegalAction("only the table's creator may release a kept seat")
    if not 0 <= seat < len(table.seats) or table.seats[seat].kept_for is None:
        raise IllegalAction("that seat is not kept for anyone")
    name = table.seats[seat].kept_name
    table._record({"t": "keep", "seat": seat, "identity": None, "name": ""})
    table._notify()
    return name


def kept_seat(table: Table, identity: str) -> int | None:
    """The seat kept for `identity` here, if one is."""
    for index, seat in enumerate(table.seats):
        if seat.kept_for == identity:
            return index
    return None


def sit_check(table: Table, identity: str, seat: int | None) -> int | None:
    """Where `identity` may sit: their kept seat when they ask for none (or for it); refused in
    a seat kept for another. Returns the seat to take (None: the first free one, see `open`)."""
    mine = kept_seat(table, identity)
    if seat is None:
        return mine
    kept = table.seats[seat].kept_for if 0 <= seat < len(table.seats) else None
    if kept is not None and kept != identity:
        raise IllegalAction(f"that seat is kept for {table.seats[seat].kept_name}")
    return seat


def open_seats(table: Table) -> list[int]:
    """The free seats anyone may take (not those kept for someone)."""
    return [i for i, s in enumerate(table.seats) if s.free and s.kept_for is None]
