"""HarenaApp: one player's session: the lobby, a table, and the modals around them.

The server runs one app per SSH connection, all in one process and one event loop, sharing the
lobby and its tables. Two rules follow (docs: ../shared/notes/textual-over-ssh.md):

* Tables and the lobby call their subscribers from whoever changed them, i.e. from inside
  *another* app. A subscriber here only schedules, with `loop.call_soon(..., context=ours)`, a
  message created in this app's context; it never touches a widget directly.
* Every subscription lives in `self.subscriptions` and all of them are closed when the app
  unmounts (or the server calls `close_subscriptions()` after a crash): none outlives the app.

Nothing repaints on its own: no animations, no blinking cursor, no timers; updates go to
fixed-size widgets, so a change sends only the cells that changed.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol, TypeVar

from textual import events
from textual._context import active_app  # (pinned: server/hosting/textual_pins.py)
from textual.app import App
from textual.geometry import Size
from textual.screen import Screen
from textual.theme import Theme
from textual.timer import Timer

from harena.core.engine import IllegalAction
from harena.core.lobby import Lobby
from harena.core.table_like import TableLike
from harena.tui.screens.confirm import confirm
from harena.tui.screens.lobby import LobbyScreen
from harena.tui.screens.table import TableScreen
from harena.tui.screens.take_over import TakeOverScreen
from harena.tui.screens.too_small import MIN_SIZE, TooSmallScreen, too_small
from harena.tui.subscriptions import SubscriptionSet
from harena.tui.table_pace import BUILDS, GAP, TablePace
from harena.tui.widgets.chat import keys_for_chat

log = logging.getLogger(__name__)

T = TypeVar("T")
S = TypeVar("S", bound=Screen[Any])

NOTICEABLE_WAIT = 0.25
"""Seconds a table open may wait for a build slot (`BUILDS`) before the lobby says it comes."""


__all__ = ["MIN_SIZE", "HarenaApp"]

_CSS_VARIABLES: dict[str, dict[str, str]] = {}
"""Theme name -> the CSS variables of that theme (`HarenaApp.get_css_variables`)."""
_THEMES: dict[str, Theme] = {}
"""Theme name -> the theme those variables were made from (a theme registered again anew)."""


@dataclass
class WaitingOpen:
    """A table screen to build once a slot of `BUILDS` is free."""

    build: Callable[[], None]
    notice: str
    """Shown in the lobby once the build is `NOTICEABLE_WAIT` late."""
    due: float
    """Monotonic time the build was first due."""


class ViewTarget(Protocol):
    """What shows a table's or the lobby's views (the table screen, the lobby screen)."""

    @property
    def is_attached(self) -> bool: ...

    def show(self, view: dict[str, Any]) -> None: ...


class HarenaApp(App[None]):
    TITLE = "harena"
    ENABLE_COMMAND_PALETTE = False
    AUTO_FOCUS = None  # keys belong to the screen until the user presses `c` to chat

    def __init__(
        self,
        lobby: Lobby,
        identity: str,
        name: str,
        *,
        guest: bool = False,
        start_table: str | None = None,
        take_over: Callable[[], None] | None = None,
        unicode: bool = True,
        operator: Callable[[list[str]], tuple[bool, str]] | None = None,
        window_title: bool = False,
        ssh: str = "",
    ) -> None:
        """
        Args:
            lobby: the shared lobby (the server connects/disconnects the identity, not the app).
            identity: who this is (an SSH key fingerprint).
            name: the display name.
            guest: a guest's seats are freed when the session ends; the app only says so.
            start_table: open this table at once (taking no seat: watching, unless seated).
            take_over: closes this identity's other sessions; offered when there are some.
            unicode: the terminal shows UTF-8 (`tui.terminal.utf8_terminal`); else boards draw
                with plain ASCII.
            operator: runs an operator's command (server/operations/admin.py), answering (ok, text); None
                for everyone else.
            window_title: set the terminal window's title (`window_title()`); only where the
                driver saves the player's own title and gives it back at the end (SSH).
            ssh: how this player reaches the server (`ssh -p 2222 example.org`): the lobby's
                help lists the `ssh host COMMAND` commands after it; "" where there is no
                server to reach (local play), and the help lists none.
        """
        super().__init__()
        self.animation_level = "none"
        # The terminal's own 16 colours: legible on light, dark and monochrome terminals, the
        # same escape codes at every colour depth, and ~25% fewer bytes than an RGB theme.
        self.theme = "ansi-dark"
        self.lobby = lobby
        self.identity = identity
        self.player_name = name
        self.guest = guest
        self.start_table = start_table
        self._take_over = take_over
        self.unicode = unicode
        self.operator = operator
        self.ssh = ssh
        self.subscriptions = SubscriptionSet()
        self._relay_loop: asyncio.AbstractEventLoop | None = None
        self._relay_context: contextvars.Context | None = None
        self._too_small: TooSmallScreen | None = None
        self._screens_ready = False  # the first Resize arrives before on_mount pushes screens
        self.bells = 0  # turn bells rung (a headless test app writes none)
        self._table_pace = TablePace()
        self._window_title: str | None = "" if window_title else None  # as last sent; None: never
        self._table_opening: Timer | None = None  # the timer of the open waiting its turn
        self._waiting_open: WaitingOpen | None = None
        self.guide_progress: dict[str, list[str]] = {}  # table id -> guide panels shown

    def get_css_variables(self) -> dict[str, str]:
        """Textual's variables for the current theme, worked out once per theme for every app:
        each app made them twice (its default theme, then ours), ~1 ms of a session's start,
        and the shared dict lets every app's stylesheet share its parsed CSS and variable
        tokens (server/hosting/textual_fixes.py). Nothing writes to it: Textual copies it."""
        name = self.theme
        variables = _CSS_VARIABLES.get(name)
        if variables is None or self.current_theme is not _THEMES.get(name):
            variables = super().get_css_variables()
            _CSS_VARIABLES[name], _THEMES[name] = variables, self.current_theme
        self.theme_variables = variables
        return variables

    # -- start ----------------------------------------------------------------------------------

    def get_default_screen(self) -> Screen[Any]:
        """The first screen: the table asked for or where this identity holds a seat, else the
        lobby. It is Textual's default screen, not pushed over a blank one: a session's start
        makes, styles and lays out one screen fewer."""
        self._relay_loop = asyncio.get_running_loop()  # (its widgets subscribe as they mount)
        self._relay_context = contextvars.copy_context()
        table, problem = self._first_table()
        if table is not None:
            # No lobby below: it is made when first needed (`back_to_lobby`). A seated player
            # connecting sees the table at once, and the server builds one screen instead of
            # two (~40% of a session's start-up CPU). It does not wait for a build slot: the
            # connection caps pace session starts, and a screen pushed over it (the take-over
            # question) must find the table below.
            BUILDS.claim()
            self._table_pace.take()
            screen, problem = self._table_screen(table)
            if screen is not None:
                return self._first(screen)
        return self._first(LobbyScreen(error=problem))

    def _first(self, screen: S) -> S:
        """`screen` as Textual's default screen, taking the result callback `switch_screen`
        gives a screen and pops when it switches it out (`back_to_lobby` switches the table for
        the lobby; pinned: server/hosting/textual_pins.py)."""
        screen._push_result_callback(screen, None)
        return screen

    def on_mount(self) -> None:
        self.subscriptions.add(
            "turns", self.lobby.subscribe_turns(self.identity, self._turn_relay())
        )
        if self.lobby.sessions_of(self.identity) > 1:
            self.push_screen(
                TakeOverScreen(can_take_over=self._take_over is not None), self._taken_over
            )
        self._screens_ready = True
        self._check_size(self.size)
        self._show_window_title()

    def _first_table(self) -> tuple[TableLike | None, str]:
        """The table to open at start: the one asked for, else the seat this identity holds."""
        if self.start_table is not None:
            try:
                table = self.lobby.table_for(self.identity, self.start_table)
            except IllegalAction as error:
                return None, str(error)
            if table.seat_of(self.identity) is None:
                try:
                    table.watch(self.identity, self.player_name)
                except IllegalAction as error:  # its node cannot be reached (a cluster)
                    return None, str(error)
            return table, ""
        held = self.lobby.seat_held_by(self.identity)
        return (held[0] if held is not None else None), ""

    def _taken_over(self, take: bool | None) -> None:
        if take and self._take_over is not None:
            try:
                self._take_over()
            except Exception:
                log.exception("take over failed for %s", self.identity)

    def on_key(self, event: events.Key) -> None:
        # Only keys that bubbled back up from a screen reach this handler (before bindings).
        keys_for_chat(self.focused, event)

    # -- your move, across tables ---------------------------------------------------------------

    def _turn_relay(self) -> Callable[[str, bool], None]:
        loop, context = self._relay_loop, self._relay_context
        assert loop is not None and context is not None

        def schedule(table_id: str, waits: bool) -> None:
            # (through `_unless_ended`: the session may end before the loop gets to it)
            loop.call_soon(
                self._unless_ended, self._turn_changed_now, (table_id, waits), context=context
            )

        return schedule

    def _turn_changed_now(self, change: tuple[str, bool]) -> None:
        if self.screen_stack:  # (an app that is exiting has none left)
            self._turn_changed(*change)

    def _turn_changed(self, table_id: str, waits: bool) -> None:
        """A table started or stopped waiting for us: ring (unless the player turned the bell
        off, or is looking at that very table: its prompt says so, and a game against a bot would
        ring at every move) and let the screen say so."""
        looking = isinstance(self.screen, TableScreen) and self.screen.table.id == table_id
        # a reaction window answered for us (we answered, or pass automatically) does not
        # wait for us: no bell
        waits = waits and table_id in self.tables_awaiting()
        if waits and self.bell_on and not looking:
            self.bells += 1
            self.bell()
        for screen in self.screen_stack:
            changed = getattr(screen, "turns_changed", None)
            if changed is not None:
                changed()
        self._show_window_title()

    def window_title(self) -> str:
        """The terminal window's title: a player with harena in a background tab sees their move
        there (`harena · your move: #3 #5`)."""
        waiting = self.tables_awaiting()
        return f"harena · your move: {_table_ids(waiting)}" if waiting else "harena"

    def _show_window_title(self) -> None:
        if self._window_title is None:
            return
        title = self.window_title()
        if title != self._window_title and not self.is_headless and self._driver is not None:
            self._window_title = title
            self._driver.write(f"\x1b]2;{title}\x07")  # OSC 2; ids: letters and digits only

    @property
    def bell_on(self) -> bool:
        return bool(self.lobby.settings.get(self.identity, "bell"))

    def toggle_bell(self) -> bool:
        """Turn the turn bell off or on (kept for this key across restarts; a guest's for the
        session); returns whether it is on now."""
        on = not self.bell_on
        self.lobby.settings.set(self.identity, "bell", on, persist=not self.guest)
        return on

    def tables_awaiting(self, *, besides: str | None = None) -> list[str]:
        """Ids of the tables waiting for our decision, longest wait first."""
        return [t for t, _ in self.lobby.awaiting(self.identity) if t != besides]

    def turn_note(self, *, besides: str | None = None) -> str:
        """What the screen's title adds while tables wait for us: ` · your move: #3 #5 (y)`."""
        waiting = self.tables_awaiting(besides=besides)
        return f" · your move: {_table_ids(waiting)} (y)" if waiting else ""

    def jump_to_next_turn(
        self, current: Screen[Any] | None = None, *, table_id: str | None = None
    ) -> str:
        """Open the table that has waited longest for us (after `table_id`'s, if that is one):
        an error to show, or "" when it opened one."""
        waiting = self.tables_awaiting()
        if table_id in waiting:
            waiting = waiting[waiting.index(table_id) + 1 :] + waiting[: waiting.index(table_id)]
        if not waiting:
            return "no other table is waiting for you"
        try:
            table = self.lobby.table(waiting[0])
        except IllegalAction as error:
            return str(error)
        if current is not None and not isinstance(current, LobbyScreen):
            if self._table_pace.wait() > 0:
                return f"one moment: a table opens at most every {GAP:g} s"
            self._table_pace.take()
            self._in_turn(0.0, lambda: self._switch_table(current, table))
        else:
            self.open_table(table)
        return ""

    # -- navigation -----------------------------------------------------------------------------

    def open_table(self, table: TableLike) -> None:
        """Show `table` over the lobby (Esc on it comes back here), as soon as `TablePace`
        allows; an open asked for sooner waits, and a newer one takes its place."""
        self._cancel_opening()
        wait = self._table_pace.delay()
        if wait > 0 and isinstance(self.screen, LobbyScreen):
            self.screen.status.show_info(f"Opening table #{table.id} ...")
        if wait <= 0 and BUILDS.take():
            self._push_table(table)
        else:
            self._in_turn(wait, lambda: self._paced_open(table), f"Opening table #{table.id} ...")

    def _in_turn(self, wait: float, build: Callable[[], None], notice: str = "") -> None:
        """`build` after `wait` seconds, once a slot of `BUILDS` is free (tried again until it
        is); a newer open cancels it (`_table_opening`). A build kept waiting for slots longer
        than `NOTICEABLE_WAIT` shows `notice` in the lobby."""
        self._cancel_opening()
        waiting = WaitingOpen(build, notice, time.monotonic() + wait)
        self._waiting_open = waiting
        if wait > 0:
            self._table_opening = self.set_timer(wait, partial(self._open_when_free, waiting))
        else:
            self._open_when_free(waiting)

    def _open_when_free(self, waiting: WaitingOpen) -> None:
        # A method with its open as an argument, not a closure that sets its own timer: that
        # closure held itself, a reference cycle per try, and under a flood of opens most of
        # the cyclic garbage the server made (and frozen at a collection while it waited).
        if waiting is not self._waiting_open:  # cancelled, a newer open took its place
            return
        if BUILDS.take():
            self._cancel_opening()
            waiting.build()
            return
        late = time.monotonic() - waiting.due
        if (
            waiting.notice
            and late > NOTICEABLE_WAIT
            and isinstance(lobby := self._on_top(), LobbyScreen)
        ):
            lobby.status.show_info(waiting.notice)
        self._table_opening = self.set_timer(BUILDS.retry(), partial(self._open_when_free, waiting))

    def _cancel_opening(self) -> None:
        """Forget the table open waiting its turn, if any: a newer one takes its place."""
        self._waiting_open = None
        if self._table_opening is not None:
            self._table_opening.stop()
            self._table_opening = None

    def _on_top(self) -> Screen[Any] | None:
        """The screen shown; None once the app has closed them all (an open that waited its
        turn may come while the app exits)."""
        stack = self.screen_stack
        return stack[-1] if stack else None

    def _paced_open(self, table: TableLike) -> None:
        if isinstance(lobby := self._on_top(), LobbyScreen):  # still where it was asked for
            lobby.status.clear()
            self._push_table(table)

    def _switch_table(self, current: Screen[Any], table: TableLike) -> None:
        if self._on_top() is current:  # still where it was asked for
            screen, error = self._table_screen(table)
            if screen is None:
                self.back_to_lobby(current, error=error)
                return
            self.switch_screen(screen)  # in place of this table's screen

    def _push_table(self, table: TableLike) -> None:
        self._table_pace.take()
        screen, error = self._table_screen(table)
        if screen is not None:
            self.push_screen(screen)
        elif isinstance(lobby := self._on_top(), LobbyScreen):
            lobby.show_error(error)
        else:
            self.push_screen(LobbyScreen(error=error))

    def _table_screen(self, table: TableLike) -> tuple[TableScreen | None, str]:
        """`table`'s screen with its first view; None and why if it cannot be shown now (in a
        cluster: its node and the cluster's storage cannot be reached)."""
        try:
            return TableScreen(table, table.view_for(self.identity)), ""
        except IllegalAction as error:
            return None, str(error)

    def back_to_lobby(self, screen: Screen[Any], *, error: str = "") -> None:
        """Close `screen` (the top one) for the lobby below it, made now if there is none yet;
        `error` is shown in its status line."""
        below = [s for s in self.screen_stack[:-1] if isinstance(s, LobbyScreen)]
        if below:
            screen.dismiss()
            if error:
                below[-1].show_error(error)
        else:
            self.switch_screen(LobbyScreen(error=error))

    def action_request_quit(self) -> None:
        def answered(yes: bool | None) -> None:
            if yes:
                self.exit()

        if self.guest:
            detail = "You are a guest: your seats are freed when you quit."
        else:
            detail = "Your seats stay yours: reconnect with the same key to come back."
        confirm(self, "Quit harena?", detail, answered)

    def action_help_quit(self) -> None:
        # Ctrl+C out of habit: ask, as `q` in the lobby does.
        self.action_request_quit()

    # -- subscriptions --------------------------------------------------------------------------

    def _in_our_context(
        self, deliver: Callable[[dict[str, Any]], None]
    ) -> Callable[[dict[str, Any]], None]:
        """A subscriber callback that runs `deliver(view)` soon, in this app's own context."""
        return self.soon_here(deliver)

    def soon_here(self, callback: Callable[[T], None]) -> Callable[[T], None]:
        """`callback`, callable from anywhere (a table's subscriber, another node's answer to
        a key), run soon in this app's own context: called in another's (a session whose
        wait ran the cluster's queued work), `self.app` there is that other session's."""
        loop, context = self._relay_loop, self._relay_context
        if loop is None or context is None:
            raise RuntimeError("subscribe only once the app is mounted")

        def schedule(value: T) -> None:
            loop.call_soon(self._unless_ended, callback, value, context=context)

        return schedule

    def _unless_ended(self, callback: Callable[[T], None], value: T) -> None:
        """`callback(value)`, unless this app was taken apart since (its session ended:
        server/hosting/dismantle.py clears it, leaving it marked closed, and an answer from
        another node may come seconds later)."""
        state = vars(self)
        if state and not state.get("_closed", False):
            callback(value)

    def now_or_soon_here(self, callback: Callable[[T], None]) -> Callable[[T], None]:
        """`soon_here`, but at once when called in this app's own context (a table run here
        answers a key at once: the screen shows it before the key's handler returns)."""
        later = self.soon_here(callback)

        def call(value: T) -> None:
            if active_app.get(None) is self:
                self._unless_ended(callback, value)
            else:
                later(value)

        return call

    def subscribe_lobby(self, target: ViewTarget, key: str) -> None:
        """The lobby's views reach `target.show(view)` as a table's do (`subscribe_table`):
        every change at any table reaches every session in the lobby."""
        self.subscriptions.add(key, self.lobby.subscribe(self._shows(target), self.identity))

    def subscribe_table(self, table: TableLike, target: ViewTarget, key: str) -> None:
        """Views of `table` reach `target.show(view)` as soon as the loop gets to them: not as a
        message, since every move reaches every session at the table (a message costs a queue,
        a task switch and Textual's dispatch, per screen per move)."""
        self.subscriptions.add(key, table.subscribe(self.identity, self._shows(target)))

    def _shows(self, target: ViewTarget) -> Callable[[dict[str, Any]], None]:
        """A subscriber callback that calls `target.show(view)` soon, in this app's own context
        (so it captures no other app), unless the target has closed meanwhile."""

        def deliver(view: dict[str, Any]) -> None:
            if not target.is_attached:
                return  # closed meanwhile: as a message to it would be dropped
            try:
                target.show(view)
            except Exception as error:  # as an error in a message handler: the app's to handle
                self._handle_exception(error)

        return self._in_our_context(deliver)

    def unsubscribe(self, key: str) -> None:
        self.subscriptions.close(key)

    def close_subscriptions(self) -> None:
        """Close every subscription this app holds (on unmount; the server may call it after a
        crash)."""
        self.subscriptions.close_all()

    def on_unmount(self) -> None:
        self.close_subscriptions()

    # -- terminal size --------------------------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        if self._screens_ready:
            self._check_size(event.size)

    def _check_size(self, size: Size) -> None:
        if too_small(size):
            if self._too_small is None:
                self._too_small = TooSmallScreen(size)
                self.push_screen(self._too_small)
            else:
                self._too_small.show_size(size)
        elif self._too_small is not None:
            if self.screen is self._too_small:
                self.pop_screen()
                self._too_small = None

    # -- nothing on the server's side ----------------------------------------------------------

    def open_url(self, url: str, *, new_tab: bool = True) -> None:
        log.info("not opening %r: harena runs on a server", url)

    def save_screenshot(self, *args: Any, **kwargs: Any) -> str:
        log.info("screenshots are not written on the server")
        return ""

    def deliver_screenshot(self, *args: Any, **kwargs: Any) -> str | None:
        log.info("screenshots are not delivered from the server")
        return None

    def deliver_text(self, *args: Any, **kwargs: Any) -> str | None:
        log.info("files are not delivered from the server")
        return None

    def deliver_binary(self, *args: Any, **kwargs: Any) -> str | None:
        log.info("files are not delivered from the server")
        return None

    def action_screenshot(self, *args: Any, **kwargs: Any) -> None:
        log.info("screenshots are disabled")


def _table_ids(tables: list[str]) -> str:
    """`#3 #5 #7 ...`: the first three tables waiting, and whether more do."""
    return " ".join(f"#{t}" for t in tables[:3]) + (" ..." if len(tables) > 3 else "")
