"""Play at a table: a player's choice checked against what their screen showed (a stale list
is refused), held if it answers a reaction window (core/table/held.py), else made and saved.
Functions over a `Table`, whose `act` calls them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from harena.core.engine import Event, IllegalAction, replay
from harena.core.store import StoreError
from harena.core.table.records import restore_notes

if TYPE_CHECKING:
    from harena.core.table.front import Table

STALE_LIST = "the choices changed since your screen was drawn: nothing was done; choose again"


class NotYourTurn(IllegalAction):
    """The identity has no seat here, or it is not that seat's decision."""


def act(
    table: Table, identity: str, choice: str, decision: int | None = None, shown: str | None = None
) -> list[Event]:
    """Apply a choice for the seat `identity` holds. `decision` is the seat's decision
    number the client saw, `shown` the stamp of the list it chose from (Prompt.stamp); a
    different one means the screen was stale, and nothing happens."""
    seat = table.seat_of(identity)
    if seat is None:
        raise NotYourTurn("you have no seat at this table")
    if table.seats[seat].stand_in is not None and not table.closed and table.started:
        table.take_back(identity)  # choosing is taking the seat back
    table.bots.deals_in_row = 0
    if shown is not None and table.started and not table.closed:
        # (after the checks make_move makes first: a closed table, a game moved on, say so)
        if decision is None or decision == table.game.decision_number(seat):
            check_shown(table, seat, choice, shown)
    if table.held.holds(seat, choice, decision):
        return []
    return make_move(table, seat, choice, decision, by=identity)


def check_shown(table: Table, seat: int, choice: str, shown: str) -> None:
    """Refuse a choice made from a list that has changed since the player's screen showed
    it (another player's move within the same decision): its number may now mean another
    choice. The stamp is of the seat's own prompt, so it tells nothing hidden."""
    now = next(
        (p for p in table.game.open_prompts()
         if p.seat == seat and any(c.id == choice for c in p.choices)),
        None,
    )  # fmt: skip
    if now is None or now.stamp != shown:
        raise IllegalAction(STALE_LIST)


def make_move(
    table: Table,
    seat: int,
    choice: str,
    decision: int | None,
    by: str | None,
    *,
    notify: bool = True,
) -> list[Event]:
    """Play `choice` for `seat` and save it (saved first: a move not saved was not made);
    `by` is who chose it (None: a bot, or the table for a player out of time)."""
    if table.closed:
        raise IllegalAction(f"this table was closed: {table.closed}")
    if not table.started:
        free = sum(s.free for s in table.seats)
        raise IllegalAction(f"the game starts when every seat is taken ({free} free)")
    if decision is not None and decision != table.game.decision_number(seat):
        raise IllegalAction("the game moved on since your screen was drawn; choose again")
    try:
        events = table.game.act(seat, choice)
    except IllegalAction:
        raise
    except Exception:
        restore_notes(table)  # the game was rebuilt from its moves, without our lines
        raise
    now = table._clock()
    record: dict[str, Any] = {"t": "act", "seat": seat, "choice": choice, "by": by, "at": now}
    held = table.seats[seat]
    used = table.times.used(seat, now) if held.stand_in is None and held.bot is None else []
    if used:
        record["used"] = used
    try:
        table._save(record)
    except StoreError:
        # Not saved means not made: take the move back so memory matches the disk.
        table.game = replay(table.game.config, table.game.actions[:-1])
        restore_notes(table)
        raise
    table.times.charge(used)
    table.times.decided(seat, table._awaited(), now)
    table.records.changed()
    table.held.track(now)
    if notify:
        table._notify()
    return events
