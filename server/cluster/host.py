"""The owner's side of a table played from other nodes.

While a node runs a table it answers the requests other nodes' sessions make of it (a move, a
chat line, a seat) on the table's request subject, computes every view itself, and publishes a
seat's view only on that seat's subject (`<prefix>.view.<table>.<seat>`), the spectators' view
once per change (`.spec`), and the table's public facts (lobby summary, seats, waits) in the
registry bucket every node watches. A seat's subject carries exactly the view a session of that
seat would get here, nothing more (tests/server/cluster/test_remote_play.py checks it with the
secrecy checker).
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable
from typing import Any

from nats.js.kv import KV_DEL, KV_OP

from harena.core.engine import IllegalAction
from harena.core.store import StoreError
from harena.core.table import Subscription, Table
from harena.core.table_like import TableLike
from harena.server.cluster import wire
from harena.server.cluster.inbox import Inbox
from harena.server.cluster.link import NatsLink

log = logging.getLogger(__name__)

# The owner's clock when it sent a view (a header, and `now` beside a view answered): the view's
# deadlines are instants on that clock, which the receiving node turns into its own
# (remote.on_local_clock), so a countdown shows the same time left whatever each clock says.
NOW_HEADER = "Harena-Now"


def seat_key(view: dict[str, Any]) -> str:
    you = view["table"]["you"]
    return "spec" if you is None else str(you)


def public_state(
    table: TableLike, node: str, run: str = "", now: float | None = None
) -> dict[str, Any]:
    """What every node may know of a table to list it, find a player's seat and mark whose
    move it is: no view, nothing hidden. `run`: which start of the owner's process (a node
    restarted under the same name is a new owner that knows nothing of the screens). `now`:
    the owner's clock as it wrote this, so a node reading it live can tell how far its own
    clock is from the owner's ("waiting since" is an instant on the owner's clock)."""
    return {
        "owner": node,
        "run": run,
        "now": now,
        "summary": table.summary(),
        "seats": [[s.identity, s.name, s.bot, s.stand_in, s.connected] for s in table.seats],
        "waiting": [[seat, since] for seat, since in table.times.waiting_since.items()],
        "creator": table.creator,
        # Every node lists the table to those who may know it and finds its codes (the
        # registry is the cluster's own: no player reads it).
        "privacy": table.privacy.to_record() if table.privacy is not None else None,
        "started": table.started,
        "closed": table.closed,
        "touched": table.touched,
    }


class TableHost:
    """Serves one node's tables to the other nodes."""

    def __init__(
        self,
        link: NatsLink,
        inbox: Inbox,
        node: str,
        prefix: str,
        *,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.link = link
        self.clock = clock  # the tables' clock on this node
        self.inbox = inbox
        self.node = node
        self.run = secrets.token_hex(6)  # this start of the node's process (public_state)
        # Whether this node holds a table's lease now, and what to do when it finds it does
        # not (the node checks and lets the table go): set by the node.
        self.holds: Callable[[str], bool] = lambda _: True
        self.lapsed: Callable[[str], None] = lambda _: None
        self.prefix = prefix
        self.tables: dict[str, Table] = {}
        self._nats_subs: dict[str, Any] = {}
        # table id -> identity -> (its subscription here, the nodes showing it)
        self._watchers: dict[str, dict[str | None, tuple[Subscription, set[str]]]] = {}
        self._last_spec: dict[str, int] = {}  # table id -> id() of the spectator view last sent
        self.dropped = 0  # malformed messages dropped

    def request_subject(self, table_id: str) -> str:
        return f"{self.prefix}.tbl.{table_id}.req"

    def view_subject(self, table_id: str, key: str) -> str:
        return f"{self.prefix}.view.{table_id}.{key}"

    # -- serving ----------------------------------------------------------------------------------

    def serve(self, table: Table) -> None:
        """Answer for `table` from now on: one subscription per table, however often asked (a
        claim serves it, and so does the lobby's hook the claim fires); a new table object for
        the same id (rebuilt) replaces the old one's subscription, never stands beside it."""
        if self.tables.get(table.id) is table:
            return
        self.stop_serving(table.id)

        self._nats_subs[table.id] = self.link.subscribe(
            self.request_subject(table.id),
            lambda msg: self.inbox.post(lambda: self._handle(table.id, msg)),
        )
        self.tables[table.id] = table
        self._watchers[table.id] = {}
        table.listeners.append(self._changed)
        self._changed(table)

    def stop_serving(self, table_id: str) -> None:
        table = self.tables.pop(table_id, None)
        if table is not None and self._changed in table.listeners:
            table.listeners.remove(self._changed)
        for sub, _ in self._watchers.pop(table_id, {}).values():
            sub.close()
        nats_sub = self._nats_subs.pop(table_id, None)
        if nats_sub is not None:
            self.link.unsubscribe(nats_sub)

    def forget(self, table_id: str) -> None:
        """A table deleted or archived: gone from every node's lobby."""
        self.stop_serving(table_id)
        self._write_registry(table_id, None)

    def _changed(self, table: TableLike) -> None:
        if table.id not in self.tables:
            return
        state = public_state(table, self.node, self.run, self.clock())
        self._write_registry(table.id, wire.pack(state))

    def _write_registry(self, table_id: str, payload: bytes | None) -> None:
        """Put (None: delete) a table's registry entry. Published as a plain message on the
        bucket's subject (a KV bucket is a stream: JetStream stores it), in the order written
        and with this turn's views in one hop to the NATS thread, without waiting for
        JetStream's acknowledgement: a write a move makes used to be a hop and an answer of
        its own, on every move (bench/cluster.py). Nobody waits for it; a put lost while NATS
        is away is written again with the table's next change."""
        subject = f"$KV.{self.prefix}_registry.{table_id}"
        if payload is None:
            self.link.publish(subject, b"", {KV_OP: KV_DEL})
        else:
            self.link.publish(subject, payload)

    # -- requests ---------------------------------------------------------------------------------

    def _handle(self, table_id: str, msg: Any) -> None:
        try:
            op, identity, args, node = wire.request(msg.data)
        except wire.Malformed as exc:
            self.dropped += 1
            log.warning(
                "table %s: dropped a malformed request (%s)",
                table_id,
                exc,
                extra={"event": "cluster-malformed", "table": table_id},
            )
            return
        table = self.tables.get(table_id)
        if table is None or not self.holds(table_id):
            # Not ours (any more): say nothing. The owner answers; a node that lost the lease
            # (paused past it) must not answer beside it, with a refusal or an old view.
            log.info(
                "table %s: %s not answered here (not run here, or its lease lapsed)",
                table_id,
                op,
                extra={"event": "request-not-ours", "table": table_id},
            )
            self.lapsed(table_id)
            return
        answer = self._answer(table, op, identity, args, node)
        if msg.reply:
            self.link.publish(msg.reply, wire.pack(answer))

    def _answer(
        self, table: Table, op: str, identity: str | None, args: dict[str, Any], node: str
    ) -> dict[str, Any]:
        try:
            if op == "ping":  # a node that found us silent asks whether we answer again
                return {"ok": True}
            if op == "view":
                if table.seat_of(identity) is None and not table.watches(identity):
                    raise IllegalAction(f"there is no table {table.id}")
                self._watch(table, identity, node)
                return {"ok": table.view_for(identity), "now": self.clock()}
            if op == "unwatch":
                self._unwatch(table, identity, node)
                return {"ok": None}
            if identity is None:
                raise IllegalAction("who is asking?")
            if op == "act":
                table.act(identity, args["choice"], args["decision"], args["shown"])
                return {"ok": None}
            if op == "say":
                table.say(identity, args["name"], args["text"])
                return {"ok": None}
            if op == "sit":
                seat = table.sit(identity, args["name"], args["seat"])
                self._watch(table, identity, node)
                return {"ok": seat}
            if op == "watch":
                table.watch(identity, args["name"])
                return {"ok": None}
            if op == "leave":
                table.leave(identity)
                return {"ok": None}
            if op == "take_back":
                table.take_back(identity)
                return {"ok": None}
            if op == "remove_player":
                return {"ok": table.remove_player(identity, args["seat"])}
            if op == "release_seat":
                return {"ok": table.release_seat(identity, args["seat"])}
            if op == "rematch":
                table.answer_rematch(identity, bool(args["yes"]))
                return {"ok": None}
            if op == "connected":
                table.set_connected(identity, args["on"])
                return {"ok": None}
            if op == "invite":
                table.invite(identity, args["whom"], args["name"])
                return {"ok": None}
            if op == "add_code":
                return {"ok": table.add_code(identity)}
            if op == "revoke_codes":
                return {"ok": table.revoke_codes(identity)}
            if op == "join_by_code":
                joined = table.join_by_code(identity, args["name"], args["code"])
                if joined is not None:
                    self._watch(table, identity, node)
                return {"ok": joined}
        except IllegalAction as exc:
            return {"error": "illegal", "message": str(exc)}
        except StoreError as exc:
            return {"error": "store", "message": str(exc)}
        except Exception:
            log.exception("table %s: request %s failed", table.id, op)
            return {"error": "internal", "message": "internal error: nothing was changed"}
        return {"error": "internal", "message": f"unknown request {op}"}

    # -- views ------------------------------------------------------------------------------------

    def _watch(self, table: Table, identity: str | None, node: str) -> None:
        """Publish `identity`'s views from now on (the spectators' once, whoever watches)."""
        watchers = self._watchers.setdefault(table.id, {})
        key = identity if table.seat_of(identity) is not None else None
        if key in watchers:
            watchers[key][1].add(node)
            return
        sub = table.subscribe(key, lambda view: self._publish(table.id, view))
        sub.last_view = table.view_for(key)  # the asker gets this one in the answer
        watchers[key] = (sub, {node})

    def screens_elsewhere(self, table_id: str) -> dict[str, set[str]]:
        """node -> the seated people with this table open on that node (asking for its views)."""
        found: dict[str, set[str]] = {}
        for identity, (_, nodes) in self._watchers.get(table_id, {}).items():
            if identity is not None:
                for node in nodes:
                    found.setdefault(node, set()).add(identity)
        return found

    def _unwatch(self, table: Table, identity: str | None, node: str) -> None:
        if identity is not None and identity in table.spectators:
            table.leave(identity)  # their screen closed: no longer watching
        watchers = self._watchers.get(table.id, {})
        for key in {identity, None}:
            if key in watchers:
                sub, nodes = watchers[key]
                nodes.discard(node)
                if not nodes:
                    sub.close()
                    del watchers[key]

    def _publish(self, table_id: str, view: dict[str, Any]) -> None:
        key = seat_key(view)
        if key == "spec":
            if self._last_spec.get(table_id) == id(view):
                return  # the same spectator view, already sent once
            self._last_spec[table_id] = id(view)
        payload = wire.pack(view)
        subject = self.view_subject(table_id, key)
        headers = {NOW_HEADER: repr(self.clock())}
        self.link.publish(subject, payload, headers)
