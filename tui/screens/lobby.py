"""The lobby: tables to join or watch, who is online, and the lobby chat."""

from __future__ import annotations

import logging
import time
from functools import partial
from typing import TYPE_CHECKING, Any, cast

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.content import Content
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widget import Widget

from harena.core.clocks import waited
from harena.core.commands import NAME_NOTE, accepted
from harena.core.engine import IllegalAction
from harena.core.guide import create_guided_table
from harena.core.privacy import Privacy
from harena.core.table.options import TableOptions
from harena.tui.screens.create_table import TableRequest, show_create_table
from harena.tui.screens.help import HelpKeys
from harena.tui.screens.invite import InviteScreen, guests_of
from harena.tui.screens.kept import show_kept
from harena.tui.screens.operator import OperatorScreen
from harena.tui.screens.pick import PickScreen
from harena.tui.screens.quiet import QuietFocus
from harena.tui.widgets.chat import ChatInputRow, ChatKeys, ChatPanel
from harena.tui.widgets.header_line import HeaderLine
from harena.tui.widgets.key_bar import KeyBar
from harena.tui.widgets.lines_panel import LinesPanel
from harena.tui.widgets.lines_view import fit
from harena.tui.widgets.made_once import MadeOnce
from harena.tui.widgets.panel import Panel
from harena.tui.widgets.rows import RowsWidget
from harena.tui.widgets.status_line import StatusLine
from harena.tui.widgets.table_list import TableList, detail_lines

if TYPE_CHECKING:
    from harena.core.table_like import TableLike
    from harena.tui.app import HarenaApp

log = logging.getLogger(__name__)

WAIT_TICK = 60.0  # seconds between updates of "waited 12m", only while a table waits for you


def mark_awaiting(
    tables: list[dict[str, Any]], awaiting: list[tuple[str, float]], now: float
) -> list[dict[str, Any]]:
    """The tables waiting for you first (longest wait first), each marked with how long it has
    waited; the others as they were."""
    since = dict(awaiting)
    mine = sorted((t for t in tables if t["id"] in since), key=lambda t: since[t["id"]])
    return [{**t, "waited": waited(now - since[t["id"]])} for t in mine] + [
        t for t in tables if t["id"] not in since
    ]


