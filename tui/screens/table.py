"""The generic table screen: seats, board (a plug-in per game), log, chat, and the prompt bar.

It works for any game because it reads nothing but `Table.view_for(identity)`: the seat's own
prompts, the public table and whatever the game's board view lets this seat see. Acting sends
the choice id with the decision number the screen was drawn from, so a stale screen cannot
answer the next prompt by accident.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar, cast

from textual.app import ComposeResult
from textual.binding import Binding, BindingsMap, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widget import Widget

from harena.core.clocks import coarse
from harena.core.engine import IllegalAction
from harena.core.lobby import MOVED
from harena.core.plural import counted, denarii
from harena.core.review.verdict import Hint
from harena.tui import review_calls
from harena.tui.boards import BoardWidget, board_widget_for
from harena.tui.guide import TableGuide
from harena.tui.screens.asks import ASK_KIND, AskOffer, AskScreen
from harena.tui.screens.confirm import confirm
from harena.tui.screens.give import GIFT_KIND, GiftOffer, GiveScreen
from harena.tui.screens.help import HelpKeys
from harena.tui.screens.quiet import QuietFocus
from harena.tui.screens.rules import RulesScreen
from harena.tui.widgets.chat import ChatInputRow, ChatKeys, ChatPanel
from harena.tui.widgets.game_over import REMATCH_KEY, GameOverPanel
from harena.tui.widgets.header_line import HeaderLine
from harena.tui.widgets.key_bar import KeyBar, help_entries
from harena.tui.widgets.lines_panel import LogPanel
from harena.tui.widgets.panel import Panel
from harena.tui.widgets.prompt_bar import PROMPT_BINDINGS, PromptBar, PromptKeys, shown_stamp
from harena.tui.widgets.seats import SeatsPanel, seat_label, waiting_seats
from harena.tui.widgets.status_line import StatusLine
from harena.tui.widgets.table_list import status_word

if TYPE_CHECKING:
    from harena.core.table_like import TableLike
    from harena.tui.app import HarenaApp

log = logging.getLogger(__name__)

W = TypeVar("W", bound=Widget)

PLAYERS_ONLY = ("leave", "rematch")
"""Actions of the screen's bindings that do nothing for a spectator (the bar leaves them out)."""


def with_key(binding: BindingType, action: str) -> BindingType:
    """A binding as a bar with one more key shows it, so that the bar still fits 80 columns:
    at a table with hints `h hint` on it and `l leave` said short; at your private table `i
    invite` on it in place of `l leave` (inviting is what the wait is for; `?` still lists l)."""
    if not isinstance(binding, Binding):
        return binding
    if binding.action == action:
        return replace(binding, show=True)
    if binding.action == "leave":
        return (
            replace(binding, show=False)
            if action == "invite"
            else replace(binding, description="leave")
        )
    return binding


def hint_refused(view: dict[str, Any]) -> str | None:
    """Why `h` gives no hint here and now (None: it asks)."""
    if not view["table"].get("hints"):
        return "this table does not allow hints (its creator's choice; rated games never do)"
    if view["table"]["you"] is None:
        return "hints are for the players at this table"
    if view["game"]["result"] is not None:
        return "the game is over: i shows how it went"
    if not [p for p in view["game"]["prompts"] if not p.get("standing")]:
        return "no decision of yours to hint at now"
    return None


def hint_text(hint: Hint) -> str:
    """ "Hint: the hard bot would choose Guard (about 62% chance to win with it)"."""
    return (
        f"Hint: the hard bot would choose {hint.label} "
        f"(about {round(hint.value * 100)}% chance to win with it)"
    )


def idle_text(view: dict[str, Any], *, inviting: bool = False) -> str:
    """Why this seat has nothing to choose now, in words. `inviting`: the player may invite
    people to this private table (they created it)."""
    table, game = view["table"], view["game"]
    free = sum(s["free"] for s in table["seats"])
    if table["status"] == "waiting":
        seats = counted(free, "free seat")
        if inviting:
            return f"Waiting for players: {seats}. Invite people: i (your private table)."
        return f"Waiting for players: {seats}. The game starts when every seat is taken."
    waiting = waiting_seats(game)
    who = ", ".join(f"{seat_label(table['seats'], s)} ({'/'.join(k)})" for s, k in waiting.items())
    who = who or "nobody"
    if table["you"] is None:
        return f"Watching as a spectator. Waiting for {who}."
    return f"Waiting for {who}."


