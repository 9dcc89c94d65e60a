"""A Textual driver that talks to one SSH channel, entirely on the event loop.

Textual's own LinuxDriver owns the process's terminal: it starts reader/writer threads, changes
termios modes and installs signal handlers. None of that makes sense when one process serves many
SSH sessions, so this driver:

* buffers `write()` calls and hands one utf-8 frame to `send` on `flush()` (writes made outside a
  frame, such as a bell, are flushed on the next loop iteration);
* sends only the cells that changed: `textual_fixes` hands Textual's compositor updates to
  `paint()`, which writes them into a `ScreenBuffer` (what the client shows, cell by cell); each
  flush sends the difference. A widget refresh or a full repaint whose cells did not change costs
  nothing on the wire;
* sends the first screen once: output is held at startup until the first full paint (or
  `STARTUP_HOLD` seconds), so the partial updates Textual makes while it builds the screen are
  not sent ahead of it. (Textual painted it fully three times, the first possibly still the
  lobby; `textual_fixes` now has it draw the settled screen whole once: a hold until a second
  full paint would wait out `STARTUP_HOLD` on every connect.) Later bursts of full paints
  (a screen switch, a resize) are not held: the second paint of a burst costs only the cells
  that differ from the first (measured: none), and holding would delay the switch. Raw paints
  (Textual's own rendering, for anything but compositor updates) are marked through
  `painting()`: during the startup hold a full-screen one drops the held paints it supersedes;
* decodes input incrementally (invalid utf-8 becomes U+FFFD) and feeds Textual's `XTermParser`;
  a lone Esc is resolved by one `call_later` after the parser's escape delay, armed only while an
  escape sequence is pending (no periodic timer, so an idle session costs nothing);
* reads Esc then any character but `[`, `O` or a control character as the Esc key, then that
  character, even in one packet (`LONE_ESCAPE`): harena binds no Alt key, and Esc then `2` is
  "leave the chat, play choice 2", not Textual's Option character "™";
* takes its size from the session (PTY request, window-change), never from the terminal itself:
  in-band resize reports from the client are dropped and sizes are clamped (a hostile client could
  otherwise ask for a 10^6-column screen);
* parses input inside a copy of the app's context, so messages carry this app (not whatever
  context the SSH callback runs in);
* lets input events reach the app at most at `EventBudget`'s rate (`--input-events`): what a
  key costs the loop does not depend on its bytes, and every session shares that one loop.
  Input also waits while the app has used more than its share of the loop (`loop_share`,
  `--loop-share`), since one event may cost a hundred times another. Nothing typed is lost:
  events beyond the budget wait in a short queue, the text behind them waits unparsed, and
  once `MAX_BACKLOG` characters wait the session stops reading the channel (`on_backlog`), so
  SSH flow control makes the client wait too. In the queue, a repeated navigation key or mouse
  motion is coalesced with the one before it (a held arrow key moves once per turn, not once per
  repeat);
* never opens a browser or writes a file on the server (`open_url`, `deliver_binary`).

The driver gets its output function through `SSHDriver.bind(...)`, whose result is assigned to
`app.driver_class` (Textual instantiates the driver itself inside `run_async`).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import re
from codecs import getincrementaldecoder
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from time import perf_counter
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, TextIO

from textual import events
from textual._time import get_time
from textual._xterm_parser import XTermParser
from textual.driver import Driver
from textual.geometry import Size
from textual.message import Message
from textual.messages import InBandWindowResize

from harena.server.common.limits import EventBudget
from harena.server.hosting.loop_share import LoopShare
from harena.server.transport.screen_buffer import CompositorPaint, ScreenBuffer

if TYPE_CHECKING:
    from rich.color import ColorSystem
    from textual.app import App

log = logging.getLogger(__name__)

DEFAULT_SIZE = (80, 24)
STARTUP_HOLD = 0.25
"""Longest time the first frames are held back waiting for the first full paint."""
STARTUP_FULL_PAINTS = 1
SYNC_START, SYNC_END = "\x1b[?2026h", "\x1b[?2026l"
MAX_COLS = 500  # a huge window must not cost megabytes of screen buffer per session
MAX_ROWS = 200
MAX_QUEUED_EVENTS = 16
"""Input events parsed ahead of the session's budget; the rest of the input waits unparsed."""
PARSE_SLICE = 16
"""Characters parsed at a time while input waits for the budget."""
MAX_BACKLOG = 4096
"""Unparsed characters past which the session stops reading its channel."""
COALESCED_KEYS = frozenset({"up", "down", "left", "right", "pageup", "pagedown", "home", "end"})
DEFAULT_EVENT_RATE = 30.0
DEFAULT_EVENT_BURST = 30

