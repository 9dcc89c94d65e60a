"""Spartacus at the table: the Houses, one House in full (yours first), the phase (a Scheme
and its support, the Market and the auction lot, the games), the Arena, the log and the chat,
laid out for 80x24 and larger.

80x24 (the body is 80x14 between the header and the prompt bar)::

    Houses: one line each (4)                 | Round 3: Market (phase, 6 lines)
    ------------------------------------------+ ...
    Your House in full: Influence track,      | Log (4 lines)
    assets with dice, hand with texts,        |
    House abilities (Tab: another House, or   | Chat (1 line)
    the Arena while a fight is on)            |

From about 110x28 of body the Houses get a second line (their tables), and the Arena map is
shown under the House whenever combatants are in it. Every panel redraws only changed rows.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content

from harena.tui.boards import register_board
from harena.tui.boards.base import BoardWidget
from harena.tui.boards.spartacus import arena as arena_map
from harena.tui.boards.spartacus import panels
from harena.tui.boards.spartacus.names import names_of, player_name, relabel, relabel_content
from harena.tui.boards.spartacus.terms import TermsScreen, terms_lines
from harena.tui.widgets.chat import ChatPanel
from harena.tui.widgets.lines_panel import LogPanel
from harena.tui.widgets.lines_view import Line, LinesView
from harena.tui.widgets.panel import Panel

LARGE_BODY = (110, 28)
# In a fight, the keys around `s` step like Carthage's: w e / a d / z x.
DIRECTION_KEYS: dict[str, str] = {"NW": "w", "NE": "e", "W": "a", "E": "d", "SW": "z", "SE": "x"}
DIRECTION_NAMES = {
    "NW": "north-west",
    "NE": "north-east",
    "W": "west",
    "E": "east",
    "SW": "south-west",
    "SE": "south-east",
}
_SHOWN_ON_PHASE = re.compile(r" has (bid|bet|answered)$|^Auction: .* - bid in secret$")
_STEP_LABEL = re.compile(r"^Move (NE|E|SE|SW|W|NW) to -?\d+,-?\d+$")
ARENA = -1  # the bottom-left panel shows the Arena, not a House


@register_board("spartacus")
class SpartacusBoard(BoardWidget):
    TITLE = "Capua"
    SHORT_TITLE = "Spartacus"
    OWNS_BODY = True

    DEFAULT_CSS = """
    SpartacusBoard {
        layout: horizontal;
        padding: 0;
    }
    SpartacusBoard #sb-left { width: 46; }
    SpartacusBoard #sb-right { width: 1fr; }
    SpartacusBoard #houses-panel { height: 5; }
    SpartacusBoard #house-panel { height: 1fr; }
    SpartacusBoard #arena-panel { height: 1fr; }
    SpartacusBoard #phase-panel { height: 7; }
    SpartacusBoard #sb-log { height: 1fr; }
    SpartacusBoard #chat-panel { height: 2; }
    SpartacusBoard LinesView { padding: 0 0 0 1; }
    SpartacusBoard.-large #sb-left { width: 64; }
    SpartacusBoard.-large #arena-panel { height: 8; }
    SpartacusBoard.-large #phase-panel { height: 10; }
    SpartacusBoard.-large #chat-panel { height: 6; }
    """

    SCREEN_BINDINGS: ClassVar[list[Binding]] = [
        Binding(
            "g",
            "give",
            "give",
            tooltip="give denarii to another Dominus, at any time (whom, then how much)",
        ),
        Binding(
            "k",
            "ask",
            "ask",
            tooltip="ask a Dominus for denarii for a favour: to invite them, to accept, "
            "to spare a combatant, to support a Scheme (public, not binding; whom, then how much)",
        ),
        Binding(
            "p",
            "ask(True)",
            "pay ask",
            tooltip="pay or refuse an ask addressed to you (paid, the coins move and the favour "
            "stays theirs to grant; refused, bots waiting for your answer go on)",
        ),
        Binding(
            "tab",
            "board('next')",
            "house",
            key_display="Tab",
            tooltip="show the next House in full (then the Arena while a fight is on)",
        ),
        Binding("shift+tab", "board('previous')", show=False),
        Binding(
            "o",
            "board('terms')",
            "in full",
            show=False,
            tooltip="the phase panel in full: every term of the trade offers, every House asked "
            "in a Reaction window (a panel cut at 80x24 says '+N more: o')",
        ),
        Binding(
            "w",
            "board('step NW')",
            "step",
            show=False,
            key_display="w e a d z x",
            tooltip="in a fight: step NW NE W E SW SE (the keys around s)",
        ),
        *[
            Binding(key, f"board('step {name}')", show=False)
            for name, key in DIRECTION_KEYS.items()
            if key != "w"
        ],
    ]
    KEY_BAR_LEAD: ClassVar[list[tuple[str, str]]] = [
        ("1-9,0", "choose"),
        ("g", "give"),
        ("Tab", "house"),
    ]
    KEY_BAR_WATCHING: ClassVar[list[tuple[str, str]]] = [("Tab", "house")]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.view: dict[str, Any] | None = None
        self.shown: int | None = None  # the seat (or ARENA) chosen with Tab; None: automatic
        self.large = False
        self._layout: tuple[Any, ...] = ()

    @property
    def ascii_only(self) -> bool:
        return not getattr(self.app, "unicode", True)

    def compose(self) -> ComposeResult:
        with Vertical(id="sb-left"):
            yield Panel("Houses", LinesView(self._houses, id="houses"), id="houses-panel")
            yield Panel("House", LinesView(self._house, id="house"), id="house-panel")
            yield Panel("Arena", LinesView(self._arena, id="arena"), id="arena-panel")
        with Vertical(id="sb-right"):
            yield Panel("Phase", LinesView(self._phase, id="phase"), id="phase-panel")
            yield Panel("Log", LogPanel(id="log"), id="sb-log")
            yield Panel("Chat", ChatPanel(id="chat"), id="chat-panel")

    def on_resize(self, event: events.Resize) -> None:
        width, height = event.size
        self.large = width >= LARGE_BODY[0] and height >= LARGE_BODY[1]
        self.set_class(self.large, "-large")
        if self.view is not None:
            self._arrange(self.view)

    # -- drawing ----------------------------------------------------------------------------------

    def _houses(self, view: Any, width: int, height: int) -> list[Line]:
        return panels.houses_lines(view, width, height, self.ascii_only)

    def _house(self, view: Any, width: int, height: int) -> list[Line]:
        seat = self.house_shown(view)
        return panels.house_lines(view, seat, width, height, self.ascii_only)

    def _arena(self, view: Any, width: int, height: int) -> list[Line]:
        board = view["game"]["board"]
        lines = arena_map.arena_lines(board, self.ascii_only)
        arena = board["arena"] or {}
        side = [
            panels.fighter_line(view, f, "I" * (i + 1), self.ascii_only)
            for i, f in enumerate(arena.get("fighters", []))
        ]
        if arena.get("fight") is not None:
            side.append(panels.roll_line(view, arena, arena["fight"]))
        map_width = arena_map.size(board["arena_board"]["radius"])[0]
        if width - map_width >= 24:  # the fighters beside the map
            room = width - map_width - 1
            out = []
            for i, line in enumerate(lines):
                extra = panels.fit_line(side[i], room, self.ascii_only) if i < len(side) else []
                out.append([*line, (" ", ""), *extra])
            return out
        return [*lines, *[panels.fit_line(s, width, self.ascii_only) for s in side]][:height]

    def _phase(self, view: Any, width: int, height: int) -> list[Line]:
        return panels.phase_lines(view, width, height, self.ascii_only)

    def house_shown(self, view: Any) -> int:
        you = view["table"]["you"]
        players = len(view["game"]["board"]["players"])
        if self.shown is not None and 0 <= self.shown < players:
            return self.shown
        return you if you is not None else 0

    def arena_shown(self, view: Any) -> bool:
        """The Arena has the bottom-left panel while combatants are in it (unless Tab chose a
        House); on large terminals it has its own panel."""
        arena = view["game"]["board"]["arena"]
        in_use = arena is not None and bool(arena["fighters"])
        if self.large:
            return in_use
        return self.shown == ARENA or (self.shown is None and in_use)

    def show(self, view: dict[str, Any]) -> None:
        self.view = view
        self._arrange(view)
        for name in ("houses", "house", "arena", "phase"):
            self.query_one(f"#{name}", LinesView).show(view)

    def _arrange(self, view: dict[str, Any]) -> None:
        """Panel sizes and titles; a layout change only when the phase or the terminal asks."""
        players = len(view["game"]["board"]["players"])
        arena = self.arena_shown(view)
        house = not arena or self.large
        houses_rows = (2 * players if self.large else players) + 1
        seat = self.house_shown(view)
        you = view["table"]["you"]
        title = f"{'Your House' if seat == you else 'House'}: {player_name(view, seat)}"
        layout = (houses_rows, arena, house)
        if layout != self._layout:
            self._layout = layout
            self.query_one("#houses-panel").styles.height = houses_rows
            self.query_one("#arena-panel").display = arena
            self.query_one("#house-panel").display = house
        self.query_one("#house-panel", Panel).set_title(title)
        self.query_one("#phase-panel", Panel).set_title(panels.phase_title(view))

    # -- keys -------------------------------------------------------------------------------------

    def board_action(self, name: str) -> None:
        if self.view is None:
            return
        view = self.view
        if name.startswith("step "):
            self._step(name.removeprefix("step "))
            return
        if name == "terms":
            if panels.phase_shows(view) == "market":  # its offers in full: every term
                self.app.push_screen(TermsScreen(terms_lines(view)))
            else:
                self.app.push_screen(TermsScreen(panels.phase_text(view), "The phase in full"))
            return
        players = len(view["game"]["board"]["players"])
        arena = view["game"]["board"]["arena"]
        order = list(range(players))
        you = view["table"]["you"]
        if you is not None:
            order = order[you:] + order[:you]  # yours first, then around the table
        if arena is not None and arena["fighters"] and not self.large:
            order.append(ARENA)
        current = ARENA if self.arena_shown(view) and not self.large else self.house_shown(view)
        step = 1 if name == "next" else -1
        index = order.index(current) if current in order else 0
        self.shown = order[(index + step) % len(order)]
        self.show(view)
        if self.shown == ARENA:
            self.post_message(self.Say("Showing the Arena (Tab: the Houses)"))
        else:
            self.post_message(
                self.Say(f"Showing {player_name(view, self.shown)} (Tab: the next House)")
            )

    def _step(self, direction: str) -> None:
        assert self.view is not None
        choice = f"step:{direction}"
        offered = [cid for p in self.view["game"]["prompts"] for cid, _ in p["choices"]]
        if choice in offered:
            self.post_message(self.Choose(choice))
        elif any(cid.startswith("step:") for cid in offered):
            legal = " ".join(
                cid.removeprefix("step:") for cid in offered if cid.startswith("step:")
            )
            self.post_message(
                self.Say(f"cannot step {direction} now; you may step {legal}", error=True)
            )
        else:
            self.post_message(
                self.Say(
                    "no step to take now (steps are for your combatant in a fight)", error=True
                )
            )

    # -- what the screen asks of a board ----------------------------------------------------------

    @classmethod
    def seat_label(cls, view: dict[str, Any], seat: int) -> str | None:
        return player_name(view, seat)

    def log_lines(self, view: dict[str, Any]) -> Sequence[Content | str]:
        """The log with players' names; without "X has bid / has bet / has answered" and the
        lot being put up, which the phase panel shows while it matters and a later line
        reveals in full (a thin link then pays for one line per reveal, not one per player)."""
        names = names_of(view)
        return [
            relabel_content(line, names)
            for line in view["game"]["log"]
            if not _SHOWN_ON_PHASE.search(line)
        ]

    def prompt_view(self, prompts: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if self.view is None:
            return prompts
        names = names_of(self.view)
        return [
            {
                **p,
                "text": relabel(p["text"], names),
                "choices": [[cid, choice_label(label, names)] for cid, label in p["choices"]],
            }
            for p in prompts
        ]

    def needs_confirm(self, choice_id: str) -> bool:
        """The rules core names the choices to press twice (`Prompt.confirm`): closing the
        Open Market, a harmful Scheme aimed at your own House, an execution."""
        if self.view is None:
            return False
        return any(
            choice_id in p.get("confirm", ()) and any(c[0] == choice_id for c in p["choices"])
            for p in self.view["game"]["prompts"]
        )

    def idle_text(self, view: dict[str, Any]) -> str | None:
        """Who is to act is marked in the Houses panel and told by the phase panel; this line
        stays the same while you wait, so a thin link does not redraw it at every move."""
        table = view["table"]
        if table["status"] == "waiting":
            return None
        mark = ">" if self.ascii_only else "▶"
        if table["you"] is None:  # (only the keys a spectator may use)
            return f"Watching as a spectator: Houses marked {mark} act now (Tab: a House in full)."
        return f"Not your move: the Houses marked {mark} are to act (Tab: a House in full, g: give, k: ask denarii)."

    def result_lines(self, view: dict[str, Any]) -> list[str] | None:
        return panels.result_lines(view)

    def help_extra(self) -> list[tuple[str, str]]:
        return legend(self.ascii_only)

    def help_lead(self) -> list[tuple[str, str]]:
        """While a Reaction window is open (a lot won, a wound, a launched Scheme), `?` starts
        by explaining it."""
        if self.view is None:
            return []
        board = self.view["game"]["board"]
        scheme = (board.get("intrigue") or {}).get("scheme") or {}
        open_now = board.get("window") is not None or scheme.get("step") == "react"
        return WINDOW_HELP if open_now else []


def choice_label(label: str, names: Any) -> str:
    """A choice as players say it: names for Houses, "Step north-east (e)" for a step."""
    step = _STEP_LABEL.match(label)
    if step:
        name = step.group(1)
        return f"Step {DIRECTION_NAMES[name]} ({DIRECTION_KEYS[name]})"
    return relabel(label, names)


# `?` while a Reaction window is open: what it is and why everyone is asked (the `r` page says more)
WINDOW_HELP = [
    ("Reaction window", "a lot won or a wound waits: all it may serve answer"),
    ("1 Let it be", "pass; 2 and on: play that Reaction (own Influence)"),
    ("secret", "shown when all are in; first clockwise plays"),
    ("all asked", "by public facts, not by cards held: it tells nothing"),
    ("closes", "once all asked answer, or at 0 s: no key lets it be"),
    ("r", "the rules of the Reaction window on one screen"),
]


def legend(ascii_only: bool) -> list[tuple[str, str]]:
    """What the panels' and the Arena's symbols mean (the help screen lists them)."""
    turn = ">" if ascii_only else "▶"
    full, empty = ("#", ".") if ascii_only else ("▰", "▱")
    return [
        (turn, "this House is to act now"),
        ("Inf, hand", "Influence (12 wins); Intrigue cards in hand (/ the hand limit)"),
        ("12d, hidden", "denarii; 'hidden' while the rules hide them; 12d* only you see"),
        ("2G 1S 2g 1E", "Gladiators, Slaves, guards, Equipment on the table"),
        ("C +1 w x", "Champion, Favor markers, wounded, exhausted"),
        ("A4 D3 S2", "dice pools: Attack (red), Defense, Speed (blue)"),
        (f"{full}{empty}", "the Influence track; Host: holds the Host title"),
        ("B1 G2", "in the Arena: a combatant (House initial, hex I or II it started on)"),
        ("[B1]  I II", "the combatant acting now; the starting hexes"),
        ("[6] [3]", "dice as rolled, highest first"),
        (
            "Glaber>Tullius 3d spare",
            "an ask: Glaber asks Tullius 3 denarii to spare a combatant "
            "(invite, accept, support: the other favours); public, not binding; k asks; (p) marks one asked of you: p pays or refuses it",
        ),
        ("Esc", "back to the lobby (your seat is kept)"),
    ]
