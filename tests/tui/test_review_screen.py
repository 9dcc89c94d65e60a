"""The review screen: the course drawn, then where it turned for the player asking, each with a
key that jumps the replay to that moment; progress while the bot reviews, a polite line when it
cannot. At 80x24 and 120x40."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from functools import cache

import pytest

from harena.core.lobby import Lobby
from harena.core.review.reviewer import Reviewer
from harena.core.review.verdict import TableReview
from harena.core.table import Table
from harena.core.table_like import TableLike
from harena.tui import review_calls
from harena.tui.review_calls import Unanswered
from harena.tui.review_text import reviewable, seat_labels
from harena.tui.screens.replay import ReplayScreen
from harena.tui.screens.review import ReviewScreen
from harena.tui.screens.table import TableScreen
from tests.tui.harness import screen_text, session, until
from tests.tui.review_tables import finished_table, review_of


def when(round_: int) -> str:
    return f"round {round_}" if round_ else "setup"


DROPS = [0.02, 0.31, 0.0, 0.12, 0.05, 0.07, 0.004]


@cache
def table_of(game: str) -> tuple[Lobby, Table]:
    lobby = Lobby()
    return lobby, finished_table(lobby, game, 2 if game == "carthage" else 3)


Ask = Callable[
    [Reviewer | None, TableLike, int, review_calls.Progress], Awaitable[TableReview | Unanswered]
]


def answering(answer: Callable[[TableLike, int], TableReview | Unanswered]) -> Ask:
    """The reviewer's call answering `answer`, half-way progress heard first."""

    async def ask(
        _reviewer: Reviewer | None, table: TableLike, seat: int, on_progress: review_calls.Progress
    ) -> TableReview | Unanswered:
        on_progress(0.5)
        await asyncio.sleep(0)
        return answer(table, seat)

    return ask


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_end_of_the_game_offers_i_and_it_shows_the_course_then_the_turning_points(
    size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    lobby, table = table_of("carthage")
    review = review_of(table, DROPS)
    monkeypatch.setattr(review_calls, "ask_review", answering(lambda t, s: review))
    async with session(lobby, "id-ann", "ann", size=size, start_table=table.id) as (app, pilot):
        assert isinstance(app.screen, TableScreen)
        assert "i how it went" in screen_text(app)
        await pilot.press("i")
        await until(lambda: isinstance(app.screen, ReviewScreen))
        await until(lambda: "1-5: the replay at that moment" in screen_text(app))
        await until(lambda: "(normal" in screen_text(app))
        text = screen_text(app)
        assert "how it went" in text.splitlines()[0]
        assert "Armor, from the start to round" in text
        assert "(ann)" in text and "(normal" in text  # as Carthage names them
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        points = screen.turning_points()
        assert [round(p.drop, 2) for p in points] == [0.31, 0.12, 0.07, 0.05, 0.02]  # worst first
        for _ in range(12 if size[1] < 30 else 0):
            await pilot.press("down")
        text = screen_text(app)
        assert "Where it turned for you" in text
        assert f"{when(points[0].round)}: you chose chosen 2" in text
        assert "the search bot would choose best 2: about 31% less chance to win" in text
        assert all(len(line) <= size[0] for line in text.splitlines())
        await pilot.press("2")
        assert isinstance(app.screen, ReplayScreen)
        replay = app.screen
        assert replay.position == points[1].position
        assert f"move {points[1].position}/{len(table.game.actions)}" in screen_text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, ReviewScreen)
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)


async def test_from_a_replay_a_turning_point_moves_that_replay_to_the_moment_before_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lobby, table = table_of("spartacus")
    review = review_of(table, [0.0, 0.2, 0.1])
    monkeypatch.setattr(review_calls, "ask_review", answering(lambda t, s: review))
    async with session(lobby, "id-ann", "ann") as (app, pilot):
        app.push_screen(ReplayScreen.for_table(table, "id-ann"))
        await pilot.pause()
        bar = screen_text(app).splitlines()[-1]
        assert "i review" in " ".join(bar.split()) and bar.rstrip().endswith("help")  # fits
        await pilot.press("i")
        await until(lambda: isinstance(app.screen, ReviewScreen))
        assert "Influence, from the start" in screen_text(app)
        assert "Auctions won and Schemes landed" in screen_text(app)
        await until(lambda: app.screen.turning_points() != [])
        await pilot.press("1")
        assert isinstance(app.screen, ReplayScreen)
        assert app.screen.position == review.turning_points(0)[0].position
        await pilot.press("escape")
        assert not isinstance(app.screen, (ReplayScreen, ReviewScreen))


