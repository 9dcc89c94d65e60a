"""A table: one game, its seats, spectators, chat and subscribers.

Every change to a table is a record (create, seat, start, act, chat, close). A record is saved (fsynced)
before anyone hears of it, and the same records rebuild the table after a restart: the log is the
truth, snapshots only shorten the replay. Subscribers are plain callbacks that receive the view
for their own seat; the server adapts them to its event loop. Nothing here knows about asyncio.
"""

from __future__ import annotations

import logging
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from harena.core import clocks, recovery, windows
from harena.core.bots import (
    BOT_NAMES,
    MAX_DEALS,
    Bot,
    bot_seat_names,
    bot_seed,
    decide,
    standing_move,
)
from harena.core.clocks import ClockPolicy, SeatTimes
from harena.core.codec import from_plain, to_plain
from harena.core.engine import (
    Event,
    Game,
    GameConfig,
    IllegalAction,
    game_class,
    make_config,
    replay,
    restore,
)
from harena.core.logstore import RecordLog, SnapshotStore, TableStore
from harena.core.store import Store, StoredTable, StoreError
from harena.core.table_like import Subscriber as Subscriber  # (re-exported: its old home)
from harena.core.table_like import TableLike

if TYPE_CHECKING:
    from harena.core.ratings import Ratings

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 64  # records between snapshots
CHAT_KEPT = 100  # chat lines kept in memory and in snapshots
CHAT_SHOWN = 20  # chat lines carried in a view
CHAT_MAX_CHARS = 300

STALE_LIST = "the choices changed since your screen was drawn: nothing was done; choose again"


class NotYourTurn(IllegalAction):
    """The identity has no seat here, or it is not that seat's decision."""


@dataclass
class Seat:
    identity: str | None = None  # SSH key fingerprint of the player holding it
    name: str = ""
    bot: str | None = None  # bot kind, when a bot plays this seat
    # The game's event index when the present occupant sat down: the seat's private log lines
    # before it were someone else's and read redacted (docs/rulings.md, taking over a seat).
    log_from: int = 0
    # Why a bot plays for the player holding this seat ("clock": time ran out, "away": gone
    # past the table's stand-in time), until they take it back; None: they play themselves.
    stand_in: str | None = None
    connected: bool = False  # runtime only: never saved

    @property
    def free(self) -> bool:
        return self.identity is None and self.bot is None


