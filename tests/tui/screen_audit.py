"""The screen audit (issue 36): whole seeded games played through the real TUI, every screen a
person receives checked against the rules of tests/tui/screen_checks.py.

People sit in their own HarenaApp under Textual's Pilot (at 80x24 or 120x40), bots in the other
seats, and a spectator watches. People play by keys, from what their screen shows: the number
key of a visible choice, turning pages with the keys the bar shows; in a guided game the learner
reads each guide panel (audited) and closes it with Esc. The bots are moved here, one step at a
time, so that every session's screen is audited after every change of the table: each screen is
the real character grid (`harness.screen_text`), taken once every session has the new view.
At the end each person opens the keys' help (`?`) and goes back to the lobby (Esc): both are
audited too. Reaction windows are answered by keys, or (`AuditGame.window`) held open as a
table holds them, closing at the people's answers.

`audit_game(AuditGame(...))` returns the findings of one game; tests/tui/test_screen_audit.py
runs a few in the suite, bench/screen_audit.py many.
"""

from __future__ import annotations

import asyncio
import itertools
import random
from collections import Counter
from collections.abc import Iterator, Mapping
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import Any

from textual.binding import Binding
from textual.containers import Vertical
from textual.geometry import Region
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget

from harena.core.clocks import ClockPolicy
from harena.core.engine import available_games
from harena.core.guide import create_guided_table
from harena.core.lobby import Lobby
from harena.core.table import Table
from harena.tui.app import HarenaApp
from harena.tui.boards import BoardWidget
from harena.tui.guide import REGION_SELECTORS, TARGET_CLASS
from harena.tui.screens.asks import ASK_KIND
from harena.tui.screens.give import GIFT_KIND
from harena.tui.screens.help import HelpScreen
from harena.tui.screens.lobby import LobbyScreen
from harena.tui.screens.table import TableScreen, stand_in_note
from harena.tui.widgets.header_line import HeaderLine
from harena.tui.widgets.key_bar import KeyBar, key_label
from harena.tui.widgets.prompt_bar import PAGE_SIZE, SLOT_KEYS, PromptBar
from harena.tui.widgets.status_line import StatusLine
from harena.tui.widgets.table_list import TableList
from tests.tui import screen_checks as checks
from tests.tui.harness import screen_text, session, until

PEOPLE = (("id-ann", "ann"), ("id-bob", "bob"), ("id-cat", "cat"), ("id-dan", "dan"))
SPECTATOR = ("id-sue", "sue")
SMALL, LARGE = (80, 24), (120, 40)
SETTLE_TRIES = 2000  # about ten seconds of looking for a session's new view


@dataclass(frozen=True)
class AuditGame:
    """One game to audit: which, how many seats and people, the deal, the terminal."""

    game: str
    players: int = 2
    people: int = 1
    seed: int = 1
    size: tuple[int, int] = SMALL
    options: Mapping[str, str] = field(default_factory=dict)
    guided: bool = False
    spectator: bool = True
    window: float = 0
    """Seconds a reaction window stays open at most (0: off, answered by keys like any
    prompt); people here answer at once, so a window closes at their last answer."""
    moves: int = 5000
    """Moves to play at most, a guide panel read counting as one (a partial game when it
    stops first)."""

    @property
    def name(self) -> str:
        kind = "guided" if self.guided else f"{self.players} seats, {self.people} people"
        return f"{self.game} {kind}, seed {self.seed}, {self.size[0]}x{self.size[1]}"


@dataclass(frozen=True)
class Finding:
    rule: str
    kind: str
    game: str
    who: str
    size: str
    line: str
    detail: str
    screen: str = field(default="", repr=False, compare=False)
    """The whole screen it was first seen on."""