async def test_progress_is_shown_while_the_bot_reviews_and_a_busy_bot_is_refused_politely(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lobby, table = table_of("carthage")
    go = asyncio.Event()
    answers: list[TableReview | Unanswered] = [
        Unanswered(review_calls.BUSY, retry=True),
        review_of(table, DROPS),
    ]

    async def ask(
        _reviewer: Reviewer | None, t: TableLike, seat: int, on_progress: review_calls.Progress
    ) -> TableReview | Unanswered:
        on_progress(0.4)
        await go.wait()
        return answers.pop(0)

    monkeypatch.setattr(review_calls, "ask_review", ask)
    async with session(lobby, "id-ann", "ann") as (app, pilot):
        app.push_screen(ReviewScreen(table, "id-ann", None))
        await until(lambda: "reviewing the decisions: 40%" in screen_text(app))
        go.set()
        await until(lambda: "the bots are busy thinking: ask again in a minute" in screen_text(app))
        await pilot.pause()
        assert "r: ask the search bot again" in screen_text(app)
        await pilot.press("1")
        assert "no turning point 1 to jump to yet" in screen_text(app)
        await pilot.press("r")
        await until(lambda: app.screen.turning_points() != [])


async def test_without_a_reviewer_the_screen_says_so_and_still_draws_the_course() -> None:
    lobby, table = table_of("carthage")
    async with session(lobby, "id-ann", "ann") as (app, _pilot):
        app.push_screen(ReviewScreen(table, "id-ann", None))
        await until(lambda: review_calls.NOT_CONNECTED in screen_text(app))
        assert "Favor, from the start" in screen_text(app)


async def test_a_spectator_sees_the_course_but_no_ones_turning_points_and_a_game_in_play_has_no_review() -> (
    None
):
    lobby, table = table_of("carthage")
    async with session(lobby, "id-cy", "cy") as (app, pilot):
        app.push_screen(ReviewScreen(table, "id-cy", None))
        await pilot.pause()
        assert "Only the players of this table see where it turned" in screen_text(app)
    playing = lobby.create_table("id-ann", "ann", "carthage", 2, bots=1)
    assert reviewable(playing) == "a review is for a finished game: this one is not over"
    playing.close_game("id-op", "a test")
    assert reviewable(playing) == (
        "a review is for a finished game: this one was closed before its end"
    )


async def test_question_mark_explains_the_keys_and_marks() -> None:
    lobby, table = table_of("carthage")
    async with session(lobby, "id-ann", "ann") as (app, pilot):
        app.push_screen(ReviewScreen(table, "id-ann", None))
        await pilot.pause()
        await pilot.press("question_mark")
        text = screen_text(app)
        for words in ("1-5", "the replay at that turning point", "eliminated", "% less", "Esc"):
            assert words in text


async def test_at_a_table_with_hints_tab_shows_each_players_turning_points(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    lobby, table = table_of("carthage")
    reviews = {seat: review_of(table, [0.0, 0.2 + seat / 10], seat=seat) for seat in (0, 1)}
    monkeypatch.setattr(review_calls, "ask_review", answering(lambda t, s: reviews[s]))
    table.hints = True  # its creator allowed the bot's advice
    try:
        async with session(lobby, "id-ann", "ann", size=(80, 40)) as (app, pilot):
            app.push_screen(ReviewScreen(table, "id-ann", None))
            await until(lambda: "about 20% less chance to win" in screen_text(app))
            assert "Tab next player" in screen_text(app).splitlines()[-1].replace("  ", " ")
            await pilot.press("tab")
            await until(lambda: "about 30% less chance to win" in screen_text(app))
            other = seat_labels(table)[1]
            assert f"Where it turned for {other}" in screen_text(app)
            assert "Where it turned for you" not in screen_text(app)
    finally:
        table.hints = False


async def test_the_replay_of_a_game_in_play_does_not_offer_the_review() -> None:
    lobby = Lobby()
    table = lobby.create_table("id-ann", "ann", "carthage", 2, bots=1)
    async with session(lobby, "id-ann", "ann") as (app, pilot):
        app.push_screen(ReplayScreen.for_table(table, "id-ann"))
        await pilot.pause()
        assert "review" not in screen_text(app).splitlines()[-1]
        await pilot.press("i")
        assert "a review is for a finished game: this one is not over" in screen_text(app)
