"""A table run by another node, as this node's lobby and screens use a `Table`.

It mirrors the table's public facts from the registry (for the lobby list, seats and "your
move" marks), receives a seat's views on that seat's subject only while a session here shows
that seat, and sends every choice to the owner, answering the screen only once the owner has
(and so JetStream has) accepted it. Its `game` is a read-only copy rebuilt from the stream, for
the history and replay screens.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from harena.core.engine import Event, Game, IllegalAction
from harena.core.privacy import Privacy, may_know, may_watch
from harena.core.store import StoreError
from harena.core.table import Seat, Table, seat_index, seat_names
from harena.core.table_like import Answered, Subscriber, TableLike
from harena.server.cluster import wire
from harena.server.cluster.host import NOW_HEADER, seat_key

if TYPE_CHECKING:
    from harena.core.bots import Bot
    from harena.core.ratings import Ratings
    from harena.server.cluster.node import ClusterNode

log = logging.getLogger(__name__)

REQUEST_TIMEOUT = 5.0
UNREACHABLE = "the table cannot be reached now: nothing was changed; try again shortly"
"""Said to a player (after "Error: ", within 80 columns) when a request was never delivered
(NATS is away, or no node serves the table: it is moving between nodes)."""
UNANSWERED = "no answer yet: it may have been done; your screen will show it"
"""Said when a request went out and no answer came back (the owner was killed or paused
mid-request, NATS went away): it may have been made, so the screen asks for the table's view
until it gets it, and shows what is true."""
STALE = "the game moved on since your screen was drawn"
"""The start of the owner's refusal of a choice made on an old screen (core/table/play.py)."""
RETRY_AFTER = 1.0  # seconds between asks of a table's node that did not answer


class ClusterUnavailable(StoreError, IllegalAction):
    """The table's node or the cluster's storage cannot be reached: nothing was changed (an
    IllegalAction too, so the screen shows the reason)."""


@dataclass
class _Times:
    """The part of `SeatTimes` the lobby reads."""

    waiting_since: dict[int, float | None] = field(default_factory=dict)


def on_local_clock(view: dict[str, Any], owner_now: object, now: float) -> dict[str, Any]:
    """The view with its deadlines moved from the owner's clock (which read `owner_now` when it
    sent the view) to this node's (reading `now`): the time left is what crosses, so a wall clock
    minutes off on either machine neither stretches nor cuts a countdown shown here. A view
    without deadlines (or from an owner that did not say its time) is shown as it came."""
    deadlines = view["table"].get("deadlines")
    if not deadlines or not isinstance(owner_now, (int, float)) or isinstance(owner_now, bool):
        return view
    shift = now - owner_now
    moved = [[seat, at + shift, why] for seat, at, why in deadlines]
    return {**view, "table": {**view["table"], "deadlines": moved}}


def _header_time(headers: dict[str, str] | None) -> float | None:
    try:
        return float(headers[NOW_HEADER]) if headers else None
    except (KeyError, ValueError):
        return None


class RemoteSubscription:
    def __init__(self, table: RemoteTable, identity: str | None, callback: Subscriber) -> None:
        self.table = table
        self.identity = identity
        self.callback = callback
        self.key = table.key_of(identity)
        self.last_view: dict[str, Any] | None = None

    def close(self) -> None:
        self.table._unsubscribe(self)