FOLLOW_EVERY = 0.25  # seconds between looks for a moved table's new owner in the lobby
FOLLOW_TRIES = 40  # ... for ten seconds, then back to the lobby, saying so
CLOCK_TICK = 10.0  # seconds between countdown updates, at most (nothing ticks without a clock)
WINDOW_TICK = 1.0  # ... while a reaction window that asks you is open: its seconds count down


def window_left(window: dict[str, Any], now: float) -> int:
    """Whole seconds until the reaction window closes at the latest (never below 0)."""
    return max(0, math.ceil(float(window["closes"]) - now - 1e-6))


def window_note(window: dict[str, Any], now: float) -> str:
    """Before a reaction window's question (first, so 80 columns never cut it), the same for
    everyone asked: the live countdown, and whether your answer is in (another key changes
    it). "1 Let it be" is the first choice on every screen asked."""
    left = window_left(window, now)
    if window.get("answer") is None:
        return f"({left} s left)"
    return f"(answered; {left} s left)"


def window_idle(window: dict[str, Any]) -> str:
    """For a seat the window does not ask (the schemer, the lot's winner, a spectator): what
    the table waits for, and for how long at most (no countdown: it does not concern them)."""
    return f"Waiting for Reactions: {window['seconds']:g} s at most, less once all asked answer."


def clock_text(view: dict[str, Any], now: float, name: Callable[[int], str]) -> str:
    """`your time: 4m` / `bob: 2h`, coarse, for each awaited player with a deadline, and who
    has a bot playing for them; '' at a table without a clock."""
    table = view["table"]
    parts = []
    for seat, at, why in table.get("deadlines", []):
        who = "your time" if seat == table["you"] else name(seat)
        parts.append(f"{who}{' (away)' if why == 'away' else ''}: {coarse(at - now)}")
    for seat, held in enumerate(table["seats"]):
        if held.get("stand_in") and seat != table["you"]:
            parts.append(f"bot plays for {name(seat)}")
    return ", ".join(parts)


def stand_in_note(view: dict[str, Any]) -> str:
    """For a player a bot plays for: why, and how to take the seat back."""
    table = view["table"]
    if table["you"] is None:
        return ""
    why = table["seats"][table["you"]].get("stand_in")
    if not why:
        return ""
    reason = "your time ran out" if why == "clock" else "you were away"
    return f"A bot plays for you ({reason}): t takes your seat back."


def header_text(view: dict[str, Any], board: type[BoardWidget] | BoardWidget | None = None) -> str:
    table = view["table"]
    if table["you"] is None:
        you = "watching"
    else:
        own = board.seat_label(view, table["you"]) if board is not None else None
        you = f"you: {own or seat_label(table['seats'], table['you'])}"
    title = (board.SHORT_TITLE if board is not None else None) or table["title"]
    return f"Table {table['id']} · {title} · {status_word(table['status'])} · {you}"


