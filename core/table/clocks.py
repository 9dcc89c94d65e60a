"""A table's time (core/clocks.py keeps the counts): when each awaited player's time runs out and
a bot stands in for them, the clocks handed from node to node, and the clocks as views show
them. Functions over a `Table`, which its methods of the same names call."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from harena.core import clocks

if TYPE_CHECKING:
    from harena.core.table.front import Table

log = logging.getLogger(__name__)


def awaited(table: Table) -> list[int]:
    """The seats the game waits for (none before the start, or at a closed table)."""
    if not table.started or table.closed:
        return []
    return table.game.awaited()


def stand_in_kind(table: Table) -> str | None:
    """The bot kind that plays for a player whose time ran out: the table's, else the game's
    heuristic bot, else its first."""
    if table.policy.bot is not None:
        return table.policy.bot
    kinds = list(table.game.bots)
    return "heuristic" if "heuristic" in kinds else (kinds[0] if kinds else None)


def deadlines(table: Table) -> dict[int, tuple[float, str]]:
    """seat -> (when a bot stands in, why: "clock" or "away"), for awaited players."""
    if not table.policy.active or table.closed or table.stand_in_kind is None:
        return {}
    found: dict[int, tuple[float, str]] = {}
    for seat in awaited(table):
        held = table.seats[seat]
        if held.identity is not None and held.stand_in is None:
            if (due := table.times.deadline(seat, held.connected)) is not None:
                found[seat] = due
    return found


def next_deadline(table: Table) -> float | None:
    """The next time something happens by itself: a reaction window closes, or a bot stands
    in for a player out of time."""
    found = [at for at, _ in deadlines(table).values()]
    if table.held.open is not None:
        found.append(table.held.open.closes)
    return min(found) if found else None


def expire(table: Table, now: float | None = None) -> list[int]:
    """A reaction window whose time is up closes; a bot stands in for every awaited player
    whose time ran out by `now`. Returns the seats stood in for."""
    now = table._clock() if now is None else now
    window = table.held.open
    if window is not None and window.closes <= now and not table.closed:
        table.held.close(now)
    due = [(seat, why) for seat, (at, why) in sorted(deadlines(table).items()) if at <= now]
    for seat, why in due:
        table._record({"t": "stand_in", "seat": seat, "why": why})
        log.info(
            "table %s: a bot stands in for seat %d (%s)",
            table.id,
            seat,
            why,
            extra={
                "event": "table-stand-in",
                "table": table.id,
                "key": table.seats[seat].identity,
            },
        )
    if due:
        table._notify()
    return [seat for seat, _ in due]


def awaiting(table: Table, identity: str) -> float | None:
    """Since when `table` has been waiting for `identity` (None: it is not)."""
    seat = table.seat_of(identity)
    waiting = table.times.waiting_since
    if seat is None or seat not in waiting or table.seats[seat].stand_in is not None:
        return None
    if table.held.answered(seat):  # answered, or answered for you: nothing to come back for
        return None
    since = waiting[seat]
    return table.touched if since is None else since


# -- clocks handed between the nodes of a cluster --------------------------------------------------


def running_clocks(table: Table) -> dict[str, Any]:
    """The running clocks as durations (SeatTimes.running), and the time left to an open
    reaction window, for a table handed to another node of a cluster."""
    now = table._clock()
    running: dict[str, Any] = dict(table.times.running(now))
    if table.held.open is not None:
        running["window"] = round(max(table.held.open.closes - now, 0.0), 3)
    return running


def resume_clocks(table: Table, running: dict[str, object]) -> None:
    """After a rebuild, take up clocks handed over by the table's last node instead of
    starting them afresh (SeatTimes.resumed); an open window keeps the time it had left."""
    now = table._clock()
    table.times.resumed(now, running)
    left, window = running.get("window"), table.held.open
    if (
        window is not None
        and isinstance(left, (int, float))
        and not isinstance(left, bool)
        and left >= 0
    ):
        window.closes = now + min(left, table.policy.window)


def resume_after(table: Table, silent: float) -> None:
    """After a rebuild for a node that took the table over from one that died (which handed
    nothing over): the move clocks as its last record left them, run on by `silent` seconds
    (since that record, by the store's clock), and an open window as if it opened then; not
    afresh, which gave every awaited player a whole clock again at each death."""
    if table._last_clocks is None or silent < 0:
        return
    used = [[seat, seconds + silent] for seat, seconds in table._last_clocks["used"]]
    running: dict[str, object] = {"used": used}
    if table.held.open is not None:
        running["window"] = max(table.policy.window - silent, 0.0)
    resume_clocks(table, running)


# -- as views show them ----------------------------------------------------------------------------


def clock_text(table: Table) -> str:
    """The table's time settings in words (the lobby's detail line, the table's `?`)."""
    return clocks.describe(table.policy, reaction_windows=table.game.reaction_windows)


def clock_view(table: Table) -> dict[str, Any]:
    """When each awaited player's time runs out (only at a table with a clock: a table without
    one has nothing here that could change, so its views stay equal)."""
    if not table.policy.active:
        return {}
    return {
        "deadlines": [[seat, at, why] for seat, (at, why) in sorted(deadlines(table).items())],
        "banks": list(table.times.banks) if table.policy.bank > 0 else None,
    }