class RemoteTable:
    def __init__(self, node: ClusterNode, table_id: str, state: dict[str, Any]) -> None:
        self.node = node
        self.id = table_id
        self.removed: str | None = None
        self.spectators: dict[str, str] = {}
        self.listeners: list[Callable[[TableLike], None]] = []
        self.times = _Times()
        self._subscribers: set[RemoteSubscription] = set()
        self._views: dict[str, dict[str, Any]] = {}  # seat key -> the last view received
        self._nats_subs: dict[str, Any] = {}
        self._copy: tuple[float, Table] | None = None
        self.update(state, notify=False)

    # -- the mirrored public facts ----------------------------------------------------------------

    def update(self, state: dict[str, Any], *, notify: bool = True) -> None:
        # A new owner, or the same node restarted, knows nothing of the screens here: they ask
        # it for their views again and say again that their players are connected.
        owner = (state["owner"], state.get("run", ""))
        owner_changed = getattr(self, "_owner_run", owner) != owner
        self._owner_run = owner
        self.owner: str = state["owner"]
        self._summary: dict[str, Any] = state["summary"]
        self.seats = [Seat(i, n, b, 0, s, c) for i, n, b, s, c in state["seats"]]
        self.times.waiting_since = {int(seat): since for seat, since in state["waiting"]}
        self.creator: str | None = state["creator"]
        self.privacy: Privacy | None = Privacy.from_record(state.get("privacy"))
        self.started: bool = state["started"]
        self.closed: str | None = state["closed"]
        self.touched: float = state["touched"]
        if notify:
            for sub in list(self._subscribers):
                key = self.key_of(sub.identity)
                if key != sub.key or owner_changed:
                    self._resubscribe(sub, key)
            if owner_changed:
                for identity in {s.identity for s in self._subscribers}:
                    if identity is not None and self.seat_of(identity) is not None:
                        self._tell("connected", identity, on=True)
            for listener in list(self.listeners):
                try:
                    listener(self)
                except Exception:
                    log.exception("table %s: a listener failed", self.id)

    def summary(self) -> dict[str, Any]:
        return self._summary

    @property
    def status(self) -> str:
        return str(self._summary["status"])

    def seat_names(self) -> list[str]:
        return seat_names(self.seats)

    def seat_of(self, identity: str | None) -> int | None:
        return seat_index(self.seats, identity)

    def key_of(self, identity: str | None) -> str:
        seat = self.seat_of(identity)
        return "spec" if seat is None else str(seat)

    def awaiting(self, identity: str) -> float | None:
        seat = self.seat_of(identity)
        if seat is None or seat not in self.times.waiting_since or self.seats[seat].stand_in:
            return None
        since = self.times.waiting_since[seat]
        return self.touched if since is None else since

    @property
    def clock_shift(self) -> float:
        """How far the owner's clock is ahead of ours, as last heard (see `Table.clock_shift`)."""
        return self.node.clock_offset(self.owner)

    # Bots, clocks, ratings and automatic passes belong to the owner: nothing to do here.
    def bots_to_move(self) -> list[int]:
        return []

    def play_bot_step(self, off_loop: Callable[[int], None] | None = None) -> bool:
        return False

    def bot_of(self, seat: int) -> Bot:
        raise IllegalAction(f"table {self.id}'s bots play on node {self.owner}")

    def play_bot(self, seat: int, choice: str | None = None) -> list[Event]:
        raise IllegalAction(f"table {self.id}'s bots play on node {self.owner}")

    def expire(self, now: float | None = None) -> list[int]:
        return []

    def rate(self, ratings: Ratings) -> None:
        pass

    def pass_automatically(self, passes: Callable[[str], bool]) -> None:
        pass

    def may_deal(self) -> bool:
        return False

    def humans_asked(self) -> bool:
        return False

    def next_deadline(self) -> float | None:
        return None

    @property
    def subscriber_count(self) -> int:
        return len(self._subscribers)

    # -- the game, read back from the stream (history, replay) -------------------------------------

    @property
    def game(self) -> Game:
        return self._read_copy().game

    @property
    def notes(self) -> list[tuple[int, str]]:
        return self._read_copy().notes

    def _read_copy(self, timeout: float | None = None) -> Table:
        if self._copy is None or self._copy[0] != self.touched:
            loaded = (
                self.node.tables.read(self.id)
                if timeout is None
                else self.node.tables.read(self.id, timeout=timeout)
            )
            self._copy = (self.touched, Table.rebuild(self.id, loaded.snapshot, loaded.records))
        return self._copy[1]

    # -- views --------------------------------------------------------------------------------------

    def view_for(self, identity: str | None) -> dict[str, Any]:
        """The last view received for that seat while a screen here listens to it (kept up to
        date by the owner), else a fresh one from the owner."""
        key = self.key_of(identity)
        view = self._views.get(key) if key in self._nats_subs else None
        return view if view is not None else self._first_view(identity)

    def subscribe(self, identity: str | None, callback: Subscriber) -> RemoteSubscription:
        sub = RemoteSubscription(self, identity, callback)
        self._subscribers.add(sub)
        fresh = sub.key not in self._nats_subs
        self._listen(sub.key)  # first: no view published from here on is missed
        if fresh or sub.key not in self._views:
            try:
                self._views[sub.key] = self._first_view(identity)
            except IllegalAction:  # (ClusterUnavailable) nothing is left listening for it
                self._unsubscribe(sub)
                raise
        sub.last_view = self._views[sub.key]
        return sub

    def _first_view(self, identity: str | None) -> dict[str, Any]:
        """The owner's view (which also asks it to publish this seat's views from now on);
        while the owner cannot answer (it died and nobody took the table yet), the view the
        stream's records give, and the owner is asked again until it answers."""
        try:
            answer = self._ask_answer("view", identity)
            return on_local_clock(dict(answer["ok"]), answer.get("now"), self.node._clock())
        except IllegalAction:
            log.info("table %s: its node did not answer; showing the stream's copy", self.id)
            self.node.later(RETRY_AFTER, lambda: self._ask_again(identity))
            try:  # (not the 30 s a history may take to read: this node's loop waits)
                return self._read_copy(REQUEST_TIMEOUT).view_for(identity)
            except StoreError as exc:
                raise ClusterUnavailable(f"table {self.id} cannot be shown now: {exc}") from exc

    def _ask_again(self, identity: str | None) -> None:
        key = self.key_of(identity)
        if self.removed or not any(s.key == key for s in self._subscribers):
            return

        def answered(answer: dict[str, Any]) -> None:
            if "ok" in answer:
                self._received(
                    key, on_local_clock(answer["ok"], answer.get("now"), self.node._clock())
                )
            else:
                self.node.later(RETRY_AFTER, lambda: self._ask_again(identity))

        self.node.remote_request(self.id, "view", identity, {}, answered)

    def refresh(self) -> None:
        """Ask the owner for every view shown here again (after NATS came back: views sent
        meanwhile were lost, and the owner may be another node that knows nothing of them)."""
        asked: set[str] = set()
        for sub in list(self._subscribers):
            if sub.key not in asked:
                asked.add(sub.key)
                self._ask_again(sub.identity)

    def _unsubscribe(self, sub: RemoteSubscription) -> None:
        self._subscribers.discard(sub)
        if not any(s.key == sub.key for s in self._subscribers):
            self._stop_listening(sub.key)
            self._tell("unwatch", sub.identity)

    def _resubscribe(self, sub: RemoteSubscription, key: str) -> None:
        old, sub.key = sub.key, key
        if not any(s.key == old for s in self._subscribers):
            self._stop_listening(old)
        self._listen(key)

        self._ask_again(sub.identity)

    def _listen(self, key: str) -> None:
        if key not in self._nats_subs:
            self._nats_subs[key] = self.node.listen(
                self.node.host.view_subject(self.id, key),
                lambda data, headers: self._arrived(key, data, headers),
            )

    def _stop_listening(self, key: str) -> None:
        nats_sub = self._nats_subs.pop(key, None)
        self._views.pop(key, None)
        if nats_sub is not None:
            self.node.unlisten(nats_sub)

    def _arrived(self, key: str, data: bytes, headers: dict[str, str] | None = None) -> None:
        try:
            view = wire.unpack(data)
            if seat_key(view) != key:
                raise wire.Malformed(f"a view for {seat_key(view)} on {key}'s subject")
            owner_now = _header_time(headers)
            view = on_local_clock(view, owner_now, self.node._clock())
            self.node.heard_clock(self.owner, owner_now)
        except (wire.Malformed, KeyError, TypeError, ValueError) as exc:
            log.warning("table %s: dropped a malformed view (%s)", self.id, exc)
            return
        self._received(key, view)

    def _received(self, key: str, view: dict[str, Any]) -> None:
        self._views[key] = view
        for sub in list(self._subscribers):
            if sub.key == key and sub.last_view != view:
                sub.last_view = view
                try:
                    sub.callback(view)
                except Exception:
                    log.exception("table %s: a subscriber failed", self.id)

    def mark_removed(self, reason: str) -> None:
        self.removed = reason
        for sub in list(self._subscribers):
            if sub.last_view is not None:
                table = {**sub.last_view["table"], "removed": reason}
                try:
                    sub.callback({**sub.last_view, "table": table})
                except Exception:
                    log.exception("table %s: a subscriber failed", self.id)

    def close(self) -> None:
        for key in list(self._nats_subs):
            self._stop_listening(key)

    # -- what a player does: asked of the owner -----------------------------------------------------

    def act(
        self, identity: str, choice: str, decision: int | None = None, shown: str | None = None
    ) -> list[Event]:
        self._ask("act", identity, choice=choice, decision=decision, shown=shown)
        return []

    def act_soon(
        self,
        identity: str,
        choice: str,
        decision: int | None,
        answered: Answered,
        shown: str | None = None,
    ) -> None:
        """Send a choice to the owner without waiting for it: `answered(None)` once the owner
        has it recorded, `answered(why)` if it was refused or not answered. A screen's key
        goes this way, so this node's loop (every other session on it) never waits on the
        owner's round trip, nor for the 5 s of an owner that is paused or gone."""
        self._send(
            "act", identity, {"choice": choice, "decision": decision, "shown": shown}, answered
        )

    def say_soon(self, identity: str, name: str, text: str, answered: Answered) -> None:
        """`say` without waiting, as `act_soon`: a line of table chat."""
        self._send("say", identity, {"name": name, "text": text}, answered)

    def _send(
        self,
        op: str,
        identity: str,
        args: dict[str, Any],
        answered: Answered,
    ) -> None:
        def heard(answer: dict[str, Any]) -> None:
            if "ok" in answer:
                answered(None)
                return
            why = str(answer.get("message", UNREACHABLE))
            if why == UNANSWERED or why.startswith(STALE) or answer.get("error") == "store":
                # What the owner holds is not what this screen shows, or not known: fetch it.
                self._ask_again(identity)
            answered(why)

        self.node.remote_request(self.id, op, identity, args, heard, timeout=REQUEST_TIMEOUT)

    def say(self, identity: str, name: str, text: str) -> None:
        self._ask("say", identity, name=name, text=text)

    def sit(self, identity: str, name: str, seat: int | None = None) -> int:
        return int(self._ask("sit", identity, name=name, seat=seat))

    def watch(self, identity: str, name: str) -> None:
        if not self.knows(identity):
            raise IllegalAction(f"there is no table {self.id}")
        self._ask("watch", identity, name=name)
        self.spectators[identity] = name

    # -- privacy: decided here from the registry's copy, changed by the owner ----------------------

    def knows(self, identity: str | None) -> bool:
        return may_know(self.privacy, self.creator, self.seat_of(identity) is not None, identity)

    def watches(self, identity: str | None) -> bool:
        return may_watch(self.privacy, self.creator, self.seat_of(identity) is not None, identity)

    def invite(self, by: str, identity: str, name: str) -> None:
        self._ask("invite", by, whom=identity, name=name)

    def add_code(self, by: str) -> str:
        return str(self._ask("add_code", by))

    def revoke_codes(self, by: str) -> int:
        return int(self._ask("revoke_codes", by))

    def join_by_code(self, identity: str, name: str, code: str) -> int | None:
        seat = self._ask("join_by_code", identity, name=name, code=code)
        return None if seat is None else int(seat)

    def leave(self, identity: str) -> None:
        watching = self.spectators.pop(identity, None) is not None
        if watching or self.seat_of(identity) is not None:
            self._ask("leave", identity)

    def take_back(self, identity: str) -> None:
        self._ask("take_back", identity)

    def remove_player(self, by: str, seat: int) -> str:
        return str(self._ask("remove_player", by, seat=seat))

    def release_seat(self, by: str, seat: int) -> str:
        return str(self._ask("release_seat", by, seat=seat))

    def answer_rematch(self, identity: str, yes: bool) -> None:
        self._ask("rematch", identity, yes=yes)

    def close_game(self, by: str, reason: str) -> None:
        raise IllegalAction(f"table {self.id} runs on node {self.owner}: close it there")

    def set_connected(self, identity: str, connected: bool) -> None:
        if self.seat_of(identity) is not None:
            self._tell("connected", identity, on=connected)

    def _ask(self, op: str, identity: str | None, **args: Any) -> Any:
        return self._ask_answer(op, identity, **args)["ok"]

    def _ask_answer(self, op: str, identity: str | None, **args: Any) -> dict[str, Any]:
        """The owner's whole answer (`ok`, and `now` beside a view); raises if it refused."""
        answer = self.node.ask(self.id, op, identity, args, REQUEST_TIMEOUT, owner=self.owner)
        if "ok" in answer:
            return answer
        if answer.get("error") == "illegal":
            raise IllegalAction(str(answer.get("message")))
        raise ClusterUnavailable(str(answer.get("message", "the table could not be reached")))

    def _tell(self, op: str, identity: str | None, **args: Any) -> None:
        self.node.remote_request(self.id, op, identity, args, None)


if TYPE_CHECKING:  # mypy proves a stand-in is all a TableLike promises (core/table_like.py)

    def _remote_table_is_table_like(table: RemoteTable) -> TableLike:
        return table
