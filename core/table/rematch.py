"""Play again: when a game ends, each player at it is asked whether to play again; once all
have answered, the lobby (core/lobby.py `start_rematch`) opens a new table with the same game,
options, clocks and table options, and the same people one seat further on.

Seats turn by one, forward: whoever sat in seat i sits in seat i+1, and the last seat's player
comes first (the way play goes round, as a dealer's deck passes). Both games draw who starts
(Carthage its Starting Player, Spartacus a roll), so turning hands nobody the start; it keeps
every player's neighbours and, in 2 vs 2, teammates (in 2 vs 3 the five seats re-form the
teams), and moves on what the seat number itself decides (Carthage with gladiators by seat:
each plays the next gladiator).

A player who declines leaves a bot in their seat or a free seat, as the table's creator chose
when creating it (core/table/options.py `declined`); a player who leaves the finished table
(`l`, or a guest who quits) is no longer waited for and counts as a no. A bot stays a bot of the
same level; a seat still kept for a friend stays kept for them. Nobody says yes: no new table.
Answers are table records ("again"), so they survive a restart, and may be changed until the
last one is in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from harena.core.engine import IllegalAction

if TYPE_CHECKING:
    from harena.core.table.front import Table


@dataclass
class Rematch:
    """The part of a `Table` that asks its players whether they play again."""

    answers: dict[int, bool] = field(default_factory=dict)  # seat -> yes
    next_table: str | None = None  # the new table, once opened


@dataclass(frozen=True)
class NextSeat:
    """One seat of the rematch, as it is filled when the table is opened."""

    identity: str | None = None  # a player who said yes
    name: str = ""
    bot: str | None = None  # a bot's kind
    kept_for: str | None = None  # still kept for a friend who never came
    kept_name: str = ""


def asked(table: Table) -> list[int]:
    """The seats asked to play again: every person's at a game that ended (not closed)."""
    if table.status != "over":
        return []
    return [i for i, s in enumerate(table.seats) if s.identity is not None]


def answer(table: Table, identity: str, yes: bool) -> None:
    """`identity`'s answer; changeable until everyone has answered."""
    seat = table.seat_of(identity)
    if seat is None or seat not in asked(table):
        raise IllegalAction("only the players of a finished game are asked to play again")
    if ready(table):
        raise IllegalAction("everyone has answered already")
    table._record({"t": "again", "seat": seat, "answer": "yes" if yes else "no"})
    table._notify()


def ready(table: Table) -> bool:
    """Everyone asked has answered (and at least one person is asked)."""
    seats = asked(table)
    return bool(seats) and all(s in table.rematch.answers for s in seats)


def next_seats(table: Table) -> list[NextSeat] | None:
    """The rematch's seats, turned by one (see the module's docstring); None if nobody plays
    again."""
    answers, declined = table.rematch.answers, table.table_options.declined
    if not any(answers.get(s) for s in asked(table)):
        return None
    stand_in = table.stand_in_kind
    count = len(table.seats)
    seats: list[NextSeat] = [NextSeat()] * count
    for index, seat in enumerate(table.seats):
        if seat.identity is not None and answers.get(index):
            planned = NextSeat(seat.identity, seat.name)
        elif seat.identity is not None or seat.free:  # said no, or left the finished table
            planned = NextSeat(bot=stand_in) if declined == "bot" else NextSeat()
        else:
            planned = NextSeat(bot=seat.bot, kept_for=seat.kept_for, kept_name=seat.kept_name)
        seats[(index + 1) % count] = planned
    return seats


def view(table: Table, seat: int | None) -> dict[str, Any]:
    """What a finished game's screen shows of the rematch: who said what, whom it waits for,
    the new table, and this seat's answer."""
    seats = asked(table)
    if not seats:
        return {}
    answers = table.rematch.answers
    shown: dict[str, Any] = {
        "yes": [table.seats[s].name for s in seats if answers.get(s)],
        "no": [table.seats[s].name for s in seats if answers.get(s) is False],
        "waiting": [table.seats[s].name for s in seats if s not in answers],
        "table": table.rematch.next_table,
        "declined": table.table_options.declined,
    }
    if seat is not None and seat in answers:
        shown["answer"] = answers[seat]
    return {"rematch": shown}
