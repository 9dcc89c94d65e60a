"""The lobby: every table on this server, who is online, the room's chat and the server notice.

Like a table, the lobby is plain Python with callback subscribers; the server adapts them to its
event loop. Lobby chat is not saved: it is the small talk of whoever is connected now.

A table's life: waiting, playing, then over (or closed by an operator), when it leaves the main
list for the finished one, still readable. A table nobody touched for `archive_idle`'s time moves
to the store's archive (out of memory, files kept); an operator's delete moves it to deleted/.
"""

from __future__ import annotations

import heapq
import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from harena.core.clocks import ClockPolicy
from harena.core.engine import (
    GameConfigError,
    IllegalAction,
    available_games,
    default_players,
    game_class,
)
from harena.core.players import PlayerSettings
from harena.core.privacy import Privacy, is_private_id, new_private_id
from harena.core.private_tables import PrivateTables, marked
from harena.core.ratings import Ratings
from harena.core.review.reviewer import Reviewer
from harena.core.store import Store
from harena.core.table import (
    CHAT_KEPT,
    CHAT_MAX_CHARS,
    CHAT_SHOWN,
    ChatLine,
    Table,
    clean_text,
    load_tables,
)
from harena.core.table import rematch as rematches
from harena.core.table.options import TableOptions
from harena.core.table_like import TableLike

log = logging.getLogger(__name__)

MOVED = "moved to another node"
"""Why a table left this server when another node of a cluster runs it now (`let_go`): its
screens here show it again through that node, in place, instead of closing."""

LobbyListener = Callable[[dict[str, Any]], None]
TurnListener = Callable[[str, bool], None]  # (table id, whether it now waits for you)


class LobbySubscription:
    def __init__(self, lobby: Lobby, callback: LobbyListener, identity: str | None = None) -> None:
        self.lobby = lobby
        self.callback = callback
        self.identity = identity  # whose view it hears (None: what everyone may see)

    def close(self) -> None:
        self.lobby._subscribers.discard(self)


class TurnSubscription:
    """Hears when a table starts or stops waiting for one identity (a turn alert)."""

    def __init__(self, lobby: Lobby, identity: str, callback: TurnListener) -> None:
        self.lobby = lobby
        self.identity = identity
        self.callback = callback

    def close(self) -> None:
        self.lobby._turn_subscribers.get(self.identity, set()).discard(self)


