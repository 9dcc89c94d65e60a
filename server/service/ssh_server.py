"""`harena serve`: the asyncssh listener, who a connection is, and the limits around sessions.

One process, one event loop: every connection gets an `AppSession` hosting its own `HarenaApp`,
and all of them share one `Lobby` (and so every table) in memory.

Identity: any public key is welcome and its SHA256 fingerprint is the player (the key that
completed authentication, not merely the first one offered). A client with no key gets in as a
guest through keyboard-interactive (a fresh identity per connection, so a guest cannot reclaim a
seat). `allow` (an authorized_keys file) closes the server to listed keys only, guests included.
"""

from __future__ import annotations

import asyncio
import importlib
import itertools
import logging
import time
import uuid
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncssh

from harena.core.commands import (
    NEEDS_TERMINAL,
    Command,
    CommandRefused,
    JoinCode,
    Rename,
    ShowReview,
    command_text,
    parse_command,
)
from harena.core.table import clean_text
from harena.server.common.limits import (
    CodeGuard,
    ConnectionCounter,
    InputRateLimiter,
    ServerLimits,
    StartupSlots,
)
from harena.server.common.log_safe import printable
from harena.server.hosting import gc_policy
from harena.server.hosting.textual_pins import patch
from harena.server.notices.delivery import NoticeConfig, NoticeRunner
from harena.server.operations.admin import AdminCommands, AdminError
from harena.server.operations.admin_socket import AdminSocket, socket_path
from harena.server.operations.metrics import NO_METRICS, Metrics, ServerMetrics
from harena.server.operations.metrics_http import MetricsAddress, MetricsEndpoint
from harena.server.operations.operators import BANNED_KEY_MESSAGE, Bans
from harena.server.runners.bot_runner import BotRunner
from harena.server.runners.bot_workers import BotWorkers
from harena.server.runners.clock_runner import ClockRunner
from harena.server.runners.reviews import Reviews
from harena.server.service import command_replies
from harena.server.service.backend import choose_backend
from harena.server.transport.driver import SSHDriver
from harena.server.transport.hostkey import fingerprint, load_or_create_host_key
from harena.server.transport.session import (
    LISTEN_OPTIONS,
    AppSession,
    SessionInfo,
    live_session_count,
    shutdown_all,
)
from harena.server.transport.ssh_address import SshAddress, reached_address

if TYPE_CHECKING:
    from harena.server.cluster.node import ClusterNode
    from harena.server.cluster.options import ClusterSettings

log = logging.getLogger(__name__)

INPUT_WINDOW = 16 * 1024
"""Bytes a session's client may send before the server has read them (the SSH channel window;
asyncssh's default is 2 MiB). While a session's input waits (its event budget, its share of the
loop), asyncssh keeps what arrives as one buffer entry per packet: a client typing one byte per
packet made ~120 bytes of memory per byte sent, 5 MB a minute and 2 MiB of window deep
(bench/hostile.py --scenario toggle). Typing needs far less; a paste of more waits its turn."""

GUEST_PREFIX = "guest:"
IDLE_CHECK_EVERY = 60.0
IDLE_MESSAGE = "harena: disconnected after {minutes} idle minutes as a spectator."
SHUTDOWN_MESSAGE = "harena: the server is stopping; every table is saved, your seat is kept."
TAKEN_OVER_MESSAGE = "harena: your key took this seat over from another session."
BANNED_ADDRESS_MESSAGE = "harena: your address is banned from this server"
ARCHIVE_CHECK_EVERY = 3600.0
BUSY_MESSAGE = "the server is full, try again later"
EVICTED_MESSAGE = "too many logins waiting from your address"

ACCEPTED_ENV = ("TERM", "LANG", "COLORTERM")
"""Environment variables a session keeps (plus LC_*): all the server reads. The rest is
refused: asyncssh would keep every variable sent, whatever its size, for the channel's life."""
MAX_ENV_VARS = 16
MAX_ENV_VALUE = 256

