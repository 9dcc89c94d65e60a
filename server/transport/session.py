"""One SSH session hosting one Textual app, in the server's single event loop.

How `ssh_server.py` uses it (listening, auth and limits live there, not here):

    await asyncssh.listen(host, port, server_factory=lambda: PlayerConnection(server),
                          server_host_keys=[...], **LISTEN_OPTIONS)

    class PlayerConnection(asyncssh.SSHServer):     # one per connection: who it is
        def session_requested(self):
            channel = self.conn.create_server_channel(window=INPUT_WINDOW)
            return channel, HarenaSession(self.server, self.identity, ...)

    class HarenaSession(AppSession):                # the server's limits and lobby around it
        def __init__(self, server, identity, ...):
            super().__init__(make_app, identity=identity, max_write_buffer=..., ...)

The identity is passed to the constructor (the connection knows it from authentication and
makes one session per channel); the session only carries it into `SessionInfo`.
`LISTEN_OPTIONS` must be passed at listen time: bytes in and out (`encoding=None`) and no
asyncssh line editor.

What the session guarantees, and why:

* Only an interactive terminal is served. A shell without a PTY, `exec` and subsystems (sftp) are
  accepted just long enough to print one line on stderr and exit with status 1, so the user
  sees why instead of "channel request failed".
* The app always runs with `SSHDriver` (never LinuxDriver, which would grab the server's own
  terminal and signals), with the colour system of the client's TERM/COLORTERM.
* Ctrl+C is an ordinary key (it arrives as a byte); client signal and break requests are ignored.
* Disconnect/EOF asks the app to exit (`app.exit()`), so Textual's shutdown runs; a watchdog
  cancels the task only if the app has not finished after `exit_grace` seconds.
* A crash in the app is logged and ends this session only, with an "internal error" line.
* Input reaches the app at the session's pace (`SSHDriver`: events per second, a share of the
  loop); while input waits, the channel stops being read (`_pause_input`), so nothing is
  dropped. Once the app is asked to exit, input stops.
* A client that stops reading is dropped once the channel's write buffer passes
  `max_write_buffer` bytes (asyncssh never blocks a write, so the buffer would grow forever).
* Full garbage collections run after sessions end, not in the middle of play (`gc_policy`):
  the first session configures the process; an ended session's app is taken apart
  (`dismantle`), so reference counting frees most of it, then it schedules a collection.

Shared code (tables) must never touch another app's widgets: it notifies a session through
`SessionContext.post()` / `post_from_anywhere()`, which posts a message from inside the target
app's own context.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

import asyncssh
from textual._context import active_app, active_message_pump, visible_screen_stack
from textual.message import Message

from harena.server.common.limits import EventBudget
from harena.server.common.log_safe import printable
from harena.server.hosting import dismantle, gc_policy, loop_share
from harena.server.hosting.textual_fixes import (
    color_system_for_terminal,
    install,
    mark_server_app,
    set_app_color_system,
)
from harena.server.transport import ssh_packets
from harena.server.transport.driver import (
    DEFAULT_EVENT_BURST,
    DEFAULT_EVENT_RATE,
    SSHDriver,
    clamp_size,
)

if TYPE_CHECKING:
    from textual.app import App

log = logging.getLogger(__name__)

LISTEN_OPTIONS: dict[str, Any] = {"encoding": None, "line_editor": False}
"""Keyword arguments `asyncssh.create_server` needs for `AppSession`."""

DEFAULT_MAX_WRITE_BUFFER = 256 * 1024
DEFAULT_EXIT_GRACE = 10.0
MAX_PENDING_INPUT = 64 * 1024
MAX_TERM = 64
"""Characters of the client's TERM kept (a real one is ~20)."""
DEFAULT_LOOP_SHARE = 0.05

NO_PTY_MESSAGE = "harena needs an interactive terminal: connect with plain `ssh` (or `ssh -t`)."
EXEC_MESSAGE = "harena does not run commands: connect with plain `ssh` to play."
SUBSYSTEM_MESSAGE = "harena offers no {name} subsystem: connect with plain `ssh` to play."
CRASH_MESSAGE = "harena: internal error, sorry. Please reconnect."

