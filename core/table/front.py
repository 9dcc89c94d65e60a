"""A table: one game, its seats, spectators, chat and subscribers; the front that screens,
the lobby and the server use (core/table_like.py declares what they may ask).

The parts that change together live beside it, and the front calls them: its records (create,
load, rebuild, apply, snapshot: core/table/records.py), who sits where (seating.py), play
(play.py), its held reaction windows (held.py), its clocks and stand-ins (clocks.py), its bots
(bots.py) and what it shows (views.py). Subscribers are plain callbacks
that receive the view for their own seat; the server adapts them to its event loop. Nothing
here knows about asyncio.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from harena.core.clocks import ClockPolicy, SeatTimes
from harena.core.engine import Event, Game, IllegalAction
from harena.core.logstore import RecordLog, SnapshotStore, TableStore
from harena.core.store import Store, StoredTable, StoreError
from harena.core.table import clocks, kept, play, rematch, seating, sharing, views
from harena.core.table import records as table_records
from harena.core.table.bots import TableBots
from harena.core.table.held import HeldWindows
from harena.core.table.options import TableOptions
from harena.core.table.records import TableRecords
from harena.core.table.seats import (
    CHAT_MAX_CHARS,
    ChatLine,
    Seat,
    clean_text,
    seat_index,
    seat_names,
)
from harena.core.table_like import Answered, Subscriber, TableLike

if TYPE_CHECKING:
    from harena.core.bots import Bot
    from harena.core.privacy import Privacy
    from harena.core.ratings import Ratings

log = logging.getLogger(__name__)


class Subscription:
    """Returned by Table.subscribe; close() it when the session ends."""

    def __init__(self, table: Table, identity: str | None, callback: Subscriber) -> None:
        self.table = table
        self.identity = identity
        self.callback = callback
        self.last_view: dict[str, Any] | None = None  # what it was last sent

    def close(self) -> None:
        self.table._subscribers.discard(self)


class Table:
    clock_shift = 0.0
    """How far the clock of the process that runs this table is ahead of this process's:
    `awaiting` gives that process's instants (a table run here: 0; a cluster's stand-in for
    another node's table says its owner's)."""

    def __init__(
        self,
        table_id: str,
        game: Game,
        seats: list[Seat],
        *,
        store: SnapshotStore | None = None,
        table_log: RecordLog | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.id = table_id
        self.game = game
        self.seats = seats
        self.started = False
        self.creator: str | None = None  # who created it: may remove players before the start
        self.closed: str | None = None  # why an operator ended it early (None: not closed)
        self.hints = False  # its creator allowed the bot's advice: hints, and no rating
        self.removed: str | None = None  # runtime: why it left this server (deleted, archived)
        self.privacy: Privacy | None = None  # None: open to all; else invite-only (core/privacy.py)
        self.touched = clock()  # when a record was last saved: idle tables are archived
        self.chat: list[ChatLine] = []
        self.spectators: dict[str, str] = {}  # identity -> display name; runtime only
        self._clock = clock
        self._subscribers: set[Subscription] = set()
        self.times = SeatTimes(ClockPolicy(), len(seats))  # waits, move clocks, banks
        self._notes: list[tuple[int, Event]] = []  # the table's own lines in the game's log
        # The clocks as the last record rebuilt left them (durations), for `resume_after`.
        self._last_clocks: dict[str, list[list[float]]] | None = None
        # Its parts: where its records go, its held reaction windows, its bots.
        self.records = TableRecords(
            table_id, store, table_log, lambda: table_records.snapshot_body(self)
        )
        self.held = HeldWindows(self)
        self.bots = TableBots(self)
        self.table_options = TableOptions()  # the creator's choices about the table itself
        self.rematch = rematch.Rematch()  # "play again?" once the game is over
        # Called with the table after every change, before per-seat views are pushed: cheap hooks
        # for the lobby's table list and the bot runner, which need no view.
        self.listeners: list[Callable[[TableLike], None]] = []

    # -- creation and loading -------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        game_name: str,
        players: int,
        seed: int,
        options: dict[str, str] | None = None,
        *,
        store: TableStore | None = None,
        table_id: str | None = None,
        clock: Callable[[], float] = time.time,
        creator: str | None = None,
        policy: ClockPolicy | None = None,
        privacy: Privacy | None = None,
        hints: bool = False,
        table_options: TableOptions | None = None,
    ) -> Table:
        """A new table, its create record saved (and a snapshot: a second copy of its config).
        `hints`: anyone seated may ask the hard bot what it would choose; the game is not rated."""
        return table_records.create(
            cls,
            game_name,
            players,
            seed,
            options,
            store=store,
            table_id=table_id,
            clock=clock,
            creator=creator,
            policy=policy,
            privacy=privacy,
            hints=hints,
            table_options=table_options,
        )

    @classmethod
    def load(
        cls, stored: StoredTable, store: Store | None, *, clock: Callable[[], float] = time.time
    ) -> Table:
        """Rebuild a table from its snapshot (if verified) and the records after it, keeping
        all that can be kept when the files are damaged (core/recovery.py decides what); the
        log is then cut or started afresh so that it and the table agree, and every problem
        is logged. Raises StoreError only if nothing can rebuild the table. Without a store,
        a read-only copy (an export) that repairs and saves nothing."""
        return table_records.load(cls, stored, store, clock)

    @classmethod
    def rebuild(
        cls,
        table_id: str,
        snapshot: dict[str, Any] | None,
        records: list[dict[str, Any]],
        *,
        clock: Callable[[], float] = time.time,
    ) -> Table:
        """A table from a trusted snapshot (None: none) and the records after it, for a store
        whose records cannot be torn or flipped (JetStream checks and replicates them, so the
        file repairs of `load` have nothing to do). Raises StoreError if a record does not apply:
        a table is never served with some of its records missing."""
        return table_records.rebuild(cls, table_id, snapshot, records, clock)

    def attach(self, store: SnapshotStore, table_log: RecordLog, touched: float) -> None:
        """Keep this (rebuilt) table's next records in `table_log` and snapshots in `store`."""
        self.records.store, self.records.log, self.touched = store, table_log, touched

    def _restarted(self) -> None:
        """After a load, clocks start afresh (SeatTimes.restarted). A wait of unknown start (a
        log from before records had times) stays None, so an export of the same log always
        rebuilds the same snapshot; `awaiting` reads it as the last change."""
        self.times.restarted(
            self._clock(), [i for i, s in enumerate(self.seats) if s.identity is not None]
        )
        self.held.restarted(self._clock())

    def running_clocks(self) -> dict[str, Any]:
        return clocks.running_clocks(self)

    def resume_clocks(self, running: dict[str, object]) -> None:
        clocks.resume_clocks(self, running)

    def resume_after(self, silent: float) -> None:
        clocks.resume_after(self, silent)

    # -- seats ------------------------------------------------------------------------------------

    def seat_names(self) -> list[str]:
        return seat_names(self.seats)

    def seat_of(self, identity: str | None) -> int | None:
        return seat_index(self.seats, identity)

    def sit(self, identity: str, name: str, seat: int | None = None) -> int:
        """Take a free seat (or a bot's); returns its index. Holding a seat already keeps it."""
        return seating.sit(self, identity, name, seat)

    def set_bot(self, seat: int, kind: str) -> None:
        seating.set_bot(self, seat, kind)

    def leave(self, identity: str) -> None:
        seating.leave(self, identity)

    def remove_player(self, by: str, seat: int) -> str:
        return seating.remove_player(self, by, seat)

    def close_game(self, by: str, reason: str) -> None:
        seating.close_game(self, by, reason)

    # -- privacy: who may know of it, sit and watch (core/table/sharing.py) -------------------

    def knows(self, identity: str | None) -> bool:
        return sharing.knows(self, identity)

    def watches(self, identity: str | None) -> bool:
        return sharing.watches(self, identity)

    def invite(self, by: str, identity: str, name: str) -> None:
        sharing.invite(self, by, identity, name)

    def add_code(self, by: str) -> str:
        return sharing.add_code(self, by)

    def revoke_codes(self, by: str) -> int:
        return sharing.revoke_codes(self, by)

    def join_by_code(self, identity: str, name: str, code: str) -> int | None:
        return sharing.join_by_code(self, identity, name, code)

    def keep_seat(self, by: str | None, seat: int, identity: str, name: str) -> None:
        """Keep `seat` for a friend (core/table/kept.py)."""
        kept.keep_seat(self, by, seat, identity, name)

    def release_seat(self, by: str, seat: int) -> str:
        return kept.release_seat(self, by, seat)

    def answer_rematch(self, identity: str, yes: bool) -> None:
        """Play again, or not, once the game is over (core/table/rematch.py)."""
        rematch.answer(self, identity, yes)

    def mark_removed(self, reason: str) -> None:
        """The table leaves this server (deleted, archived): every screen on it hears why."""
        self.removed = reason
        self._notify()

    def set_connected(self, identity: str, connected: bool) -> None:
        seating.set_connected(self, identity, connected)

    def watch(self, identity: str, name: str) -> None:
        seating.watch(self, identity, name)

    @property
    def status(self) -> str:
        if self.closed:
            return "closed"
        if self.game.result() is not None:
            return "over"
        return "playing" if self.started else "waiting"

    def rate(self, ratings: Ratings) -> None:
        """Rate the game into `ratings` if it is over (once: `Ratings.rate` remembers)."""
        if self.status == "over":
            ratings.rate(self)

    # -- play -------------------------------------------------------------------------------------

    def act(
        self, identity: str, choice: str, decision: int | None = None, shown: str | None = None
    ) -> list[Event]:
        """Apply a choice for the seat `identity` holds (see core/table/play.py)."""
        return play.act(self, identity, choice, decision, shown)

    def act_soon(
        self,
        identity: str,
        choice: str,
        decision: int | None,
        answered: Answered,
        shown: str | None = None,
    ) -> None:
        """`act` as a screen calls it: `answered(None)` once the choice is made, `answered(why)`
        if it is not. A table another node runs answers later (server/cluster/remote.py); here
        the choice is made at once and `answered` hears at once."""
        try:
            self.act(identity, choice, decision, shown)
        except IllegalAction as error:
            answered(str(error))
            return
        except StoreError as error:  # expected (a cluster's storage away): its message says it
            log.warning("table %s: choice %r not saved (%s)", self.id, choice, error)
            answered(str(error))
            return
        except Exception:
            log.exception("table %s: choice %r failed", self.id, choice)
            answered("internal error: that choice was not made")
            return
        answered(None)

    def pass_automatically(self, passes: Callable[[str], bool]) -> None:
        """`passes(identity)`: whether that player passes reaction windows automatically; a
        window open now (at a load) is answered for them at once too."""
        self.held.pass_automatically(passes)

    def _act(
        self, seat: int, choice: str, decision: int | None, by: str | None, *, notify: bool = True
    ) -> list[Event]:
        return play.make_move(self, seat, choice, decision, by, notify=notify)

    # -- time: waits, clocks and stand-ins (core/table/clocks.py) ---------------------------

    def _awaited(self) -> list[int]:
        return clocks.awaited(self)

    @property
    def policy(self) -> ClockPolicy:
        return self.times.policy

    @property
    def stand_in_kind(self) -> str | None:
        return clocks.stand_in_kind(self)

    def deadlines(self) -> dict[int, tuple[float, str]]:
        return clocks.deadlines(self)

    def next_deadline(self) -> float | None:
        return clocks.next_deadline(self)

    def expire(self, now: float | None = None) -> list[int]:
        return clocks.expire(self, now)

    def take_back(self, identity: str) -> None:
        seating.take_back(self, identity)

    def awaiting(self, identity: str) -> float | None:
        return clocks.awaiting(self, identity)

    @property
    def notes(self) -> list[tuple[int, str]]:
        """The table's own log lines (stand-ins) at their index among the game's events."""
        return [(index, event.text) for index, event in self._notes]

    def bots_to_move(self) -> list[int]:
        return self.bots.to_move()

    def bot_of(self, seat: int) -> Bot:
        return self.bots.of(seat)

    def play_bot(self, seat: int, choice: str | None = None) -> list[Event]:
        return self.bots.play(seat, choice)

    def bot_deal(self) -> tuple[int, str] | None:
        return self.bots.deal()

    def may_deal(self) -> bool:
        return self.bots.may_deal()

    def humans_asked(self) -> bool:
        return self.bots.humans_asked()

    def play_bot_step(self, off_loop: Callable[[int], None] | None = None) -> bool:
        return self.bots.step(off_loop)

    # -- chat ------------------------------------------------------------------------------------

    def say(self, identity: str, name: str, text: str) -> None:
        text = clean_text(text, CHAT_MAX_CHARS)
        if not text:
            return
        if self.seat_of(identity) is None and identity not in self.spectators:
            raise IllegalAction("sit or watch at this table to chat here")
        self._record({"t": "chat", "at": self._clock(), "name": clean_text(name, 32), "text": text})
        self._notify()

    def say_soon(self, identity: str, name: str, text: str, answered: Answered) -> None:
        """`say` as a screen calls it, as `act_soon`."""
        try:
            self.say(identity, name, text)
        except IllegalAction as error:
            answered(str(error))
            return
        answered(None)

    # -- views and subscribers ------------------------------------------------------------------

    def subscribe(self, identity: str | None, callback: Subscriber) -> Subscription:
        sub = Subscription(self, identity, callback)
        self._subscribers.add(sub)
        return sub

    @property
    def subscriber_count(self) -> int:
        return len(self._subscribers)

    def summary(self) -> dict[str, Any]:
        """The public facts about this table, as the lobby lists them."""
        return views.summary(self) | ({"hints": True} if self.hints else {})

    def view_for(self, identity: str | None) -> dict[str, Any]:
        """The table as `identity` may see it: its seat's game view plus the public table."""
        return views.view_for(self, identity)

    def _notify(self) -> None:
        views.notify(self)

    # -- records --------------------------------------------------------------------------------

    def _record(self, record: dict[str, Any]) -> None:
        """Save a table record, then apply it (saving first: an unsaved change never shows)."""
        self._save(record)
        table_records.apply_record(self, record)
        self.times.track(self._awaited(), record["at"])
        self.records.changed()
        self.held.track(record["at"])

    def _save(self, record: dict[str, Any], *, touch: bool = True) -> None:
        """Append `record` to the log. `touch=False`: a change only its seat may know of (a
        held answer) leaves `touched` alone, which other nodes and the operator see."""
        record.setdefault("at", self._clock())  # when: waits and clocks are rebuilt from it
        self.records.append(record)
        if touch:
            self.touched = self._clock()

    def save_snapshot(self) -> None:
        self.records.save_snapshot()

    def snapshot_data(self) -> dict[str, Any]:
        return self.records.snapshot_data()

    def close(self) -> None:
        self.records.close()


if TYPE_CHECKING:  # mypy proves a Table is all a TableLike promises (core/table_like.py)

    def _table_is_table_like(table: Table) -> TableLike:
        return table