class Lobby:
    def __init__(
        self,
        store: Store | None = None,
        *,
        clock: Callable[[], float] = time.time,
        new_seed: Callable[[], int] = lambda: secrets.randbits(62),
    ) -> None:
        self.store = store
        self.tables: dict[str, TableLike] = {}  # every table listed here
        # Those of `tables` this process runs; the others are a cluster's stand-ins for tables
        # other nodes run (`list_table`). Known by how each came, never asked of a table.
        self.run_here: dict[str, Table] = {}
        self.chat: list[ChatLine] = []
        self._clock = clock
        self._new_seed = new_seed
        self._online: dict[str, tuple[str, int]] = {}  # identity -> (name, open sessions)
        self._subscribers: set[LobbySubscription] = set()
        self._summaries: dict[str, dict[str, Any]] = {}
        self._table_listeners: list[Callable[[TableLike], None]] = []
        self._change_hooks: list[Callable[[], None]] = []
        self.notice = ""  # the operators' message, shown in every lobby
        self.reviewer: Reviewer | None = None
        """Who weighs finished games and gives hints (the server's bot workers); None: nobody."""
        self.notice_channels: tuple[str, ...] = ()  # how the away are told (server/notices/)
        self.guided: dict[str, str] = {}  # table id -> its guide (core/guide.py); not saved
        self.settings = PlayerSettings(store)
        self.ratings = Ratings(store)
        self._turn_subscribers: dict[str, set[TurnSubscription]] = {}
        self._awaited: dict[str, set[str]] = {}  # table id -> identities it waits for
        # identity -> ids of the tables waiting for it (`_awaited` turned round): `awaiting`,
        # asked on every view a screen shows, reads a player's few tables, not every table
        self._awaiting: dict[str, set[str]] = {}
        # In a cluster (server/cluster/): who is online through the other nodes, and where what
        # is said here (chat, the notice, who came and went) goes for the other nodes to hear.
        self.elsewhere: dict[str, str] = {}  # identity -> name
        self.outbox: Callable[[str, dict[str, Any]], None] | None = None
        # Invite-only tables (core/privacy.py), and who may know of each (core/private_tables.py).
        self.private = PrivateTables(self.tables)
        self._table_listeners.append(self._rematch_if_answered)

    @classmethod
    def open(cls, store: Store, *, count_bots: bool = False, **kwargs: Any) -> Lobby:
        """A lobby with every saved table restored; a finished game not yet rated (one that
        ended as the server stopped) is rated now."""
        lobby = cls(store, **kwargs)
        lobby.ratings.count_bots = count_bots
        for loaded in load_tables(store, clock=lobby._clock):
            lobby._run(loaded)
        for table in sorted(lobby.tables.values(), key=_table_number):
            table.rate(lobby.ratings)
        for table in sorted(lobby.run_here.values(), key=_table_number):
            lobby._rematch_if_answered(table)  # the last answer came as the server stopped
        return lobby

    def add_table_listener(self, listener: Callable[[TableLike], None]) -> None:
        """Hear every change at every table, present and future (the bot runner uses this)."""
        self._table_listeners.append(listener)
        for table in self.tables.values():
            table.listeners.append(listener)

    # -- tables ---------------------------------------------------------------------------------

    def create_table(
        self,
        identity: str,
        name: str,
        game: str,
        players: int,
        options: dict[str, str] | None = None,
        *,
        bots: int = 0,
        bot_kind: str = "random",
        bot_kinds: list[str] | None = None,
        sit: bool = True,
        policy: ClockPolicy | None = None,
        seed: int | None = None,
        privacy: Privacy | None = None,
        hints: bool = False,
        table_options: TableOptions | None = None,
        keep_for: str = "",
        keep_with_bot: bool = True,
    ) -> Table:
        """A new table; the creator takes seat 0 (unless `sit` is False) and `bots` bots fill
        the next empty seats, each of `bot_kind`, or of its own level (`bot_kinds`, one per
        bot: "easy", "heuristic", "search", ...). `seed`: a fixed deal (a guided game), else a
        fresh one. `privacy`: invite-only (core/privacy.py), with an id that is no number.
        `hints`: its players may ask the hard bot; then it is never rated. `keep_for`: the name of a player the next seat is kept for (a bot of the
        table's stand-in level holds it meanwhile, unless `keep_with_bot` is False)."""
        keep = self._friend(identity, keep_for) if keep_for else None
        if bots < 0 or bots > players - (1 if sit else 0) - (1 if keep else 0):
            raise GameConfigError(f"{bots} bots do not fit {players} seats")
        kinds = list(bot_kinds) if bot_kinds is not None else [bot_kind] * bots
        if len(kinds) != bots:
            raise GameConfigError(f"{len(kinds)} bot kinds for {bots} bots")
        if not sit and bots == players:
            options = unattended(game, options)
        table = Table.create(
            game,
            players,
            self._new_seed() if seed is None else seed,
            options,
            store=self.store,
            clock=self._clock,
            table_id=self._new_id(private=privacy is not None),
            creator=identity,
            policy=policy,
            privacy=privacy,
            hints=hints,
            table_options=table_options,
        )
        unknown = [kind for kind in kinds if kind not in table.game.bots]
        if unknown:
            table.close()
            raise GameConfigError(f"{table.game.title} has no {unknown[0]} bot")
        self._run(table)
        if sit:
            table.sit(identity, name, 0)
        if keep is not None:
            self._keep(table, identity, keep, keep_with_bot)
        for seat, kind in zip(
            [i for i, s in enumerate(table.seats) if s.free], kinds, strict=False
        ):
            table.set_bot(seat, kind)
        log.info(
            "table %s: %s for %d created by %s (%s)",
            table.id,
            game,
            players,
            name,
            identity,
            extra={"event": "table-created", "table": table.id, "key": identity, "player": name},
        )
        self._summaries[table.id] = table.summary()
        self._notify()  # a new table is news even when nobody sat down at it
        return table

    def _new_id(self, *, private: bool) -> str | None:
        """The id a new table takes (None: the store's next number)."""
        if private:
            return new_private_id(lambda table_id: table_id in self.tables)
        if self.store is not None:
            return None
        return str(sum(1 for t in self.tables if not is_private_id(t)) + 1)

    def _friend(self, identity: str, name: str) -> tuple[str, str]:
        """(key, name) of the player called `name`, for a kept seat; refused if nobody is."""
        friend = self.settings.identity_named(name)
        if friend is None:
            raise GameConfigError(f"nobody on this server is called {name}")
        if friend == identity:
            raise GameConfigError("that is you: a seat is kept for someone else")
        return friend, str(self.settings.get(friend, "name"))

    def _keep(self, table: Table, by: str, friend: tuple[str, str], with_bot: bool) -> None:
        """Keep the first free seat for `friend`; its bot (if any) is the table's stand-in."""
        seat = next(i for i, s in enumerate(table.seats) if s.free)
        table.keep_seat(by, seat, *friend)
        if table.privacy is not None:  # an invite-only table: the friend is invited too
            table.invite(by, *friend)
        if with_bot and table.stand_in_kind is not None:
            table.set_bot(seat, table.stand_in_kind)

    def people_met(self, identity: str) -> list[str]:
        """The names a seat may be kept for by `identity`: everyone online and everyone who sat
        at a table with them here (a guest, who holds no name, is never among them)."""
        named = self.settings.identity_named
        met = set(self.online_names().values())
        for table in self.tables.values():
            if table.seat_of(identity) is not None:
                met.update(s.name for s in table.seats if s.identity not in (None, identity))
        met.discard(self._online.get(identity, ("", 0))[0])
        return sorted((n for n in met if named(n) not in (None, identity)), key=str.casefold)

    def kept_for(self, identity: str) -> list[tuple[str, int]]:
        """(table id, seat) of every running table keeping a seat for `identity`."""
        return [
            (t.id, index)
            for t in sorted(self.tables.values(), key=_table_number)
            if t.status in ("waiting", "playing")
            for index, s in enumerate(t.seats)
            if s.kept_for == identity
        ]

    # -- rematch ----------------------------------------------------------------------------------

    def _rematch_if_answered(self, table: TableLike) -> None:
        """Once every player of a finished game run here has answered "play again?", open the
        rematch (core/table/rematch.py), once."""
        held = self.run_here.get(table.id)
        if held is not table or not held.rematch.answers or held.rematch.next_table is not None:
            return  # (asked at every change of every table: nothing computed while play goes on)
        if not rematches.ready(held):
            return
        seats = rematches.next_seats(held)
        if seats is None:
            held._record({"t": "rematched", "table": ""})  # nobody plays again
            return
        try:
            new = self.start_rematch(held, seats)
        except (GameConfigError, IllegalAction):
            log.exception("table %s: the rematch could not be opened", held.id)
            return
        held._record({"t": "rematched", "table": new.id})
        held._notify()

    def start_rematch(self, old: Table, seats: list[rematches.NextSeat]) -> Table:
        """The rematch of `old`: created as any table (so a cluster shares it as any other),
        with everything the creator chose carried whole (game options, clocks, table options),
        then `seats` filled: kept seats first, bots, then the players (the last one starts it).
        Its creator: the old one if they play again, else the first player in its seats."""
        players = [s for s in seats if s.identity is not None]
        creator = next((s for s in players if s.identity == old.creator), players[0])
        assert creator.identity is not None
        new = self.create_table(
            creator.identity,
            creator.name,
            old.game.name,
            len(seats),
            dict(old.game.config.options),
            sit=False,
            policy=old.policy,
            privacy=(  # the same guests; a code is the old table's alone
                Privacy(old.privacy.watchers, dict(old.privacy.invited))
                if old.privacy is not None
                else None
            ),
            hints=old.hints,
            table_options=old.table_options,
        )
        for index, seat in enumerate(seats):
            if seat.kept_for is not None:
                new.keep_seat(creator.identity, index, seat.kept_for, seat.kept_name)
        for index, seat in enumerate(seats):
            if seat.bot is not None:
                new.set_bot(index, seat.bot)
        for index, seat in enumerate(seats):
            if seat.identity is not None:
                new.sit(seat.identity, seat.name, index)
        log.info(
            "table %s: rematch of table %s",
            new.id,
            old.id,
            extra={"event": "table-rematch", "table": new.id},
        )
        return new

    def table(self, table_id: str) -> TableLike:
        try:
            return self.tables[table_id]
        except KeyError:
            raise IllegalAction(f"there is no table {table_id}") from None

    # -- privacy: who may know of a table (core/privacy.py) -------------------------------------

    def knows(self, identity: str | None, table: TableLike) -> bool:
        """Whether `identity` may know `table` exists (core/private_tables.py)."""
        return self.private.knows(identity, table)

    def table_for(self, identity: str | None, table_id: str) -> TableLike:
        """Table `table_id` as `identity` may ask for it: a private table they may not know
        of is refused word for word as a missing one."""
        table = self.table(table_id)
        if not self.private.knows(identity, table):
            raise IllegalAction(f"there is no table {table_id}")
        return table

    def invitations(self, identity: str) -> list[TableLike]:
        """Tables in play `identity` is invited to and not seated at, newest first."""
        return sorted(self.private.invitations(identity), key=_newest_first)

    def table_with_code(self, code: str) -> TableLike | None:
        """The table in play whose valid share code `code` is, or None."""
        return self.private.with_code(code)

    def identity_named(self, name: str) -> str | None:
        """Who holds `name` on this server (online, or a key that kept it), or None."""
        wanted = name.casefold()
        for identity, shown in self._online_names().items():
            if shown.casefold() == wanted:
                return identity
        return self.settings.identity_named(name)

    def seat_held_by(self, identity: str) -> tuple[TableLike, int] | None:
        """The running table where `identity` holds a seat, so a reconnect goes straight back."""
        for table in sorted(self.tables.values(), key=_newest_first):
            seat = table.seat_of(identity)
            if seat is not None and table.status in ("waiting", "playing"):
                return table, seat
        return None

    def _run(self, table: Table) -> None:
        self.run_here[table.id] = table
        self._add(table)

    def _add(self, table: TableLike) -> None:
        self.tables[table.id] = table
        self.private.note(table)
        table.listeners.append(self._changed)
        table.listeners.extend(self._table_listeners)
        table.pass_automatically(lambda identity: bool(self.settings.get(identity, "auto_pass")))
        for identity in self._online:
            table.set_connected(identity, True)
        self._summaries[table.id] = table.summary()
        self._set_awaited(table.id, _awaited_identities(table))

    def _changed(self, table: TableLike) -> None:
        if self.tables.get(table.id) is not table:
            return  # gone from this server (deleted, archived): nothing to list or wait for
        self._turns_changed(table)
        guests_changed = self.private.note(table)
        summary = table.summary()
        before = self._summaries.get(table.id)
        if before != summary or guests_changed:
            self._summaries[table.id] = summary
            if before is not None and before["status"] != summary["status"]:
                log.info(
                    "table %s: %s -> %s",
                    table.id,
                    before["status"],
                    summary["status"],
                    extra={"event": f"table-{summary['status']}", "table": table.id},
                )
                if summary["status"] == "over":
                    table.rate(self.ratings)  # (a table run elsewhere is rated where it runs)
            self._notify()

    def close_table(self, table_id: str, by: str, reason: str) -> TableLike:
        """End a game early; it stays readable with the finished tables."""
        table = self.table(table_id)
        table.close_game(by, reason)
        log.info(
            "table %s closed by %s",
            table_id,
            by,
            extra={"event": "table-closed", "table": table_id, "key": by},
        )
        return table

    def delete_table(self, table_id: str, reason: str) -> None:
        """Take a table off this server: its sessions are told, its files go to deleted/."""
        self._remove(table_id, reason)
        if self.store is not None:
            self.store.delete(table_id)
        log.info(
            "table %s %s", table_id, reason, extra={"event": "table-deleted", "table": table_id}
        )

    def archive_idle(self, max_idle: float) -> list[str]:
        """Move every table untouched for `max_idle` seconds, and open on no screen, to the archive."""
        if self.store is None:
            return []
        now = self._clock()
        idle = [
            t.id
            for t in self.tables.values()
            if now - t.touched > max_idle and not t.subscriber_count
        ]
        for table_id in idle:
            self._remove(table_id, "archived")
            self.store.archive(table_id)
            log.info(
                "table %s archived: untouched for %.0f days",
                table_id,
                max_idle / 86400,
                extra={"event": "table-archived", "table": table_id},
            )
        return idle

    def add_table(self, table: Table) -> None:
        """A table made elsewhere (an import) joins the lobby."""
        self._run(table)
        log.info(
            "table %s added (%s, %s)",
            table.id,
            table.game.name,
            table.status,
            extra={"event": "table-imported", "table": table.id},
        )
        self._notify()

    def _remove(self, table_id: str, reason: str) -> TableLike:
        table = self.table(table_id)
        del self.tables[table_id]
        self.private.forget(table_id)
        self.run_here.pop(table_id, None)
        self._summaries.pop(table_id, None)
        for identity in self._set_awaited(table_id, set()):  # it waits for nobody any more
            for sub in list(self._turn_subscribers.get(identity, ())):
                sub.callback(table_id, False)
        table.mark_removed(reason)
        table.close()
        self._notify()
        return table

    def list_table(self, table: TableLike) -> None:
        """A table run elsewhere joins the list: a cluster's stand-in for it
        (server/cluster/remote.py)."""
        self._add(table)
        self._notify()

    def replace_table(self, table: Table) -> None:
        """The same table, run here from now on (in a cluster, it was run by another node):
        screens showing the old stand-in keep it; new ones get `table`."""
        self.tables.pop(table.id, None)
        self._run(table)
        self._notify()

    def let_go(self, table_id: str, reason: str) -> None:
        """The table leaves this server with its saved records untouched (in a cluster another
        node runs it now); its screens here hear why."""
        self._remove(table_id, reason)

    def set_notice(self, text: str) -> None:
        """The server notice every lobby shows; empty clears it."""
        self.notice = clean_text(text, CHAT_MAX_CHARS)
        self._tell("notice", {"text": self.notice})
        self._notify()

    # -- people ---------------------------------------------------------------------------------

    def connect(self, identity: str, name: str) -> None:
        """A session opened; counted, so one key connected twice stays connected until both end."""
        _, sessions = self._online.get(identity, (name, 0))
        self._online[identity] = (clean_text(name, 32), sessions + 1)
        for table in self.tables.values():
            table.set_connected(identity, True)
        self._tell("online", {})
        self._notify()

    def disconnect(self, identity: str, *, guest: bool = False) -> None:
        """A session ended. A guest's seats are freed: nobody can ever come back as that guest."""
        name, sessions = self._online.get(identity, ("", 1))
        if sessions > 1:
            self._online[identity] = (name, sessions - 1)
            return
        self._online.pop(identity, None)
        for table in self.tables.values():
            if guest:
                table.leave(identity)
            else:
                table.set_connected(identity, False)
                table.spectators.pop(identity, None)
        self._tell("online", {})
        self._notify()

    def sessions_of(self, identity: str) -> int:
        return self._online.get(identity, ("", 0))[1]

    def say(self, identity: str, name: str, text: str) -> None:
        text = clean_text(text, CHAT_MAX_CHARS)
        if text:
            self.chat.append(ChatLine(self._clock(), clean_text(name, 32), text))
            self._tell("chat", {"name": self.chat[-1].name, "text": text})
            del self.chat[:-CHAT_KEPT]
            self._notify()

    # -- views and subscribers ------------------------------------------------------------------

    def view(self, identity: str | None = None) -> dict[str, Any]:
        """What the lobby shows `identity`: every public table, and the private ones they may
        know of (marked). None: only what everyone may see."""
        return self._view_for(identity, self._public_view())

    def _view_for(
        self,
        identity: str | None,
        public: dict[str, Any],
        knowers: dict[str, list[TableLike]] | None = None,
    ) -> dict[str, Any]:
        """`public` with the private tables `identity` may know of; `public` itself when there
        are none (the view most sessions share, built once per change)."""
        private = self.private.known_to(identity, knowers)
        if not private:
            return public
        shown = sorted(
            (marked(self._summaries[t.id], t, identity) for t in private), key=_summary_order
        )
        # (both in listing order already: merged, not sorted again, for each such session)
        listed = list(
            heapq.merge([*public["tables"], *public["finished"]], shown, key=_summary_order)
        )
        return public | {
            "tables": [t for t in listed if t["status"] in ("waiting", "playing")],
            "finished": [t for t in listed if t["status"] not in ("waiting", "playing")],
        }

    def _public_view(self) -> dict[str, Any]:
        listed = [
            self._summaries[t.id]
            for t in sorted(self.tables.values(), key=_listing_order)
            if t.id not in self.private.ids
        ]
        return {
            "tables": [t for t in listed if t["status"] in ("waiting", "playing")],
            "finished": [t for t in listed if t["status"] not in ("waiting", "playing")],
            "notice": self.notice,
            "games": [
                {
                    "name": g.name,
                    "title": g.title,
                    "min_players": g.min_players,
                    "max_players": g.max_players,
                    "default_players": default_players(g.name),  # the form starts here
                    "bots": list(g.bots),
                    "windows": g.reaction_windows,  # the form offers a reaction window's time
                    "options": [
                        {
                            "name": o.name,
                            "label": o.label,
                            "choices": list(o.choices),
                            "default": o.default,
                            "help": o.help,
                            "multi": o.multi,
                            "warn_above": o.warn_above,
                        }
                        for o in g.options
                    ],
                }
                for g in available_games()
            ],
            "online": sorted(self._online_names().values()),
            "online_ratings": self._online_ratings(),
            "chat": [[c.name, c.text] for c in self.chat[-CHAT_SHOWN:]],
        }

    # -- turns: whose move it is, across tables -------------------------------------------------

    def subscribe_turns(self, identity: str, callback: TurnListener) -> TurnSubscription:
        """`callback(table_id, waits)` whenever a table starts (True) or stops (False) waiting
        for `identity`'s decision."""
        sub = TurnSubscription(self, identity, callback)
        self._turn_subscribers.setdefault(identity, set()).add(sub)
        return sub

    def awaiting(self, identity: str, *, here: bool = False) -> list[tuple[str, float]]:
        """(table id, waiting since) of every table waiting for `identity`, longest wait first.
        The instants are the clock of the process running each table: they name a wait the
        same on every node (a notice's ledger keys waits by them). `here`: on this process's
        clock instead, to show how long a wait has been."""
        tables = [self.tables[t] for t in self._awaiting.get(identity, ())]
        found = [
            (t.id, since - t.clock_shift if here else since)
            for t in tables
            if (since := t.awaiting(identity)) is not None
        ]
        return sorted(found, key=lambda pair: (pair[1], pair[0]))

    def _set_awaited(self, table_id: str, identities: set[str]) -> set[str]:
        """Record whom `table_id` waits for now (nobody: forget it); returns whom it waited for."""
        before = self._awaited.pop(table_id, set())
        if identities:
            self._awaited[table_id] = identities
        for identity in before - identities:
            tables = self._awaiting[identity]
            tables.discard(table_id)
            if not tables:
                del self._awaiting[identity]
        for identity in identities - before:
            self._awaiting.setdefault(identity, set()).add(table_id)
        return before

    def _turns_changed(self, table: TableLike) -> None:
        now = _awaited_identities(table)
        before = self._awaited.get(table.id, set())
        if now == before:
            return
        self._set_awaited(table.id, now)
        for identity in now ^ before:
            for sub in list(self._turn_subscribers.get(identity, ())):
                try:
                    sub.callback(table.id, identity in now)
                except Exception:
                    log.exception("a turn subscriber failed; the others still hear")

    def _online_names(self) -> dict[str, str]:
        return {**self.elsewhere, **{i: name for i, (name, _) in self._online.items()}}

    def online_names(self) -> dict[str, str]:
        """identity -> name of everyone online, here or through another node of a cluster."""
        return self._online_names()

    def online_here(self) -> dict[str, str]:
        """identity -> name of everyone with a session on this server."""
        return {i: name for i, (name, _) in self._online.items()}

    def _tell(self, kind: str, what: dict[str, Any]) -> None:
        if self.outbox is not None:
            try:
                self.outbox(kind, what)
            except Exception:
                log.exception("the other nodes could not be told of %s", kind)

    def hear(self, kind: str, what: dict[str, Any]) -> None:
        """What another node's lobby said (see `outbox`): shown here too, not told again."""
        if kind == "chat":
            name, text = clean_text(what["name"], 32), clean_text(what["text"], CHAT_MAX_CHARS)
            self.chat.append(ChatLine(self._clock(), name, text))
            del self.chat[:-CHAT_KEPT]
        elif kind == "notice":
            self.notice = clean_text(what["text"], CHAT_MAX_CHARS)
        elif kind == "online":
            elsewhere = {str(i): clean_text(n, 32) for i, n in what["people"].items()}
            if elsewhere == self.elsewhere:
                return  # (refreshed, not changed: no lobby is drawn again)
            self.elsewhere = elsewhere
        self._notify()

    def _online_ratings(self) -> list[list[Any]]:
        """[name, {game: rating}] of everyone online, by name (an unrated player: {})."""
        out = []
        for identity, name in self._online_names().items():
            rated = {
                g: round(r.value)
                for g in self.ratings.games
                if (r := self.ratings.of(identity, g)) is not None
            }
            out.append([name, rated])
        return sorted(out, key=lambda pair: pair[0])

    def subscribe(self, callback: LobbyListener, identity: str | None = None) -> LobbySubscription:
        """`callback(view)` after every change, with the view `identity` may see."""
        sub = LobbySubscription(self, callback, identity)
        self._subscribers.add(sub)
        return sub

    @property
    def subscriber_count(self) -> int:
        return len(self._subscribers)

    def on_change(self, hook: Callable[[], None]) -> None:
        """Call `hook()` on every change a subscriber would hear, without the lobby's view
        (a cluster node offering new tables): building the view for it cost each node a view
        per change at any table, with no screen to show it."""
        self._change_hooks.append(hook)

    def _notify(self) -> None:
        for hook in self._change_hooks:
            try:
                hook()
            except Exception:
                log.exception("a lobby change hook failed; the subscribers still hear")
        if not self._subscribers:
            return
        view = self._public_view()
        knowers = self.private.knowers() if self.private.ids else {}
        for sub in list(self._subscribers):
            try:
                sub.callback(self._view_for(sub.identity, view, knowers))
            except Exception:
                log.exception("a lobby subscriber failed; the others still hear")

    def close(self) -> None:
        for table in self.tables.values():
            table.close()