MessageOrFactory = Message | Callable[[], Message]


@dataclass(frozen=True)
class SessionInfo:
    """What an app factory may know about the connection it is serving."""

    username: str
    peer: tuple[str, int]
    term_type: str
    colorterm: str | None
    size: tuple[int, int]
    """Initial (cols, rows)."""
    identity: str | None = None
    """Who this is, as decided by the auth layer (e.g. a key fingerprint); only carried here."""
    env: Mapping[str, str] = field(default_factory=dict)
    """Environment variables the client sent."""

    @property
    def color_system(self) -> str:
        """ "standard", "256" or "truecolor", from TERM and COLORTERM."""
        return color_system_for_terminal(self.term_type, self.colorterm)


AppFactory = Callable[[SessionInfo], "App[Any]"]


class SessionContext:
    """A handle to reach one app from code running elsewhere (another app, the shared core).

    Capture it inside the app (`SessionContext.capture()` in `on_mount`), or use
    `session.context`. It keeps a copy of the app's context with Textual's app/pump variables
    cleared, plus a weak reference to the app: a forgotten subscription does not keep a finished
    app alive. `post()` and `call()` schedule with `loop.call_soon(..., context=ctx)` where `ctx`
    is that copy with the app set as active app and active message pump, so the callback runs as
    if inside the app, and nothing from the caller's context (another app) is captured.
    """

    def __init__(self, app: App[Any], context: contextvars.Context | None = None) -> None:
        self._app_ref: weakref.ref[App[Any]] = weakref.ref(app)
        self._base = _without_app(context if context is not None else contextvars.Context())
        self._loop = asyncio.get_running_loop()

    @classmethod
    def capture(cls, app: App[Any] | None = None) -> SessionContext:
        """Capture the current context: call from inside the app (handler, on_mount, worker).

        With `app` given and the caller not running inside that app, start from an empty
        context instead, so nothing of the caller's context travels along.
        """
        current = contextvars.copy_context()
        running = current.get(active_app)
        if app is None:
            if running is None:
                raise RuntimeError("SessionContext.capture() outside an app needs the app")
            app = running
        return cls(app, current if running is app else None)

    @property
    def app(self) -> App[Any] | None:
        """The app, or None once it has been garbage collected."""
        return self._app_ref()

    def _app_context(self) -> contextvars.Context | None:
        app = self._app_ref()
        if app is None or app._closing or app._closed:
            return None
        context = self._base.copy()
        context.run(_enter_app, app)
        return context

    def call(self, callback: Callable[..., Any], *args: Any) -> bool:
        """Run `callback(*args)` soon inside the app's context; False if the app is gone.
        Keep the callback tiny: post a message, never touch widgets of another app."""
        context = self._app_context()
        if context is None:
            return False
        self._loop.call_soon(callback, *args, context=context)
        return True

    def post(self, message: MessageOrFactory) -> bool:
        """Post a message to the app from anywhere; False if the app is gone. Prefer a factory
        (`lambda: Changed(view)`): the message is then created inside the app's context."""
        return self.call(self._deliver, message)

    def _deliver(self, message: MessageOrFactory) -> None:
        app = self._app_ref()
        if app is None or app._closing or app._closed:
            return
        if isinstance(message, Message):
            message.set_sender(app)  # do not keep the caller's pump (another app) alive
        else:
            message = message()
        app.post_message(message)


def _without_app(context: contextvars.Context) -> contextvars.Context:
    """A copy of `context` holding no reference to an app, its widgets or screens."""
    base = context.copy()
    variables: tuple[contextvars.ContextVar[Any], ...] = (
        active_app,
        active_message_pump,
        visible_screen_stack,
    )
    for var in variables:
        if var in base:
            base.run(var.set, None)
    return base


