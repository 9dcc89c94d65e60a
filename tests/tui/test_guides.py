"""Guided first games (core/guide.py, tui/guide.py), walked from start to end with keys at
80x24: each panel shows once at its moment, beside the part of the screen it talks about and
never over it nor over the prompt bar, Esc closes it, `?` brings it back, it leaves when its
moment passes, and its counter counts the panels met; the player then plays that moment for
real (here, as the heuristic bot would: a deterministic learner), until the game ends; the table
is an ordinary one throughout. What is checked is read from the rendered screen.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pyte
import pytest
from textual.geometry import Region

from harena.core.guide import create_guided_table, load_guide
from harena.core.lobby import Lobby
from harena.server.hosting.textual_fixes import install, mark_server_app
from harena.server.runners.bot_runner import BotRunner
from harena.server.transport.driver import SSHDriver
from harena.tui.app import HarenaApp
from harena.tui.guide import REGION_NAMES, REGION_SELECTORS, TARGET_CLASS, GuideBox
from harena.tui.screens.help import HelpScreen
from harena.tui.screens.lobby import LobbyScreen
from harena.tui.screens.table import TableScreen
from harena.tui.widgets.prompt_bar import PAGE_SIZE, SLOT_KEYS, PromptBar
from tests.tui.harness import screen_text, session, until
from tests.tui.screen_keys import press_choice, prompt_bar, table_screen

ME = "id-ann"

RARE = {"carthage": {"knockback_direction"}, "spartacus": set()}
"""Moments too rare to come in one game (two knockback directions equally straight): proven
with a view made for them in tests/core/test_guide.py. Every other panel shows in the walk:
the guide's seed is the deal chosen for that (docs/guides.md); the fixed deal and a
deterministic learner make the walk the same each time, but a rules change may change its
path, and then the seed is chosen again."""


def synced(app: Any, table: Any) -> bool:
    screen = app.screen
    return (
        isinstance(screen, TableScreen)
        and bool(screen.view)
        and screen.view["game"]["decision"] == table.view_for(ME)["game"]["decision"]
        and screen.view["game"]["result"] == table.view_for(ME)["game"]["result"]
    )


async def walk(game: str) -> list[str]:
    """Play the guided game of `game` to its end by keys; the keys of the panels met."""
    lobby = Lobby()
    runner = BotRunner(lobby, delay=0.0)
    table = create_guided_table(lobby, ME, "ann", game)
    learner = table.game.bots["heuristic"](1) if "heuristic" in table.game.bots else None
    guide = load_guide(game)
    met: list[str] = []
    again_checked = False
    try:
        async with session(lobby, ME, "ann", start_table=table.id) as (app, pilot):
            for _ in range(3000):
                await until(lambda: synced(app, table), timeout=10)
                screen = table_screen(app)
                panel = screen.guide.showing
                if panel is not None:
                    if panel.key not in met:
                        # counted as met, in order (one may pass before it is seen here: its
                        # moment ended, as a bot's move can end it, under a player's eyes too)
                        number = app.guide_progress[table.id].index(panel.key) + 1
                        assert number > len(met), "the counter went back"
                        guide_of = screen.guide  # placed once laid out, unless gone by then
                        await until(lambda g=guide_of, p=panel: g.box.display or g.showing != p)
                        await pilot.pause()
                        if screen.guide.showing is not panel:
                            continue  # its moment passed meanwhile (a bot moved)
                        await check_panel(app, game, panel, number)
                        met.append(panel.key)
                    await pilot.press("escape")
                    if screen.guide.showing is None and not again_checked:
                        await check_again(pilot, app, game, panel)
                        again_checked = True
                    continue
                if table.game.result() is not None:
                    break
                mine = [p for p in screen.view["game"]["prompts"] if not p.get("standing")]
                if mine and 0 in table.game.awaited():
                    # As the guide advises where it does, else as a sound player would.
                    choice = guide.advice(mine[0], met) or learner.choose(
                        table.game.view_for_bot(0, learner)
                    )
                    await press_choice(pilot, app, choice, confirm=True)
                else:
                    await asyncio.sleep(0.005)
            assert table.game.result() is not None, "the guided game did not end"
            assert table_screen(app).guide.showing is None
            await pilot.press("enter")  # the game is over: back to the lobby
            await until(lambda: isinstance(app.screen, LobbyScreen))
    finally:
        runner.close()
    shown = app.guide_progress[table.id]
    assert len(shown) == len(set(shown)), "a panel showed twice"
    assert set(shown) <= {p.key for p in guide.panels} and set(met) <= set(shown)
    return shown


def screen_lines(app: Any) -> list[str]:
    width = app.size.width
    return [line.ljust(width) for line in screen_text(app).splitlines()]


def drawn_box(lines: list[str]) -> Region | None:
    """The guide panel as the screen shows it: the rectangle of its heavy border."""
    for y, line in enumerate(lines):
        x = line.find("┏━ Guide ")
        if x < 0:
            continue
        right = line.index("┓", x)
        bottom = next(b for b in range(y + 1, len(lines)) if lines[b][x] == "┗")
        return Region(x, y, right - x + 1, bottom - y + 1)
    return None


def crop(lines: list[str], region: Region) -> list[str]:
    return [line[region.x : region.right] for line in lines[region.y : region.bottom]]


async def check_panel(app: Any, game: str, panel: Any, number: int) -> None:
    """The panel is on screen at 80x24, whole on one page, counted as the `number`th met, beside
    its region (on screen, highlighted, pointed at) and never over it nor over the prompt bar,
    whose header and choices all show."""
    lines = screen_lines(app)
    box = drawn_box(lines)
    assert box is not None, "\n".join(lines)
    head = lines[box.y]
    assert f"Guide {number}/{len(load_guide(game).panels)}" in head, head
    inside = " ".join(row.strip(" ┃") for row in crop(lines, box)[1:-1])
    widget = app.screen.query_one(GuideBox)
    assert len(widget.pages) == 1, f"{panel.key}: {len(widget.pages)} pages at 80x24"
    assert " ".join(widget.pages[0]) in " ".join(inside.split()), (panel.key, inside)
    assert panel.title in inside
    target = app.screen.query_one(REGION_SELECTORS[game][panel.points])
    assert target.has_class(TARGET_CLASS)
    assert target.display and target.region.area, f"{panel.key}: {panel.points} is not on screen"
    assert REGION_NAMES.get(panel.points, panel.points) in head, head
    assert not box.overlaps(target.region), (panel.key, box, target.region)
    bottom = app.screen.query_one("#prompt" if panel.key != "won" else "#game-over")
    assert not box.overlaps(bottom.region), (panel.key, box, bottom.region)
    if panel.key != "won":  # (read again if a bot's move is being drawn just now)
        await until(lambda: prompt_shows(app, screen_lines(app)))


def prompt_shows(app: Any, lines: list[str]) -> bool:
    """The prompt bar's header and every choice of its page are on the screen, in its rows."""
    bar = app.screen.query_one(PromptBar)
    rows = "\n".join(crop(lines, bar.region))
    header = bar.text.splitlines()[0].strip()
    page = bar.choices[bar.page * PAGE_SIZE : (bar.page + 1) * PAGE_SIZE]
    return (
        bool(header)
        and header[:40] in rows
        and all(f" {SLOT_KEYS[slot]}  {label[:20]}" in rows for slot, (_, label) in enumerate(page))
    )