def mark_kept(tables: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    """The tables keeping a seat for `name` first, marked (core/table/kept.py): names are one
    per key on a server, so a seat kept for this name is this player's."""
    folded = name.casefold()

    def kept(table: dict[str, Any]) -> bool:
        return any(str(s.get("kept", "")).casefold() == folded for s in table["seats"])

    mine = [{**t, "kept_for_you": True} for t in tables if kept(t)]
    return mine + [t for t in tables if not kept(t)] if mine else tables


class TableDetails(RowsWidget):
    """Two lines on the selected table; fixed height, so updates never re-layout. Drawn row
    by row: a change elsewhere in the lobby leaves them alone."""

    DEFAULT_CSS = """
    TableDetails {
        height: 2;
        width: 1fr;
        padding: 0 1;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._lines: list[str] = []

    def show(self, table: dict[str, Any] | None) -> None:
        lines = [] if table is None else detail_lines(table)
        if lines != self._lines:
            self._lines = lines
            self.update_rows()

    @property
    def text(self) -> str:
        return "\n".join(self._lines)

    def build_rows(self, width: int, height: int) -> list[Content]:
        return [Content(fit(line, width)) for line in self._lines]


class NoticeLine(Widget):
    """The operators' notice: one bold line under the header, hidden while there is none."""

    DEFAULT_CSS = """
    NoticeLine {
        height: 1;
        width: 1fr;
        padding: 0 1;
        text-style: bold;
        display: none;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._notice = ""

    @property
    def text(self) -> str:
        return self._notice

    def show_notice(self, notice: str) -> None:
        if notice != self._notice:
            self._notice = notice
            self.display = bool(notice)  # the one layout change, when an operator posts one
            self.refresh()

    def render(self) -> Content:
        width = self.content_size.width
        line = f"Notice: {self._notice}"
        return Content(fit(line, width))


_online: MadeOnce[list[str]] = MadeOnce(kept=1)
"""The last online lines made, by the ratings list they were made from."""


def online_lines(view: dict[str, Any]) -> list[str]:
    """`ann       C1516 S1480`: who is online, with their rating at each game they are rated
    at (the game's initial).

    Made once per lobby change for every session: each is given the same list of ratings (the
    public view, built once per change) and the lines are a pure function of it. The very same
    strings also let each session's panel see at once that nothing changed."""
    rated = view.get("online_ratings")
    if rated is None:
        return list(view["online"])
    return list(_online.get((rated,), None, lambda: _made_online_lines(rated)))


def _made_online_lines(rated: list[tuple[str, dict[str, int]]]) -> list[str]:
    out = []
    for name, ratings in rated:
        marks = " ".join(f"{game[:1].upper()}{value}" for game, value in sorted(ratings.items()))
        out.append(f"{name[:10]:<10} {marks}".rstrip() if marks else name)
    return out


class OnlinePanel(LinesPanel):
    def show_names(self, names: list[str]) -> None:
        if isinstance(self.parent, Panel):
            self.parent.set_title(f"Online ({len(names)})")
        self.set_lines(names)


class LobbyScreen(QuietFocus, ChatKeys, HelpKeys, Screen[None]):
    """Listens to the lobby only while it is the active screen (nothing to draw otherwise)."""

    DEFAULT_CSS = """
    LobbyScreen #lower {
        height: 8;
    }
    LobbyScreen #online-panel {
        width: 24;
    }
    """

    HELP_TITLE = "lobby"
    BINDINGS = [
        Binding(
            "up,k", "move(-1)", "select", key_display="↑↓", tooltip="select a table (also k and j)"
        ),
        Binding("down,j", "move(1)", show=False),
        Binding("enter", "sit", "sit", tooltip="take a free seat there, or go back to your seat"),
        Binding("w", "watch", "watch", tooltip="watch the selected table as a spectator"),
        Binding(
            "n", "new_table", "new table", tooltip="create a table: game, players, options, bots"
        ),
        Binding(
            "c", "chat", "chat", tooltip="chat in the lobby (Enter sends, Esc leaves the input)"
        ),
        Binding("question_mark", "help", "help", tooltip="this help"),
        Binding("q", "quit", "quit", tooltip="quit harena (asks first)"),
        Binding(
            "y",
            "your_move",
            "your move",
            show=False,
            tooltip="open the table that has waited longest for you",
        ),
        Binding(
            "b",
            "bell",
            "bell",
            show=False,
            tooltip="turn the bell for your turns off or on (kept for your key)",
        ),
        Binding(
            "p",
            "auto_pass",
            "auto-pass",
            show=False,
            tooltip="answer every reaction window 'Let it be' for you at once, or ask again "
            "(kept for your key; you may still change the answer while the window is open)",
        ),
        Binding(
            "h", "history", "history", show=False, tooltip="your finished games; Enter replays one"
        ),
        Binding("r", "ratings", "ratings", show=False, tooltip="the leaderboard of each game"),
        Binding(
            "a",
            "notices",
            "notices",
            show=False,
            tooltip="be told by webhook or e-mail when a table waits for you while you are away",
        ),
        Binding(
            "f",
            "finished",
            "finished tables",
            show=False,
            tooltip="switch between the tables in play and the finished ones (w reads one)",
        ),
        Binding(
            "x",
            "remove_player",
            "remove a player",
            show=False,
            tooltip="at a table you created: free another seat before the start, or release "
            "a seat kept for a friend",
        ),
        Binding(
            "i",
            "invite",
            "invite",
            show=False,
            tooltip="at a private table you created: invite people by name, or share a code",
        ),
        Binding(
            "o",
            "operator",
            "operator",
            show=False,
            tooltip="operators only: close, delete, kick, ban, notice (type help)",
        ),
    ]
    HELP_EXTRA = [
        ("(h)", "after a table's game: hints are allowed there (h asks the hard bot what it "
         "would choose; every player's turning points show after the game); never rated"),
        ("ctrl+q", "quit at once, without asking"),
    ]  # fmt: skip

    def __init__(self, *, error: str = "") -> None:
        """`error`: shown in the status line at once (e.g. the table asked for is gone)."""
        super().__init__()
        self._first_error = error
        self._finished = False  # showing the finished tables instead of those in play
        self._ticking: Any = None  # updates the waits shown, only while a table waits for you

    @property
    def harena(self) -> HarenaApp:
        return cast("HarenaApp", self.app)

    def help_entries(self) -> list[tuple[str, str]]:
        # `ssh -p 2222 example.org table 7` and the others, as this player types them: where
        # they read the lobby's keys.
        # The key column says `ssh`, the rest follows it (a wide key column would squeeze every
        # line of the help).
        ssh, _, target = self.harena.ssh.partition(" ")
        usages = accepted(["GAME"]) if ssh else []
        name = [("name", NAME_NOTE)] if ssh else []  # no `user@` in them: your key names you
        return [*super().help_entries(), *((ssh, f"{target} {u}: {w}") for u, w in usages), *name]

    def compose(self) -> ComposeResult:
        app = self.harena
        who = f"you are {app.player_name}" + (" (guest)" if app.guest else "")
        who += " (operator: o)" if app.operator is not None else ""
        self._who = who
        yield HeaderLine(self._header(), id="header")
        yield NoticeLine(id="notice")
        yield Panel("Tables", TableList(id="tables"), id="tables-panel")
        yield TableDetails(id="details")
        with Horizontal(id="lower"):
            yield Panel("Lobby chat", ChatPanel(id="chat"))
            yield Panel("Online", OnlinePanel(id="online"), id="online-panel")
        yield ChatInputRow(id="say")
        yield StatusLine(id="status")
        yield KeyBar(self.BINDINGS, id="keys")

    def on_mount(self) -> None:
        if self._first_error and self.query(StatusLine):
            self.status.show_error(self._first_error)

    # -- the lobby's view ---------------------------------------------------------------------

    @property
    def subscription_key(self) -> str:
        return f"lobby:{id(self):x}"

    def on_screen_resume(self) -> None:
        self.harena.subscribe_lobby(self, self.subscription_key)
        self.show(self.harena.lobby.view(self.harena.identity))

    def on_screen_suspend(self) -> None:
        self.harena.unsubscribe(self.subscription_key)
        self._tick(False)

    def on_unmount(self) -> None:
        self.harena.unsubscribe(self.subscription_key)
        self._tick(False)

    def _header(self) -> str:
        bell = "" if self.harena.bell_on else " · bell off"
        bell += " · auto-pass" if self._auto_pass else ""
        return f"harena · lobby · {self._who}{bell}{self.harena.turn_note()}"

    @property
    def _auto_pass(self) -> bool:
        app = self.harena
        return bool(app.lobby.settings.get(app.identity, "auto_pass"))

    def turns_changed(self) -> None:
        """A table started or stopped waiting for us: mark it (only while we are shown)."""
        if self.is_current:
            self.show(self.harena.lobby.view(self.harena.identity))

    def _tick(self, running: bool) -> None:
        if running and self._ticking is None:
            self._ticking = self.set_interval(
                WAIT_TICK, lambda: self.show(self.harena.lobby.view(self.harena.identity))
            )
        elif not running and self._ticking is not None:
            self._ticking.stop()
            self._ticking = None

    def show(self, view: dict[str, Any]) -> None:
        try:
            self._draw(view)
        except NoMatches:
            # A session that ends while this screen mounts never gets its widgets.
            log.debug("lobby screen not drawn, its widgets are gone")

    def _draw(self, view: dict[str, Any]) -> None:
        self.query_one(NoticeLine).show_notice(view["notice"])
        self.query_one(HeaderLine).set_text(self._header())
        tables = self.query_one(TableList)
        awaiting = self.harena.lobby.awaiting(self.harena.identity, here=True)
        self._tick(bool(awaiting) and self.is_current)
        if self._finished:
            tables.set_tables(view["finished"])
        else:
            listed = mark_kept(view["tables"], self.harena.player_name)
            tables.set_tables(mark_awaiting(listed, awaiting, time.time()))
        self.query_one(TableDetails).show(tables.selected)
        self.query_one(ChatPanel).show_chat(view["chat"])
        self.query_one(OnlinePanel).show_names(online_lines(view))

    # -- actions --------------------------------------------------------------------------------

    @property
    def status(self) -> StatusLine:
        return self.query_one(StatusLine)

    def show_error(self, message: str) -> None:
        self.status.show_error(message)

    def action_finished(self) -> None:
        self._finished = not self._finished
        panel = self.query_one("#tables-panel", Panel)
        panel.set_title("Finished tables (f: in play)" if self._finished else "Tables")
        tables = self.query_one(TableList)
        tables.set_empty_text("No finished tables." if self._finished else TableList.empty_text)
        self.show(self.harena.lobby.view(self.harena.identity))
        self.status.clear()

    def action_your_move(self) -> None:
        problem = self.harena.jump_to_next_turn()
        if problem:
            self.status.show_error(problem)
        else:
            self.status.clear()

    def action_bell(self) -> None:
        on = self.harena.toggle_bell()
        self.query_one(HeaderLine).set_text(self._header())
        self.status.show_info(
            "The bell rings when a decision becomes yours" if on else "No bell for your turns"
        )

    def action_auto_pass(self) -> None:
        """The player setting `auto_pass` (core/players.py), from the next reaction window."""
        app = self.harena
        on = not self._auto_pass
        app.lobby.settings.set(app.identity, "auto_pass", on, persist=not app.guest)
        self.query_one(HeaderLine).set_text(self._header())
        self.status.show_info(
            "Reaction windows: 'Let it be' for you at once (a key still changes it)"
            if on
            else "Reaction windows ask you again"
        )

    def action_history(self) -> None:
        from harena.tui.screens.history import HistoryScreen

        show_kept(self.app, "history", HistoryScreen, HistoryScreen.reset)

    def action_ratings(self) -> None:
        from harena.tui.screens.leaderboard import LeaderboardScreen

        show_kept(self.app, "ratings", LeaderboardScreen, LeaderboardScreen.reset)

    def action_notices(self) -> None:
        from harena.tui.screens.notices import NoticeSettingsScreen, saved_text

        app = self.harena
        channels = app.lobby.notice_channels
        if app.guest or not channels:
            self.status.show_error(
                "guests get no notices: connect with an SSH key"
                if app.guest
                else "this server sends no notices"
            )
            return
        settings = app.lobby.settings

        def save(values: dict[str, Any]) -> None:
            for name, value in values.items():
                settings.set(app.identity, name, value)

        def done(saved: bool | None) -> None:
            if saved:  # what was kept, read back: the status line confirms it
                self.status.show_info(saved_text(partial(settings.get, app.identity)))
            else:
                self.status.show_info("Notices: nothing changed")

        screen = NoticeSettingsScreen(partial(settings.get, app.identity), save, channels)
        self.app.push_screen(screen, done)

    def action_remove_player(self) -> None:
        table = self._selected_table()
        if table is None:
            return
        app = self.harena
        if table.creator != app.identity:
            self.status.show_error("only the table's creator may remove a player")
            return
        # Numbered as listed (1, 2, ...): players are named, never shown by seat. A seat kept
        # for a friend is listed too, to release (even after the start: core/table/kept.py).
        kept = {i: s["kept"] for i, s in enumerate(table.summary()["seats"]) if s.get("kept")}
        held = [] if table.started else [
            i for i, s in enumerate(table.seats) if not s.free and s.identity != app.identity
        ]  # fmt: skip
        listed = [(seat, False) for seat in held] + [(seat, True) for seat in kept]
        by_key = {str(k): pair for k, pair in enumerate(listed[:9], start=1)}
        seats = [
            (key, f"release the seat kept for {kept[seat]}" if release
             else table.seats[seat].name or "bot")
            for key, (seat, release) in by_key.items()
        ]  # fmt: skip
        if not seats:
            self.status.show_error(
                "nobody to remove: "
                + ("the game has started" if table.started else "no one else is seated")
            )
            return

        def picked(key: str | None) -> None:
            if key is None:
                return
            seat, release = by_key[key]
            try:
                if release:
                    name = table.release_seat(app.identity, seat)
                else:
                    name = table.remove_player(app.identity, seat)
            except IllegalAction as error:
                self.status.show_error(str(error))
                return
            done = "no longer waited for" if release else "removed from"
            self.status.show_info(f"{name} {done} table {table.id}")

        self.app.push_screen(PickScreen(f"Remove whom from table {table.id}?", seats), picked)

    def action_invite(self) -> None:
        table = self._selected_table()
        if table is None:
            return
        app = self.harena
        if table.privacy is None or table.creator != app.identity:
            self.status.show_error(
                "only the creator of a private table invites people to it"
                if table.privacy is not None
                else "this table is open to everyone: make a private one to invite people (n)"
            )
            return
        self.app.push_screen(InviteScreen(guests_of(table, app)))

    def action_operator(self) -> None:
        run = self.harena.operator
        if run is None:
            self.status.show_error("only operators may do that on this server")
            return
        self.app.push_screen(OperatorScreen(run))

    def action_move(self, delta: int) -> None:
        tables = self.query_one(TableList)
        tables.move(delta)
        self.query_one(TableDetails).show(tables.selected)

    def _selected_table(self) -> TableLike | None:
        table_id = self.query_one(TableList).selected_id
        if table_id is None:
            self.status.show_error("there is no table yet: press n to create one")
            return None
        try:
            return self.harena.lobby.table_for(self.harena.identity, table_id)
        except IllegalAction as error:
            self.status.show_error(str(error))
            return None

    def action_sit(self) -> None:
        table = self._selected_table()
        if table is None:
            return
        app = self.harena
        if self.not_a_guest(table, app.identity):
            return
        try:
            table.sit(app.identity, app.player_name)
        except IllegalAction as error:
            self.status.show_error(f"{error}; press w to watch it")
            return
        self.status.clear()
        app.open_table(table)

    def action_watch(self) -> None:
        table = self._selected_table()
        if table is None:
            return
        app = self.harena
        if self.not_a_guest(table, app.identity):
            return
        try:
            table.watch(app.identity, app.player_name)
        except IllegalAction as error:  # its node cannot be reached (a cluster)
            self.status.show_error(str(error))
            return
        self.status.clear()
        app.open_table(table)

    def not_a_guest(self, table: TableLike, identity: str) -> bool:
        """An operator sees every private table but is no guest at one: said so (a player who
        may not know of it never sees it listed)."""
        if table.privacy is None or table.knows(identity):
            return False
        self.status.show_error("a private table: operators see it, only the invited sit or watch")
        return True

    def action_new_table(self) -> None:
        games = self.harena.lobby.view()["games"]
        if not games:
            self.status.show_error("no game is installed on this server")
            return
        app = self.harena
        friends = [] if app.guest else app.lobby.people_met(app.identity)
        show_create_table(self.app, games, self._create, self._created, friends)

    def _create(self, request: TableRequest) -> str:
        """Called by the create modal; errors propagate there and are shown in it."""
        app = self.harena
        if request.learn:
            return create_guided_table(app.lobby, app.identity, app.player_name, request.game).id
        table = app.lobby.create_table(
            app.identity,
            app.player_name,
            request.game,
            request.players,
            request.options,
            bots=request.bots,
            bot_kinds=request.bot_kinds,
            policy=request.policy,
            privacy=Privacy(request.privacy) if request.privacy else None,
            hints=request.hints,
            table_options=TableOptions(declined=request.declined),
            keep_for=request.keep_for,
            keep_with_bot=request.keep_with_bot,
        )
        return table.id

    def _created(self, table_id: str | None) -> None:
        if table_id is None:
            return
        try:
            table = self.harena.lobby.table_for(self.harena.identity, table_id)
        except IllegalAction as error:
            self.status.show_error(str(error))
            return
        self.query_one(TableList).select(table_id)
        self.status.clear()
        self.harena.open_table(table)

    def send_chat(self, text: str) -> None:
        app = self.harena
        app.lobby.say(app.identity, app.player_name, text)

    def action_quit(self) -> None:
        self.harena.action_request_quit()
