"""A Spartacus table of three people, each at their own app, driven by keys as players would."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from textual.pilot import Pilot

from harena.core import windows
from harena.core.lobby import Lobby
from harena.core.spartacus.rules import Spartacus
from harena.core.spartacus.state import Phase
from harena.core.table import Table
from harena.tui.app import HarenaApp
from tests.core.spartacus.helpers import clear_table
from tests.tui.harness import screen_text, session, until
from tests.tui.screen_keys import decisions, press_choice, prompt_bar, until_prompt

PLAYERS = (("id-ann", "ann"), ("id-bob", "bob"), ("id-cat", "cat"))
HOUSES = ("batiatus", "glaber", "solonius")


def new_table(seed: int = 1, **options: str) -> tuple[Lobby, Table]:
    """Three seated players, Houses chosen in seat order: ann Batiatus, bob Glaber, cat Solonius."""
    lobby = Lobby(new_seed=lambda: seed)
    (ann, ann_name), *others = PLAYERS
    table = lobby.create_table(ann, ann_name, "spartacus", len(PLAYERS), options)
    for identity, name in others:
        table.sit(identity, name)
    game = game_of(table)
    while game.state.phase is Phase.HOUSES:
        seat = game.awaited()[0]
        table.act(PLAYERS[seat][0], f"house:{HOUSES[seat]}")
    return lobby, table


def bare_market(seed: int = 3, denarii: int = 10) -> tuple[Lobby, Table, Spartacus]:
    """`new_table` with the Intrigue phase skipped and every House's table cleared, `denarii`
    each, the Market not yet started: a test gives what it needs, then starts it."""
    lobby, table = new_table(seed)
    game = game_of(table)
    game.state.intrigue = None
    for seat, p in enumerate(game.state.players):
        clear_table(game, seat)
        p.denarii = denarii
    return lobby, table, game


def game_of(table: Table) -> Spartacus:
    assert isinstance(table.game, Spartacus)
    return table.game


@dataclass
class Seat:
    app: HarenaApp
    pilot: Pilot[Any]


@dataclass
class Players:
    table: Table
    seats: list[Seat]
    screens: list[list[str]] = field(default_factory=list)  # every screen seen, per seat

    def record(self) -> None:
        for i, seat in enumerate(self.seats):
            self.screens[i].append(screen_text(seat.app))


@asynccontextmanager
async def three_players(
    lobby: Lobby, table: Table, size: tuple[int, int] = (80, 24)
) -> AsyncIterator[Players]:
    async with AsyncExitStack() as stack:
        seats = []
        for identity, name in PLAYERS:
            app, pilot = await stack.enter_async_context(session(lobby, identity, name, size=size))
            seats.append(Seat(app, pilot))
        yield Players(table, seats, [[] for _ in seats])


Policy = Callable[[int, dict[str, Any], dict[str, Any]], str | None]
"""(seat, its first open decision, its table view) -> the choice id to press, or None: this
seat waits for another to act first (only where several are asked at once)."""


async def play(
    players: Players, policy: Policy, done: Callable[[], bool], moves: int = 400
) -> None:
    """Whoever the game waits for presses the key of the choice `policy` picks, on their own
    screen, until `done()`; every screen is recorded after every move."""
    game = game_of(players.table)
    for _ in range(moves):
        if done() or game.result() is not None:
            return
        if "window" in players.table.view_for(None)["table"]:
            await answer_window(players, policy)
            continue
        for seat in game.awaited():
            player = players.seats[seat]
            await until_prompt(player.app)
            await until(
                lambda app=player.app, s=seat: (
                    decisions(app) == [p for p in game.view(s)["prompts"] if not p["standing"]]
                )
            )
            prompt = decisions(player.app)[0]
            choice = policy(seat, prompt, players.table.view_for(PLAYERS[seat][0]))
            if choice is not None:
                break
        else:
            raise AssertionError(f"every awaited seat waits for another: {game.awaited()}")
        before = game.decision_number(seat)
        await press_choice(player.pilot, player.app, choice, confirm=True)
        await until(lambda s=seat, b=before: game.decision_number(s) > b)
        await player.pilot.pause()
        players.record()
    raise AssertionError("the game did not get there in time")


async def answer_window(players: Players, policy: Policy) -> None:
    """A reaction window the table holds open (core/windows.py): every person asked presses a
    key on the same prompt and countdown, "Let it be" (1) or a card they hold (the table holds the answer);
    the last answer closes the window at once."""
    table = players.table
    for seat, prompt in sorted(windows.window_prompts(table.game).items()):
        player = players.seats[seat]
        await until_prompt(player.app, prompt.kind)
        await until(lambda player=player: "s left) " in prompt_bar(player.app).text)
        shown = next(p for p in decisions(player.app) if p.get("default"))
        choice = policy(seat, shown, table.view_for(PLAYERS[seat][0])) or shown["default"]
        await press_choice(player.pilot, player.app, choice, confirm=True)
        await until(
            lambda seat=seat, choice=choice: (
                seat not in windows.window_prompts(table.game)
                or table.view_for(PLAYERS[seat][0])["table"].get("window", {}).get("answer")
                == choice
            )
        )
    assert "window" not in table.view_for(None)["table"]  # every answer in: closed at once
    for seat in players.seats:
        await seat.pilot.pause()
    players.record()


def ids(prompt: dict[str, Any]) -> list[str]:
    return [cid for cid, _ in prompt["choices"]]


def first(prompt: dict[str, Any], *prefixes: str) -> str | None:
    """The first choice whose id starts with one of `prefixes`, in the order of the prefixes."""
    for prefix in prefixes:
        for cid in ids(prompt):
            if cid == prefix or cid.startswith(prefix):
                return cid
    return None