ENCRYPTION_ALGS = [
    "aes128-gcm@openssh.com",
    "aes256-gcm@openssh.com",
    "aes128-ctr",
    "aes192-ctr",
    "aes256-ctr",
]
"""Ciphers offered, without chacha20-poly1305: the client picks the cipher, and OpenSSH and
asyncssh both pick chacha20 when it is offered, yet asyncssh encrypts a packet with it in ~43 us
(a cipher object made per packet) against ~7 us for AES-GCM and ~12 us for AES-CTR with
OpenSSH's default umac-64-etm (what OpenSSH then picks). Every screen update is two packets per
player, so at a table of ten chacha20 cost ~1.5 ms of the server's ~25 ms per move
(`bench/ssh_load.py` table10: CPU per move 24.6 -> 22.9 ms). Every OpenSSH since 6.2 speaks
AES-GCM and AES-CTR; all of these are current, unbroken ciphers."""


@dataclass
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 2222
    keys_dir: Path = Path("keys")
    data_dir: Path | None = None  # None: play without saving (tests, local tries)
    allow_file: Path | None = None
    limits: ServerLimits = field(default_factory=ServerLimits)
    bot_delay: float = 0.8
    bot_seconds: float = 1.0  # a search bot's budget per decision, thought in a worker process
    bot_workers: int = 2  # worker processes for search bots (0: they think on the loop)
    operators: frozenset[str] = frozenset()  # key fingerprints (server/operations/operators.py)
    archive_after: float = 30 * 86400  # seconds untouched before a table is archived; 0: never
    rate_bot_games: bool = False  # games with bots count for ratings
    notices: NoticeConfig = field(default_factory=NoticeConfig)  # for players who are away
    cluster: ClusterSettings | None = (
        None  # a cluster node (server/cluster/options.py); None: one process
    )
    reuse_port: bool = False  # SO_REUSEPORT: `--workers` share one port
    public_address: SshAddress | None = None  # what players type after ssh; None: what they reached
    metrics: MetricsAddress | None = None  # where Prometheus scrapes /metrics; None: off


FIRST_RUN_IMPORTS = (
    "textual.drivers.linux_driver",
    "textual.layouts.factory",
    "textual.layouts.horizontal",
    "textual.layouts.stream",
    "textual.pilot",
)
"""What Textual imports only when its first app runs (its driver class, layouts, `run_async`)."""


def load_screens() -> None:
    """Import the screens, games and boards and patch Textual before anyone connects.

    The first session imported them (~100 modules, ~0.1 s of CPU and ~3 MB) while its player
    and everyone connecting with them waited; now the server's start pays, and the modules are
    among what `gc_policy` freezes before the first connection."""
    from harena.core.engine import available_games
    from harena.server.hosting.textual_fixes import install
    from harena.tui import app, terminal  # noqa: F401  (imported for their side effect)
    from harena.tui.boards import load_builtin_boards

    for module in FIRST_RUN_IMPORTS:
        importlib.import_module(module)
    install()
    available_games()  # the games' own modules, as the lobby lists them
    load_builtin_boards()