async def check_again(pilot: Any, app: Any, game: str, panel: Any) -> None:
    """Closed by Esc (its outline gone), `?` brings it back; `?` again opens the keys' help."""
    target = app.screen.query_one(REGION_SELECTORS[game][panel.points])
    assert not target.has_class(TARGET_CLASS)
    await pilot.press("question_mark")
    assert app.screen.guide.showing == panel and target.has_class(TARGET_CLASS)
    await pilot.press("question_mark")
    assert isinstance(app.screen, HelpScreen)
    await pilot.press("escape")
    assert isinstance(app.screen, TableScreen)
    await pilot.press("escape")
    assert app.screen.guide.showing is None


@pytest.mark.parametrize("game", ["carthage", "spartacus"])
async def test_the_guided_game_is_walked_from_start_to_end(game):
    met = await walk(game)
    assert set(met) == {p.key for p in load_guide(game).panels} - RARE[game], met
    assert met[0] == "welcome" and met[-1] == "won", met


async def test_leaving_the_guide_leaves_an_ordinary_table_and_coming_back_goes_on():
    lobby = Lobby()
    runner = BotRunner(lobby, delay=0.0)
    table = create_guided_table(lobby, ME, "ann", "carthage")
    try:
        async with session(lobby, ME, "ann", start_table=table.id) as (app, pilot):
            await until(lambda: synced(app, table))
            await until(lambda: table_screen(app).guide.showing is not None)
            assert table_screen(app).guide.showing.key == "welcome"
            await pilot.press("escape")  # welcome closed; the next one ("choose") shows
            await until(lambda: table_screen(app).guide.showing is not None)
            await pilot.press("escape")
            assert table_screen(app).guide.showing is None
            await pilot.press("escape")  # no panel open: Esc is the lobby, the seat kept
            await until(lambda: isinstance(app.screen, LobbyScreen))
            assert table.seat_of(ME) == 0 and table.status == "playing"
            await pilot.press("enter")  # back to the seat
            await until(lambda: synced(app, table))
            screen = table_screen(app)
            assert screen.guide.showing is None  # nothing shown twice
            assert app.guide_progress[table.id] == ["welcome", "choose"]
            await pilot.press("5")  # play on: the Purple Gaul
            await until(lambda: screen.guide.showing is not None, timeout=10)
            assert screen.guide.showing.key == "place"
        async with session(lobby, "id-bob", "bob", start_table=table.id) as (app, pilot):
            await until(lambda: synced_for(app, table, "id-bob"))
            assert table_screen(app).guide.showing is None  # a spectator gets no panels
            assert "Guide:" not in screen_text(app)
    finally:
        runner.close()


