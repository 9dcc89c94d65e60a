"""What a table shows: its public facts (the lobby's list), each seat's view, and sending every
subscriber the view of its seat after a change. Functions over a `Table`, whose methods of the
same names call them."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from harena.core.table import clocks, rematch
from harena.core.table.seats import CHAT_SHOWN

if TYPE_CHECKING:
    from harena.core.table.front import Table

log = logging.getLogger(__name__)


def summary(table: Table) -> dict[str, Any]:
    """The public facts about this table, as the lobby lists them."""
    return {
        "id": table.id,
        "game": table.game.name,
        "title": table.game.title,
        "status": table.status,
        "options": dict(table.game.config.options),
        "seats": [
            {
                "name": name,
                "bot": s.bot,
                "connected": s.connected or s.bot is not None,
                "free": s.free,
            }
            | ({"stand_in": s.stand_in} if s.stand_in else {})
            | ({"kept": s.kept_name} if s.kept_for is not None else {})
            for s, name in zip(table.seats, table.seat_names(), strict=True)
        ],
        "spectators": sorted(table.spectators.values()),
    } | ({"clock": clock} if (clock := clocks.clock_text(table)) else {})


def view_for(table: Table, identity: str | None) -> dict[str, Any]:
    """The table as `identity` may see it: its seat's game view plus the public table."""
    seat = table.seat_of(identity)
    game = table.game.view(seat, log_from=0 if seat is None else table.seats[seat].log_from)
    if table.closed:  # nothing more to choose, nobody to wait for
        game = {**game, "prompts": [], "waiting": []}
    return {
        "table": {
            **table.summary(),
            "you": seat,
            "removed": table.removed,
            "chat": [[c.name, c.text] for c in table.chat[-CHAT_SHOWN:]],
        }
        | clocks.clock_view(table)
        | table.held.view(seat)
        | rematch.view(table, seat),
        "game": game,
    }


def notify(table: Table) -> None:
    for listener in list(table.listeners):
        try:
            listener(table)
        except Exception:
            log.exception("table %s: a listener failed", table.id)
    # One view per seat (and one for all spectators), not one per subscriber: a seat's
    # sessions and the spectators see the same thing. Subscribers must not change a view.
    # A view equal to the one last sent is not sent again: a step that is hidden from a seat
    # (another's secret choice) then costs that seat nothing, not even a repaint.
    views: dict[int | None, dict[str, Any]] = {}
    for sub in list(table._subscribers):
        try:
            seat = table.seat_of(sub.identity)
            if seat not in views:
                views[seat] = table.view_for(sub.identity)
            if views[seat] == sub.last_view:
                continue
            sub.last_view = views[seat]
            sub.callback(views[seat])
        except Exception:
            log.exception("table %s: a subscriber failed; the others still hear", table.id)