class HarenaSession(AppSession):
    """AppSession plus what the server needs around it: the input rate limit, the lobby's
    online count, idle spectators and take-over by the same key."""

    def __init__(
        self,
        server: HarenaServer,
        identity: str,
        guest: bool,
        address: str = "",
        on_close: Callable[[], None] | None = None,
        reached: SshAddress | None = None,
    ) -> None:
        session = weakref.ref(self)  # the factory is kept by the session: strong, a cycle

        def make_app(info: SessionInfo) -> Any:
            live = session()
            assert live is not None  # only a live session makes its app
            return server.make_app(info, live)

        super().__init__(
            make_app,
            identity=identity,
            max_write_buffer=server.config.limits.max_write_buffer,
            input_events=server.config.limits.input_events,
            input_event_burst=server.config.limits.input_event_burst,
            loop_share=server.config.limits.loop_share,
        )
        self.server = server
        self.identity = identity
        self.guest = guest
        self.address = address
        self.reached = reached or server.public_address(None)
        """How the player reaches the server: the commands it tells them to type name it."""
        self.number = next(server.session_numbers)  # what `harena admin sessions` lists
        limits = server.config.limits
        self._limiter = InputRateLimiter(limits.input_rate, limits.input_burst)
        self.last_input = time.monotonic()
        self._idle_timer: asyncio.TimerHandle | None = None
        self._on_close = on_close
        self.display_name = ""
        """The name others see: the SSH user name, marked if another key uses it (`name_for`);
        set when the app is made."""
        self.command: Command | None = None
        """What `ssh host COMMAND` asked for (core/commands.py); None: the lobby."""
        self._renamed: str | None = None  # what `rename NAME` prints once done
        self._key_at: float | None = None  # the first key since the last frame (perf_counter)
        self._review: asyncio.Future[None] | None = None  # `review N` being written

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        if self._on_close is not None:
            on_close, self._on_close = self._on_close, None
            on_close()

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.last_input = time.monotonic()
        if self._key_at is None:
            self._key_at = time.perf_counter()
        data = self._limiter.admit(data)
        if data:
            super().data_received(data, datatype)

    def _send(self, data: bytes) -> None:
        super()._send(data)
        key_at, self._key_at = self._key_at, None
        self.server.metrics.frame_sent(len(data), key_at)

    def _driver_started(self, driver: SSHDriver) -> None:
        if self.server.metrics is not NO_METRICS:
            driver.on_paint = self.server.metrics.screen_built
        super()._driver_started(driver)

    @property
    def name(self) -> str:
        """The name listings and operators use: the one others see (before the app is made,
        the SSH user name, printable)."""
        return (
            self.display_name or clean_text(self.info.username if self.info else "", 32) or "player"
        )

    def refuse_command(self, command: str) -> str | None:
        try:
            self.command = parse_command(
                command, command_replies.game_names(), self.reached.command()
            )
        except CommandRefused as refused:
            log.info("refusing the command %r of %s", printable(command[:80]), self.identity)
            return str(refused)
        return None

    def reply_without_app(self) -> str | None:
        if self.command is None:
            return None
        if self._renamed is not None:
            return self._renamed
        return command_replies.reply(
            self.server.lobby, self.identity, self.command, time.time(), self.reached
        )

    def no_terminal_message(self) -> str:
        if isinstance(self.command, NEEDS_TERMINAL):
            again = self.reached.command(command_text(self.command), terminal=True)
            return f"harena: this command opens a table: connect with {again}"
        return super().no_terminal_message()

    def session_started(self) -> None:
        if isinstance(self.command, ShowReview) and self._refusal is None:
            self._review = asyncio.ensure_future(self._print_review(self.command))
            return
        if isinstance(self.command, NEEDS_TERMINAL):
            self.refuse(
                command_replies.check_start(
                    self.server.lobby, self.identity, self.command, self.reached
                )
            )
        if isinstance(self.command, JoinCode):
            self.refuse(
                command_replies.check_join(
                    self.server.lobby,
                    self.identity,
                    self.command,
                    self.server.code_guard,
                    self.address,
                )
            )
        if isinstance(self.command, Rename):
            done, said = command_replies.rename(
                self.server.lobby, self.identity, self.command.name, guest=self.guest
            )
            if done:
                self._renamed = said
            else:
                self.refuse(said)
        super().session_started()
        if self.task is None:
            return  # refused (no PTY, exec, subsystem) or failed to start
        self.server.session_opened(self)
        self.task.add_done_callback(lambda _task: self.server.session_closed(self))
        self._schedule_idle_check()

    async def _print_review(self, command: ShowReview) -> None:
        """`review N`: printed once the search bot's part is in (or why not, on stderr)."""
        from harena.tui.terminal import utf8_terminal

        chan = self._chan
        env = dict(chan.get_environment()) if chan is not None else {}
        unicode = utf8_terminal(env, self._term_type or "")  # plain ASCII for LANG=C
        told: list[int] = []  # the tenths of the work told so far, on stderr

        def progress(fraction: float) -> None:
            tenth = min(10, int(fraction * 10))
            if chan is None or chan.is_closing() or (told and told[-1] >= tenth):
                return
            if not told and tenth == 10:
                return  # weighed before: nothing to wait for
            told.append(tenth)
            chan.write_stderr(f"\rthe search bot is weighing the decisions: {tenth * 10}%".encode())

        try:
            done, said = await command_replies.review(
                self.server.lobby,
                self.identity,
                command,
                self.reached,
                unicode=unicode,
                on_progress=progress,
            )
        except Exception:
            log.exception("the review of table %s failed", command.table_id)
            done, said = False, f"harena: the review of table {command.table_id} failed"
        if told and chan is not None and not chan.is_closing():
            chan.write_stderr(b"\r\n")  # the progress line stays, ended
        if done:
            self._close_with_reply(said)
        else:
            self._close_with_message(said, status=1)

    def _schedule_idle_check(self) -> None:
        every = min(IDLE_CHECK_EVERY, self.server.config.limits.idle_timeout / 2)
        self._idle_timer = asyncio.get_running_loop().call_later(every, self._idle_check)

    def _idle_check(self) -> None:
        self._idle_timer = None
        if self.task is None or self.task.done():
            return
        timeout = self.server.config.limits.idle_timeout
        spectator = self.server.lobby.seat_held_by(self.identity) is None
        if spectator and time.monotonic() - self.last_input > timeout:
            log.info("closing idle spectator session of %s", self.identity)
            self.request_exit(IDLE_MESSAGE.format(minutes=round(timeout / 60)))
            return
        self._schedule_idle_check()

    def cancel_timers(self) -> None:
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None