def _enter_app(app: App[Any]) -> None:
    active_app.set(app)
    active_message_pump.set(app)


_contexts: weakref.WeakKeyDictionary[App[Any], SessionContext] = weakref.WeakKeyDictionary()


def post_from_anywhere(app: App[Any], message: MessageOrFactory) -> bool:
    """Post `message` to `app` from any context (see `SessionContext.post`); False if it is gone."""
    context = _contexts.get(app)
    if context is None:
        context = _contexts[app] = SessionContext.capture(app)
    return context.post(message)


def _ended(born: float | None, app: weakref.ref[App[Any]]) -> Callable[[bool], None]:
    """What tells `gc_policy` that a session's app is garbage, once `dismantle` is done with it."""

    def done(taken_apart: bool) -> None:
        gc_policy.session_ended(born, None if taken_apart else app(), taken_apart=taken_apart)

    return done


_live_sessions: set[AppSession] = set()


def live_sessions() -> list[AppSession]:
    """Sessions whose app is running (for server shutdown and leak checks)."""
    return list(_live_sessions)


def live_session_count() -> int:
    """How many sessions' apps are running (`gc_policy` waits for none for its deepest work)."""
    return len(_live_sessions)


async def shutdown_all(timeout: float = 5.0) -> None:
    """Ask every running app to exit (server SIGINT/SIGTERM) and wait for them to finish."""
    sessions = live_sessions()
    for session in sessions:
        session.request_exit()
    tasks = [session.task for session in sessions if session.task is not None]
    if tasks:
        await asyncio.wait(tasks, timeout=timeout)


