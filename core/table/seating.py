"""Who sits where: taking, leaving, giving and taking back a table's seats, watching, and an
operator's close. Each change is a table record (core/table/records.py applies it); functions
over a `Table`, whose methods of the same names call them."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from harena.core.engine import IllegalAction
from harena.core.privacy import invited_here
from harena.core.table import kept
from harena.core.table.seats import clean_text

if TYPE_CHECKING:
    from harena.core.table.front import Table

log = logging.getLogger(__name__)


def sit(table: Table, identity: str, name: str, seat: int | None = None) -> int:
    """Take a free seat (or a bot's); returns its index. Holding a seat already keeps it."""
    held = table.seat_of(identity)
    if held is not None:
        if seat is not None and seat != held:
            raise IllegalAction("you already hold a seat at this table; leave it first")
        table.set_connected(identity, True)
        return held
    if table.privacy is not None and not invited_here(table.privacy, table.creator, identity):
        raise IllegalAction(f"there is no table {table.id}")
    if table.game.result() is not None or table.closed:
        raise IllegalAction("this game is over")
    seat = kept.sit_check(table, identity, seat)  # a kept seat is its friend's alone
    if seat is None:
        free = kept.open_seats(table)
        if not free:
            raise IllegalAction("no free seat at this table")
        seat = free[0]
    if not 0 <= seat < len(table.seats):
        raise IllegalAction(f"there is no seat {seat}")
    if table.seats[seat].identity is not None:
        raise IllegalAction(f"that seat is taken by {table.seats[seat].name}")
    table.spectators.pop(identity, None)
    table._record(
        {
            "t": "seat",
            "seat": seat,
            "identity": identity,
            "name": clean_text(name, 32),
            "bot": None,
            "log_from": log_from(table),
        }
    )
    table.seats[seat].connected = True
    table.times.gone_since.pop(seat, None)
    log.info(
        "table %s: %s (%s) sits in seat %d",
        table.id,
        table.seats[seat].name,
        identity,
        seat,
        extra={
            "event": "table-sit",
            "table": table.id,
            "key": identity,
            "player": table.seats[seat].name,
        },
    )
    maybe_start(table)
    table._notify()
    return seat


def set_bot(table: Table, seat: int, kind: str) -> None:
    """Put a bot in a free seat."""
    if kind not in table.game.bots:
        raise IllegalAction(
            f"no bot {kind!r}; this game has {', '.join(table.game.bots) or 'none'}"
        )
    if not 0 <= seat < len(table.seats) or not table.seats[seat].free:
        raise IllegalAction(f"seat {seat} is not free")
    table._record(
        {
            "t": "seat",
            "seat": seat,
            "identity": None,
            "name": f"{kind} bot",
            "bot": kind,
            "log_from": log_from(table),
        }
    )
    maybe_start(table)
    table._notify()


def leave(table: Table, identity: str) -> None:
    """Give the seat up (it becomes free for anyone, or a bot) or stop watching."""
    seat = table.seat_of(identity)
    if seat is None:
        if table.spectators.pop(identity, None) is not None:
            table._notify()
        return
    name = table.seats[seat].name
    table._record({"t": "seat", "seat": seat, "identity": None, "name": "", "bot": None})
    log.info(
        "table %s: %s (%s) leaves seat %d",
        table.id,
        name,
        identity,
        seat,
        extra={"event": "table-leave", "table": table.id, "key": identity, "player": name},
    )
    table._notify()


def remove_player(table: Table, by: str, seat: int) -> str:
    """The creator frees another seat (a player's or a bot's) before the game starts;
    returns the name that held it."""
    if by != table.creator:
        raise IllegalAction("only the table's creator may remove a player")
    if table.started:
        raise IllegalAction("the game has started: nobody can be removed now")
    if not 0 <= seat < len(table.seats) or table.seats[seat].free:
        raise IllegalAction(f"seat {seat} is free already")
    if table.seats[seat].identity == by:
        raise IllegalAction("that is your own seat: leave it instead")
    name, identity = table.seats[seat].name, table.seats[seat].identity
    table._record({"t": "seat", "seat": seat, "identity": None, "name": "", "bot": None})
    if identity is not None:
        table.spectators[identity] = name  # still at the table's screen: now watching
    log.info(
        "table %s: %s removed from seat %d by its creator",
        table.id,
        name,
        seat,
        extra={"event": "table-remove", "table": table.id, "key": identity, "player": name},
    )
    table._notify()
    return name


def close_game(table: Table, by: str, reason: str) -> None:
    """End the game early (an operator's call): no more moves, still readable."""
    if table.closed or table.game.result() is not None:
        raise IllegalAction(f"table {table.id} is over already")
    table._record({"t": "close", "by": by, "reason": reason})
    table._notify()


def log_from(table: Table) -> int:
    """Where a new occupant's own log begins: before the start nobody has played the seat,
    so the whole log is theirs; after it, the lines before now were the last occupant's."""
    return len(table.game.events) if table.started else 0


def set_connected(table: Table, identity: str, connected: bool) -> None:
    seat = table.seat_of(identity)
    if seat is not None and table.seats[seat].connected != connected:
        table.seats[seat].connected = connected
        if connected:
            table.times.gone_since.pop(seat, None)
        else:
            table.times.gone_since[seat] = table._clock()
        table._notify()


def watch(table: Table, identity: str, name: str) -> None:
    if not table.knows(identity):
        raise IllegalAction(f"there is no table {table.id}")
    if not table.watches(identity):
        raise IllegalAction("nobody watches this table: its creator chose so")
    if table.seat_of(identity) is None:
        table.spectators[identity] = clean_text(name, 32)
        table._notify()


def maybe_start(table: Table) -> None:
    if not table.started and not any(s.free for s in table.seats):
        table._record({"t": "start"})


def take_back(table: Table, identity: str) -> None:
    """The player takes their seat back from the bot standing in for them."""
    seat = table.seat_of(identity)
    if seat is None or table.seats[seat].stand_in is None:
        raise IllegalAction("no bot is playing for you here")
    table._record({"t": "take_back", "seat": seat})
    table._notify()