def accepts_env(name: bytes, value: bytes, kept: int) -> bool:
    """Whether a session keeps an environment variable the client sent (`kept` already kept)."""
    if kept >= MAX_ENV_VARS or len(value) > MAX_ENV_VALUE:
        return False
    try:
        text = name.decode("ascii")
    except UnicodeDecodeError:
        return False
    return text in ACCEPTED_ENV or (text.startswith("LC_") and len(text) <= 32)


def bound_environment(chan: asyncssh.SSHServerChannel[Any]) -> asyncssh.SSHServerChannel[Any]:
    """Make `chan` keep only the environment the server reads (asyncssh has no hook for env
    requests: its handler is replaced on this channel alone)."""

    channel = weakref.ref(chan)  # the handler is kept by the channel: strong, a cycle

    def process_env_request(packet: Any) -> bool:
        name, value = packet.get_string(), packet.get_string()
        packet.check_end()
        chan = channel()
        if chan is None:
            return False
        env = chan._env
        if name not in env and not accepts_env(name, value, len(env)):
            return False
        if len(value) > MAX_ENV_VALUE:
            return False
        env[name] = value
        return True

    patch(chan, "_process_env_request", process_env_request)
    return chan


def _nothing_more() -> bool:
    """A closed connection's packet handler: no packet is handled."""
    return False