def _awaited_identities(table: TableLike) -> set[str]:
    """The players a table waits for now (not those a bot stands in for)."""
    found = set()
    for seat in table.times.waiting_since:
        held = table.seats[seat]
        if held.identity is not None and held.stand_in is None:
            found.add(held.identity)
    return found


def _table_number(table: TableLike) -> tuple[int, str]:
    return (int(table.id), table.id) if table.id.isdigit() else (0, table.id)


def _newest_first(table: TableLike) -> tuple[int, str]:
    number, name = _table_number(table)
    return (-number, name)


def _summary_order(summary: dict[str, Any]) -> tuple[bool, int, str]:
    """`_listing_order` of a table's summary."""
    table_id = str(summary["id"])
    number = int(table_id) if table_id.isdigit() else 0
    return (summary["status"] not in ("waiting", "playing"), -number, table_id)


def _listing_order(table: TableLike) -> tuple[int, int, str]:
    """Tables still being played or waiting first, newest first; finished ones last."""
    number, name = _table_number(table)
    return (table.status not in ("waiting", "playing"), -number, name)


def unattended(game: str, options: dict[str, str] | None) -> dict[str, str]:
    """The options of a table of bots alone: the game's `unattended_options` wherever the
    creator left the default (Spartacus: a round limit, as nobody there could stop it)."""
    given = dict(options or {})
    defaults = {spec.name: spec.default for spec in game_class(game).options}
    for name, value in game_class(game).unattended_options.items():
        if given.get(name, defaults.get(name)) == defaults.get(name):
            given[name] = value
    return given
