"""A player reads the same log before and after a server restart, and never a seat number
(issue 24: "heuristic bot is the Starting Player" must not turn into "Seat 2 is the Starting
Player" once the table is replayed). Tables of both games, each with a person and heuristic
bots, are restarted at several points of a game (loaded again from their files), and every
seat's whole log is compared, as the game writes it and as the screen shows it."""

from __future__ import annotations

import re
from typing import Any

import pytest

from harena.core.bots import RandomBot
from harena.core.lobby import Lobby
from harena.core.store import Store
from harena.core.table import Table, load_tables
from harena.tui.boards.spartacus.names import names_of, relabel
from harena.tui.widgets.seats import named_seats

SEAT_NUMBER = re.compile(r"\bSeat \d+\b")


def _step(table: Table, person: RandomBot) -> bool:
    """One move: a bot's, else the person's (a random legal choice). False once over."""
    if table.game.result() is not None:
        return False
    if table.play_bot_step():
        return True
    seat = table.seat_of("id-ann")
    assert seat is not None and seat in table.game.awaited()
    before = len(table.game.actions)
    table.act("id-ann", person.choose(table.game.view(seat)))
    if len(table.game.actions) == before:  # a reaction window holds it till its time
        table.expire(table.next_deadline())
    return True


def _shown(table: Table, seat: int | None) -> tuple[list[str], list[str]]:
    """(the seat's whole log as the game writes it, as its screen names the players)."""
    log_from = 0 if seat is None else table.seats[seat].log_from
    view = {"table": table.view_for(None)["table"], "game": table.game.view(seat)}
    lines = table.game.log_for(seat, None, log_from)
    if table.game.name == "spartacus":
        names = names_of(view)
        return lines, [relabel(line, names) for line in lines]
    seat_names = tuple(s["name"] for s in view["table"]["seats"])
    return lines, [named_seats(line, seat_names) for line in lines]


def _every_seat(table: Table) -> dict[Any, tuple[list[str], list[str]]]:
    return {seat: _shown(table, seat) for seat in [*range(len(table.seats)), None]}


@pytest.mark.parametrize(("game", "players"), [("carthage", 2), ("carthage", 3), ("spartacus", 3)])
def test_every_seat_reads_the_same_log_after_a_restart(tmp_path, game: str, players: int) -> None:
    store = Store(tmp_path)
    lobby = Lobby(store=store, new_seed=lambda: 7)
    table = lobby.create_table(
        "id-ann", "ann", game, players, bots=players - 1, bot_kind="heuristic"
    )
    person = RandomBot(3)
    restarts = 0
    for stop in (0, 5, 40, 200, 600):
        while table.game.version < stop and _step(table, person):
            pass
        before = _every_seat(table)
        table.close()
        (table,) = load_tables(store)
        restarts += 1
        after = _every_seat(table)
        assert after == before
        for seat, (_, screen) in after.items():
            numbered = [line for line in screen if SEAT_NUMBER.search(line)]
            assert not numbered, (seat, numbered[:3])
        assert any(re.search(r"\b(ann|bot)\b", line) for line in after[0][1])  # named
    assert restarts == 5 and table.game.version > 40