class TableScreen(QuietFocus, ChatKeys, PromptKeys, HelpKeys, Screen[None]):
    DEFAULT_CSS = """
    TableScreen #body {
        height: 1fr;
    }
    TableScreen #left {
        width: 34;
    }
    TableScreen #log-panel {
        height: 6;
    }
    TableScreen.-ascii Panel {
        border-top: ascii $secondary;
    }
    TableScreen.-ascii GameOverPanel {
        border-top: ascii $secondary;
    }
    """

    HELP_TITLE = "table"
    BINDINGS = [
        *PROMPT_BINDINGS,
        Binding(
            "c", "chat", "chat", tooltip="chat at this table (Enter sends, Esc leaves the input)"
        ),
        Binding(
            "r",
            "rules",
            "rules",
            tooltip="the rules of this phase on one screen (Left/Right: other phases)",
        ),
        Binding(
            "l", "leave", "leave seat", tooltip="give up your seat (asks first), back to the lobby"
        ),
        Binding("escape", "lobby", "lobby", tooltip="back to the lobby, keeping your seat"),
        Binding(
            "y",
            "your_move",
            "your move",
            show=False,
            tooltip="the next table that waits for your decision",
        ),
        Binding(
            "t",
            "take_back",
            "take seat back",
            show=False,
            tooltip="a bot plays for you (your time ran out, or you were away): play yourself again",
        ),
        Binding(
            "v",
            "review",
            "review",
            show=False,
            tooltip="step through the game so far as your seat saw it (a finished game: all revealed)",
        ),
        Binding(
            "h",
            "hint",
            "hint",
            show=False,  # on the bar only where hints are allowed (`_bar_keys`)
            tooltip="what the hard bot would choose now (where hints are allowed)",
        ),
        Binding(
            "i",
            "invite",
            "invite",
            show=False,  # on the bar only at a private table of yours (`_bar_keys`)
            tooltip="at your private table: invite people by name, or share a code",
        ),
        Binding(
            "i",
            "how_it_went",
            "how it went",
            show=False,
            tooltip="after the game: how it went, where it turned for you",
        ),
        Binding(
            REMATCH_KEY,
            "rematch",
            "play again",
            show=False,
            tooltip="game over: play again at a new table, same settings, seats turned by one",
        ),
        Binding("enter", "done", show=False),
        Binding("question_mark", "help", "help", tooltip="this help"),
    ]
    HELP_EXTRA = [
        ("gone:", "a choice no longer offered: its number stays taken until your next decision"),
        ("+N more", "a list cut to fit: the key or the terminal size after it shows the rest"),
        ("Enter", "after the game is over: back to the lobby (or to your rematch)"),
        ("ctrl+q", "quit harena at once"),
    ]

    def __init__(self, table: TableLike, view: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.table = table
        self.view: dict[str, Any] = {}
        self._first_view = view  # asked for by whoever opened the screen (None: ask now)
        self._widgets: dict[type[Widget], Widget] = {}
        self.board_class = board_widget_for(table.summary()["game"])
        if self.board_class.SCREEN_BINDINGS:
            # The board's keys are the screen's: nothing takes focus, so only screen bindings
            # see the keys (their actions reach the board through `action_board`). The board's
            # come first: its Tab (Spartacus: the next House) wins over Screen's focus_next.
            self._bindings = BindingsMap.merge(
                [BindingsMap(self.board_class.SCREEN_BINDINGS), self._bindings]
            )
        self._bar_watching: bool | None = None  # the key bar lists a spectator's keys
        self._confirming: str | None = None  # a choice waiting for its second press
        self._confirming_at: int | None = None  # ... asked at this decision number
        self._gone_reason: str | None = None  # the table left the server, for this reason
        self._ticking: Any = None  # the countdown's timer, only while a clock runs
        self._tick_every: float | None = None  # ... and its interval
        self.guide: TableGuide | None = None  # a guided first game's panels (tui/guide.py)

    @property
    def harena(self) -> HarenaApp:
        return cast("HarenaApp", self.app)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Keys reach a pushed screen before it is composed (a quick `w` then Esc): its actions
        # read the view, which it has from then on.
        if action == "invite" and not self._may_invite():
            return False  # `i` is then the review's key (a game over)
        return bool(self.view) and super().check_action(action, parameters)

    def _may_invite(self) -> bool:
        """This player created this private table, and its game is not over: `i` invites."""
        return (
            bool(self.view)
            and self.table.privacy is not None
            and self.table.creator == self.harena.identity
            and self.view["table"]["status"] in ("waiting", "playing")
        )

    def action_invite(self) -> None:
        from harena.tui.screens.invite import InviteScreen, guests_of

        self.app.push_screen(InviteScreen(guests_of(self.table, self.harena)))

    @property
    def subscription_key(self) -> str:
        # Per screen: an old screen unmounting late must not close its successor's subscription.
        return f"table:{self.table.id}:{id(self):x}"

    def compose(self) -> ComposeResult:
        view = self._first_view or self.table.view_for(self.harena.identity)
        self.view, self._first_view = view, None
        board_class = self.board_class
        yield HeaderLine(header_text(view, board_class), id="header")
        if board_class.OWNS_BODY:
            yield board_class(id="body")
        else:
            with Horizontal(id="body"):
                with Vertical(id="left"):
                    seats = len(view["table"]["seats"])
                    yield Panel("Players", SeatsPanel(id="seats"), rows=seats)
                    yield Panel("Table chat", ChatPanel(id="chat"))
                with Vertical(id="right"):
                    yield Panel(board_class.TITLE, board_class(id="board"))
                    yield Panel("Log", LogPanel(id="log"), id="log-panel")
        yield PromptBar(id="prompt")
        if view["game"]["result"] is not None:
            # Else made when the game ends (`_game_over`): most screens never show one, and a
            # hidden widget costs a session's start as much as a shown one.
            yield self._widgets.setdefault(GameOverPanel, GameOverPanel(id="game-over"))
        yield ChatInputRow(id="say")
        yield StatusLine(id="status")
        bindings, lead = self._bar_keys(view)
        yield KeyBar(bindings, lead=lead, id="keys")
        self.guide = TableGuide.for_table(self, self.table, self.harena.guide_progress)
        if self.guide is not None:
            yield self.guide.box

    def on_mount(self) -> None:
        # A terminal that is not UTF-8 gets rules of plain dashes (boards draw their own ASCII).
        self.set_class(not getattr(self.app, "unicode", True), "-ascii")
        try:
            self.harena.subscribe_table(self.table, self, self.subscription_key)
        except IllegalAction as error:  # a cluster's table unreachable since its first view
            self.harena.back_to_lobby(self, error=str(error))
            return
        removed = getattr(self.table, "removed", None)
        if removed:  # it left between compose and now (in a cluster: moved as the screen opened)
            self._gone(removed)
            return
        # The view again: a move between compose and this subscription (a bot is quick) would
        # otherwise leave the screen one move behind until the next one.
        self.show(self.table.view_for(self.harena.identity))

    def on_resize(self) -> None:
        if self.guide is not None:
            self.guide.place_later()  # beside what it explains at the new size

    def on_unmount(self) -> None:
        self.harena.unsubscribe(self.subscription_key)
        self._tick(None)

    def _tick(self, every: float | None) -> None:
        """Run the countdown's timer only while some deadline is shown, `every` seconds (None:
        stop it): each second while a reaction window asks you, else the move clocks'."""
        if self._ticking is not None and self._tick_every != every:
            self._ticking.stop()
            self._ticking = None
        if every is not None and self._ticking is None:
            self._ticking = self.set_interval(every, self._clock_tick)
        self._tick_every = every

    def _clock_tick(self) -> None:
        if not self.view:
            return
        if self._tick_every == WINDOW_TICK:  # only the window's seconds change: the prompt bar
            try:
                self._draw_prompt(self.view, self._widget(BoardWidget))
            except NoMatches:
                pass  # the screen is going: its widgets are gone
            return
        self.show(self.view)

    def turns_changed(self) -> None:
        """Another table started or stopped waiting for us: the header says so. Only the
        header: the rest is drawn from this table's view, which has not changed (at a move,
        the player whose turn comes and the one whose turn ends redrew the whole screen a
        second time)."""
        if self.view:
            try:
                self._draw_header(self.view, self._widget(BoardWidget))
            except NoMatches:
                pass  # the screen is going: its widgets are gone

    # -- drawing --------------------------------------------------------------------------------

    def show(self, view: dict[str, Any]) -> None:
        if view["table"].get("removed"):
            self._gone(view["table"]["removed"])
            return
        opens = rematch_opens(self.view, view)
        self.view = view
        if opens and self.is_active:  # everyone answered: the players who said yes go on
            self.call_later(self._to_rematch, FOLLOW_TRIES)
        try:
            self._draw(view)
            self.prompt_page_turned()  # the keys the board marks
            if (view["table"]["you"] is None) != self._bar_watching:  # sat down, or got up
                self._widget(KeyBar).set_keys(*self._bar_keys(view))
            if self.guide is not None:
                self.guide.update(view)
        except NoMatches:
            # A session that ends while this screen mounts never gets its widgets.
            log.debug("table %s: screen not drawn, its widgets are gone", self.table.id)

    def _bar_keys(self, view: dict[str, Any]) -> tuple[list[BindingType], list[tuple[str, str]]]:
        """The key bar's bindings and lead: a spectator's lists only what they may use (no
        choosing, no giving, no seat to leave: Esc takes them back to the lobby)."""
        self._bar_watching = view["table"]["you"] is None
        if not self._bar_watching:
            if self._may_invite() and view["table"]["status"] == "waiting":  # (later: in ?)
                return [with_key(b, "invite") for b in self.BINDINGS], self.board_class.KEY_BAR_LEAD
            if not view["table"].get("hints"):
                return list(self.BINDINGS), self.board_class.KEY_BAR_LEAD
            return [with_key(b, "hint") for b in self.BINDINGS], self.board_class.KEY_BAR_LEAD
        playing = {*PLAYERS_ONLY, "hint"}
        bindings = [b for b in self.BINDINGS if getattr(b, "action", None) not in playing]
        return bindings, self.board_class.KEY_BAR_WATCHING

    def prompt_page_turned(self) -> None:
        self._widget(BoardWidget).show_keys(self._widget(PromptBar).keys_shown())

    def _widget(self, kind: type[W]) -> W:
        """`query_one(kind)`, remembered: every move redraws the screen, for every player."""
        widget = self._widgets.get(kind)
        if widget is None or not widget.is_mounted:
            widget = self._widgets[kind] = self.query_one(kind)
        return cast(W, widget)

    def _game_over(self) -> GameOverPanel:
        """The game-over panel, put below the prompt bar the first time it is asked for (it is
        in the DOM at once; hidden until shown, as a composed one was)."""
        over = self._widgets.get(GameOverPanel)
        if over is None:
            over = self._widgets[GameOverPanel] = GameOverPanel(id="game-over")
            self.mount(over, after=self._widget(PromptBar))
        return cast(GameOverPanel, over)

    def _draw(self, view: dict[str, Any]) -> None:
        game = view["game"]
        board = self._widget(BoardWidget)
        self._draw_header(view, board)
        window = view["table"].get("window")
        asked = window is not None and any(p.get("default") for p in game["prompts"])
        if asked and game["result"] is None:
            self._tick(WINDOW_TICK)  # the window's seconds, for the persons it asks only
        else:
            running = bool(view["table"].get("deadlines")) and game["result"] is None
            self._tick(CLOCK_TICK if running else None)
        if not board.OWNS_BODY:
            self._widget(SeatsPanel).show(view)
        board.show(view)
        self._widget(LogPanel).set_lines(board.log_lines(view))
        self._widget(ChatPanel).show_chat(view["table"]["chat"])
        self._draw_prompt(view, board)
        if self._confirming is not None and self._confirming_at != game["decision"]:
            self._confirming = None  # the prompt moved on: nothing to confirm any more

    def _draw_header(self, view: dict[str, Any], board: BoardWidget) -> None:
        """The header: this table, and the other tables waiting for this player."""
        self._widget(HeaderLine).set_text(
            header_text(view, board) + self.harena.turn_note(besides=self.table.id)
        )

    def _draw_prompt(self, view: dict[str, Any], board: BoardWidget) -> None:
        """The prompt bar (or the game-over panel): the open decisions, else what the table
        waits for. Redrawn alone each second while a reaction window asks this player."""
        game = view["game"]
        window = view["table"].get("window")
        timing = (
            clock_text(view, time.time(), self.player_name) if "deadlines" in view["table"] else ""
        )
        prompt = self._widget(PromptBar)
        if game["result"] is not None:
            over = self._game_over()
            over.show_result(view, board.result_lines(view), self._after_game_key())
            if not over.display:  # the one layout change of a game: at its end
                prompt.display, over.display = False, True
            return
        shown = self._widgets.get(GameOverPanel)
        if shown is not None and shown.display:
            prompt.display, shown.display = True, False
        # Gifts are never numbered with a decision: they have their own key. Another standing
        # choice (Spartacus: the Open Market while your offers await answers) shows in the bar.
        decisions = [p for p in game["prompts"] if p["kind"] not in (GIFT_KIND, ASK_KIND)]
        standing_in = stand_in_note(view)
        # Before every seat is taken no choice can be made: keys that only answer "the game
        # starts when every seat is taken" are not offered; the bar says what it waits for.
        waiting = view["table"]["status"] == "waiting"
        if decisions and not standing_in and not waiting:
            note = f"({timing})" if timing else ""
            if window is not None:
                now = time.time()
                decisions = [
                    {**p, "text": f"{window_note(window, now)} {p['text']}"}
                    if p.get("default")
                    else p
                    for p in decisions
                ]
            prompt.show_prompts(board.prompt_view(decisions), note, game["decision"])
        elif window is not None and game["result"] is None and not standing_in:
            prompt.show_idle(window_idle(window))
        elif view["table"]["status"] == "closed":
            prompt.show_idle("This table was closed by an operator: no more moves. Esc: lobby.")
        else:
            inviting = self._may_invite()
            text = standing_in or board.idle_text(view) or idle_text(view, inviting=inviting)
            prompt.show_idle(f"{text} ({timing})" if timing else text)

    # -- acting ---------------------------------------------------------------------------------

    @property
    def status(self) -> StatusLine:
        return self.query_one(StatusLine)

    def choose(self, choice_id: str, label: str | None = None) -> None:
        if self.view["table"]["you"] is None:
            self.status.show_error("you are watching: spectators do not play")
            return
        labels = dict(self.query_one(PromptBar).choices)
        if label is not None:
            labels[choice_id] = label
        if self._confirming != choice_id and self._widget(BoardWidget).needs_confirm(choice_id):
            self._confirming, self._confirming_at = choice_id, self.view["game"]["decision"]
            label = labels.get(choice_id, choice_id)
            # the keys first: a long label is what the status line cuts, never how to answer
            self.status.show_info(f"Press again or Enter to confirm, Esc to cancel: {label}")
            return
        self._confirming = None
        self.query_one(PromptBar).answered()
        # Answered at once by a table run here, later by one another node runs (the loop does
        # not wait for it: server/cluster/remote.py).
        self.table.act_soon(
            self.harena.identity,
            choice_id,
            self.view["game"]["decision"],
            self.harena.now_or_soon_here(partial(self._answered, labels, choice_id)),
            shown_stamp(self.view["game"]["prompts"], choice_id),
        )

    def _answered(self, labels: dict[str, str], choice_id: str, refused: str | None) -> None:
        """The table's answer to a choice: made, or why not."""
        if not self.is_attached:
            return
        if refused is not None:
            self.query_one(PromptBar).answer_refused()
            self.status.show_error(refused)
            return
        self.status.show_info(chosen_text(labels.get(choice_id, choice_id)))

    def action_give(self) -> None:
        """A board whose game lets denarii change hands binds a key to this (Spartacus: g)."""
        if self.view["table"]["you"] is None:
            self.status.show_error("you are watching: spectators do not give denarii")
            return
        offer = GiftOffer.from_prompts(self.view["game"]["prompts"])
        if offer is None:
            self.status.show_error(
                "nothing to give now (no denarii to spare, or a result is being resolved)"
            )
            return

        def given(choice_id: str | None) -> None:
            if choice_id is None:
                self.status.show_info("Nothing given")
                return
            _, to, amount = choice_id.split(":")
            self.choose(choice_id, f"give {denarii(int(amount))} to {self.player_name(int(to))}")

        self.app.push_screen(GiveScreen(offer, self.player_name), given)

    def action_ask(self, paying: bool = False) -> None:
        """Ask for denarii for a favour, or pay an ask (Spartacus: k, p): a dialog of its own."""
        if self.view["table"]["you"] is None:
            self.status.show_error("you are watching: spectators do not deal")
            return
        offer = AskOffer.from_prompts(
            self._widget(BoardWidget).prompt_view(self.view["game"]["prompts"])
        )
        if paying and not offer.payments:
            self.status.show_error("no ask to answer: nobody asks you now")
            return
        if not paying and not offer.favours:
            self.status.show_error(
                "nothing to ask for now (asks come with an invitation, a thumb, a Scheme's support)"
            )
            return

        def decided(choice_id: str | None) -> None:
            if choice_id is None:
                self.status.show_info("Nothing asked" if not paying else "Nothing answered")
                return
            said = (
                dict(offer.payments).get(choice_id, choice_id)
                if paying
                else f"ask {denarii(int(choice_id.split(':')[2]))}"
            )
            self.choose(choice_id, said)

        self.app.push_screen(AskScreen(offer, self.player_name, paying=paying), decided)

    def player_name(self, seat: int) -> str:
        """How this screen names a player (the board's way, else the seat's name)."""
        own = self.board_class.seat_label(self.view, seat)
        return own or seat_label(self.view["table"]["seats"], seat)

    def prompt_unavailable(self, message: str) -> None:
        table = self.view["table"]
        if table["you"] is None:
            message = "you are watching: spectators do not play"
        elif table["status"] == "waiting":
            free = sum(s["free"] for s in table["seats"])
            message = f"the game starts when every seat is taken ({free} free)"
        self.status.show_error(message)

    def send_chat(self, text: str) -> None:
        app = self.harena
        self.table.say_soon(
            app.identity, app.player_name, text, app.now_or_soon_here(self._chat_answered)
        )

    def _chat_answered(self, refused: str | None) -> None:
        if refused is not None and self.is_attached:
            self.status.show_error(refused)

    def action_leave(self) -> None:
        if self.view["table"]["you"] is None:
            self._back_to_lobby(leave=True)
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._back_to_lobby(leave=True)

        confirm(self.app, "Leave your seat?", "It becomes free for anyone to take.", answered)

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(self.view))

    def action_help(self) -> None:
        if self.guide is None or not self.guide.again():
            super().action_help()

    def action_lobby(self) -> None:
        if self.guide is not None and self.guide.escape():
            return
        if self._confirming is not None:
            self._confirming = None
            self.status.show_info("Cancelled: nothing was chosen")
            return
        if self.view["table"]["you"] is not None and self._widget(BoardWidget).back():
            return
        # A spectator has no seat to keep: going back means no longer watching.
        self._back_to_lobby(leave=self.view["table"]["you"] is None)

    def action_your_move(self) -> None:
        problem = self.harena.jump_to_next_turn(self, table_id=self.table.id)
        if problem:
            self.status.show_error(problem)

    def action_take_back(self) -> None:
        try:
            self.table.take_back(self.harena.identity)
        except IllegalAction as error:
            self.status.show_error(str(error))
            return
        self.status.show_info("Your seat is yours again: your decision")

    def action_review(self) -> None:
        from harena.tui.screens.replay import ReplayScreen

        try:
            screen = ReplayScreen.for_table(
                self.table, self.harena.identity, reviewer=self.harena.lobby.reviewer
            )
        except IllegalAction as error:
            self.status.show_error(str(error))
            return
        self.app.push_screen(screen)

    def action_hint(self) -> None:
        problem = hint_refused(self.view)
        if problem is not None:
            self.status.show_error(problem)
            return
        self.status.show_info("Asking the hard bot what it would choose...")
        seat, decision = self.view["table"]["you"], self.view["game"]["decision"]
        self.run_worker(self._hint(seat, decision), group="hint", exclusive=True)

    async def _hint(self, seat: int, decision: int | None) -> None:
        answer = await review_calls.ask_hint(self.harena.lobby.reviewer, self.table, seat)
        if not self.is_attached or not self.view:
            return
        if self.view["game"]["decision"] != decision:
            self.status.show_info("The hint came after your choice: press h again for this one")
        elif isinstance(answer, review_calls.Unanswered):
            self.status.show_info(f"No hint now: {answer.text}")
        else:
            self.status.show_info(hint_text(answer))

    def _after_game_key(self) -> tuple[str, str] | None:
        from harena.tui.review_text import reviewable

        return ("i", "how it went") if reviewable(self.table) is None else None

    def action_how_it_went(self) -> None:
        from harena.tui.screens.review import open_review

        why = open_review(self.app, self.table, self.harena.identity, self.harena.lobby.reviewer)
        if why is not None:
            self.status.show_error(why)

    def action_rematch(self) -> None:
        """Play again? asked in the kept yes/no dialog; the answer may change until all are in."""
        again = self.view["table"].get("rematch")
        if again is None or self.view["table"]["you"] is None:
            self.status.show_error("only the players of a finished game are asked to play again")
            return
        if again["table"] is not None:
            self._to_rematch()
            return
        loose = "a bot takes it" if again["declined"] == "bot" else "it waits for anyone"
        detail = (
            "A new table: same game, options and clocks, everyone one seat further on. It "
            f"starts once every player has answered; a seat whose player says no: {loose}."
        )

        def answered(yes: bool | None) -> None:
            try:
                self.table.answer_rematch(self.harena.identity, bool(yes))
            except IllegalAction as error:
                self.status.show_error(str(error))
                return
            self.status.show_info("Play again: " + ("yes" if yes else "no"))

        confirm(self.app, "Play again?", detail, answered)

    def _to_rematch(self, tries: int = 0) -> bool:
        """To the rematch's table, if it opened and this player sits there; in a cluster it may
        be listed here a moment after its owner opened it (looked for `tries` more times)."""
        again = self.view["table"].get("rematch") or {}
        if not again.get("table") or not again.get("answer"):
            return False
        try:
            table = self.harena.lobby.table(again["table"])
        except IllegalAction as error:
            if tries > 0:
                self.set_timer(FOLLOW_EVERY, partial(self._to_rematch, tries - 1))
            else:
                self.status.show_error(str(error))
            return False
        self.harena.unsubscribe(self.subscription_key)
        self.harena.back_to_lobby(self)
        self.harena.open_table(table)
        return True

    def action_done(self) -> None:
        if self.view["game"]["result"] is not None:
            if not self._to_rematch():
                self._back_to_lobby(leave=self.view["table"]["you"] is None)
        elif self._confirming is not None:
            self.choose(self._confirming)
        else:
            self._widget(BoardWidget).pick()

    # -- the board's own keys and messages --------------------------------------------------------

    def action_board(self, name: str) -> None:
        self._widget(BoardWidget).board_action(name)
        if self.guide is not None:
            self.guide.place_later()  # a board key may show another panel (Spartacus: Tab)

    def on_board_widget_choose(self, message: BoardWidget.Choose) -> None:
        message.stop()
        self.choose(message.choice_id)

    def on_board_widget_say(self, message: BoardWidget.Say) -> None:
        message.stop()
        if message.error:
            self.status.show_error(message.text)
        else:
            self.status.show_info(message.text)

    def help_entries(self) -> list[tuple[str, str]]:
        board = self.board_class.SCREEN_BINDINGS
        extra = self._widget(BoardWidget).help_extra() if self.is_mounted else []
        lead = self._widget(BoardWidget).help_lead() if self.is_mounted else []
        clock = self.view.get("table", {}).get("clock") if self.view else None
        timing = [("time", f"this table's time settings: {clock}")] if clock else []
        here = [b for b in type(self).BINDINGS if self._key_here(getattr(b, "action", ""))]
        return [*lead, *help_entries([*here, *board], [*self.HELP_EXTRA, *extra, *timing])]

    def _key_here(self, action: str) -> bool:
        """Whether `?` lists this key: hints where the table allows them, the review once the
        game is over."""
        table = self.view.get("table", {}) if self.view else {}
        if action == "hint":
            return bool(table.get("hints"))
        if action == "how_it_went":
            return table.get("status") == "over"
        if action == "invite":
            return self._may_invite()
        return True

    def _gone(self, reason: str) -> None:
        """The table left the server (deleted, archived): back to the lobby, saying why (once
        any modal over this screen is closed). One that moved to another node of a cluster is
        followed there instead."""
        self.harena.unsubscribe(self.subscription_key)
        if reason.startswith(MOVED) and self._gone_reason is None:
            self._follow(FOLLOW_TRIES)
            return
        self._leave_for_good(reason)

    def _follow(self, tries: int) -> None:
        """Show the table again, in place, through the node that runs it now, once this node
        lists it as that node's (what the player typed meanwhile was refused, and said so)."""
        moved = self.harena.lobby.tables.get(self.table.id)
        if moved is None or moved is self.table:
            if tries > 0:
                self.set_timer(FOLLOW_EVERY, partial(self._follow, tries - 1))
            else:
                self._leave_for_good(MOVED)
            return
        try:
            view = moved.view_for(self.harena.identity)
        except Exception as error:  # its node cannot be reached yet: look again, then say why
            log.info("table %s: not followed to its new node yet (%s)", self.table.id, error)
            if tries > 0:
                self.set_timer(FOLLOW_EVERY, partial(self._follow, tries - 1))
            else:
                self._leave_for_good(MOVED)
            return
        self.table = moved
        self.harena.subscribe_table(moved, self, self.subscription_key)
        self.show(view)
        self.status.show_info(f"table {moved.id} moved between nodes: play goes on")

    def _leave_for_good(self, reason: str) -> None:
        self._gone_reason = reason
        if self.is_active:  # the top screen: a modal over it (help) is closed first
            self._gone_reason = None  # once: a view may still be on its way
            self.harena.back_to_lobby(self, error=f"table {self.table.id} was {reason}")

    def on_screen_resume(self) -> None:
        if self._gone_reason is not None:
            self._gone(self._gone_reason)

    def _back_to_lobby(self, *, leave: bool) -> None:
        if leave:
            try:
                self.table.leave(self.harena.identity)
            except IllegalAction as error:  # its node cannot be reached (a cluster): stay
                self.status.show_error(str(error))
                return
        self.harena.unsubscribe(self.subscription_key)
        self.harena.back_to_lobby(self)


def rematch_opens(before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Whether `after` is the view in which the rematch this player accepted opened (not a
    finished table opened later, whose rematch opened long ago)."""
    was = (before.get("table", {}).get("rematch") or {}) if before else {}
    now = after["table"].get("rematch") or {}
    return (
        "table" in was
        and was["table"] is None
        and bool(now.get("table"))
        and bool(now.get("answer"))
    )


def chosen_text(label: str) -> str:
    """What the status line says of a choice made: a tick box says what pressing it did (its
    label shows the box as it was before the press)."""
    if label.startswith("[ ] "):
        return f"Ticked: {label[4:]}"
    if label.startswith("[x] "):
        return f"Unticked: {label[4:]}"
    return f"You chose: {label}"