@dataclass
class AuditResult:
    game: AuditGame
    findings: list[Finding] = field(default_factory=list)
    counts: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(rule, kind) -> how many screens showed it."""
    screens: int = 0
    moves: int = 0
    finished: bool = False

    def add(self, finding: Finding) -> None:
        key = (finding.rule, finding.kind)
        if not self.counts[key]:
            self.findings.append(finding)
        self.counts[key] += 1

    def by_rule(self, rule: str) -> list[Finding]:
        return [f for f in self.findings if f.rule == rule]


@dataclass
class Person:
    """One session at the table: a person in a seat, or the spectator (seat None)."""

    identity: str
    name: str
    seat: int | None
    app: HarenaApp
    pilot: Pilot[Any]
    last: str = ""

    @property
    def who(self) -> str:
        return f"{self.name} ({'watching' if self.seat is None else 'playing'})"


# -- one screen --------------------------------------------------------------------------------


def audit_screen(app: HarenaApp, text: str | None = None) -> list[checks.Problem]:
    """Every rule, on what `app` shows now (`text`, if taken already); on a screen other
    than the table's, ids only."""
    lines = (screen_text(app) if text is None else text).splitlines()
    screen = app.screen
    if not isinstance(screen, TableScreen) or not screen.view:
        if isinstance(screen, HelpScreen):  # a dialog over the table: only what it draws
            lines = crop(lines, screen.query_one(Vertical).region)
        return checks.ids_shown(lines) + checks.cut_words(lines, other_texts(screen))
    view = screen.view
    board = screen.query_one(BoardWidget)
    offered = displayed_prompts(screen)
    problems = checks.ids_shown(
        lines, (cid for p in view["game"]["prompts"] for cid, _ in p["choices"])
    )
    problems += choice_problems(screen, lines, offered)
    problems += covered_problems(screen, lines)
    problems += checks.cut_words(lines, full_texts(screen, board, offered))
    problems += key_problems(screen, lines)
    return problems


def crop(lines: list[str], region: Region) -> list[str]:
    return [line[region.x : region.right] for line in lines[region.y : region.bottom]]


def other_texts(screen: Screen[Any]) -> list[tuple[str, str]]:
    """The whole texts the help and the lobby are drawn from (the games' names, the keys)."""
    if isinstance(screen, HelpScreen):
        return [("help line", what) for _, what in screen.entries]
    if isinstance(screen, LobbyScreen):
        tables = [
            ("table line", line) for t in screen.query(TableList) for line in t.text.split("\n")
        ]
        return [("game title", game.title) for game in available_games()] + tables
    return []


def displayed_prompts(screen: TableScreen) -> list[dict[str, Any]]:
    """The prompts the view offers in the prompt bar, labelled as the board labels them (gifts
    and asks have keys of their own)."""
    view = screen.view
    if view["game"]["result"] is not None or stand_in_note(view):
        return []
    prompts = [p for p in view["game"]["prompts"] if p["kind"] not in (GIFT_KIND, ASK_KIND)]
    return screen.query_one(BoardWidget).prompt_view(prompts)


def choice_problems(
    screen: TableScreen, lines: list[str], offered: list[dict[str, Any]]
) -> list[checks.Problem]:
    bar = screen.query_one(PromptBar)
    if not offered or not bar.display:
        return []
    labels = {cid: label for p in offered for cid, label in p["choices"]}
    listed = dict(bar.choices)
    keys = bar.keys_shown()
    shown = [(key, labels.get(cid, listed.get(cid, cid))) for cid, key in keys.items()]
    return [
        *checks.missing_choices(labels, listed),
        *checks.hidden_choices(lines, shown, len(listed) - len(keys)),
    ]


def box(region: Region) -> checks.Box:
    return (region.x, region.y, region.width, region.height)


def covered_problems(screen: TableScreen, lines: list[str]) -> list[checks.Problem]:
    guide = screen.guide
    panel = guide.showing if guide is not None else None
    if guide is None or panel is None:
        return []
    regions: dict[str, checks.Box] = {}
    bar = screen.query_one(PromptBar)
    if bar.display:
        regions["the prompt bar"] = box(bar.region)
    target = highlighted(screen, guide.guide.game, panel.points)
    name = f"the highlighted {panel.points}"
    frame_over = None
    if target is not None:
        regions[name] = box(target.region)
        if target.has_class(TARGET_CLASS) and outline_drawn(target):
            frame_over = name
    return checks.covered(lines, box(guide.box.region), regions, frame_over)


def highlighted(screen: TableScreen, game: str, points: str) -> Widget | None:
    found = screen.query(REGION_SELECTORS[game][points])
    return found.first() if found else None


def outline_drawn(widget: Widget) -> bool:
    """Textual draws an outline over the widget's own edge cells (a border takes room)."""
    return any(edge[0] not in ("", "none", "hidden") for edge in widget.styles.outline)


def full_texts(
    screen: TableScreen, board: BoardWidget, offered: list[dict[str, Any]]
) -> list[tuple[str, str]]:
    """The whole texts the screen is drawn from (where each comes from, the text), to find
    the ones it cuts."""
    view = screen.view
    texts = [("choice label", label) for p in offered for _, label in p["choices"]]
    texts += [("prompt text", p["text"]) for p in offered]
    texts += [("log line", str(getattr(line, "plain", line))) for line in board.log_lines(view)]
    texts += [
        ("header", screen.query_one(HeaderLine).text),
        ("status line", screen.query_one(StatusLine).text),
    ]
    texts += [("asset name", name) for name in asset_names(view)]
    guide = screen.guide
    if guide is not None and guide.showing is not None:
        texts += [("guide text", line) for line in (guide.showing.title, *guide.showing.lines)]
    return texts


