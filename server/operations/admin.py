"""What operators may do, as commands: one implementation behind the lobby's operator key (`o`)
and `harena admin` on the host (through the admin socket, server/operations/admin_socket.py).

A command is a word and its arguments (`delete 3`, `ban ann`, `notice back at 20:00`); it
returns the text to show, or raises AdminError with a message that says what to type instead.
"""

from __future__ import annotations

import ipaddress
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from harena.core.engine import IllegalAction
from harena.core.plural import counted
from harena.core.store import StoreError
from harena.core.table import clean_text
from harena.core.transfer import TransferError, import_table
from harena.server.operations.operators import OperatorsError

if TYPE_CHECKING:
    from harena.core.lobby import Lobby
    from harena.server.operations.operators import Bans

log = logging.getLogger(__name__)

KICKED_MESSAGE = "harena: an operator closed your session."
BANNED_MESSAGE = "harena: you are banned from this server."
DELETED_REASON = "deleted by an operator"
CLOSED_REASON = "closed by an operator"


class AdminError(Exception):
    """A command that cannot run; the message says why and what would."""


class OperatedSession(Protocol):
    """What a command sees of a live session (server/service/ssh_server.py's HarenaSession)."""

    @property
    def number(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def identity(self) -> str: ...
    @property
    def address(self) -> str: ...
    @property
    def guest(self) -> bool: ...
    def request_exit(self, message: str) -> None: ...


class ClusterCommands(Protocol):
    """The commands only a cluster node runs; one process answers that it is not in one."""

    def nodes_text(self) -> str:
        """`harena admin nodes`; raises AdminError outside a cluster."""
        ...

    def drain(self, args: list[str]) -> str:
        """`harena admin drain NODE` (its arguments); raises AdminError outside a cluster."""
        ...


class OperatedServer(Protocol):
    """What the commands act on: the running server (server/service/ssh_server.py)."""

    @property
    def lobby(self) -> Lobby: ...
    @property
    def bans(self) -> Bans: ...
    @property
    def backend(self) -> ClusterCommands: ...
    def all_sessions(self) -> Sequence[OperatedSession]: ...


@dataclass
class Command:
    usage: str
    help: str
    run: Callable[[AdminCommands, list[str], str, bytes | None], str]
    host_only: bool = False  # needs a file from the host (import): not offered in the lobby


class AdminCommands:
    """The commands, run against one live server. `by` names who ran one (for the log)."""

    def __init__(self, server: OperatedServer) -> None:
        self.server = server

    def run(
        self, argv: list[str], by: str, data: bytes | None = None, *, lobby: bool = False
    ) -> str:
        if not argv:
            argv = ["help"]
        command = COMMANDS.get(argv[0])
        if command is None:
            raise AdminError(f"no command {argv[0]!r}; type help for the list")
        if command.host_only and lobby:
            raise AdminError(f"{argv[0]} runs on the host: harena {argv[0]} FILE")
        said = clean_text(" ".join(argv), 200)
        try:
            text = command.run(self, argv[1:], by, data)
        except (IllegalAction, StoreError, TransferError, OperatorsError, AdminError) as exc:
            log.info(
                "operator %s: %s: refused: %s",
                by,
                said,
                exc,
                extra={"event": "admin", "player": by},
            )
            raise AdminError(str(exc)) from exc
        log.info("operator %s: %s", by, said, extra={"event": "admin", "player": by})
        return text

    # -- the commands -------------------------------------------------------------------------

    def help(self, args: list[str], by: str, data: bytes | None) -> str:
        return "\n".join(f"{c.usage:<18} {c.help}" for c in COMMANDS.values())

    def tables(self, args: list[str], by: str, data: bytes | None) -> str:
        lobby = self.server.lobby
        if not lobby.tables:
            return "no tables"
        lines = []
        for table in sorted(lobby.tables.values(), key=lambda t: (len(t.id), t.id)):
            seats = ", ".join(s.name or "-" for s in table.seats)
            idle = _age(time.time() - table.touched)
            lines.append(
                f"{table.id:<5} {table.game.name:<10} {table.status:<8} touched {idle:<5} ago  {seats}"
            )
        return "\n".join(lines)

    def nodes(self, args: list[str], by: str, data: bytes | None) -> str:
        return self.server.backend.nodes_text()

    def drain(self, args: list[str], by: str, data: bytes | None) -> str:
        return self.server.backend.drain(args)

    def sessions(self, args: list[str], by: str, data: bytes | None) -> str:
        rows = self.server.all_sessions()
        if not rows:
            return "no sessions"
        lines = []
        for s in rows:
            held = self.server.lobby.seat_held_by(s.identity)
            where = f"table {held[0].id}" if held else "-"
            lines.append(f"{s.number:<4} {s.name[:16]:<16} {s.address:<15} {where:<9} {s.identity}")
        return "\n".join(lines)

    def close(self, args: list[str], by: str, data: bytes | None) -> str:
        table_id = one_argument(args, "close TABLE")
        self.server.lobby.close_table(table_id, by, CLOSED_REASON)
        return f"table {table_id} closed: it stays readable with the finished tables"

    def delete(self, args: list[str], by: str, data: bytes | None) -> str:
        table_id = one_argument(args, "delete TABLE")
        self.server.lobby.delete_table(table_id, DELETED_REASON)
        return f"table {table_id} deleted (its files are in deleted/ under the data folder)"

    def kick(self, args: list[str], by: str, data: bytes | None) -> str:
        who = " ".join(args) or _usage("kick SESSION|NAME|FINGERPRINT")
        sessions = self._sessions_of(who)
        for session in sessions:
            session.request_exit(KICKED_MESSAGE)
        return f"closed {counted(len(sessions), 'session')} of {who}"

    def ban(self, args: list[str], by: str, data: bytes | None) -> str:
        who = " ".join(args) or _usage("ban SESSION|NAME|FINGERPRINT|ADDRESS")
        bans = self.server.bans
        if _looks_like_address(who):
            network = bans.ban_address(who, f"by {by}")
            hit = [s for s in self.server.all_sessions() if bans.address_banned(s.address)]
            what = f"address {network}"
        elif who.startswith("SHA256:"):
            bans.ban_key(who, f"by {by}")
            hit = [s for s in self.server.all_sessions() if s.identity == who]
            what = f"key {who}"
        else:
            found = self._sessions_of(who)
            keys = {s.identity for s in found if not s.guest}
            addresses = {s.address for s in found if s.guest}  # a guest has no key to ban
            for key in keys:
                bans.ban_key(key, f"{found[0].name} by {by}")
            networks = sorted(
                bans.ban_address(a, f"guest {found[0].name} by {by}") for a in addresses
            )
            hit = [
                s
                for s in self.server.all_sessions()
                if s.identity in keys or s.address in addresses
            ]
            what = ", ".join(
                [*(f"key {k}" for k in sorted(keys)), *(f"address {n}" for n in networks)]
            )
        for session in hit:
            session.request_exit(BANNED_MESSAGE)
        return f"banned {what}; closed {counted(len(hit), 'session')}"

    def unban(self, args: list[str], by: str, data: bytes | None) -> str:
        what = self.server.bans.unban(one_argument(args, "unban FINGERPRINT|ADDRESS"))
        return f"unbanned {what}"

    def list_bans(self, args: list[str], by: str, data: bytes | None) -> str:
        bans = self.server.bans
        lines = [f"key     {k}  ({note})" for k, note in sorted(bans.keys.items())]
        lines += [f"address {a}  ({note})" for a, note in sorted(bans.addresses.items())]
        return "\n".join(lines) or "nobody is banned"

    def notice(self, args: list[str], by: str, data: bytes | None) -> str:
        self.server.lobby.set_notice(" ".join(args))
        return (
            f"notice: {self.server.lobby.notice}" if self.server.lobby.notice else "notice cleared"
        )

    def import_file(self, args: list[str], by: str, data: bytes | None) -> str:
        store = self.server.lobby.store
        if store is None or data is None:
            raise AdminError("this server saves no tables: nothing to import into")
        table = import_table(store, data)
        self.server.lobby.add_table(table)
        return f"imported as table {table.id} ({table.game.title}, {table.status})"

    # -- finding sessions ---------------------------------------------------------------------

    def _sessions_of(self, who: str) -> list[OperatedSession]:
        """Sessions by number, exact fingerprint or name (any case)."""
        rows = self.server.all_sessions()
        if who.isdigit():
            found = [s for s in rows if s.number == int(who)]
        elif who.startswith(("SHA256:", "guest:")):
            found = [s for s in rows if s.identity == who]
        else:
            found = [s for s in rows if s.name.lower() == who.lower()]
            if len({s.identity for s in found}) > 1:
                raise AdminError(
                    f"several keys are called {who}: use a session number (see sessions)"
                )
        if not found:
            raise AdminError(f"no session {who!r} (see sessions)")
        return found


COMMANDS: dict[str, Command] = {
    "help": Command("help", "this list", AdminCommands.help),
    "tables": Command(
        "tables", "every table: id, game, status, last change, seats", AdminCommands.tables
    ),
    "sessions": Command(
        "sessions", "every session: number, name, address, table, key", AdminCommands.sessions
    ),
    "close": Command("close TABLE", "end a game early; it stays readable", AdminCommands.close),
    "delete": Command(
        "delete TABLE", "take a table off the server (files go to deleted/)", AdminCommands.delete
    ),
    "kick": Command(
        "kick WHO", "close the sessions of a session number, name or key", AdminCommands.kick
    ),
    "ban": Command(
        "ban WHO|ADDRESS", "refuse a key (a guest: its address), an IP or a net", AdminCommands.ban
    ),
    "unban": Command("unban KEY|ADDRESS", "lift a ban", AdminCommands.unban),
    "bans": Command("bans", "the banned keys and addresses", AdminCommands.list_bans),
    "notice": Command(
        "notice [TEXT]", "show TEXT in every lobby; no text clears it", AdminCommands.notice
    ),
    "nodes": Command(
        "nodes", "a cluster's nodes: address, tables, sessions, load", AdminCommands.nodes
    ),
    "drain": Command(
        "drain NODE",
        "move a cluster node's tables elsewhere, close its sessions",
        AdminCommands.drain,
    ),
    "import": Command(
        "import FILE",
        "load a table exported by harena export",
        AdminCommands.import_file,
        host_only=True,
    ),
}


def one_argument(args: list[str], usage: str) -> str:
    if len(args) != 1:
        _usage(usage)
    return args[0]


def _usage(usage: str) -> str:
    raise AdminError(f"usage: {usage}")


def _looks_like_address(text: str) -> bool:
    try:
        ipaddress.ip_network(text, strict=False)
    except ValueError:
        return False
    return not text.isdigit()  # "12" is a session number, not 0.0.0.12


def _age(seconds: float) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds / size:.0f}{unit}"
    return f"{max(seconds, 0):.0f}s"
