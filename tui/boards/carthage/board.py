"""Carthage at the table: the arena with its cursor, the gladiators, the Theater card, the
Action row, your hand, the log and the chat, laid out for 80x24 and larger.

80x24 (the body is 80x14 between the header and the prompt bar)::

    arena 36x9 (keys w e a d z x drawn      | gladiators, one line each
    in its empty top-left corner)           | round and Theater card, one line
    ----------------------------------------+ Action row        | Hand
    log (4 lines)                           | 5 cards, icons    | 5 cards, icons
                                            | chat

From about 110x28 of body (120x40 terminals) the arena is drawn larger, the cards get a line of
text each and the panels have titles. Every panel redraws only the rows that changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message

from harena.tui.boards import register_board
from harena.tui.boards.base import BoardWidget
from harena.tui.boards.carthage import arena as hexmap
from harena.tui.boards.carthage import catalog, keys, panels
from harena.tui.boards.carthage.arena import COMPACT, DIRECTION_KEYS, LARGE
from harena.tui.boards.carthage.catalog import Hex
from harena.tui.widgets.chat import ChatPanel
from harena.tui.widgets.lines_panel import LogPanel
from harena.tui.widgets.lines_view import Line
from harena.tui.widgets.panel import Panel
from harena.tui.widgets.rows import RowsWidget

LARGE_BODY = (110, 28)  # the body size from which the large layout is used

DIRECTION_NAMES = {
    "NW": "north-west",
    "NE": "north-east",
    "W": "west",
    "E": "east",
    "SW": "south-west",
    "SE": "south-east",
}


def direction_bindings() -> list[Binding]:
    """w e a d z x: one binding each; only the first carries the help line."""
    out = []
    for index, (name, key) in enumerate(DIRECTION_KEYS.items()):
        if index == 0:
            out.append(
                Binding(
                    key,
                    f"board('step {name}')",
                    "step",
                    show=False,
                    key_display=" ".join(DIRECTION_KEYS.values()),
                    tooltip="step or knock back NW NE W E SW SE (keys around s)",
                )
            )
        else:
            out.append(Binding(key, f"board('step {name}')", show=False))
    return out


class ArenaView(RowsWidget):
    """The hex map; a click puts the cursor on a hex (a second click on it picks it)."""

    DEFAULT_CSS = """
    ArenaView {
        width: 1fr;
        height: 1fr;
    }
    """

    class Clicked(Message):
        def __init__(self, h: Hex) -> None:
            super().__init__()
            self.hex = h

    def __init__(self, *, id: str | None = None, ascii_only: bool = False) -> None:
        super().__init__(id=id)
        self.board: dict[str, Any] | None = None
        self.cursor: Hex | None = None
        self.hints: dict[Hex, str] = {}
        self.compass = True  # the step keys in the corner: not for a spectator, who cannot step
        self.ascii_only = ascii_only  # given at birth: mounted while the app exits, the board
        # may find its children gone

    def draw(
        self,
        board: dict[str, Any],
        cursor: Hex | None,
        hints: dict[Hex, str],
        compass: bool = True,
    ) -> None:
        self.board, self.cursor, self.hints, self.compass = board, cursor, hints, compass
        self.update_rows()

    def scale_for(self, width: int, height: int) -> hexmap.Scale:
        large_w, large_h = hexmap.size(catalog.arena(), LARGE)
        return LARGE if width >= large_w and height >= large_h else COMPACT

    def _left(self, width: int, scale: hexmap.Scale) -> int:
        return max((width - hexmap.size(catalog.arena(), scale)[0]) // 2, 0)

    def build_rows(self, width: int, height: int) -> list[Content]:
        if self.board is None:
            return []
        scale = self.scale_for(width, height)
        pad = " " * self._left(width, scale)
        lines = hexmap.arena_lines(
            self.board,
            scale=scale,
            cursor=self.cursor,
            hints=self.hints,
            ascii_only=self.ascii_only,
            compass=self.compass,
        )
        return [panels.content_line([(pad, ""), *line]) for line in lines]

    @property
    def text(self) -> str:
        size = self.content_size
        return "\n".join(row.plain for row in self.build_rows(size.width, size.height))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        size = self.content_size
        scale = self.scale_for(size.width, size.height)
        h = hexmap.hex_at(
            catalog.arena(), scale, offset.x - self._left(size.width, scale), offset.y
        )
        if h is not None:
            self.post_message(self.Clicked(h))


@register_board("carthage")
class CarthageBoard(BoardWidget):
    TITLE = "Arena"
    OWNS_BODY = True

    DEFAULT_CSS = """
    CarthageBoard {
        layout: horizontal;
        padding: 0;
    }
    CarthageBoard #cb-left { width: 38; }
    CarthageBoard #arena { height: 9; }
    CarthageBoard #cb-right { width: 1fr; }
    CarthageBoard #players { height: 5; padding: 0 0 0 1; }
    CarthageBoard #theater { height: 1; }
    CarthageBoard.-chariot #theater { height: 2; }
    CarthageBoard #cards { height: 6; }
    CarthageBoard #cards > Panel { width: 1fr; height: 6; }
    CarthageBoard #cards LinesView { padding: 0 0 0 1; }
    CarthageBoard.-large #cb-left { width: 58; }
    CarthageBoard.-large #arena { height: 17; }
    CarthageBoard.-large #theater { height: 3; }
    CarthageBoard.-large #cards { layout: vertical; height: 12; }
    """

    SCREEN_BINDINGS: ClassVar[list[Binding]] = [
        *direction_bindings(),
        Binding(
            "up",
            "board('cursor up')",
            "cursor",
            show=False,
            key_display="↑ ↓ ← →",
            tooltip="move the hex cursor; the status line describes its hex",
        ),
        *(Binding(k, f"board('cursor {k}')", show=False) for k in ("down", "left", "right")),
        Binding(
            keys.NAKED_KEY,
            "board('naked')",
            "naked",
            show=False,
            tooltip="Naked and Afraid (when the table plays it): step 1 for 3 Armor, when offered",
        ),
    ]
    KEY_BAR_LEAD: ClassVar[list[tuple[str, str]]] = [
        ("1-9", "choose"),
        ("weadzx", "step"),
        ("↑↓←→", "hex"),
    ]
    KEY_BAR_WATCHING: ClassVar[list[tuple[str, str]]] = [("↑↓←→", "hex")]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.view: dict[str, Any] | None = None
        self.cursor: Hex = catalog.arena().centre
        self._column = 0
        self._prompt_seen: tuple[Any, ...] = ()
        self._numbers: dict[str, str] = {}  # the prompt bar's keys shown, by choice id
        self._players_shown = 0

    @property
    def ascii_only(self) -> bool:
        return not getattr(self.app, "unicode", True)

    def compose(self) -> ComposeResult:
        with Vertical(id="cb-left"):
            yield ArenaView(id="arena", ascii_only=self.ascii_only)
            yield Panel("Log", LogPanel(id="log"), id="cb-log")
        with Vertical(id="cb-right"):
            yield panels.LinesView(self._players, id="players")
            yield panels.LinesView(self._theater, id="theater")
            with Horizontal(id="cards"):
                yield Panel("Action row", panels.LinesView(self._row, id="row"), id="row-panel")
                yield Panel("Hand", panels.LinesView(self._hand, id="hand"), id="hand-panel")
            yield Panel("Chat", ChatPanel(id="chat"), id="chat-panel")

    def on_mount(self) -> None:
        self._column = self._cursor_column()

    def on_resize(self, event: events.Resize) -> None:
        width, height = event.size
        self.set_class(width >= LARGE_BODY[0] and height >= LARGE_BODY[1], "-large")

    # -- drawing ----------------------------------------------------------------------------------

    def _players(self, view: Mapping[str, Any], width: int, height: int) -> list[Line]:
        return panels.player_lines(view, width, self.ascii_only)

    def _theater(self, view: Mapping[str, Any], width: int, height: int) -> list[Line]:
        return panels.theater_lines(view, width, height, self.ascii_only)

    def _row(self, view: Mapping[str, Any], width: int, height: int) -> list[Line]:
        return panels.row_lines(view, width, self.ascii_only)

    def _hand(self, view: Mapping[str, Any], width: int, height: int) -> list[Line]:
        return panels.hand_lines(view, width, self.ascii_only, height)

    def show(self, view: dict[str, Any]) -> None:
        self.view = view
        game = view["game"]
        players = len(game["board"]["players"])
        if players != self._players_shown:
            self._players_shown = players
            self.query_one("#players").styles.height = players
            # solo and co-op: a second line for the Essedari Maximo's next (or last) Action
            self.set_class(game["board"].get("essedari") is not None, "-chariot")
        self._home_cursor(game)
        self._redraw_arena()
        for name in ("players", "theater", "row", "hand"):
            self.query_one(f"#{name}", panels.LinesView).show(view)
        self.query_one("#row-panel", Panel).set_title(panels.row_title(view))
        self.query_one("#hand-panel", Panel).set_title(panels.hand_title(view))
        self.query_one("#cb-log", Panel).set_title(panels.rulesets_title(view))

    def _home_cursor(self, game: dict[str, Any]) -> None:
        """On a new prompt, put the cursor where the choice is likely made."""
        prompt = keys.my_prompt(game)
        seen = (game["decision"], None if prompt is None else prompt["kind"])
        if seen == self._prompt_seen:
            return
        self._prompt_seen = seen
        home = keys.cursor_home(game, self.cursor)
        if home is None and self.cursor == catalog.arena().centre:
            home = keys.my_hex(game)
        if home is not None:
            self.cursor = home
            self._column = self._cursor_column()

    def _cursor_column(self) -> int:
        return hexmap.position(catalog.arena(), COMPACT, self.cursor)[0]

    def show_keys(self, shown: Mapping[str, str]) -> None:
        if shown != self._numbers:
            self._numbers = dict(shown)
            self._redraw_arena()

    def _redraw_arena(self) -> None:
        if self.view is not None:
            game = self.view["game"]
            self.query_one(ArenaView).draw(
                game["board"],
                self.cursor,
                keys.hints(game, self._numbers),
                compass=game["seat"] is not None,
            )

    # -- keys -------------------------------------------------------------------------------------

    def board_action(self, name: str) -> None:
        if self.view is None:
            return
        verb, _, arg = name.partition(" ")
        if verb == "step":
            self._step(arg)
        elif verb == "naked":
            choice = keys.naked_choice(self.view["game"])
            if choice is None:
                self.post_message(self.Say("no Naked and Afraid step to take now", error=True))
            else:
                self.post_message(self.Choose(choice))
        elif verb == "cursor":
            self.cursor, self._column = hexmap.cursor_step(
                catalog.arena(), COMPACT, self.cursor, arg, self._column
            )
            self._redraw_arena()
            self.post_message(
                self.Say(hexmap.describe_hex(self.view["game"]["board"], self.cursor))
            )

    def _step(self, direction: str) -> None:
        assert self.view is not None
        game = self.view["game"]
        choice = keys.direction_choice(game, direction)
        if choice is not None:
            self.post_message(self.Choose(choice))
            return
        prompt = keys.my_prompt(game)
        if prompt is None or prompt["kind"] not in keys.DIRECTION_KINDS:
            self.post_message(self.Say("no move or knockback to direct now", error=True))
        else:
            legal = ", ".join(cid.removeprefix("dir:") for cid in keys.choice_ids(prompt))
            self.post_message(self.Say(f"cannot go {direction} now; legal: {legal}", error=True))

    def pick(self) -> bool:
        if self.view is None:
            return False
        choice, why = keys.hex_choice(self.view["game"], self.cursor)
        if choice is None:
            self.post_message(self.Say(why, error=True))
        else:
            self.post_message(self.Choose(choice))
        return True

    def on_arena_view_clicked(self, message: ArenaView.Clicked) -> None:
        message.stop()
        if message.hex == self.cursor:
            self.pick()
            return
        self.cursor = message.hex
        self._column = self._cursor_column()
        self._redraw_arena()
        if self.view is not None:
            self.post_message(
                self.Say(hexmap.describe_hex(self.view["game"]["board"], self.cursor))
            )

    def back(self) -> bool:
        choice = None if self.view is None else keys.back_choice(self.view["game"])
        if choice is None:
            return False
        self.post_message(self.Choose(choice))
        return True

    def needs_confirm(self, choice_id: str) -> bool:
        return self.view is not None and keys.needs_confirm(self.view["game"], choice_id)

    @classmethod
    def seat_label(cls, view: dict[str, Any], seat: int) -> str | None:
        return panels.gladiator_label(view, seat)

    def idle_text(self, view: dict[str, Any]) -> str | None:
        return panels.waiting_text(view)

    def result_lines(self, view: dict[str, Any]) -> list[str] | None:
        return panels.result_lines(view)

    def prompt_view(self, prompts: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return keys.decorate(prompts)

    def help_extra(self) -> list[tuple[str, str]]:
        return panels.ruleset_help(self.view) + legend(self.ascii_only)


def legend(ascii_only: bool) -> list[tuple[str, str]]:
    """What the arena's and the cards' symbols mean (the help screen lists it)."""
    pick = 1 if ascii_only else 0
    tokens = "  ".join(
        f"{catalog.TOKEN_SYMBOLS[kind][pick]} {words}"
        for kind, words in catalog.TOKEN_WORDS.items()
    )
    icons = [f"{catalog.EFFECT_ICONS[kind][pick]} {w}" for kind, w in catalog.EFFECT_WORDS.items()]
    dot, inner, centre = (".", ":", "@") if ascii_only else ("·", "∘", "◎")
    words = tokens.split("  ")
    return [
        ("Enter", "pick the hex under the cursor (or click it twice)"),
        ("Esc", "cancel a second-press choice, or put a token back"),
        ("B R G Y P", "the gladiators: Blue Red Green Yellow Purple"),
        (catalog.BEAST_GLYPH[pick], "an Arena Beast, in its player's colour"),
        ("".join(catalog.EQUIPMENT_MARKS[pick]), "Equipment face up (ready), face down (spent)"),
        ("1 2", "team modes: the team after the letter; the chain runs through the hex gaps"),
        ("A F H D", "Armor, Favor, hand, deck/discard; S start player"),
        ("tokens", "  ".join(words[:4])),
        ("", "  ".join(words[4:7])),
        ("", "  ".join(words[7:])),
        ("on arena", f"{dot} hex  {inner} Inner Circle  {centre} centre  ( ) face down  [] cursor"),
        ("", f"{hexmap.CHARIOT[pick]} the Essedari Maximo's chariot (solo and co-op)"),
        ("1-9 0 o", "a hex offered: its number key on the prompt's page shown, else o"),
        ("hexes", f"named by the walk from the centre {centre}: '2 NE, 1 E of the centre'"),
        ("cards", "  ".join(icons[:4])),
        ("", "  ".join(icons[4:])),
    ]