class PlayerConnection(asyncssh.SSHServer):
    """One SSH connection: the caps on connections and channels, and who is connecting.

    Counted while logging in: a startup slot (`StartupSlots`: the oldest pending login of an
    address gives way to a new one) and the global cap. Once logged in: the per-address cap
    and the per-identity cap, and at most `max_channels` sessions on the connection."""

    def __init__(self, server: HarenaServer) -> None:
        self.server = server
        self.address = ""
        self.conn: asyncssh.SSHServerConnection | None = None
        self.counted_total = False
        self.counted_address = False
        self.counted_identity = False
        self.key: asyncssh.SSHKey | None = None
        self.method = ""
        self.identity = ""
        self.guest = False
        self.channels = 0
        self.transport: Any = None  # the TCP transport under the connection

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.transport = getattr(conn, "_transport", None)
        peer = conn.get_extra_info("peername") or ("?", 0)
        self.address = str(peer[0])
        where = {"address": self.address}
        log.info(
            "connection from %s port %s", self.address, peer[1], extra={"event": "connect", **where}
        )
        server = self.server
        server.metrics.connection()
        if not server.all_connections.try_open("*"):
            server.refused["max_connections"] += 1
            log.warning(
                "refusing %s: %d connections already", self.address, server.all_connections.limit
            )
            conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, BUSY_MESSAGE)
            return
        self.counted_total = True
        for evicted in server.startups.admit(self, self.address):
            server.refused["max_startups"] += 1
            assert isinstance(evicted, PlayerConnection)
            log.warning("dropping a login still pending from %s for a newer one", evicted.address)
            evicted.drop(EVICTED_MESSAGE)

    def drop(self, reason: str) -> None:
        if self.conn is not None:
            self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, reason)

    def connection_lost(self, exc: Exception | None) -> None:
        server = self.server
        server.startups.done(self)
        if self.counted_total:
            server.all_connections.close("*")
            self.counted_total = False
        if self.counted_address:
            server.connections.close(self.address)
            self.counted_address = False
        if self.counted_identity:
            server.identities.close(self.identity)
            self.counted_identity = False
        if self.conn is not None:
            # asyncssh keeps its packet handler, a method of the connection, to the end: a
            # cycle that only a (deep) collection would free, with the connection's ciphers
            # and buffers. Nothing is read from a closed connection.
            patch(self.conn, "_recv_handler", _nothing_more)
        self.conn = None
        # asyncio's socket transport keeps its read callback, a method of itself, to the end:
        # a cycle with its socket and addresses. asyncssh aborted it already (no read comes).
        transport, self.transport = self.transport, None
        if (
            transport is not None
            and transport.is_closing()
            and hasattr(transport, "_read_ready_cb")
        ):
            transport._read_ready_cb = None
        reason = f": {printable(str(exc))}" if exc is not None else ""
        log.info(
            "connection from %s closed%s",
            self.address,
            reason,
            extra={"event": "disconnect", "address": self.address, "key": self.identity or None},
        )

    def begin_auth(self, username: str) -> bool:
        self.server.startups.engage(self)
        if self.server.bans.address_banned(self.address):
            self.server.refused["banned_address"] += 1
            # Here, not at connect: only once keys are exchanged can the client read why.
            log.warning(
                "refusing %s: banned address",
                self.address,
                extra={"event": "refused", "address": self.address},
            )
            if self.conn is not None:
                self.conn.disconnect(
                    asyncssh.DISC_HOST_NOT_ALLOWED_TO_CONNECT, BANNED_ADDRESS_MESSAGE
                )
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        allowed = self.server.allowed_keys
        operator = fingerprint(key) in self.server.config.operators  # always admitted
        if allowed is not None and not operator and allowed.validate(key, "", self.address) is None:
            return False
        if self.server.bans.key_banned(fingerprint(key)):
            self.server.refused["banned_key"] += 1
            # Refused at once, with the reason: falling back to a guest login would let it in.
            log.warning(
                "refusing %s: banned key %s",
                self.address,
                fingerprint(key),
                extra={"event": "refused", "address": self.address, "key": fingerprint(key)},
            )
            if self.conn is not None:
                self.conn.disconnect(
                    asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, BANNED_KEY_MESSAGE
                )
            return False
        # Called for every key offered and again for the signed attempt that succeeds: the last
        # call before auth_completed is the key that proved itself.
        self.key, self.method = key, "publickey"
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return self.server.allowed_keys is None

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self.key, self.method = None, "guest"
        return True  # guests need no password: they get a fresh identity instead

    def auth_completed(self) -> None:
        server = self.server
        server.startups.done(self)
        if self.method == "publickey" and self.key is not None:
            self.identity = fingerprint(self.key)
        else:
            self.identity, self.guest = f"{GUEST_PREFIX}{uuid.uuid4().hex[:12]}", True
        if not server.connections.try_open(self.address):
            server.refused["max_per_ip"] += 1
            log.warning("refusing %s: too many connections from that address", self.address)
            self.drop("too many connections from your address")
            return
        self.counted_address = True
        if not server.identities.try_open(self.identity):
            server.refused["max_per_key"] += 1
            log.warning("refusing %s: too many connections of %s", self.address, self.identity)
            self.drop("too many connections with your key")
            return
        self.counted_identity = True
        where = {"address": self.address, "key": self.identity}
        operator = " (operator)" if self.identity in server.config.operators else ""
        log.info(
            "%s authenticated as %s%s",
            self.address,
            self.identity,
            operator,
            extra={"event": "login", **where},
        )

    def session_requested(self) -> tuple[asyncssh.SSHServerChannel[Any], HarenaSession] | bool:
        if not self.counted_identity:
            return False
        if self.channels >= self.server.config.limits.max_channels:
            self.server.refused["max_channels"] += 1
            log.warning(
                "refusing a session from %s: %d open on its connection", self.address, self.channels
            )
            return False
        assert self.conn is not None
        self.channels += 1
        chan = bound_environment(self.conn.create_server_channel(window=INPUT_WINDOW))
        session = HarenaSession(
            self.server,
            self.identity,
            self.guest,
            self.address,
            on_close=self._channel_closed,
            reached=self.server.public_address(self.conn),
        )
        return chan, session

    def _channel_closed(self) -> None:
        self.channels -= 1

    def connection_requested(self, *args: Any) -> bool:
        return False  # no port forwarding

    def server_requested(self, *args: Any) -> bool:
        return False  # no remote port forwarding

    def unix_connection_requested(self, *args: Any) -> bool:
        return False

    def unix_server_requested(self, *args: Any) -> bool:
        return False