def asset_names(view: dict[str, Any]) -> set[str]:
    """The names of the cards on each Spartacus House's table (drawn in a column of their own:
    "2x Murmillo Recrui" was cut without a word in the House panel at 80x24)."""
    players = view["game"]["board"].get("players", [])
    return {
        asset["name"]
        for player in players
        if isinstance(player, dict)
        for asset in player.get("assets") or []
        if isinstance(asset, dict) and isinstance(asset.get("name"), str)
    }


def bar_keys(screen: TableScreen) -> list[checks.BarKey]:
    """Every entry the key bar may list, with the action its key runs on this screen."""
    bindings = [
        b
        for b in [*screen.BINDINGS, *screen.board_class.SCREEN_BINDINGS]
        if isinstance(b, Binding) and b.description
    ]
    by_label = {b.description: b.action for b in bindings}
    by_label.setdefault("hex", by_label.get("cursor", ""))
    lead = [*screen.board_class.KEY_BAR_LEAD, *screen.board_class.KEY_BAR_WATCHING]
    keys = [checks.BarKey(keys, label, by_label.get(label, "")) for keys, label in lead]
    keys += [checks.BarKey(key_label(b), b.description, b.action) for b in bindings]
    return list({(k.keys, k.label): k for k in reversed(keys)}.values())


def key_problems(screen: TableScreen, lines: list[str]) -> list[checks.Problem]:
    bar = screen.query_one(KeyBar)
    if not bar.display or not lines:
        return []
    row = lines[bar.region.y] if bar.region.y < len(lines) else ""
    return checks.dead_keys(row, bar_keys(screen), screen.view["table"]["you"] is None)


# -- a whole game ------------------------------------------------------------------------------


async def audit_game(spec: AuditGame) -> AuditResult:
    """Play `spec` to its end (or `spec.moves` table changes) and audit every screen."""
    result = AuditResult(spec)
    lobby, table = make_table(spec)
    people = PEOPLE[: 1 if spec.guided else spec.people]
    rng = random.Random(spec.seed)
    async with AsyncExitStack() as stack:
        sessions = []
        watchers = [*people, SPECTATOR] if spec.spectator else list(people)
        for identity, name in watchers:
            app, pilot = await stack.enter_async_context(
                session(lobby, identity, name, size=spec.size, start_table=table.id)
            )
            steady_clock(app)
            sessions.append(Person(identity, name, table.seat_of(identity), app, pilot))
        learners = {p.seat: learner(table, p.seat) for p in sessions if p.seat is not None}
        for _ in range(spec.moves):
            await settle(sessions, table)
            for person in sessions:
                audit_into(result, person, spec)
            if table.game.result() is not None:
                result.finished = True
                break
            result.moves += 1
            if await read_guide(sessions):
                continue
            if not await person_moves(sessions, table, learners, rng):
                if not bot_moves(table):
                    raise AssertionError(f"{spec.name}: nobody can move: {table.game.awaited()}")
        for person in sessions:
            await audit_away(result, person, spec)
    return result


def make_table(spec: AuditGame) -> tuple[Lobby, Table]:
    """The table of `spec`: people in the first seats, heuristic bots in the others; reaction
    windows answered by keys (no fixed wait: the audit plays as fast as it can)."""
    lobby = Lobby(new_seed=lambda: spec.seed)
    (identity, name), *others = PEOPLE[: spec.people]
    if spec.guided:
        return lobby, create_guided_table(lobby, identity, name, spec.game)
    table = lobby.create_table(
        identity,
        name,
        spec.game,
        spec.players,
        dict(spec.options),
        policy=ClockPolicy(window=spec.window),
    )
    for other, other_name in others:
        table.sit(other, other_name)
    for seat, held in enumerate(table.seats):
        if held.free:
            table.set_bot(seat, "heuristic" if "heuristic" in table.game.bots else "random")
    return lobby, table


def steady_clock(app: HarenaApp) -> None:
    """Each reading of the prompt bar's clock is a second later: a person reads the new choices
    before pressing (the bar refuses keys for a moment after they changed under a finger)."""

    async def ready() -> None:
        await until(lambda: bool(app.screen.query(PromptBar)))
        bar = app.screen.query_one(PromptBar)
        ticks: Iterator[int] = itertools.count(start=1_000_000)
        bar.clock = lambda: float(next(ticks))

    app.call_later(lambda: asyncio.ensure_future(ready()))


def learner(table: Table, seat: int) -> Any:
    bots = table.game.bots
    return bots["heuristic" if "heuristic" in bots else next(iter(bots))](1000 + seat)