# Terminal modes, written on start and undone in reverse order on stop.
ALT_SCREEN = ("\x1b[?1049h", "\x1b[?1049l")
HIDE_CURSOR = ("\x1b[?25l", "\x1b[?25h")
# 1000: clicks, 1002: motion while a button is held, 1006: SGR coordinates. Not 1003 (every
# motion), which costs server CPU for each mouse move over the window.
MOUSE = ("\x1b[?1000h\x1b[?1002h\x1b[?1006h", "\x1b[?1006l\x1b[?1002l\x1b[?1000l")
BRACKETED_PASTE = ("\x1b[?2004h", "\x1b[?2004l")
FOCUS_EVENTS = ("\x1b[?1004h", "\x1b[?1004l")
# xterm's title stack: the window title the player had is saved at start and back at the end
# (terminals without one ignore both; the app sets harena's own title, see HarenaApp).
TITLE_STACK = ("\x1b[22;2t", "\x1b[23;2t")
NO_LINE_WRAP = ("\x1b[?7l", "\x1b[?7h")
QUERY_SYNC_OUTPUT = "\x1b[?2026$p"
ESC = "\x1b"
LONE_ESCAPE = re.compile(r"\x1b(?=[^\x00-\x1f\x7f\[O])")
"""An ESC the next character shows to be the Esc key. A sequence the client sends goes on with
`[` (CSI: arrows, function keys, mouse, paste, focus, the DECRQM reply) or `O` (SS3), or another
ESC (Alt+arrow on some terminals). ESC then a control character is one key too (Alt+Backspace is
the chat input's delete-word). DCS, OSC and APC (`P`, `]`, `_`) are split like any character:
harena asks the client nothing answered that way, Textual would turn such a reply into keys
anyway, and `]` is a key of its own (the prompt's next page)."""
RESET_ATTRIBUTES = "\x1b[0m"


def clamp_size(cols: int, rows: int) -> tuple[int, int]:
    """A usable terminal size: 80x24 when the client sends 0, never beyond MAX_COLS x MAX_ROWS."""
    cols = cols or DEFAULT_SIZE[0]
    rows = rows or DEFAULT_SIZE[1]
    return max(1, min(cols, MAX_COLS)), max(1, min(rows, MAX_ROWS))


# A terminal that is not UTF-8 gets one ASCII character per cell for whatever the screens still
# draw outside ASCII (Textual's borders, scroll bars, ellipses): the layout stays aligned, and
# anything else becomes "?" rather than bytes the terminal would show as garbage.
ASCII_FALLBACK = str.maketrans(
    {
        **dict.fromkeys("─━═╌╍┄┅▁▔", "-"),
        **dict.fromkeys("│┃║╎╏┆┇▏▕▌▐", "|"),
        **dict.fromkeys("╭╮╰╯┌┐└┘├┤┬┴┼╔╗╚╝╠╣╦╩╬┏┓┗┛", "+"),
        **dict.fromkeys("█▉▊▋▓▒░■", "#"),
        "…": ".",
        "·": ".",
        "•": "*",
        "▶": ">",
        "◀": "<",
        "►": ">",
        "◄": "<",
        "▲": "^",
        "▼": "v",
        "↑": "^",
        "↓": "v",
        "←": "<",
        "→": ">",
        "⏎": "J",
        "✓": "v",
        "✗": "x",
        "“": '"',
        "”": '"',
        "‘": "'",
        "’": "'",
        "–": "-",
        "—": "-",
        "\u00a0": " ",
    }
)