def synced_for(app: Any, table: Any, identity: str) -> bool:
    screen = app.screen
    return (
        isinstance(screen, TableScreen)
        and bool(screen.view)
        and (screen.view["game"]["decision"] == table.view_for(identity)["game"]["decision"])
    )


async def test_learn_to_play_in_the_new_table_form_opens_the_guided_game():
    lobby = Lobby()
    async with session(lobby, ME, "ann") as (app, pilot):
        await pilot.press("n")
        fields = app.screen.form.fields()
        assert fields[0].value == "Carthage" and fields[-1].label == "Learn to play"
        await pilot.press(*["up"], "right")  # the last field: Learn to play, yes
        assert [f.label for f in app.screen.form.fields()] == ["Game", "Learn to play"]
        assert "guided first game" in screen_text(app)
        await pilot.press("enter")
        await until(lambda: isinstance(app.screen, TableScreen))
        table_id = app.screen.table.id
        assert lobby.guided == {table_id: "carthage"}
        await until(lambda: "Welcome to the arena of Carthage" in screen_text(app))
        assert "Guide 1/18 ◀ the arena" in screen_text(app)


HEAVY = str.maketrans("━┃┏┓┗┛", "─│┌┐└┘")
"""A highlighted panel's title rule turns heavy: the same rule, marked (no text covered)."""


async def panel_and_bare_screens(app: Any, pilot: Any, game: str) -> tuple[list[str], list[str]]:
    """The screen with the panel shown, then the same screen without it nor its highlight."""
    screen = table_screen(app)
    panel = screen.guide.showing
    with_panel = screen_lines(app)
    target = screen.query_one(REGION_SELECTORS[game][panel.points])
    screen.guide.box.display = False
    target.remove_class(TARGET_CLASS)
    await pilot.pause()
    bare = screen_lines(app)
    screen.guide.box.display = True
    target.add_class(TARGET_CLASS)
    await pilot.pause()
    return with_panel, bare