class HarenaServer:
    """The listening server and what its sessions share."""

    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.host_key = load_or_create_host_key(config.keys_dir)
        self.allowed_keys = (
            asyncssh.read_authorized_keys(str(config.allow_file)) if config.allow_file else None
        )
        self.admin = (
            AdminSocket(self, socket_path(config.data_dir)) if config.data_dir is not None else None
        )
        if self.admin is not None:
            self.admin.check_free()  # before any table is opened
        self.backend = choose_backend(config.cluster, config.data_dir)
        self.host_key = self.backend.host_key(self.host_key)
        self.lobby = self.backend.open_lobby(count_bots=config.rate_bot_games)
        self.lobby.ratings.count_bots = config.rate_bot_games
        self.lobby.private.is_operator = lambda identity: identity in self.config.operators
        self.code_guard = CodeGuard()  # `join CODE` tries, per key and per address
        self.bans = self.backend.bans(Bans.load(config.data_dir))
        self.session_numbers: Iterator[int] = itertools.count(1)
        self._archive_timer: asyncio.TimerHandle | None = None
        limits = config.limits
        self.connections = ConnectionCounter(limits.max_per_ip)
        self.all_connections = ConnectionCounter(limits.max_connections)
        self.identities = ConnectionCounter(limits.max_per_key)
        self.startups = StartupSlots(limits.max_startups, limits.max_startups_per_ip)
        self.backend.share_connections({"addresses": self.connections, "keys": self.identities})
        self.refused: dict[str, int] = dict.fromkeys(
            (
                "max_connections",
                "max_startups",
                "max_per_ip",
                "max_per_key",
                "max_channels",
                "banned_address",
                "banned_key",
            ),
            0,
        )
        """Connections and channels refused (or pending logins dropped) by each cap."""
        self._names: dict[str, str] = {}  # identity online -> the name others see
        self.sessions: dict[str, set[HarenaSession]] = {}
        self._listener: asyncssh.SSHAcceptor | None = None
        self.bots: BotRunner | None = None
        self.reviews = Reviews(None)  # finished tables' reviews and hints, once started
        self.clocks: ClockRunner | None = None
        self.lobby.notice_channels = config.notices.channels
        self.notices = NoticeRunner(self.lobby, config.notices, book=self.backend.notice_book())
        self.metrics: Metrics = NO_METRICS
        self.metrics_endpoint: MetricsEndpoint | None = None
        if config.metrics is not None:
            self.metrics = measured = ServerMetrics(self)
            self.metrics_endpoint = MetricsEndpoint(measured.registry, config.metrics)

    @property
    def cluster(self) -> ClusterNode | None:
        """The cluster node this server runs on, if any (tests and drills reach into it)."""
        return self.backend.node

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.host_key)

    @property
    def port(self) -> int:
        assert self._listener is not None
        return self._listener.get_port()

    async def start(self) -> None:
        if self.admin is not None:
            await self.admin.start()
        if self.metrics_endpoint is not None:  # (before players: a port taken stops the start)
            await self.metrics_endpoint.start()
        self._archive_idle()
        workers = None
        if self.config.bot_workers > 0:
            workers = BotWorkers(self.config.bot_workers, self.config.bot_seconds)
            workers.on_thought = self.metrics.thought
        self.bots = BotRunner(self.lobby, self.config.bot_delay, workers)
        self.reviews = Reviews(workers, self.backend.review_shelf())
        self.lobby.reviewer = self.reviews
        self.clocks = ClockRunner(self.lobby)
        self.notices.start()
        load_screens()
        # Before anyone connects: the collection of the whole heap that precedes the first
        # freeze of the server's own objects (30-50 ms) kept the first client waiting, and
        # anyone connecting with it (bench/hostile.py --scenario cycles).
        gc_policy.configure(connected=live_session_count)
        self._listener = await asyncssh.listen(
            self.config.host,
            self.config.port,
            server_factory=lambda: PlayerConnection(self),
            server_host_keys=[self.host_key],
            login_timeout=self.config.limits.login_timeout,
            compression_algs=["zlib@openssh.com", "zlib", "none"],
            encryption_algs=ENCRYPTION_ALGS,
            agent_forwarding=False,
            x11_forwarding=False,
            allow_scp=False,
            keepalive_interval=60,
            keepalive_count_max=3,
            **({"reuse_port": True} if self.config.reuse_port else {}),
            **LISTEN_OPTIONS,
        )
        self.backend.run(self)  # (after listening: a node announces our address)
        self.metrics.start()
        log.info("listening on %s:%d, host key %s", self.config.host, self.port, self.fingerprint)

    async def stop(self) -> None:
        if self._archive_timer is not None:
            self._archive_timer.cancel()
        self.metrics.stop()
        if self.metrics_endpoint is not None:
            await self.metrics_endpoint.stop()
        if self.admin is not None:
            await self.admin.stop()
        if self._listener is not None:
            self._listener.close()
            await self._listener.wait_closed()
            self._listener = None
        for sessions in self.sessions.values():
            for session in sessions:
                session.request_exit(SHUTDOWN_MESSAGE)
        await shutdown_all()
        self.reviews.close()
        if self.bots is not None:
            self.bots.close()
        if self.clocks is not None:
            self.clocks.close()
        self.notices.close()
        self.lobby.close()
        self.backend.stop()

    def _archive_idle(self) -> None:
        if self.config.archive_after > 0:
            self.lobby.archive_idle(self.config.archive_after)
            self._archive_timer = asyncio.get_running_loop().call_later(
                ARCHIVE_CHECK_EVERY, self._archive_idle
            )

    # -- sessions -------------------------------------------------------------------------------

    def all_sessions(self) -> list[HarenaSession]:
        return sorted((s for live in self.sessions.values() for s in live), key=lambda s: s.number)

    def run_operator_command(self, session: HarenaSession, argv: list[str]) -> tuple[bool, str]:
        """An operator's command from the lobby: (ok, the answer or what went wrong)."""
        if session.identity not in self.config.operators:
            return False, "you are not an operator on this server"
        try:
            return True, AdminCommands(self).run(
                argv, f"{session.name} ({session.identity})", lobby=True
            )
        except AdminError as error:
            return False, str(error)
        except Exception:
            log.exception("operator command %r failed", argv)
            return False, "internal error: see the server's log"

    def public_address(self, conn: asyncssh.SSHServerConnection | None) -> SshAddress:
        """How players on `conn` reach this server: `--public-address` if set, else the address
        and port the connection reached (the socket's local name), else the listening ones."""
        if self.config.public_address is not None:
            return self.config.public_address
        port = self._listener.get_port() if self._listener is not None else self.config.port
        listening = SshAddress(self.config.host, port)
        if conn is None:
            return listening
        return reached_address(conn.get_extra_info("sockname"), listening)

    def make_app(self, info: SessionInfo, session: HarenaSession) -> Any:
        from harena.tui.app import HarenaApp
        from harena.tui.terminal import utf8_terminal

        session.display_name = self.name_for(session.identity, info.username, guest=session.guest)
        try:
            start = (
                command_replies.start_table(
                    self.lobby, session.identity, session.display_name, session.command
                )
                if isinstance(session.command, NEEDS_TERMINAL)
                else None
            )
            return HarenaApp(
                self.lobby,
                session.identity,
                session.display_name,
                guest=session.guest,
                start_table=start,
                take_over=lambda: self.take_over(session),
                unicode=utf8_terminal(info.env, info.term_type),
                window_title=True,
                ssh=session.reached.command(),
                operator=(
                    (lambda argv: self.run_operator_command(session, argv))
                    if session.identity in self.config.operators
                    else None
                ),
            )
        except Exception:
            if not self.sessions.get(session.identity):
                self._names.pop(session.identity, None)  # no session will hold the name
            raise

    def name_for(self, identity: str, wanted: str, *, guest: bool = False) -> str:
        """The name `identity` shows: the one its key holds (core/players.py: the SSH user name
        it first connected with, or its rename), whatever user name it connects as now; a guest
        gets the one it asked for, with `~2`, `~3`... when someone else holds or shows it."""
        if identity in self._names:
            return self._names[identity]
        others = {
            name
            for other, name in {**self.lobby.online_names(), **self._names}.items()
            if other != identity
        }
        name: str = self.lobby.settings.name_for(identity, wanted, others=others, persist=not guest)
        self._names[identity] = name
        return name

    def session_opened(self, session: HarenaSession) -> None:
        self.sessions.setdefault(session.identity, set()).add(session)
        self.lobby.connect(session.identity, session.display_name)

    def session_closed(self, session: HarenaSession) -> None:
        session.cancel_timers()
        live = self.sessions.get(session.identity)
        if live is not None:
            live.discard(session)
            if not live:
                del self.sessions[session.identity]
                self._names.pop(session.identity, None)
        self.lobby.disconnect(session.identity, guest=session.guest)

    def take_over(self, keeper: HarenaSession) -> None:
        """`keeper` keeps the seat; every other session of the same key closes."""
        for session in list(self.sessions.get(keeper.identity, ())):
            if session is not keeper:
                session.request_exit(TAKEN_OVER_MESSAGE)


async def serve_forever(config: ServerConfig, ready: asyncio.Event | None = None) -> None:
    """Run until SIGINT/SIGTERM, then let every app restore its player's terminal."""
    import signal

    server = HarenaServer(config)
    await server.start()
    print(f"harena: listening on {config.host}:{server.port}", flush=True)
    print(f"harena: host key fingerprint {server.fingerprint}", flush=True)
    print(
        f"harena: players connect with: ssh -p {server.port} {_connect_host(config.host)}",
        flush=True,
    )
    if ready is not None:
        ready.set()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        log.info("shutting down")
        await server.stop()


def _connect_host(host: str) -> str:
    return "localhost" if host in ("127.0.0.1", "::1", "0.0.0.0", "::", "") else host