def synced(person: Person, table: Table) -> bool:
    screen = person.app.screen
    return isinstance(screen, TableScreen) and screen.view == table.view_for(person.identity)


async def settle(sessions: list[Person], table: Table) -> None:
    """Wait until every session shows the table as it is now, and has drawn it."""
    for person in sessions:
        for _ in range(SETTLE_TRIES):
            if synced(person, table):
                break
            await asyncio.sleep(0 if _ < 20 else 0.005)
        else:
            raise AssertionError(f"{person.who}: the screen never showed the table's view")
        await person.pilot.pause(0)  # its messages handled, its screen refreshed


def audit_into(result: AuditResult, person: Person, spec: AuditGame) -> None:
    text = screen_text(person.app)
    if text == person.last:
        return
    person.last = text
    result.screens += 1
    size = f"{spec.size[0]}x{spec.size[1]}"
    for problem in audit_screen(person.app, text):
        result.add(
            Finding(
                problem.rule,
                problem.kind,
                spec.game,
                person.who,
                size,
                problem.line,
                problem.detail,
                text,
            )
        )


async def audit_away(result: AuditResult, person: Person, spec: AuditGame) -> None:
    """The screens a person opens from the table: the keys' help (`?`; in a guided game the
    first `?` may bring a panel back), then the lobby (Esc, after any panel)."""
    for _ in range(3):
        await person.pilot.press("question_mark")
        if isinstance(person.app.screen, HelpScreen):
            audit_into(result, person, spec)
            break
    for _ in range(4):
        await person.pilot.press("escape")
        if isinstance(person.app.screen, LobbyScreen):
            await person.pilot.pause(0)
            audit_into(result, person, spec)
            break


async def read_guide(sessions: list[Person]) -> bool:
    """A learner with a guide panel open (audited already) closes it with Esc."""
    for person in sessions:
        screen = person.app.screen
        if isinstance(screen, TableScreen) and screen.guide and screen.guide.showing:
            await person.pilot.press("escape")
            return True
    return False


async def person_moves(
    sessions: list[Person], table: Table, learners: dict[int | None, Any], rng: random.Random
) -> bool:
    """The first person the game waits for chooses, by keys, among the choices on screen."""
    awaited = set(table.game.awaited())
    for person in sessions:
        if person.seat is None or person.seat not in awaited:
            continue
        screen = person.app.screen
        assert isinstance(screen, TableScreen)
        bar = screen.query_one(PromptBar)
        ids = [cid for cid, _ in bar.choices]
        if not ids or answered(screen.view):
            continue
        choice = pick(person, table, learners, ids, rng)
        before = table.game.decision_number(person.seat)
        number = bar.number_of(choice)
        assert number is not None, (choice, ids)
        await press(person, screen, bar, number)
        try:
            await until(
                lambda s=person.seat, b=before, p=person: (
                    table.game.decision_number(s) > b or answered(table.view_for(p.identity))
                ),
                timeout=2,
            )
        except AssertionError:
            continue  # refused (the choices changed as it was pressed): the next round
        return True
    return False


def answered(view: dict[str, Any]) -> bool:
    """This person's answer to the open reaction window is in (held until it closes)."""
    window = view["table"].get("window")
    return window is not None and window.get("answer") is not None


def pick(
    person: Person,
    table: Table,
    learners: dict[int | None, Any],
    ids: list[str],
    rng: random.Random,
) -> str:
    """As the guide advises where it does, else as a sound player would; a choice not on the
    bar (a gift) gives way to any shown."""
    assert person.seat is not None
    screen = person.app.screen
    assert isinstance(screen, TableScreen)
    if screen.guide is not None:
        mine = [p for p in screen.view["game"]["prompts"] if not p.get("standing")]
        advised = screen.guide.guide.advice(mine[0], screen.guide.shown) if mine else None
        if advised in ids:
            return str(advised)
    bot = learners[person.seat]
    choice = str(bot.choose(table.game.view_for_bot(person.seat, bot)))
    return choice if choice in ids else rng.choice(ids)


async def press(person: Person, screen: TableScreen, bar: PromptBar, index: int) -> None:
    """Turn to the choice's page with the shown keys, press its number (twice when the
    screen asks for the same key again)."""
    pilot = person.pilot
    while bar.page != index // PAGE_SIZE:
        forward = bar.page < index // PAGE_SIZE
        await pilot.press("right_square_bracket" if forward else "left_square_bracket")
    key = SLOT_KEYS[index % PAGE_SIZE]
    await pilot.press(key)
    if screen._confirming is not None:
        await pilot.press(key)


def bot_moves(table: Table) -> bool:
    return table.play_bot_step()