class AppSession(asyncssh.SSHServerSession[Any]):
    """An SSH server session that hosts one Textual app over the channel."""

    def __init__(
        self,
        app_factory: AppFactory,
        *,
        identity: str | None = None,
        max_write_buffer: int = DEFAULT_MAX_WRITE_BUFFER,
        exit_grace: float = DEFAULT_EXIT_GRACE,
        input_events: float = DEFAULT_EVENT_RATE,
        input_event_burst: int = DEFAULT_EVENT_BURST,
        loop_share: float | None = DEFAULT_LOOP_SHARE,
    ) -> None:
        self._app_factory = app_factory
        self._input_events = (input_events, input_event_burst)
        self._loop_share = loop_share
        self._identity = identity
        self._max_write_buffer = max_write_buffer
        self._exit_grace = exit_grace
        self._chan: asyncssh.SSHServerChannel[bytes] | None = None
        self._term_type: str | None = None
        self._size = (0, 0)
        self._refusal: str | None = None
        self._app: App[Any] | None = None
        self._driver: SSHDriver | None = None
        self._pending_input: list[bytes] = []
        self._pending_size = 0
        self._exit_requested = False
        self._exit_message: str | None = None
        self._watchdog: asyncio.TimerHandle | None = None
        self._started_at: float | None = None
        self.task: asyncio.Task[None] | None = None
        """The task running the app; done once the session is over."""
        self.info: SessionInfo | None = None
        self.context: SessionContext | None = None
        """Set once the app has started: use it to notify this session from shared code."""
        self.dropped_for_backlog = False
        """True if the session was closed because the client stopped reading."""

    # ------------------------------------------------------------------ asyncssh callbacks

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self._chan = chan
        encoding, _errors = chan.get_encoding()
        if encoding is not None:
            log.error("AppSession needs a bytes channel: listen with LISTEN_OPTIONS")
            self._refusal = CRASH_MESSAGE

    def pty_requested(
        self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Mapping[int, int]
    ) -> bool:
        self._term_type = term_type[:MAX_TERM]
        self._size = (term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        # Accept, then print why we refuse: a rejected request only says "exec request failed".
        self.refuse(self.refuse_command(command))
        return True

    def refuse_command(self, command: str) -> str | None:
        """Why an exec request for `command` is refused; None accepts it (a subclass's list)."""
        return EXEC_MESSAGE

    def refuse(self, message: str | None) -> None:
        """Close the session with `message` on stderr once it starts, instead of the app."""
        self._refusal = self._refusal or message

    def reply_without_app(self) -> str | None:
        """Text to print (then exit 0) instead of running the app: an accepted command that
        needs no terminal. None runs the app."""
        return None

    def no_terminal_message(self) -> str:
        return NO_PTY_MESSAGE

    def subsystem_requested(self, subsystem: str) -> bool:
        name = "".join(char for char in subsystem[:40] if char.isprintable())
        self._refusal = self._refusal or SUBSYSTEM_MESSAGE.format(name=name)
        return True

    def session_started(self) -> None:
        reply = self.reply_without_app() if self._refusal is None else None
        if reply is not None:
            self._close_with_reply(reply)
            return
        if self._refusal is None and self._term_type is None:
            self._refusal = self.no_terminal_message()
        if self._refusal is not None:
            self._close_with_message(self._refusal, status=1)
            return
        self._start_app()

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        if self._exit_requested:
            return  # on the way out: a key now would open a screen the exit tears down
        gc_policy.activity()
        if self._driver is not None:
            self._driver.feed(data)
        elif self._app is not None and self._pending_size < MAX_PENDING_INPUT:
            self._pending_input.append(data)  # typed before the app was ready
            self._pending_size += len(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self._size = (width, height)
        if self._driver is not None:
            self._driver.resize(width, height)

    def signal_received(self, signal: str) -> None:
        log.debug("ignoring client signal %s", printable(signal))

    def break_received(self, msec: int) -> bool:
        log.debug("ignoring client break")
        return False

    def eof_received(self) -> bool:
        self.request_exit()
        return True  # stay half-open so the app can restore the terminal on its way out

    def connection_lost(self, exc: Exception | None) -> None:
        self._chan = None
        self._pending_input.clear()
        self.request_exit()

    # ------------------------------------------------------------------ app lifecycle

    def _start_app(self) -> None:
        self._started_at = time.monotonic()
        gc_policy.activity()
        install()
        loop_share.install()
        ssh_packets.install()
        gc_policy.configure(connected=live_session_count)
        chan = self._chan
        assert chan is not None and self._term_type is not None
        env = dict(chan.get_environment())
        peer = chan.get_extra_info("peername") or ("", 0)
        cols, rows = clamp_size(*self._size)
        self.info = info = SessionInfo(
            username=chan.get_extra_info("username") or "",
            peer=(str(peer[0]), int(peer[1])),
            term_type=self._term_type,
            colorterm=env.get("COLORTERM"),
            size=(cols, rows),
            identity=self._identity,
            env=env,
        )
        try:
            app = self._app_factory(info)
            mark_server_app(app)
            dismantle.track(app)
            set_app_color_system(app, info.color_system)
            budget = EventBudget(*self._input_events)
            # A factory, not a class: Textual only calls `driver_class(app, ...)`.
            app.driver_class = cast(
                "type[SSHDriver]",
                SSHDriver.bind(
                    self._send, self._driver_started, budget, self._loop_share, self._pause_input
                ),
            )
        except Exception:
            log.exception("app factory failed for %s", self._who())
            self._close_with_message(CRASH_MESSAGE, status=1)
            return
        self._app = app
        _live_sessions.add(self)
        log.info(
            "session of %s started (%s, %dx%d)", self._who(), printable(info.term_type), cols, rows
        )
        self.task = asyncio.get_running_loop().create_task(
            self._run_app(app, (cols, rows)), name=f"harena-session {info.username}@{info.peer}"
        )

    async def _run_app(self, app: App[Any], size: tuple[int, int]) -> None:
        crashed = cancelled = False
        try:
            await app.run_async(size=size, mouse=True)
        except asyncio.CancelledError:
            cancelled = True
        except Exception:
            log.exception("app %r crashed", app)
            crashed = True
        finally:
            crashed = crashed or app._exception is not None
            return_code = app.return_code or 0
            self._app = None
            self._driver = None
            self.context = None
            self._pending_input.clear()
            if self._watchdog is not None:
                self._watchdog.cancel()
                self._watchdog = None
            _live_sessions.discard(self)
            gc_policy.activity()
            dismantle.dismantle(app, _ended(self._started_at, weakref.ref(app)))
        log.info("session of %s ended%s", self._who(), " (crashed)" if crashed else "")
        if crashed or cancelled:
            self._close_with_message(CRASH_MESSAGE, status=1)
        elif self._exit_message is not None:
            self._close_with_message(self._exit_message, status=return_code)
        else:
            self._close(return_code)
        if cancelled:
            raise asyncio.CancelledError

    def _driver_started(self, driver: SSHDriver) -> None:
        """The app is in application mode: input can flow now."""
        self._driver = driver
        assert self._app is not None and driver.context is not None
        self.context = SessionContext(self._app, driver.context)
        _contexts[self._app] = self.context
        if driver.size != clamp_size(*self._size):
            driver.resize(*self._size)
        gc_policy.session_started()
        pending, self._pending_input = self._pending_input, []
        self._pending_size = 0
        for data in pending:
            driver.feed(data)

    def _pause_input(self, pause: bool) -> None:
        """The driver has enough input waiting: let SSH flow control hold the rest back."""
        chan = self._chan
        if chan is None or chan.is_closing():
            return
        if pause:
            chan.pause_reading()
        else:  # not from inside the driver: resuming delivers what asyncssh held back at once
            asyncio.get_running_loop().call_soon(chan.resume_reading, context=contextvars.Context())

    def request_exit(self, message: str | None = None) -> None:
        """Ask the app to exit (disconnect, server shutdown, take-over); idempotent.

        `message`, if given, is written as one line once the app has restored the terminal."""
        if message is not None and self._exit_message is None:
            self._exit_message = message
        app = self._app
        if app is None or self._exit_requested:
            return
        self._exit_requested = True
        if self._driver is not None:
            self._driver.disable_input()
        loop = asyncio.get_running_loop()
        if self.context is not None:
            self.context.call(app.exit)
        else:
            loop.call_soon(app.exit)
        self._watchdog = loop.call_later(self._exit_grace, self._cancel_stuck_app)

    def _cancel_stuck_app(self) -> None:
        self._watchdog = None
        if self.task is not None and not self.task.done():
            log.warning(
                "app of %s did not exit within %.1fs: cancelling", self._who(), self._exit_grace
            )
            self.task.cancel()

    # ------------------------------------------------------------------ output

    def _send(self, data: bytes) -> None:
        """Driver output: write to the channel, drop the session if the client stopped reading."""
        chan = self._chan
        if chan is None or chan.is_closing():
            return
        try:
            chan.write(data)
        except OSError:
            return
        gc_policy.output_sent()
        backlog = chan.get_write_buffer_size()
        if backlog > self._max_write_buffer:
            log.warning("%s is not reading (%d bytes queued): closing", self._who(), backlog)
            self.dropped_for_backlog = True
            chan.abort()
            self.request_exit()

    def _who(self) -> str:
        info = self.info
        return "?" if info is None else f"{printable(info.username)}@{info.peer[0]}:{info.peer[1]}"

    def _close_with_message(self, message: str, status: int) -> None:
        chan = self._chan
        if chan is None or chan.is_closing():
            return
        try:
            chan.write_stderr("".join(f"{line}\r\n" for line in message.splitlines()).encode())
        except OSError:
            pass
        self._close(status)

    def _close_with_reply(self, text: str) -> None:
        chan = self._chan
        if chan is None or chan.is_closing():
            return
        newline = "\r\n" if self._term_type is not None else "\n"
        try:
            chan.write(newline.join(text.splitlines()).encode() + newline.encode())
        except OSError:
            pass
        self._close(0)

    def _close(self, status: int) -> None:
        chan = self._chan
        if chan is None or chan.is_closing():
            return
        try:
            chan.exit(status)
        except OSError:
            chan.close()