@dataclass
class ChatLine:
    at: float
    name: str
    text: str


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
        self.removed: str | None = None  # runtime: why it left this server (deleted, archived)
        self.touched = clock()  # when a record was last saved: idle tables are archived
        self.chat: list[ChatLine] = []
        self.spectators: dict[str, str] = {}  # identity -> display name; runtime only
        self._store: SnapshotStore | None = store
        self._log: RecordLog | None = table_log
        self._records = 0
        self._clock = clock
        self._subscribers: set[Subscription] = set()
        self._bots: dict[int, Bot] = {}
        self._deals_in_row = 0  # bot deals since the last decision (see bot_deal)
        self.times = SeatTimes(ClockPolicy(), len(seats))  # waits, move clocks, banks
        self._notes: list[tuple[int, Event]] = []  # the table's own lines in the game's log
        # An open reaction window with a person in it (core/windows.py). After a restart (or a
        # move to another node) a window opens afresh for its full time; the answers held in
        # it are saved ("hold" records) and held again (`_held_saved`, filled while loading).
        self._window: windows.HeldWindow | None = None
        # The clocks as the last record rebuilt left them (durations), for `resume_after`.
        self._last_clocks: dict[str, list[list[float]]] | None = None
        self._held_saved: dict[int, str] = {}
        self._closing = False  # a window's answers are being given to the game (_close_window)
        # Whether a player passes every reaction window automatically (their `auto_pass`
        # setting, core/players.py); the lobby gives it (`pass_automatically`)
        self._passes: Callable[[str], bool] = lambda identity: False
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
    ) -> Table:
        config = make_config(game_name, players, seed, options)
        policy = policy or ClockPolicy()
        if policy.bot is not None and policy.bot not in game_class(game_name).bots:
            raise IllegalAction(f"no bot {policy.bot!r} to stand in at {game_name}")
        if table_id is None:
            table_id = store.new_table_id() if store is not None else "local"
        table_log = store.create(table_id) if store is not None else None
        table = cls(
            table_id,
            game_class(game_name)(config),
            [Seat() for _ in range(players)],
            store=store,
            table_log=table_log,
            clock=clock,
        )
        table.creator = creator
        table.times = SeatTimes(policy, players)
        table._save(
            {
                "t": "create",
                "config": to_plain(config),
                "at": clock(),
                "by": creator,
                "policy": policy.to_record(),
            }
        )
        table.save_snapshot()  # a second copy of the config, should the create record be damaged
        return table

    @classmethod
    def load(
        cls, stored: StoredTable, store: Store | None, *, clock: Callable[[], float] = time.time
    ) -> Table:
        """Rebuild a table from its snapshot (if verified) and the records after it, keeping
        all that can be kept when the files are damaged (core/recovery.py decides what); the
        log is then cut or started afresh so that it and the table agree, and every problem
        is logged. Raises StoreError only if nothing can rebuild the table. Without a store,
        a read-only copy (an export) that repairs and saves nothing."""
        start = recovery.plan(stored, CHAT_KEPT)
        table = None
        if start.snapshot is not None:
            try:
                table = cls._from_snapshot(stored.table_id, start.snapshot, clock)
            except Exception as exc:  # a blob that passed its checksum but no longer restores
                start.notes.append(
                    f"snapshot does not restore ({exc}); set aside, rebuilt from the log"
                )
                repairs, start = (
                    start.repairs,
                    recovery.from_log(stored, start.notes, reject_snapshot=True),
                )
                start.repairs = repairs
        records, offsets, before = start.records, start.offsets, start.counted
        if table is None:
            table = cls._from_first_record(stored.table_id, records[0], clock)
            records, offsets, before = records[1:], offsets[1:], 1
        applied, failed = table._apply_saved(records)
        table._records = before + applied
        if failed is not None:
            start.notes.append(
                f"record {before + applied} at byte {offsets[applied]} cannot be applied "
                f"({failed}); it and the rest are set aside"
            )
        if store is None:
            for seat in table.seats:
                seat.connected = False
            table._restarted()
            return table
        try:
            table._make_files_agree(store, start, offsets[applied] if failed else None)
        except OSError as exc:
            raise StoreError(
                f"damage found ({'; '.join(start.notes)}) but not repaired: {exc}"
            ) from exc
        table.touched = store.touched(stored.table_id)  # (the log exists now, repaired or not)
        table._restarted()
        return table

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
        if snapshot is None:
            if not records or records[0].get("t") not in recovery.FIRST_RECORDS:
                raise StoreError("cannot be rebuilt: its first record is not a create record")
            table = cls._from_first_record(table_id, records[0], clock)
            before, records = 1, records[1:]
        else:
            table = cls._from_snapshot(table_id, snapshot, clock)
            before = snapshot["records"]
        applied, failed = table._apply_saved(records)
        if failed is not None:
            raise StoreError(f"record {before + applied} cannot be applied ({failed})")
        table._records = before + applied
        for seat in table.seats:
            seat.connected = False
        table._restarted()
        return table

    def attach(self, store: SnapshotStore, table_log: RecordLog, touched: float) -> None:
        """Keep this (rebuilt) table's next records in `table_log` and snapshots in `store`."""
        self._store, self._log, self.touched = store, table_log, touched

    def _restarted(self) -> None:
        """After a load, clocks start afresh (SeatTimes.restarted). A wait of unknown start (a
        log from before records had times) stays None, so an export of the same log always
        rebuilds the same snapshot; `awaiting` reads it as the last change."""
        self.times.restarted(
            self._clock(), [i for i, s in enumerate(self.seats) if s.identity is not None]
        )
        self._window = None
        now = self._clock()
        self._track_window(now, settle=False)  # nothing is saved while loading
        held, self._held_saved = self._held_saved, {}
        if self._window is not None:
            asked = windows.window_prompts(self.game)
            self._window.held.update(
                (seat, choice) for seat, choice in held.items()
                if seat in asked and self._plays_for_themselves(seat)
            )  # fmt: skip
            self._due_if_answered(now)

    def running_clocks(self) -> dict[str, Any]:
        """The running clocks as durations (SeatTimes.running), and the time left to an open
        reaction window, for a table handed to another node of a cluster."""
        now = self._clock()
        running: dict[str, Any] = dict(self.times.running(now))
        if self._window is not None:
            running["window"] = round(max(self._window.closes - now, 0.0), 3)
        return running

    def resume_clocks(self, running: dict[str, object]) -> None:
        """After a rebuild, take up clocks handed over by the table's last node instead of
        starting them afresh (SeatTimes.resumed); an open window keeps the time it had left."""
        now = self._clock()
        self.times.resumed(now, running)
        left = running.get("window")
        if (
            self._window is not None
            and isinstance(left, (int, float))
            and not isinstance(left, bool)
            and left >= 0
        ):
            self._window.closes = now + min(left, self.policy.window)

    def resume_after(self, silent: float) -> None:
        """After a rebuild for a node that took the table over from one that died (which
        handed nothing over): the move clocks as its last record left them, run on by `silent`
        seconds (since that record, by the store's clock), and an open window as if it opened
        then; not afresh, which gave every awaited player a whole clock again at each death."""
        if self._last_clocks is None or silent < 0:
            return
        used = [[seat, seconds + silent] for seat, seconds in self._last_clocks["used"]]
        running: dict[str, object] = {"used": used}
        if self._window is not None:
            running["window"] = max(self.policy.window - silent, 0.0)
        self.resume_clocks(running)

    def _make_files_agree(self, store: Store, start: recovery.Start, cut_at: int | None) -> None:
        """Cut, mend or restart the log so it ends where the loaded table does, keeping every
        byte it removes beside it, then say what was done."""
        self._store = store
        if start.reject_snapshot:
            start.notes.append(f"rejected snapshot kept as {store.set_snapshot_aside(self.id)}")
        if start.repairs and not start.rebase:
            start.notes.append(f"damaged log kept as {store.mend_log(self.id, start.repairs)}")
        if start.rebase:
            # One record holding the table as loaded: the log alone rebuilds it again.
            base = {"t": "base", **self._snapshot_body()}
            start.notes.append(
                f"old log kept as {store.replace_log(self.id, [base]) or 'nothing: there was none'}"
            )
            self._records = 1
        elif cut_at is None and start.problem is not None:
            stem = "log.torn" if start.torn else "log.bad"
            start.notes.append(
                f"{start.problem}; the rest is kept as {store.cut_log(self.id, start.end, stem)}"
            )
        elif cut_at is not None:
            start.notes.append(f"kept as {store.cut_log(self.id, cut_at, 'log.bad')}")
        self._log = store.open_log(self.id, self._records)
        for seat in self.seats:
            seat.connected = False
        if start.notes:
            log.warning("table %s: %s", self.id, "; ".join(start.notes))
            self.save_snapshot()  # the next load starts from a snapshot that agrees with the log

    @classmethod
    def _from_first_record(
        cls, table_id: str, record: dict[str, Any], clock: Callable[[], float]
    ) -> Table:
        if record["t"] == "base":
            return cls._from_snapshot(table_id, record, clock)
        config = from_plain(GameConfig, record["config"])
        table = cls(
            table_id,
            game_class(config.game)(config),
            [Seat() for _ in range(config.players)],
            clock=clock,
        )
        table.creator = record.get("by")
        table.times = SeatTimes(ClockPolicy.from_record(record.get("policy")), config.players)
        return table

    @classmethod
    def _from_snapshot(
        cls, table_id: str, snap: dict[str, Any], clock: Callable[[], float]
    ) -> Table:
        """A table from a snapshot or a base record (the same fields)."""
        table = cls(
            table_id,
            restore(snap["game"]),
            [from_plain(Seat, s) for s in snap["seats"]],
            clock=clock,
        )
        if len(table.seats) != table.game.players:
            raise ValueError(f"{len(table.seats)} seats for {table.game.players} players")
        table.started = from_plain(bool, snap["started"])
        table.closed = snap.get("closed")
        table.creator = snap.get("creator")
        table.chat = [from_plain(ChatLine, c) for c in snap["chat"]]
        table.times = SeatTimes.from_snapshot(snap, len(table.seats))
        table._held_saved = {int(seat): str(c) for seat, c in snap.get("held", {}).items()}
        table._notes = [(i, Event(text)) for i, text in snap.get("notes", [])]
        return table

    def _apply_saved(self, records: list[dict[str, Any]]) -> tuple[int, str | None]:
        """Apply saved records in order until one cannot be: (how many applied, why not)."""
        for done, record in enumerate(records):
            try:
                recovery.check_record(record, len(self.seats))
                if record["t"] == "act":
                    self.game.act(record["seat"], record["choice"])
                    self.times.charge(record.get("used"))
                    self._held_saved.pop(record["seat"], None)  # the window gave it, or moved on
                if record["t"] == "hold":
                    self._held_saved[record["seat"]] = record["choice"]
                    continue
                at = record.get("at")
                at = at if isinstance(at, (int, float)) and not isinstance(at, bool) else None
                if record["t"] == "act":
                    self.times.decided(record["seat"], self._awaited(), at)
                else:
                    self._apply_record(record)
                    self.times.track(self._awaited(), at)
            except Exception as exc:  # a rules bug or a malformed record: stop, keep the rest
                return done, str(exc) or type(exc).__name__
        last_at = records[-1].get("at") if records else None
        if isinstance(last_at, (int, float)) and not isinstance(last_at, bool):
            self._last_clocks = self.times.running(last_at)  # as they stood (`resume_after`)
        return len(records), None

    # -- seats ------------------------------------------------------------------------------------

    def seat_names(self) -> list[str]:
        """Each seat's name as screens show it: the player's, a bot's by its level ("normal
        bot", numbered when two share one: core/bots.py), "" for a free seat."""
        return seat_names(self.seats)

    def seat_of(self, identity: str | None) -> int | None:
        return seat_index(self.seats, identity)

    def sit(self, identity: str, name: str, seat: int | None = None) -> int:
        """Take a free seat (or a bot's); returns its index. Holding a seat already keeps it."""
        held = self.seat_of(identity)
        if held is not None:
            if seat is not None and seat != held:
                raise IllegalAction("you already hold a seat at this table; leave it first")
            self.set_connected(identity, True)
            return held
        if self.game.result() is not None or self.closed:
            raise IllegalAction("this game is over")
        if seat is None:
            free = [i for i, s in enumerate(self.seats) if s.free]
            if not free:
                raise IllegalAction("no free seat at this table")
            seat = free[0]
        if not 0 <= seat < len(self.seats):
            raise IllegalAction(f"there is no seat {seat}")
        if self.seats[seat].identity is not None:
            raise IllegalAction(f"that seat is taken by {self.seats[seat].name}")
        self.spectators.pop(identity, None)
        self._record(
            {
                "t": "seat",
                "seat": seat,
                "identity": identity,
                "name": clean_text(name, 32),
                "bot": None,
                "log_from": self._log_from(),
            }
        )
        self.seats[seat].connected = True
        self.times.gone_since.pop(seat, None)
        log.info(
            "table %s: %s (%s) sits in seat %d",
            self.id,
            self.seats[seat].name,
            identity,
            seat,
            extra={
                "event": "table-sit",
                "table": self.id,
                "key": identity,
                "player": self.seats[seat].name,
            },
        )
        self._maybe_start()
        self._notify()
        return seat

    def set_bot(self, seat: int, kind: str) -> None:
        """Put a bot in a free seat."""
        if kind not in self.game.bots:
            raise IllegalAction(
                f"no bot {kind!r}; this game has {', '.join(self.game.bots) or 'none'}"
            )
        if not 0 <= seat < len(self.seats) or not self.seats[seat].free:
            raise IllegalAction(f"seat {seat} is not free")
        self._record(
            {
                "t": "seat",
                "seat": seat,
                "identity": None,
                "name": f"{kind} bot",
                "bot": kind,
                "log_from": self._log_from(),
            }
        )
        self._maybe_start()
        self._notify()

    def leave(self, identity: str) -> None:
        """Give the seat up (it becomes free for anyone, or a bot) or stop watching."""
        seat = self.seat_of(identity)
        if seat is None:
            if self.spectators.pop(identity, None) is not None:
                self._notify()
            return
        name = self.seats[seat].name
        self._record({"t": "seat", "seat": seat, "identity": None, "name": "", "bot": None})
        log.info(
            "table %s: %s (%s) leaves seat %d",
            self.id,
            name,
            identity,
            seat,
            extra={"event": "table-leave", "table": self.id, "key": identity, "player": name},
        )
        self._notify()

    def remove_player(self, by: str, seat: int) -> str:
        """The creator frees another seat (a player's or a bot's) before the game starts;
        returns the name that held it."""
        if by != self.creator:
            raise IllegalAction("only the table's creator may remove a player")
        if self.started:
            raise IllegalAction("the game has started: nobody can be removed now")
        if not 0 <= seat < len(self.seats) or self.seats[seat].free:
            raise IllegalAction(f"seat {seat} is free already")
        if self.seats[seat].identity == by:
            raise IllegalAction("that is your own seat: leave it instead")
        name, identity = self.seats[seat].name, self.seats[seat].identity
        self._record({"t": "seat", "seat": seat, "identity": None, "name": "", "bot": None})
        if identity is not None:
            self.spectators[identity] = name  # still at the table's screen: now watching
        log.info(
            "table %s: %s removed from seat %d by its creator",
            self.id,
            name,
            seat,
            extra={"event": "table-remove", "table": self.id, "key": identity, "player": name},
        )
        self._notify()
        return name

    def close_game(self, by: str, reason: str) -> None:
        """End the game early (an operator's call): no more moves, still readable."""
        if self.closed or self.game.result() is not None:
            raise IllegalAction(f"table {self.id} is over already")
        self._record({"t": "close", "by": by, "reason": reason})
        self._notify()

    def mark_removed(self, reason: str) -> None:
        """The table leaves this server (deleted, archived): every screen on it hears why."""
        self.removed = reason
        self._notify()

    def _log_from(self) -> int:
        """Where a new occupant's own log begins: before the start nobody has played the seat,
        so the whole log is theirs; after it, the lines before now were the last occupant's."""
        return len(self.game.events) if self.started else 0

    def set_connected(self, identity: str, connected: bool) -> None:
        seat = self.seat_of(identity)
        if seat is not None and self.seats[seat].connected != connected:
            self.seats[seat].connected = connected
            if connected:
                self.times.gone_since.pop(seat, None)
            else:
                self.times.gone_since[seat] = self._clock()
            self._notify()

    def watch(self, identity: str, name: str) -> None:
        if self.seat_of(identity) is None:
            self.spectators[identity] = clean_text(name, 32)
            self._notify()

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

    def _maybe_start(self) -> None:
        if not self.started and not any(s.free for s in self.seats):
            self._record({"t": "start"})

    # -- play -------------------------------------------------------------------------------------

    def act(
        self, identity: str, choice: str, decision: int | None = None, shown: str | None = None
    ) -> list[Event]:
        """Apply a choice for the seat `identity` holds. `decision` is the seat's decision
        number the client saw, `shown` the stamp of the list it chose from (Prompt.stamp); a
        different one means the screen was stale, and nothing happens."""
        seat = self.seat_of(identity)
        if seat is None:
            raise NotYourTurn("you have no seat at this table")
        if self.seats[seat].stand_in is not None and not self.closed and self.started:
            self.take_back(identity)  # choosing is taking the seat back
        self._deals_in_row = 0
        if shown is not None and self.started and not self.closed:
            # (after the checks _act makes first: a closed table, a game moved on, say so)
            if decision is None or decision == self.game.decision_number(seat):
                self._check_shown(seat, choice, shown)
        if self._holds(seat, choice, decision):
            return []
        return self._act(seat, choice, decision, by=identity)

    def _check_shown(self, seat: int, choice: str, shown: str) -> None:
        """Refuse a choice made from a list that has changed since the player's screen showed
        it (another player's move within the same decision): its number may now mean another
        choice. The stamp is of the seat's own prompt, so it tells nothing hidden."""
        now = next(
            (p for p in self.game.open_prompts()
             if p.seat == seat and any(c.id == choice for c in p.choices)),
            None,
        )  # fmt: skip
        if now is None or now.stamp != shown:
            raise IllegalAction(STALE_LIST)

    def act_soon(
        self,
        identity: str,
        choice: str,
        decision: int | None,
        answered: Callable[[str | None], None],
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

    def _holds(self, seat: int, choice: str, decision: int | None) -> bool:
        """A person's answer to an open reaction window is held until it closes (the answer
        may change meanwhile); a choice that is not an answer to it goes on to the game. The
        last person's answer closes the window at once."""
        window = self._window
        if window is None or self.closed:
            return False
        prompt = windows.window_prompts(self.game).get(seat)
        if prompt is None or not any(c.id == choice for c in prompt.choices):
            return False
        if decision is not None and decision != self.game.decision_number(seat):
            raise IllegalAction("the game moved on since your screen was drawn; choose again")
        # Saved first, as a move is: an answer the player saw held survives a restart or a
        # failover (no view but this seat's changes, and records are never shown to players).
        self._save({"t": "hold", "seat": seat, "choice": choice}, touch=False)
        window.held[seat] = choice
        self._records_changed()
        if window.answered_by(self._persons_asked()):
            self._close_window(self._clock())  # everyone has answered: nobody waits
        else:
            self._notify()  # only this seat's view changes: the others are not sent anything
        return True

    def _plays_for_themselves(self, seat: int) -> bool:
        held = self.seats[seat]
        return held.identity is not None and held.bot is None and held.stand_in is None

    def _persons_asked(self) -> list[int]:
        """The persons an open reaction window waits for (bots answer at once)."""
        return [s for s in windows.window_prompts(self.game) if self._plays_for_themselves(s)]

    def _lone_person(self) -> int | None:
        """The seat of the only person at the table when every other seat is a bot (a guided
        game, `harena play`): no other person is there to learn anything from a window."""
        persons = [s for s in range(len(self.seats)) if self.seats[s].bot is None]
        if len(persons) == 1 and self._plays_for_themselves(persons[0]):
            return persons[0]
        return None

    def _track_window(self, now: float, *, settle: bool = True) -> None:
        """Open a window when a game's reaction window asks a person (for at most the table's
        time), close it once every person asked has answered, forget it once the game has
        none. `settle=False` (loading): nothing is answered or closed, only held."""
        if self._closing:
            return  # _close_window tracks the next window once every answer is in
        if not self.started or self.closed:
            self._window = None
            return
        asked = windows.window_prompts(self.game)
        lone = self._lone_person()
        if settle and lone is not None and lone in asked and windows.only_default(asked[lone]):
            default = asked[lone].default
            assert default is not None
            self._act(lone, default, None, by=None, notify=False)  # tracks the window again
            return
        if not any(self._plays_for_themselves(s) for s in asked):
            self._window = None
        elif self._window is None and self.policy.window > 0:
            self._window = windows.HeldWindow(now + self.policy.window)
        if self._window is not None:
            self._pass_for_who_asked()
            if settle and self._window.answered_by(self._persons_asked()):
                self._close_window(now)  # everyone passes automatically

    def _due_if_answered(self, now: float) -> None:
        """A window every person has answered while nothing may be saved (a load) is due now:
        the clock closes it (server/clock_runner.py)."""
        if self._window is not None and self._window.answered_by(self._persons_asked()):
            self._window.closes = min(self._window.closes, now)

    def pass_automatically(self, passes: Callable[[str], bool]) -> None:
        """`passes(identity)`: whether that player passes reaction windows automatically; a
        window open now (at a load) is answered for them at once too."""
        self._passes = passes
        if self._window is not None:
            self._pass_for_who_asked()
            self._due_if_answered(self._clock())

    def _pass_for_who_asked(self) -> None:
        """A person who passes automatically has "Let it be" held for them the moment a window
        asks them: held like any answer (only their own view shows it), so they may change it
        until the window closes, and nobody else can tell what they hold."""
        assert self._window is not None
        held = self._window.held
        for seat, prompt in windows.window_prompts(self.game).items():
            identity = self.seats[seat].identity
            if (seat not in held and identity is not None and self._plays_for_themselves(seat)
                    and prompt.default is not None and self._passes(identity)):  # fmt: skip
                held[seat] = prompt.default

    def _close_window(self, now: float) -> None:
        """Every person asked has answered, or the window's time is up: each gets their held
        answer, or the default, in seat order (bots have answered already), then the next
        window (if the game opens one) is tracked and everyone hears once."""
        window = self._window
        assert window is not None
        self._closing = True
        try:
            done: set[int] = set()
            for seat in sorted(windows.window_prompts(self.game)):
                prompt = windows.window_prompts(self.game).get(seat)
                if prompt is None or seat in done or not self._plays_for_themselves(seat):
                    continue
                done.add(seat)
                choice = windows.answer_for(prompt, window.held.get(seat))
                by = self.seats[seat].identity if window.held.get(seat) == choice else None
                self._act(seat, choice, None, by=by, notify=False)  # None: the table's default
        finally:
            self._closing = False
            self._window = None
        self._track_window(now)
        self._notify()

    def _act(
        self, seat: int, choice: str, decision: int | None, by: str | None, *, notify: bool = True
    ) -> list[Event]:
        if self.closed:
            raise IllegalAction(f"this table was closed: {self.closed}")
        if not self.started:
            free = sum(s.free for s in self.seats)
            raise IllegalAction(f"the game starts when every seat is taken ({free} free)")
        if decision is not None and decision != self.game.decision_number(seat):
            raise IllegalAction("the game moved on since your screen was drawn; choose again")
        try:
            events = self.game.act(seat, choice)
        except IllegalAction:
            raise
        except Exception:
            self._restore_notes()  # the game was rebuilt from its moves, without our lines
            raise
        now = self._clock()
        record: dict[str, Any] = {"t": "act", "seat": seat, "choice": choice, "by": by, "at": now}
        held = self.seats[seat]
        used = self.times.used(seat, now) if held.stand_in is None and held.bot is None else []
        if used:
            record["used"] = used
        try:
            self._save(record)
        except StoreError:
            # Not saved means not made: take the move back so memory matches the disk.
            self.game = replay(self.game.config, self.game.actions[:-1])
            self._restore_notes()
            raise
        self.times.charge(used)
        self.times.decided(seat, self._awaited(), now)
        self._records_changed()
        self._track_window(now)
        if notify:
            self._notify()
        return events

    # -- time: waits, clocks and stand-ins (core/clocks.py) -------------------------------------

    def _awaited(self) -> list[int]:
        if not self.started or self.closed:
            return []
        return self.game.awaited()

    @property
    def policy(self) -> ClockPolicy:
        return self.times.policy

    @property
    def stand_in_kind(self) -> str | None:
        """The bot kind that plays for a player whose time ran out: the table's, else the game's
        heuristic bot, else its first."""
        if self.policy.bot is not None:
            return self.policy.bot
        kinds = list(self.game.bots)
        return "heuristic" if "heuristic" in kinds else (kinds[0] if kinds else None)

    def deadlines(self) -> dict[int, tuple[float, str]]:
        """seat -> (when a bot stands in, why: "clock" or "away"), for awaited players."""
        if not self.policy.active or self.closed or self.stand_in_kind is None:
            return {}
        found: dict[int, tuple[float, str]] = {}
        for seat in self._awaited():
            held = self.seats[seat]
            if held.identity is not None and held.stand_in is None:
                if (due := self.times.deadline(seat, held.connected)) is not None:
                    found[seat] = due
        return found

    def next_deadline(self) -> float | None:
        """The next time something happens by itself: a reaction window closes, or a bot
        stands in for a player out of time."""
        found = [at for at, _ in self.deadlines().values()]
        if self._window is not None:
            found.append(self._window.closes)
        return min(found) if found else None

    def expire(self, now: float | None = None) -> list[int]:
        """A reaction window whose time is up closes; a bot stands in for every awaited player
        whose time ran out by `now`. Returns the seats stood in for."""
        now = self._clock() if now is None else now
        if self._window is not None and self._window.closes <= now and not self.closed:
            self._close_window(now)
        due = [(seat, why) for seat, (at, why) in sorted(self.deadlines().items()) if at <= now]
        for seat, why in due:
            self._record({"t": "stand_in", "seat": seat, "why": why})
            log.info(
                "table %s: a bot stands in for seat %d (%s)",
                self.id,
                seat,
                why,
                extra={
                    "event": "table-stand-in",
                    "table": self.id,
                    "key": self.seats[seat].identity,
                },
            )
        if due:
            self._notify()
        return [seat for seat, _ in due]

    def take_back(self, identity: str) -> None:
        """The player takes their seat back from the bot standing in for them."""
        seat = self.seat_of(identity)
        if seat is None or self.seats[seat].stand_in is None:
            raise IllegalAction("no bot is playing for you here")
        self._record({"t": "take_back", "seat": seat})
        self._notify()

    def awaiting(self, identity: str) -> float | None:
        """Since when this table has been waiting for `identity` (None: it is not)."""
        seat = self.seat_of(identity)
        waiting = self.times.waiting_since
        if seat is None or seat not in waiting or self.seats[seat].stand_in is not None:
            return None
        if self._window is not None:  # answered, or answered for you: nothing to come back for
            prompt = windows.window_prompts(self.game).get(seat)
            if prompt is not None and seat in self._window.held:
                return None
        since = waiting[seat]
        return self.touched if since is None else since

    @property
    def notes(self) -> list[tuple[int, str]]:
        """The table's own log lines (stand-ins) at their index among the game's events."""
        return [(index, event.text) for index, event in self._notes]

    def _note(self, text: str) -> None:
        """A line of the table's own (a bot standing in) in the game's log, public."""
        event = Event(text)
        self._notes.append((len(self.game.events), event))
        self.game.events.append(event)

    def _restore_notes(self) -> None:
        for index, event in self._notes:
            if index <= len(self.game.events) and event not in self.game.events[index : index + 1]:
                self.game.events.insert(index, event)

    def bots_to_move(self) -> list[int]:
        """Bot seats with an open decision, for whoever drives the bots (server or simulate)."""
        if not self.started or self.closed:
            return []
        waiting = set(self.game.awaited())
        return [
            i
            for i, s in enumerate(self.seats)
            if (s.bot is not None or s.stand_in is not None) and i in waiting
        ]

    def _bot(self, seat: int) -> Bot:
        kind = self.seats[seat].bot or (self.stand_in_kind if self.seats[seat].stand_in else None)
        if kind is None:
            raise IllegalAction(f"seat {seat} is not a bot")
        bot = self._bots.get(seat)
        if bot is None:
            bot = self._bots[seat] = self.game.bots[kind](bot_seed(self.game.config.seed, seat))
        return bot

    def bot_of(self, seat: int) -> Bot:
        """The bot playing `seat` (a thinking one is run off the loop: server/bot_workers.py)."""
        return self._bot(seat)

    def play_bot(self, seat: int, choice: str | None = None) -> list[Event]:
        """The seat's bot decides (or `choice`, which it decided elsewhere) and it is played."""
        bot = self._bot(seat)
        if choice is None:
            choice = decide(self.game, seat, bot, log_from=self.seats[seat].log_from)
        self._deals_in_row = 0
        return self._act(seat, choice, None, by=None)

    def bot_deal(self) -> tuple[int, str] | None:
        """A deal a bot seat makes while nobody waits for it (core/bots.standing_move), or None.
        Only seats a bot holds: a bot standing in for an absent player plays the decisions
        their clock ran out on, and never spends their denarii on deals (docs/server.md)."""
        if not self.started or self.closed or self._deals_in_row >= MAX_DEALS:
            return None
        bots = {i: self._bot(i) for i, s in enumerate(self.seats) if s.bot is not None}
        if not bots:
            return None
        return standing_move(self.game, bots, {i: self.seats[i].log_from for i in bots})

    def may_deal(self) -> bool:
        """Cheap: a bot seat and a moment for deals (worth asking the bots, see bot_deal)."""
        return (self.started and not self.closed and self._deals_in_row < MAX_DEALS
                and any(s.bot is not None for s in self.seats) and self.game.dealing())  # fmt: skip

    def humans_asked(self) -> bool:
        """A player playing for themselves was asked to pay and has not (Game.asked_to_pay):
        bots give them time before moving on (server/bot_runner.py)."""
        if not self.started or self.closed:
            return False
        seats = self.seats
        return any(
            seats[s].bot is None and seats[s].stand_in is None for s in self.game.asked_to_pay()
        )

    def play_bot_step(self, off_loop: Callable[[int], None] | None = None) -> bool:
        """One bot move: a bot's deal if one deals, else the first awaited bot's decision.
        False when no bot has anything to do. With `off_loop`, a bot that thinks (the search
        bot) is not asked here: off_loop(seat) has it think elsewhere and play_bot its choice."""
        deal = self.bot_deal()
        if deal is not None:
            self._deals_in_row += 1
            self._act(deal[0], deal[1], None, by=None)
            return True
        seats = self.bots_to_move()
        if not seats:
            return False
        if off_loop is not None and hasattr(self._bot(seats[0]), "decide"):
            off_loop(seats[0])
            return True
        self.play_bot(seats[0])
        return True

    # -- chat ------------------------------------------------------------------------------------

    def say(self, identity: str, name: str, text: str) -> None:
        text = clean_text(text, CHAT_MAX_CHARS)
        if not text:
            return
        if self.seat_of(identity) is None and identity not in self.spectators:
            raise IllegalAction("sit or watch at this table to chat here")
        self._record({"t": "chat", "at": self._clock(), "name": clean_text(name, 32), "text": text})
        self._notify()

    def say_soon(
        self, identity: str, name: str, text: str, answered: Callable[[str | None], None]
    ) -> None:
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
        return {
            "id": self.id,
            "game": self.game.name,
            "title": self.game.title,
            "status": self.status,
            "options": dict(self.game.config.options),
            "seats": [
                {
                    "name": name,
                    "bot": s.bot,
                    "connected": s.connected or s.bot is not None,
                    "free": s.free,
                }
                | ({"stand_in": s.stand_in} if s.stand_in else {})
                for s, name in zip(self.seats, self.seat_names(), strict=True)
            ],
            "spectators": sorted(self.spectators.values()),
        } | ({"clock": clock} if (clock := self._clock_text()) else {})

    def _clock_text(self) -> str:
        """The table's time settings in words (the lobby's detail line, the table's `?`)."""
        return clocks.describe(self.policy, reaction_windows=self.game.reaction_windows)

    def view_for(self, identity: str | None) -> dict[str, Any]:
        """The table as `identity` may see it: its seat's game view plus the public table."""
        seat = self.seat_of(identity)
        game = self.game.view(seat, log_from=0 if seat is None else self.seats[seat].log_from)
        if self.closed:  # nothing more to choose, nobody to wait for
            game = {**game, "prompts": [], "waiting": []}
        return {
            "table": {
                **self.summary(),
                "you": seat,
                "removed": self.removed,
                "chat": [[c.name, c.text] for c in self.chat[-CHAT_SHOWN:]],
            }
            | self._clock_view()
            | self._window_view(seat),
            "game": game,
        }

    def _window_view(self, seat: int | None) -> dict[str, Any]:
        """An open reaction window: when it closes (the same for everyone) and, to its seat
        alone, the answer the table holds for it."""
        window = self._window
        if window is None:
            return {}
        shown: dict[str, Any] = {"closes": window.closes, "seconds": self.policy.window}
        if seat is not None and seat in window.held:
            shown["answer"] = window.held[seat]
        return {"window": shown}

    def _clock_view(self) -> dict[str, Any]:
        """When each awaited player's time runs out (only at a table with a clock: a table
        without one has nothing here that could change, so its views stay equal)."""
        if not self.policy.active:
            return {}
        return {
            "deadlines": [[seat, at, why] for seat, (at, why) in sorted(self.deadlines().items())],
            "banks": list(self.times.banks) if self.policy.bank > 0 else None,
        }

    def _notify(self) -> None:
        for listener in list(self.listeners):
            try:
                listener(self)
            except Exception:
                log.exception("table %s: a listener failed", self.id)
        # One view per seat (and one for all spectators), not one per subscriber: a seat's
        # sessions and the spectators see the same thing. Subscribers must not change a view.
        # A view equal to the one last sent is not sent again: a step that is hidden from a seat
        # (another's secret choice) then costs that seat nothing, not even a repaint.
        views: dict[int | None, dict[str, Any]] = {}
        for sub in list(self._subscribers):
            try:
                seat = self.seat_of(sub.identity)
                if seat not in views:
                    views[seat] = self.view_for(sub.identity)
                if views[seat] == sub.last_view:
                    continue
                sub.last_view = views[seat]
                sub.callback(views[seat])
            except Exception:
                log.exception("table %s: a subscriber failed; the others still hear", self.id)

    # -- records --------------------------------------------------------------------------------

    def _record(self, record: dict[str, Any]) -> None:
        """Save a table record, then apply it (saving first: an unsaved change never shows)."""
        self._save(record)
        self._apply_record(record)
        self.times.track(self._awaited(), record["at"])
        self._records_changed()
        self._track_window(record["at"])

    def _save(self, record: dict[str, Any], *, touch: bool = True) -> None:
        """Append `record` to the log. `touch=False`: a change only its seat may know of (a
        held answer) leaves `touched` alone, which other nodes and the operator see."""
        record.setdefault("at", self._clock())  # when: waits and clocks are rebuilt from it
        if self._log is not None:
            self._log.append(record)
        self._records += 1
        if touch:
            self.touched = self._clock()

    def _apply_record(self, record: dict[str, Any]) -> None:
        kind = record["t"]
        if kind == "seat":
            seat = self.seats[record["seat"]]
            seat.identity, seat.name, seat.bot = record["identity"], record["name"], record["bot"]
            seat.log_from = record.get("log_from", 0)  # older logs: the whole log, as before
            seat.stand_in = None
            self._bots.pop(record["seat"], None)
            if seat.identity is None:
                seat.connected = False
                self.times.gone_since.pop(record["seat"], None)
        elif kind == "stand_in":
            index, seat = record["seat"], self.seats[record["seat"]]
            seat.stand_in = record["why"]
            self._bots.pop(index, None)
            self.times.ran_out(index, record["why"])
            why = "ran out of time" if record["why"] == "clock" else "is away"
            self._note(
                f"{seat.name} {why}: the {BOT_NAMES.get(self.stand_in_kind or '', 'bot')} plays for them until they take the seat back"
            )
        elif kind == "take_back":
            index, seat = record["seat"], self.seats[record["seat"]]
            seat.stand_in = None
            self._bots.pop(index, None)
            self.times.taken_back(index, record.get("at", self._clock()))
            self._note(f"{seat.name} takes their seat back")
        elif kind == "start":
            self.started = True
        elif kind == "close":
            self.closed = record["reason"]
        elif kind == "chat":
            self.chat.append(ChatLine(record["at"], record["name"], record["text"]))
            del self.chat[:-CHAT_KEPT]
        elif kind != "create":
            raise StoreError(f"unknown table record {kind!r}")

    def _records_changed(self) -> None:
        if self._store is not None and self._records % SNAPSHOT_EVERY == 0:
            self.save_snapshot()

    def save_snapshot(self) -> None:
        if self._store is None:
            return
        try:
            self._store.write_snapshot(self.id, self.snapshot_data())
        except StoreError:
            # The log alone restores everything; a missed snapshot only slows the next load.
            log.exception("table %s: snapshot failed", self.id)

    def snapshot_data(self) -> dict[str, Any]:
        """The snapshot: the table's state, how many records it covers and where they end."""
        return {
            "records": self._records,
            "log_bytes": self._log.size if self._log is not None else None,
            **self._snapshot_body(),
        }

    def _snapshot_body(self) -> dict[str, Any]:
        return {
            "started": self.started,
            "closed": self.closed,
            "creator": self.creator,
            "seats": [
                to_plain(Seat(s.identity, s.name, s.bot, s.log_from, s.stand_in))
                for s in self.seats
            ],
            "chat": [to_plain(c) for c in self.chat],
            "game": self.game.snapshot(),
            "notes": [[index, event.text] for index, event in self._notes],
            **self.times.to_snapshot(),
            **({"held": dict(self._window.held)} if self._window and self._window.held else {}),
        }

    def close(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None


def seat_names(seats: list[Seat]) -> list[str]:
    """Each seat's name as screens show it (see `Table.seat_names`)."""
    bots = bot_seat_names([s.bot for s in seats])
    return [bot or s.name for s, bot in zip(seats, bots, strict=True)]


def seat_index(seats: list[Seat], identity: str | None) -> int | None:
    """Which of `seats` `identity` sits in (None: none, or no identity)."""
    if identity is None:
        return None
    for index, seat in enumerate(seats):
        if seat.identity == identity:
            return index
    return None


def load_tables(store: Store, *, clock: Callable[[], float] = time.time) -> list[Table]:
    """Every saved table. Damage is repaired as far as it can be and logged; a table that
    nothing can rebuild is logged as an error with its files untouched, never deleted."""
    tables = []
    for table_id in store.table_ids():
        try:
            tables.append(Table.load(store.load(table_id), store, clock=clock))
        except StoreError as exc:  # known damage beyond repair: the reason is the whole story
            log.error("table %s could not be loaded: %s", table_id, exc)
        except Exception:
            log.exception("table %s could not be loaded; its files are left untouched", table_id)
    return tables


def clean_text(text: str, limit: int) -> str:
    """Printable, single-line, bounded: what a chat line or a name may hold."""
    kept = "".join(
        ch if unicodedata.category(ch)[0] != "C" else " " for ch in str(text)[: limit * 4]
    )
    return " ".join(kept.split())[:limit]


if TYPE_CHECKING:  # mypy proves a Table is all a TableLike promises (core/table_like.py)

    def _table_is_table_like(table: Table) -> TableLike:
        return table