@pytest.mark.parametrize(
    ("game", "escapes", "key"),
    [("carthage", 0, "welcome"), ("carthage", 1, "choose"), ("spartacus", 1, "house")],
)
async def test_a_panel_leaves_the_prompt_and_the_region_it_explains_as_they_are(game, escapes, key):
    """Issue 36: the Welcome covered the prompt bar (a key picked an unseen gladiator), and the
    highlight frame was drawn over the arena's top row: now both read as without the panel."""
    lobby = Lobby()
    runner = BotRunner(lobby, delay=0.0)
    table = create_guided_table(lobby, ME, "ann", game)
    try:
        async with session(lobby, ME, "ann", start_table=table.id) as (app, pilot):
            await until(lambda: "Guide 1/18" in screen_text(app), timeout=10)
            for _ in range(escapes):
                await pilot.press("escape")
            await until(lambda: f"Guide {escapes + 1}/18" in screen_text(app), timeout=10)
            await until(lambda: bool(prompt_bar(app).choices))  # the learner's turn: all still
            screen = table_screen(app)
            assert screen.guide.showing.key == key
            with_panel, bare = await panel_and_bare_screens(app, pilot, game)
            target = screen.query_one(REGION_SELECTORS[game][screen.guide.showing.points])
            for region in (target.region, screen.query_one(PromptBar).region):
                shown = [row.translate(HEAVY) for row in crop(with_panel, region)]
                assert shown == crop(bare, region), "\n".join(shown)
            rows = "\n".join(crop(with_panel, screen.query_one(PromptBar).region))
            for slot, (_, label) in enumerate(prompt_bar(app).choices):
                assert f" {SLOT_KEYS[slot]}  {label[:30]}" in rows  # every choice, numbered
    finally:
        runner.close()


async def test_a_panel_leaves_when_its_moment_passes_and_the_counter_counts_those_met():
    """Issue 36: "Choose your House" stayed after the House was chosen, and `n/18` was a
    catalogue number. The welcome's moment ends with the first decision; a panel's with the
    decision it explains; the counter goes 1, 2, 3 in the order they show."""
    lobby = Lobby()
    runner = BotRunner(lobby, delay=0.0)
    table = create_guided_table(lobby, ME, "ann", "carthage")
    try:
        async with session(lobby, ME, "ann", start_table=table.id) as (app, pilot):
            await until(lambda: "Guide 1/18 ◀ the arena" in screen_text(app), timeout=10)
            await pilot.press("escape")
            await until(lambda: "Guide 2/18 ▼ your choices" in screen_text(app))
            assert "Choose your gladiator" in screen_text(app)
            await pilot.press("5")  # chosen, the panel not closed: its moment is over
            await until(lambda: "Guide 3/18 ◀ the arena" in screen_text(app), timeout=10)
            text = screen_text(app)
            assert "Enter the arena: placement" in text and "Guide 2/18" not in text
            await pilot.press("1")  # placed: the placement panel goes with its moment
            await until(lambda: "Enter the arena: placement" not in screen_text(app), timeout=10)
            assert app.guide_progress[table.id][:3] == ["welcome", "choose", "place"]
            await until(lambda: "Guide 4/18" in screen_text(app), timeout=10)  # the next one
    finally:
        runner.close()


async def test_the_welcome_goes_with_the_first_decision_and_the_passed_panel_is_not_shown():
    """Issue 36: pressing 1 under the Welcome picked a House unseen and the "Choose your House"
    panel never showed: now the choices show beside it, and choosing ends both moments."""
    lobby = Lobby()
    runner = BotRunner(lobby, delay=0.0)
    table = create_guided_table(lobby, ME, "ann", "spartacus")
    try:
        async with session(lobby, ME, "ann", start_table=table.id) as (app, pilot):
            await until(lambda: "Welcome, Dominus" in screen_text(app), timeout=10)
            await until(lambda: bool(prompt_bar(app).choices), timeout=10)
            assert "1  House of Batiatus" in screen_text(app)  # seen beside the Welcome
            await pilot.press("1")
            await until(lambda: "Welcome, Dominus" not in screen_text(app), timeout=10)
            assert "choose" not in app.guide_progress[table.id]
            assert "Choose your House" not in screen_text(app)
    finally:
        runner.close()


