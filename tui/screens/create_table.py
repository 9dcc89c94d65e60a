"""The create-table modal: game, player count, options, bots; keyboard only.

It only builds a `TableRequest` from lobby.view()["games"] and hands it to the `create` callable
it was given (the lobby screen's), showing any error that raises; it knows nothing of the core.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widget import Widget

from harena.core.bots import KIND_LABELS, kinds_by_strength
from harena.core.clocks import CHOICES, ClockPolicy, span
from harena.core.engine import GameConfigError, IllegalAction
from harena.core.guide import GUIDES
from harena.core.plural import counted
from harena.core.windows import WINDOW_SECONDS
from harena.tui.screens.checklist import ChecklistScreen
from harena.tui.screens.dialog import DialogScreen
from harena.tui.screens.kept import show_kept
from harena.tui.widgets.key_bar import KeyBar

log = logging.getLogger(__name__)

HINT_BOT = "search"  # the hard bot: a table's hints are its choices


# Who may join: (the request's `privacy`, as the form shows it).
PRIVACY_CHOICES = [
    ("", "anyone"),
    ("invited", "invited only, they may watch"),
    ("nobody", "invited only, nobody watches"),
]

# The clock fields of the form: timing name -> (label, help).
CLOCK_FIELDS = {
    "clock": ("Move clock", "time for each decision; when it runs out a bot plays for that player"),
    "bank": ("Time bank", "time for the whole game, used once the move clock is spent"),
    "stand_in_after": ("Stand-in after", "a bot plays for a player gone this long, when awaited"),
}


def time_shown(seconds: float) -> str:
    """A clock setting as the form shows it: 0 is off."""
    return span(seconds) if seconds else "off"


@dataclass
class TableRequest:
    game: str
    players: int
    options: dict[str, str] = field(default_factory=dict)
    bots: int = 0
    bot_kind: str = "random"  # the first bot's kind (`bot_kinds` holds each bot's)
    policy: ClockPolicy = field(default_factory=ClockPolicy)  # move clocks: off unless chosen
    bot_kinds: list[str] = field(default_factory=list)  # one per bot, its level
    learn: bool = False  # a guided first game (core/guide.py): its own players, seed and bots
    privacy: str = ""  # "": open to everyone; else invite-only, who may watch (core/privacy.py)
    hints: bool = False  # its players may ask the hard bot (h); such a game is never rated
    keep_for: str = ""  # the name of a player a seat is kept for (core/table/kept.py)
    keep_with_bot: bool = True  # ... a bot holding it until they come
    declined: str = "bot"  # a rematch's seat of a player who says no (core/table/options.py)


@dataclass
class FormField:
    """One line of the form: its label, shown value, help, and how to cycle it."""

    label: str
    value: str
    help: str
    cycle: Callable[[int], None]
    checklist: dict[str, Any] | None = None  # a multi-select option: edited in a checklist


class TableForm:
    """The form's state, kept apart from drawing so it reads (and tests) like plain data."""

    def __init__(self, games: list[dict[str, Any]], friends: list[str] | None = None) -> None:
        self.games = games
        self.friends = ["", *(friends or [])]  # whom a seat may be kept for ("": nobody)
        self.keep_index = 0
        self.keep_with_bot = True
        self.declined = "bot"
        self.game_index = 0
        self.timing: dict[str, float] = dict.fromkeys(
            CHOICES, 0
        )  # clock settings, seconds (0: off); any game
        self.timing["window"] = WINDOW_SECONDS  # a reaction window's time, unless turned off
        self._reset_game()

    @property
    def game(self) -> dict[str, Any]:
        return self.games[self.game_index]

    def _reset_game(self) -> None:
        game = self.game
        self.players = game.get("default_players", game["min_players"])
        self.options = {o["name"]: o["default"] for o in game["options"]}
        self.bots = 0
        self.kinds = kinds_by_strength(list(game["bots"]))  # the levels, weakest first
        normal = self.kinds.index("heuristic") if "heuristic" in self.kinds else 0
        self.bot_kind_indices = [normal] * max(0, game["max_players"] - 1)  # per bot
        self.stand_in_index = normal
        self.learn = False
        self.privacy_index = 0
        self.hints = False

    def request(self) -> TableRequest:
        kinds = [self.kinds[i] for i in self.bot_kind_indices[: self.bots]] if self.kinds else []
        return TableRequest(
            self.game["name"],
            self.players,
            dict(self.options),
            len(kinds),
            kinds[0] if kinds else "random",
            ClockPolicy(
                self.timing["clock"],
                self.timing["bank"],
                self.timing["stand_in_after"],
                self.kinds[self.stand_in_index] if self.kinds else None,
                self.timing["window"],
            ),
            kinds,
            learn=self.learn,
            privacy=PRIVACY_CHOICES[self.privacy_index][0],
            hints=self.hints,
            keep_for=self.friends[self.keep_index],
            keep_with_bot=self.keep_with_bot,
            declined=self.declined,
        )

    def fields(self) -> list[FormField]:
        """The form's lines, top to bottom; which ones show depends on the game."""
        first = FormField(
            "Game",
            self.game["title"],
            f"{counted(len(self.games), 'game')} on this server",
            self._cycle_game,
        )
        if self.learn:
            return [first, self._learn_field()]
        learn = [self._learn_field()] if self.game["name"] in GUIDES else []
        return [
            first,
            self._players_field(),
            *map(self._option_field, self.game["options"]),
            *self._bot_fields(),
            *self._clock_fields(),
            *self._window_fields(),
            self._privacy_field(),
            *self._hint_fields(),
            *self._friend_fields(),
            *learn,
        ]

    def _players_field(self) -> FormField:
        low, high = self.game["min_players"], self.game["max_players"]
        return FormField(
            "Players", str(self.players), f"{low} to {high} players", self._cycle_players
        )

    def _option_field(self, option: dict[str, Any]) -> FormField:
        value = self.options[option["name"]]
        if not option.get("multi"):
            help = option["help"] or f"one of {', '.join(option['choices'])}"
            return FormField(option["label"], value, help, self._option_cycler(option))
        shown = f"{len(value.split(','))}: {value.replace(',', ', ')}" if value else "none"
        help = "Enter or Space: tick them in a list. " + option["help"]
        return FormField(option["label"], shown, help, lambda delta: None, checklist=option)

    def _bot_fields(self) -> list[FormField]:
        """How many bots, then each bot's level."""
        if not self.game["bots"]:
            return [
                FormField("Bots", "none", f"{self.game['title']} has no bots", lambda delta: None)
            ]
        how_many = FormField(
            "Bots", str(self.bots), bots_help(self.bots, self.players - 1), self._cycle_bots
        )
        return [how_many] + [
            FormField(
                f"Bot {k + 1}",
                self._kind_label(self.bot_kind_indices[k]),
                "how this bot plays: easy makes a newcomer's mistakes, normal plays "
                "by rules of thumb, hard thinks ahead (about a second a move)",
                self._bot_kind_cycler(k),
            )
            for k in range(self.bots)
        ]

    def _clock_fields(self) -> list[FormField]:
        """The clocks, and the bot that stands in when one runs out: only where bots exist."""
        if not self.game["bots"]:
            return []
        clocks = [
            FormField(label, time_shown(self.timing[name]), help, self._timing_cycler(name))
            for name, (label, help) in CLOCK_FIELDS.items()
        ]
        stand_in = FormField(
            "Stand-in bot",
            self._kind_label(self.stand_in_index),
            "the bot that plays for a player whose time ran out or who is away",
            self._cycle_stand_in,
        )
        return [*clocks, stand_in]

    def _window_fields(self) -> list[FormField]:
        if not self.game.get("windows"):
            return []
        return [
            FormField(
                "Reaction window",
                time_shown(self.timing["window"]),
                "how long every 'react?' stays open at most: it closes once all asked "
                "have answered (off: each player's key is waited for)",
                self._timing_cycler("window"),
            )
        ]

    def _privacy_field(self) -> FormField:
        return FormField(
            "Who may join",
            PRIVACY_CHOICES[self.privacy_index][1],
            "invited only: the table is hidden from everyone else; invite people by name "
            "or share a code from the lobby (i)",
            self._cycle_privacy,
        )

    def _cycle_privacy(self, delta: int) -> None:
        self.privacy_index = (self.privacy_index + delta) % len(PRIVACY_CHOICES)

    def _hint_fields(self) -> list[FormField]:
        """Hints, where the game has the hard bot that gives them."""
        if HINT_BOT not in self.game["bots"]:
            return []
        return [
            FormField(
                "Hints",
                "allowed" if self.hints else "no",
                "allowed: anyone seated may ask the hard bot what it would choose (h), and "
                "after the game every player's turning points show; the game is not rated",
                self._cycle_hints,
            )
        ]

    def _cycle_hints(self, delta: int) -> None:
        self.hints = not self.hints

    def _friend_fields(self) -> list[FormField]:
        """A seat kept for a friend (who holds it meanwhile), and a rematch's declined seats."""
        friend = self.friends[self.keep_index]
        fields = []
        if len(self.friends) > 1 and self.game["max_players"] > 1:
            fields.append(
                FormField(
                    "Keep a seat for",
                    friend or "nobody",
                    "a seat only they may take: someone online or met here",
                    self._cycle_keep,
                )
            )
        if friend and self.game["bots"]:
            fields.append(
                FormField(
                    "Until they come",
                    "a bot plays" if self.keep_with_bot else "the seat waits",
                    "a bot plays it until they sit, or the game waits",
                    self._cycle_keep_with_bot,
                )
            )
        if self.game["bots"] and self.game["max_players"] > 1:
            fields.append(
                FormField(
                    "Rematch: a no",
                    "a bot plays" if self.declined == "bot" else "seat stays free",
                    "who says no to a rematch leaves a bot, or a free seat",
                    self._cycle_declined,
                )
            )
        return fields

    def _cycle_keep(self, delta: int) -> None:
        self.keep_index = (self.keep_index + delta) % len(self.friends)
        self.bots = min(self.bots, self.players - 1 - (1 if self.friends[self.keep_index] else 0))

    def _cycle_keep_with_bot(self, delta: int) -> None:
        self.keep_with_bot = not self.keep_with_bot

    def _cycle_declined(self, delta: int) -> None:
        self.declined = "free" if self.declined == "bot" else "bot"

    def _kind_label(self, index: int) -> str:
        kind = self.kinds[index]
        return KIND_LABELS.get(kind, kind)

    def _learn_field(self) -> FormField:
        return FormField(
            "Learn to play",
            "yes" if self.learn else "no",
            "yes: a guided first game against easy bots; panels explain each moment as it comes",
            self._cycle_learn,
        )

    def _cycle_learn(self, delta: int) -> None:
        self.learn = not self.learn

    def _timing_cycler(self, name: str) -> Callable[[int], None]:
        def cycle(delta: int) -> None:
            choices = CHOICES[name]
            self.timing[name] = choices[(choices.index(self.timing[name]) + delta) % len(choices)]

        return cycle

    def set_option(self, name: str, value: str) -> None:
        self.options[name] = value

    def warnings(self) -> list[str]:
        """Allowed but unwise choices (more rulesets than the rulebook recommends)."""
        out = []
        for option in self.game["options"]:
            limit = option.get("warn_above")
            value = self.options[option["name"]]
            count = len(value.split(",")) if option.get("multi") and value else 0
            if limit is not None and count > limit:
                out.append(
                    f"{count} {option['label'].lower()}: more than {limit} is not recommended"
                )
        return out

    def _cycle_game(self, delta: int) -> None:
        self.game_index = (self.game_index + delta) % len(self.games)
        self._reset_game()

    def _cycle_players(self, delta: int) -> None:
        low, high = self.game["min_players"], self.game["max_players"]
        self.players = low + (self.players - low + delta) % (high - low + 1)
        kept = 1 if self.friends[self.keep_index] else 0
        self.bots = max(min(self.bots, self.players - 1 - kept), 0)

    def _option_cycler(self, option: dict[str, Any]) -> Callable[[int], None]:
        return lambda delta: self._cycle_option(option, delta)

    def _cycle_option(self, option: dict[str, Any], delta: int) -> None:
        choices = option["choices"]
        index = choices.index(self.options[option["name"]])
        self.options[option["name"]] = choices[(index + delta) % len(choices)]

    def _cycle_bots(self, delta: int) -> None:
        kept = 1 if self.friends[self.keep_index] else 0  # a kept seat is no bot's to take
        self.bots = (self.bots + delta) % (self.players - kept)  # 0 .. players-1

    def _bot_kind_cycler(self, k: int) -> Callable[[int], None]:
        def cycle(delta: int) -> None:
            self.bot_kind_indices[k] = (self.bot_kind_indices[k] + delta) % len(self.kinds)

        return cycle

    def _cycle_stand_in(self, delta: int) -> None:
        self.stand_in_index = (self.stand_in_index + delta) % len(self.kinds)