def to_ascii(text: str) -> bytes:
    return text.translate(ASCII_FALLBACK).encode("ascii", "replace")


class SSHDriver(Driver):
    """Textual driver for one SSH session: bytes in from the channel, frames out to `send`."""

    def __init__(
        self,
        app: App[Any],
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
        send: Callable[[bytes], None],
        on_start: Callable[[SSHDriver], None] | None = None,
        events_budget: EventBudget | None = None,
        loop_share: float | None = None,
        on_backlog: Callable[[bool], None] | None = None,
    ) -> None:
        """`send` writes bytes to the client; `on_start` is told when input may be fed;
        `events_budget` paces input events (default: `DEFAULT_EVENT_RATE` per second);
        `loop_share` (a fraction of the loop) holds input while the app uses more;
        `on_backlog(True)` asks to stop reading input, `on_backlog(False)` to read again."""
        size = clamp_size(*(size or DEFAULT_SIZE))
        super().__init__(app, debug=debug, mouse=mouse, size=size)
        self._send = send
        self._on_start = on_start
        self._buffer: list[str] = []
        self._flush_handle: asyncio.Handle | None = None
        self._holding = False
        self._held: list[tuple[bool, str]] = []  # (written inside a paint?, data)
        self._in_paint = False
        self._full_paints = 0
        self._hold_handle: asyncio.TimerHandle | None = None
        self._screen = ScreenBuffer(*size)
        self._sync = False  # wrap frames in synchronized-output marks (the terminal supports it)
        self._decode = getincrementaldecoder("utf-8")(errors="replace").decode
        self._parser = XTermParser()
        self._escape_timer: asyncio.TimerHandle | None = None
        self._escape_ended = False  # the text last parsed ended with ESC
        self._budget = events_budget or EventBudget(DEFAULT_EVENT_RATE, DEFAULT_EVENT_BURST)
        self._share = LoopShare(app, loop_share) if loop_share else None
        self._queued: deque[Message] = deque()
        self._backlog = ""  # decoded input not parsed yet, waiting for the budget
        self._on_backlog = on_backlog
        self._reading_paused = False
        self._release_handle: asyncio.TimerHandle | None = None
        self.events_passed = 0
        """Input events posted to the app."""
        self.events_coalesced = 0
        """Repeated navigation keys and mouse motions merged while the session was over budget."""
        self._input_enabled = False
        self._started = False
        self.context: contextvars.Context | None = None
        """A copy of the app's context, captured at start; input is parsed inside it."""
        self.bytes_sent = 0
        """Bytes handed to `send` so far (after utf-8 encoding)."""
        self._ascii = not getattr(app, "unicode", True)  # HarenaApp knows the client's charset
        self.on_paint: Callable[[float], None] | None = None
        """Told the seconds each paint took, to the frame written (metrics; None: not timed)."""

    @classmethod
    def bind(
        cls,
        send: Callable[[bytes], None],
        on_start: Callable[[SSHDriver], None] | None = None,
        events_budget: EventBudget | None = None,
        loop_share: float | None = None,
        on_backlog: Callable[[bool], None] | None = None,
    ) -> Callable[..., SSHDriver]:
        """A driver factory for `app.driver_class`, with the session's callbacks attached."""
        return functools.partial(
            cls,
            send=send,
            on_start=on_start,
            events_budget=events_budget,
            loop_share=loop_share,
            on_backlog=on_backlog,
        )

    @property
    def is_headless(self) -> bool:
        return False

    @property
    def can_suspend(self) -> bool:
        """Suspending would mean SIGTSTP for the whole server: never."""
        return False

    @property
    def size(self) -> tuple[int, int]:
        """Current terminal size (cols, rows)."""
        assert self._size is not None
        return self._size

    # ------------------------------------------------------------------ output

    def write(self, data: str) -> None:
        """Buffer output; make sure writes outside a frame still go out this loop iteration."""
        if self._holding:
            self._held.append((self._in_paint, data))
            return
        self._buffer.append(data)
        if self._flush_handle is None:
            self._flush_handle = self._loop.call_soon(self._flush_soon)

    def _flush_soon(self) -> None:
        self._flush_handle = None
        self.flush()

    def flush(self) -> None:
        """Send everything buffered, then the screen's changed cells, as one chunk."""
        if self._holding:
            return
        if self._screen.pending:
            frame = self._screen.render()
            if frame:
                self._buffer.append(f"{SYNC_START}{frame}{SYNC_END}" if self._sync else frame)
        if not self._buffer:
            return
        text = "".join(self._buffer)
        data = to_ascii(text) if self._ascii else text.encode("utf-8", "replace")
        self._buffer.clear()
        self.bytes_sent += len(data)
        self._send(data)

    def paint(
        self,
        update: CompositorPaint,
        cursor: tuple[int, int],
        color_system: ColorSystem,
        sync: bool = False,
    ) -> None:
        """A compositor update from Textual: record it, send what changed (unless held)."""
        began = perf_counter() if self.on_paint is not None else 0.0
        full_screen = self._screen.apply(update, color_system)
        self._screen.cursor = cursor
        self._sync = sync
        if full_screen and self._holding and self._full_paints < STARTUP_FULL_PAINTS:
            self._full_paints += 1
            if self._full_paints >= STARTUP_FULL_PAINTS:
                self._release_hold()
        else:
            self.flush()
        if self.on_paint is not None:
            self.on_paint(perf_counter() - began)

    @contextmanager
    def painting(self, full_screen: bool) -> Iterator[None]:
        """Scope of one raw screen update (Textual's own rendering), which the screen buffer
        cannot follow: later paints send every cell they cover. While the startup hold lasts, a
        full-screen paint replaces the frames held before it (other writes, such as a bell,
        are kept)."""
        self._screen.forget()
        if not self._holding:
            yield
            return
        start = len(self._held)
        self._in_paint = True
        try:
            yield
        finally:
            self._in_paint = False
        if not full_screen or len(self._held) == start:
            return
        self._held = [item for item in self._held[:start] if not item[0]] + self._held[start:]
        self._full_paints += 1
        if self._full_paints >= STARTUP_FULL_PAINTS:
            self._release_hold()

    def _release_hold(self) -> None:
        """End the startup hold: send what is held, then the screen."""
        if self._hold_handle is not None:
            self._hold_handle.cancel()
            self._hold_handle = None
        if not self._holding:
            return
        self._holding = False
        held, self._held = self._held, []
        for _in_paint, data in held:
            self._buffer.append(data)
        self.flush()

    # ------------------------------------------------------------------ modes

    def start_application_mode(self) -> None:
        """Switch the client's terminal to full-screen application mode and start input."""
        self.context = contextvars.copy_context()
        write = self.write
        write(TITLE_STACK[0])
        write(ALT_SCREEN[0])
        write(HIDE_CURSOR[0])
        if self._mouse:
            write(MOUSE[0])
        write(BRACKETED_PASTE[0])
        write(FOCUS_EVENTS[0])
        write(NO_LINE_WRAP[0])
        write(QUERY_SYNC_OUTPUT)
        self.flush()
        self._holding = True
        self._hold_handle = self._loop.call_later(STARTUP_HOLD, self._release_hold)
        self._started = True
        self._input_enabled = True
        self._post_resize()
        if self._on_start is not None:
            self._on_start(self)

    def disable_input(self) -> None:
        """Stop parsing input (Textual calls this first thing at shutdown; the session calls it
        as soon as the app is asked to exit, so no key opens a screen on the way out)."""
        self._input_enabled = False
        self._cancel_escape_timer()
        self._queued.clear()
        self._backlog = ""
        if self._release_handle is not None:
            self._release_handle.cancel()
            self._release_handle = None
        self._on_backlog = None

    def stop_application_mode(self) -> None:
        """Restore the client's terminal: modes off, main screen back, cursor visible."""
        self.disable_input()
        self._release_hold()
        if not self._started:
            return
        self._started = False
        write = self.write
        write(RESET_ATTRIBUTES)
        write(NO_LINE_WRAP[1])
        write(FOCUS_EVENTS[1])
        write(BRACKETED_PASTE[1])
        if self._mouse:
            write(MOUSE[1])
        write(TITLE_STACK[1])
        write(ALT_SCREEN[1])
        write(HIDE_CURSOR[1])
        self.flush()

    def close(self) -> None:
        """Final cleanup: drop pending work so nothing refers back to the app."""
        self.disable_input()
        self._release_hold()
        if self._flush_handle is not None:
            self._flush_handle.cancel()
            self._flush_handle = None
        self.flush()
        self._on_start = None

    # ------------------------------------------------------------------ input

    def feed(self, data: bytes) -> None:
        """Bytes from the channel: decode, parse, post the resulting events to the app."""
        if not self._input_enabled or not data:
            return
        text = self._decode(data)
        if not text:
            return
        self._backlog += text
        self._in_app_context(self._pump)

    def resize(self, cols: int, rows: int) -> None:
        """The client's window changed size."""
        size = clamp_size(cols, rows)
        if size == self._size:
            return
        self._size = size
        self._screen.resize(*size)
        if self._input_enabled:
            self._in_app_context(self._post_resize)

    def _in_app_context(self, func: Callable[..., object], *args: Any) -> None:
        if self.context is None:
            func(*args)
        else:
            self.context.run(func, *args)

    def _post_resize(self) -> None:
        size = Size(*self.size)
        self._app.post_message(events.Resize(size, size))  # the channel's, not the client's input

    def _parse(self, text: str) -> None:
        """Feed `text` to the parser, ending its wait after each ESC that `LONE_ESCAPE` shows to
        be the Esc key (also one that ended the text before, if the parser still waits)."""
        try:
            if self._escape_ended and LONE_ESCAPE.match(ESC + text[:1]):
                self._give_up_escape()
            start = 0
            for match in LONE_ESCAPE.finditer(text):
                self._feed_parser(text[start : match.end()])
                self._give_up_escape()
                start = match.end()
            self._feed_parser(text[start:])
            self._escape_ended = text.endswith(ESC)
        except Exception:
            # The parser is a generator: once it raised it is dead. Start a fresh one.
            log.warning("input parser failed on %r; resetting it", text[:64], exc_info=True)
            self._parser = XTermParser()
            self._escape_ended = False
        self._arm_escape_timer()

    def _feed_parser(self, text: str) -> None:
        if text:
            for message in self._parser.feed(text):
                self.process_message(message)

    def _give_up_escape(self) -> None:
        """Make the parser give up the sequence it waits for now, as at the end of the escape
        delay: it reports the ESC just fed as the Esc key."""
        if self._parser._timeout_time is None:
            return  # nothing pending: the escape timer resolved it already
        self._parser._timeout_time = float("-inf")
        for message in self._parser.tick():
            self.process_message(message)

    def _pump(self) -> None:
        """Parse the backlog a slice at a time until the queue holds enough events; stop or
        resume reading the channel after it."""
        while self._backlog and len(self._queued) < MAX_QUEUED_EVENTS and self._input_enabled:
            text, self._backlog = self._backlog[:PARSE_SLICE], self._backlog[PARSE_SLICE:]
            self._parse(text)
        pause = len(self._backlog) > MAX_BACKLOG
        if pause != self._reading_paused and self._on_backlog is not None:
            self._reading_paused = pause
            self._on_backlog(pause)

    def _arm_escape_timer(self) -> None:
        """One-shot timer while the parser waits for the rest of an escape sequence (not while
        the rest may still be in the backlog)."""
        self._cancel_escape_timer()
        if self._backlog:
            return
        deadline: float | None = self._parser._timeout_time
        if deadline is None or not self._input_enabled:
            return
        delay = max(0.0, deadline - get_time()) + 0.001
        self._escape_timer = self._loop.call_later(delay, self._escape_timeout)

    def _cancel_escape_timer(self) -> None:
        if self._escape_timer is not None:
            self._escape_timer.cancel()
            self._escape_timer = None

    def _escape_timeout(self) -> None:
        self._escape_timer = None
        if self._input_enabled:
            self._in_app_context(self._tick)

    def _tick(self) -> None:
        try:
            for message in self._parser.tick():
                self.process_message(message)
        except Exception:
            log.warning("input parser failed on timeout; resetting it", exc_info=True)
            self._parser = XTermParser()
        self._arm_escape_timer()

    def process_message(self, message: Message) -> None:
        """Drop size reports from the client's byte stream: the SSH channel owns the size."""
        if isinstance(message, (events.Resize, InBandWindowResize)):
            return
        super().process_message(message)

    def send_message(self, message: Message) -> None:
        """An input event: post it now if the budget allows and none is waiting, else queue it.
        Posted directly: we are on the loop already (the base class goes through a thread hop)."""
        if not self._input_enabled:
            return
        if not self._queued and self._may_pass():
            self.events_passed += 1
            self._app.post_message(message)
            return
        self._enqueue(message)

    def _may_pass(self) -> bool:
        """One more input event now? (The share is asked first: a refusal spends nothing.)"""
        return (self._share is None or self._share.allows()) and self._budget.take()

    def _next_release(self) -> float:
        if self._share is not None and not self._share.allows():
            return self._share.wait()
        return self._budget.wait()

    def _enqueue(self, message: Message) -> None:
        queued = self._queued
        last = queued[-1] if queued else None
        if (
            isinstance(message, events.Key)
            and isinstance(last, events.Key)
            and last.key == message.key
            and message.key in COALESCED_KEYS
        ):
            self.events_coalesced += 1  # a held arrow key still waiting: one step is enough
        elif isinstance(message, events.MouseMove) and isinstance(last, events.MouseMove):
            queued[-1] = message  # only where the pointer is now matters
            self.events_coalesced += 1
        else:
            queued.append(message)
        if self._release_handle is None:
            self._release_handle = self._loop.call_later(self._next_release(), self._release)

    def _release(self) -> None:
        """Post the queued events the budget allows now; come back for the rest."""
        self._release_handle = None
        while self._queued and self._input_enabled and self._may_pass():
            self.events_passed += 1
            self._in_app_context(self._app.post_message, self._queued.popleft())
        if self._input_enabled:
            self._in_app_context(self._pump)
        if not self._backlog:
            self._arm_escape_timer()
        if self._queued and self._input_enabled and self._release_handle is None:
            self._release_handle = self._loop.call_later(self._next_release(), self._release)

    # ------------------------------------------------------------------ server-side effects

    def open_url(self, url: str, new_tab: bool = True) -> None:
        """Never open a browser on the server."""
        log.info("open_url(%r) ignored for an SSH session", url)

    def deliver_binary(
        self,
        binary: BinaryIO | TextIO,
        *,
        delivery_key: str,
        save_path: Path,
        open_method: Literal["browser", "download"] = "download",
        encoding: str | None = None,
        mime_type: str | None = None,
        name: str | None = None,
    ) -> None:
        """Never write the file on the server: report the delivery as failed."""
        log.info("file delivery %r (%s) refused for an SSH session", name, save_path)
        try:
            binary.close()
        except Exception:
            pass
        error = RuntimeError("file delivery is not available over SSH")
        self._app.post_message(events.DeliveryFailed(key=delivery_key, exception=error, name=name))