async def test_a_text_longer_than_its_place_is_paged_by_esc(monkeypatch):
    """A panel whose text does not fit beside its region at 80x24 shows a page at a time:
    Esc shows the next, then closes it."""
    from harena.core import guide as core_guide
    from harena.tui import guide as tui_guide

    real = core_guide.load_guide("carthage")
    long = dataclasses.replace(real.panels[0], lines=real.panels[0].lines * 3)
    guide = dataclasses.replace(real, panels=(long, *real.panels[1:]))
    monkeypatch.setattr(tui_guide, "load_guide", lambda game: guide)
    lobby = Lobby()
    runner = BotRunner(lobby, delay=0.0)
    table = create_guided_table(lobby, ME, "ann", "carthage")
    try:
        async with session(lobby, ME, "ann", start_table=table.id) as (app, pilot):
            await until(lambda: "Esc more (1/2)" in screen_text(app), timeout=10)
            first = screen_text(app)
            await pilot.press("escape")
            await until(lambda: "Esc got it" in screen_text(app))
            assert "Guide 1/18" in screen_text(app) and screen_text(app) != first
            await pilot.press("escape")
            await until(lambda: "Guide 2/18 ▼ your choices" in screen_text(app))
    finally:
        runner.close()


@asynccontextmanager
async def terminal_session(
    lobby: Lobby, table_id: str
) -> AsyncIterator[tuple[HarenaApp, SSHDriver, pyte.Screen]]:
    """The learner's app on the server's SSH driver, its output painted on a pyte terminal: what
    reaches a player, cell by cell, repaints included (Pilot reads the whole screen afresh)."""
    install()
    lobby.connect(ME, "ann")
    app = HarenaApp(lobby, ME, "ann", start_table=table_id)
    mark_server_app(app)
    terminal = pyte.Screen(80, 24)
    stream = pyte.ByteStream(terminal)
    started: asyncio.Future[SSHDriver] = asyncio.get_running_loop().create_future()
    app.driver_class = SSHDriver.bind(stream.feed, started.set_result)
    task = asyncio.create_task(app.run_async(size=(80, 24)))
    try:
        yield app, await asyncio.wait_for(started, 5), terminal
    finally:
        app.exit()
        await asyncio.wait_for(task, 5)
        lobby.disconnect(ME)


SUPPORT_FIRST = 173


async def test_the_place_a_panel_leaves_is_repainted_on_the_players_terminal():
    """Played at 80x24: "Support a Scheme" left with its moment, but the terminal kept its frame
    and text where the House panel had not changed (Textual repaints a place a widget leaves
    only if its next layout sees it go, and repainting the hidden Arena re-arranged first)."""
    lobby = Lobby()
    # A deal where a bot asks the learner's support before the learner's own first turn (the
    # learner here only answers; the guide's own deal is chosen for the walk instead).
    table = create_guided_table(lobby, ME, "ann", "spartacus", seed=SUPPORT_FIRST)

    async def bots_until(kind: str) -> None:  # bots move only when told: the screen stays still
        for _ in range(500):
            if any(p["kind"] == kind for p in table.view_for(ME)["game"]["prompts"]):
                return
            if not table.play_bot_step():
                await asyncio.sleep(0.01)  # the learner's key is on its way
        raise AssertionError(f"no {kind} for the learner")

    def shows(text: str) -> bool:
        return text in "\n".join(terminal.display)

    async with terminal_session(lobby, table.id) as (_app, driver, terminal):
        await until(lambda: shows("Welcome, Dominus"), timeout=10)
        await bots_until("choose_house")
        driver.feed(b"\x1b")
        await until(lambda: shows("Guide 2/18"))
        driver.feed(b"1")
        await bots_until("support_scheme")
        await until(lambda: shows("Support a Scheme") and shows("2  Refuse"))
        driver.feed(b"2")
        await until(lambda: not shows("2  Refuse"))
        await until(lambda: not shows("Support a Scheme") and not shows("Guide 3/18"))
        await until(lambda: not shows("┃ Another Dominus"))  # nothing of it is left