FORM_FRAME = 7
"""Rows of the dialog besides its fields: borders, the blank, help and error lines, the keys."""


def field_window(count: int, selected: int, rows: int) -> tuple[int, int]:
    """The fields shown, [first, last), when `rows` cannot hold all `count`: a window around
    the selected one, a row of each end given to "N more" (a 24-row terminal and a game with
    many options, bots and clocks)."""
    if count <= rows:
        return 0, count
    shown = max(rows - 2, 1)
    first = min(max(selected - shown // 2, 0), count - shown)
    return first, first + shown


class FormView(Widget):
    """Draws the form: a `>` marks the selected field, values sit between `<` and `>`."""

    DEFAULT_CSS = """
    FormView {
        height: auto;
        width: 1fr;
    }
    """

    def __init__(self, form: TableForm) -> None:
        super().__init__()
        self.form = form
        self.selected = 0
        self.error = ""

    def render(self) -> Content:
        fields = self.form.fields()
        lines = []
        room = max(self.content_size.width - 22, 8)  # "> " + label + " < " ... " >"
        first, last = field_window(len(fields), self.selected, self.app.size.height - FORM_FRAME)
        if first > 0:
            lines.append(Content.styled(f"  ↑ {first} more", "dim"))
        for index, item in enumerate(fields[first:last], start=first):
            chosen = index == self.selected
            value = item.value if len(item.value) <= room else item.value[: room - 1] + "…"
            line = f"{'>' if chosen else ' '} {item.label[:15]:<15} < {value} >"
            lines.append(Content.styled(line, "bold reverse" if chosen else ""))
        if last < len(fields):
            lines.append(Content.styled(f"  ↓ {len(fields) - last} more", "dim"))
        lines.append(Content(""))
        lines.append(Content.styled(fields[self.selected].help, "italic"))
        warnings = self.form.warnings()
        if warnings:
            lines.append(Content.assemble(("Warning:", "bold"), " ", "; ".join(warnings)))
        error = (
            Content.assemble(("Error:", "bold reverse"), " ", self.error)
            if self.error
            else Content("")
        )
        lines.append(error)
        return Content("\n").join(lines)


class CreateTableScreen(DialogScreen[str | None]):
    """Dismisses with the new table's id, or None when cancelled."""

    BINDINGS = [
        Binding("up,k", "field(-1)", "field", key_display="↑↓"),
        Binding("down,j", "field(1)", show=False),
        Binding("left,h", "change(-1)", "change", key_display="←→"),
        Binding("right,l,space", "change(1)", show=False),
        Binding(
            "enter", "create", "create", tooltip="create the table (on a list field: open its list)"
        ),
        Binding("escape", "cancel", "cancel"),
    ]

    def __init__(
        self,
        games: list[dict[str, Any]],
        create: Callable[[TableRequest], str],
        friends: list[str] | None = None,
    ) -> None:
        super().__init__()
        self.form = TableForm(games, friends)
        self._create = create

    def reset(
        self,
        games: list[dict[str, Any]],
        create: Callable[[TableRequest], str],
        friends: list[str] | None = None,
    ) -> None:
        """A fresh form in this same screen, kept per app (`tui/screens/kept.py`)."""
        self.form = TableForm(games, friends)
        self._create = create
        if self.is_mounted:
            view = self.view
            view.form, view.selected, view.error = self.form, 0, ""
            view.refresh(layout=True)

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            box.border_title = "New table"
            yield FormView(self.form)
            yield KeyBar(self.BINDINGS, id="form-keys")

    @property
    def view(self) -> FormView:
        return self.query_one(FormView)

    def action_field(self, delta: int) -> None:
        view = self.view
        view.selected = (view.selected + delta) % len(self.form.fields())
        view.refresh()

    def action_change(self, delta: int) -> None:
        view = self.view
        item = self.form.fields()[view.selected]
        if item.checklist is not None:
            self.open_checklist(item.checklist)
            return
        item.cycle(delta)
        view.error = ""
        view.selected = min(view.selected, len(self.form.fields()) - 1)
        view.refresh(layout=True)  # another game may have more or fewer fields

    def open_checklist(self, option: dict[str, Any]) -> None:
        def chosen(value: str | None) -> None:
            if value is not None:
                self.form.set_option(option["name"], value)
                self.view.error = ""
                self.view.refresh(layout=True)

        self.app.push_screen(
            ChecklistScreen(
                option["label"],
                list(option["choices"]),
                self.form.options[option["name"]],
                option.get("warn_above"),
            ),
            chosen,
        )

    def action_create(self) -> None:
        item = self.form.fields()[self.view.selected]
        if item.checklist is not None:
            self.open_checklist(item.checklist)  # Enter on a list field opens it
            return
        try:
            table_id = self._create(self.form.request())
        except (GameConfigError, IllegalAction) as error:
            self.view.error = str(error)
            self.view.refresh()
            return
        self.dismiss(table_id)

    def action_cancel(self) -> None:
        self.dismiss(None)


def show_create_table(
    app: App[Any],
    games: list[dict[str, Any]],
    create: Callable[[TableRequest], str],
    created: Callable[[str | None], None],
    friends: list[str] | None = None,
) -> None:
    """Open the new-table dialog, kept per app (`tui/screens/kept.py`) and reset on every open.
    `friends`: the names a seat may be kept for."""
    show_kept(app, "create table", lambda: CreateTableScreen(games, create, friends),
              lambda screen: screen.reset(games, create, friends), created)  # fmt: skip


def bots_help(bots: int, others: int) -> str:
    """What the Bots field does with the seats besides yours, in words that fit any count."""
    if others == 1:
        return "a bot takes the other seat" if bots else "the other seat waits for a person"
    if bots == 0:
        return f"the {others} other seats wait for people"
    if bots == others:
        return f"bots take all {others} other seats"
    return f"bots take {bots} of the {others} other seats; the rest wait for people"
