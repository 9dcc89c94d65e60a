"""Hints: the create form offers them where the hard bot exists (the game is then not rated),
the lobby marks such tables and `?` says what the mark means, and at such a table (a guided
game too) `h` shows what the hard bot would choose now, asked off the loop."""

from __future__ import annotations

import asyncio

import pytest

from harena.core.guide import create_guided_table
from harena.core.lobby import Lobby
from harena.core.review.reviewer import Reviewer
from harena.core.review.verdict import Hint
from harena.core.table_like import TableLike
from harena.tui import review_calls
from harena.tui.review_calls import Unanswered
from harena.tui.screens.create_table import TableForm
from harena.tui.screens.lobby import LobbyScreen
from harena.tui.screens.table import TableScreen
from tests.tui.harness import screen_text, session, until
from tests.tui.test_widgets import GAMES


def test_the_create_form_offers_hints_only_where_the_hard_bot_is_and_says_not_rated() -> None:
    carthage = {**GAMES[0], "name": "carthage", "bots": ["heuristic", "random", "search", "easy"]}
    form = TableForm([carthage, GAMES[0]])
    fields = {f.label: f for f in form.fields()}
    assert fields["Hints"].value == "no" and "not rated" in fields["Hints"].help
    fields["Hints"].cycle(1)
    assert form.request().hints is True
    assert {f.label: f for f in form.fields()}["Hints"].value == "allowed"
    form.fields()[0].cycle(1)  # High Card: no hard bot, no hints
    assert "Hints" not in [f.label for f in form.fields()] and form.request().hints is False


async def test_the_lobby_marks_a_table_with_hints_and_explains_the_mark() -> None:
    lobby = Lobby()
    lobby.create_table("id-bob", "bob", "carthage", 2, hints=True)
    lobby.create_table("id-bob", "bob", "spartacus", 3)
    async with session(lobby, "id-ann", "ann") as (app, pilot):
        assert isinstance(app.screen, LobbyScreen)
        text = screen_text(app)
        assert "#1   Carthage (h)" in text and "Spartacus (h)" not in text
        await pilot.press("question_mark", "end")
        await pilot.pause()
        assert "(h)" in screen_text(app) and "hints are allowed there" in screen_text(app)


def hinted(label: str, value: float) -> review_calls.Unanswered | Hint:
    return Hint("x", label, value)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_h_shows_what_the_hard_bot_would_choose_at_a_table_that_allows_hints(
    size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    lobby = Lobby()
    table = lobby.create_table("id-ann", "ann", "carthage", 2, bots=1, hints=True)
    while not table.game.prompts_for(0):
        table.play_bot(1)  # ann's decision now
    asked: list[int] = []

    async def ask(_reviewer: Reviewer | None, t: TableLike, seat: int) -> Hint:
        asked.append(seat)
        await asyncio.sleep(0)
        prompt = t.game.prompts_for(seat)[0]
        return Hint(prompt.choices[0].id, prompt.choices[0].label, 0.62)

    monkeypatch.setattr(review_calls, "ask_hint", ask)
    async with session(lobby, "id-ann", "ann", size=size, start_table=table.id) as (app, pilot):
        await until(lambda: isinstance(app.screen, TableScreen) and "hint" in screen_text(app))
        assert "h hint" in screen_text(app).splitlines()[-1].replace("  ", " ")  # the key bar
        await pilot.press("h")
        label = table.game.prompts_for(0)[0].choices[0].label
        await until(lambda: "Hint: the hard bot would choose" in screen_text(app))
        assert f"would choose {label}"[:40] in screen_text(app)
        assert asked == [0]


async def test_without_hints_h_says_why_and_the_bar_does_not_offer_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lobby = Lobby()
    table = lobby.create_table("id-ann", "ann", "carthage", 2, bots=1)
    monkeypatch.setattr(review_calls, "ask_hint", pytest.fail)
    async with session(lobby, "id-ann", "ann", start_table=table.id) as (app, pilot):
        await until(lambda: isinstance(app.screen, TableScreen))
        assert "hint" not in screen_text(app).splitlines()[-1]
        await pilot.press("h")
        assert "this table does not allow hints" in screen_text(app)


async def test_a_guided_game_gives_hints_and_a_busy_bot_is_said_politely(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lobby = Lobby()
    table = create_guided_table(lobby, "id-ann", "ann", "carthage")

    async def busy(_reviewer: Reviewer | None, t: TableLike, seat: int) -> Unanswered:
        return Unanswered(review_calls.BUSY, retry=True)

    monkeypatch.setattr(review_calls, "ask_hint", busy)
    async with session(lobby, "id-ann", "ann", start_table=table.id) as (app, pilot):
        await until(lambda: isinstance(app.screen, TableScreen))
        await pilot.press("escape")  # the guide's first panel
        await pilot.press("h")
        await until(lambda: "No hint now: the bots are busy thinking" in screen_text(app))


async def test_a_hint_that_comes_after_the_choice_is_not_shown_as_this_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lobby = Lobby()
    table = lobby.create_table("id-ann", "ann", "carthage", 2, bots=1, hints=True)
    while not table.game.prompts_for(0):
        table.play_bot(1)
    go = asyncio.Event()

    async def slow(_reviewer: Reviewer | None, t: TableLike, seat: int) -> Hint:
        await go.wait()
        return Hint("x", "Guard", 0.5)

    monkeypatch.setattr(review_calls, "ask_hint", slow)
    async with session(lobby, "id-ann", "ann", start_table=table.id) as (app, pilot):
        await until(lambda: isinstance(app.screen, TableScreen))
        decision = app.screen.view["game"]["decision"]
        await pilot.press("h")
        assert "Asking the hard bot" in screen_text(app)
        table.act("id-ann", table.game.prompts_for(0)[0].choices[0].id)
        await until(lambda: app.screen.view["game"]["decision"] != decision)
        go.set()
        await until(lambda: "The hint came after your choice" in screen_text(app))


async def test_h_asks_the_hard_bot_in_a_worker_process_for_real() -> None:
    """No stand-in: a guided game's lobby has a reviewer with one bot worker, as `harena play
    --learn` makes it, and `h` shows the hard bot's own choice for the open decision."""
    from harena.server.runners.bot_workers import BotWorkers
    from harena.server.runners.reviews import Reviews

    lobby = Lobby()
    workers = BotWorkers(1)
    reviews = Reviews(workers)
    lobby.reviewer = reviews
    table = create_guided_table(lobby, "id-ann", "ann", "carthage")
    try:
        async with session(lobby, "id-ann", "ann", start_table=table.id) as (app, pilot):
            await until(lambda: isinstance(app.screen, TableScreen))
            await pilot.press("escape")  # the guide's first panel
            labels = [c.label for p in table.game.prompts_for(0) for c in p.choices]
            await pilot.press("h")
            await until(lambda: "Hint: the hard bot would choose" in screen_text(app), 30)
            text = screen_text(app)
            assert any(label in text for label in labels)  # one of the choices offered now
    finally:
        reviews.close()
        workers.close()
