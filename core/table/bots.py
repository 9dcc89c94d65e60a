"""The bots at a table: those holding a seat, and those standing in for a player whose time ran
out or who is away (core/table/clocks.py); whoever drives them (server/runners/bot_runner.py,
core/simulate.py) asks the table what is theirs to play."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from harena.core.bots import MAX_DEALS, Bot, bot_seed, decide, standing_move
from harena.core.engine import Event, IllegalAction

if TYPE_CHECKING:
    from harena.core.table.front import Table


class TableBots:
    """The part of a `Table` that plays its bots."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._playing: dict[int, Bot] = {}  # seat -> its bot, made at its first move
        self.deals_in_row = 0  # bot deals since the last decision (see `deal`)

    def forget(self, seat: int) -> None:
        """The seat changed hands: its next bot starts afresh."""
        self._playing.pop(seat, None)

    def to_move(self) -> list[int]:
        """Bot seats with an open decision, for whoever drives the bots (server or simulate)."""
        table = self.table
        if not table.started or table.closed:
            return []
        waiting = set(table.game.awaited())
        return [
            i
            for i, s in enumerate(table.seats)
            if (s.bot is not None or s.stand_in is not None) and i in waiting
        ]

    def of(self, seat: int) -> Bot:
        """The bot playing `seat` (a thinking one is run off the loop: server/runners/bot_workers.py)."""
        table = self.table
        held = table.seats[seat]
        kind = held.bot or (table.stand_in_kind if held.stand_in else None)
        if kind is None:
            raise IllegalAction(f"seat {seat} is not a bot")
        bot = self._playing.get(seat)
        if bot is None:
            bot = self._playing[seat] = table.game.bots[kind](
                bot_seed(table.game.config.seed, seat)
            )
        return bot

    def play(self, seat: int, choice: str | None = None) -> list[Event]:
        """The seat's bot decides (or `choice`, which it decided elsewhere) and it is played."""
        table = self.table
        bot = self.of(seat)
        if choice is None:
            choice = decide(table.game, seat, bot, log_from=table.seats[seat].log_from)
        self.deals_in_row = 0
        return table._act(seat, choice, None, by=None)

    def deal(self) -> tuple[int, str] | None:
        """A deal a bot seat makes while nobody waits for it (core/bots.standing_move), or None.
        Only seats a bot holds: a bot standing in for an absent player plays the decisions
        their clock ran out on, and never spends their denarii on deals (docs/server.md)."""
        table = self.table
        if not table.started or table.closed or self.deals_in_row >= MAX_DEALS:
            return None
        bots = {i: self.of(i) for i, s in enumerate(table.seats) if s.bot is not None}
        if not bots:
            return None
        return standing_move(table.game, bots, {i: table.seats[i].log_from for i in bots})

    def may_deal(self) -> bool:
        """Cheap: a bot seat and a moment for deals (worth asking the bots, see `deal`)."""
        table = self.table
        return (table.started and not table.closed and self.deals_in_row < MAX_DEALS
                and any(s.bot is not None for s in table.seats) and table.game.dealing())  # fmt: skip

    def humans_asked(self) -> bool:
        """A player playing for themselves was asked to pay and has not (Game.asked_to_pay):
        bots give them time before moving on (server/runners/bot_runner.py)."""
        table = self.table
        if not table.started or table.closed:
            return False
        seats = table.seats
        return any(
            seats[s].bot is None and seats[s].stand_in is None for s in table.game.asked_to_pay()
        )

    def step(self, off_loop: Callable[[int], None] | None = None) -> bool:
        """One bot move: a bot's deal if one deals, else the first awaited bot's decision.
        False when no bot has anything to do. With `off_loop`, a bot that thinks (the search
        bot) is not asked here: off_loop(seat) has it think elsewhere and `play` its choice."""
        deal = self.deal()
        if deal is not None:
            self.deals_in_row += 1
            self.table._act(deal[0], deal[1], None, by=None)
            return True
        seats = self.to_move()
        if not seats:
            return False
        if off_loop is not None and hasattr(self.of(seats[0]), "decide"):
            off_loop(seats[0])
            return True
        self.play(seats[0])
        return True
