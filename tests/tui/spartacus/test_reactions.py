"""A Reaction to an auction won, played by keys at 80x24 (Pilot): the window's question and
countdown show on every asked screen alike, the holder presses the card's key, `?` explains
the window, and the log tells the play once all have answered (rules: Intrigue Phase -
Reactions "in response to other events"; issue 36: the window ends when all have answered)."""

from __future__ import annotations

import re

import pytest

from harena.core.spartacus import market
from harena.tui.screens import table as table_screen_module
from tests.core.spartacus.helpers import give
from tests.tui.harness import screen_text, session, until
from tests.tui.screen_keys import decisions, press_choice, prompt_bar, table_screen, until_prompt
from tests.tui.spartacus.helpers import PLAYERS, bare_market, game_of

ANN, BOB, CAT = (identity for identity, _ in PLAYERS)


def _lot_won_by_ann() -> tuple:
    """At the auction: bob holds Envy of the Forum, cat a Slander; ann wins the first lot."""
    lobby, table, game = bare_market()
    for p in game.state.players:
        p.influence = 4
    claim = give(game, 1, "envy-of-the-forum", hand=True)
    give(game, 2, "slander", hand=True)
    market.start(game)
    game.state_changed()
    for seat in range(3):
        table.act(PLAYERS[seat][0], "close")
    lot = game.state.market.auction.card
    for seat in range(3):  # through the table: it opens the reaction window's time
        table.act(PLAYERS[seat][0], f"bid:{3 if seat == 0 else 0}")
    return lobby, table, claim, lot


def _no_seconds(text: str) -> str:
    """A screen with the window's countdown blanked (it ticks on its own every second)."""
    return re.sub(r"\d+ s left", "N s left", text)


async def test_envy_of_the_forum_is_played_by_keys_and_explained_by_the_help() -> None:
    """bob holds Envy of the Forum, cat nothing that answers a lot won: both read the same
    question, countdown and "1 Let it be" (cat's only choice); bob's card is held by the
    table, and cat's key, the last answer, closes the window at once (docs/rulings.md)."""
    lobby, table, claim, lot = _lot_won_by_ann()
    game = game_of(table)
    async with (
        session(lobby, ANN, "ann") as (ann, _),
        session(lobby, BOB, "bob") as (bob, bob_keys),
        session(lobby, CAT, "cat") as (cat, cat_keys),
    ):
        await until_prompt(bob, "event_reaction")
        await until_prompt(cat, "event_reaction")
        question = decisions(bob)[0]["text"]
        assert question.endswith("play a Reaction?") and decisions(cat)[0]["text"] == question
        for app in (bob, cat):
            text = prompt_bar(app).text
            assert re.match(r"\((10|9) s left\) ", text), text
            assert text.split(") ", 1)[1].startswith(question.replace("Batiatus", "ann/Batiatus"))
        assert prompt_bar(cat).choices == [("pass", "Let it be")]
        assert "1  Let it be" in screen_text(cat)
        assert "2  Play Envy of the Forum: ann/Batiatus loses 1 Influence" in screen_text(bob)
        assert "Reactions (secret until all in):" in screen_text(bob)
        # ann, the winner, is not asked: told what the table waits for, no countdown ticking
        await until(lambda: "Waiting for Reactions" in prompt_bar(ann).text)
        assert "10 s at most, less once all asked answer." in prompt_bar(ann).text
        await bob_keys.press("question_mark")
        await until(lambda: "Reaction window" in screen_text(bob))
        assert "first clockwise plays" in screen_text(bob)
        await bob_keys.press("escape")
        await until(lambda: "Reaction window" not in screen_text(bob))
        before = _no_seconds(screen_text(cat))
        await press_choice(bob_keys, bob, f"react:{claim}")
        await until(lambda: "plays (you; secret)" in screen_text(bob))
        assert prompt_bar(bob).text.startswith("(answered; ")
        assert game.state.window.answers[1] is None  # held by the table until it closes
        assert _no_seconds(screen_text(cat)) == before  # nothing tells cat that bob answered
        await press_choice(cat_keys, cat, "pass")  # the last answer: the window closes now
        await until(lambda: game.state.window is None)
        assert any(a.card == lot for a in game.state.players[0].assets)  # the lot stays
        # revealed on every screen (the log wraps at 80x24): who played it, and what it did
        await until(lambda: "bob/Glaber plays Envy of the" in screen_text(cat))
        assert game.state.players[0].influence == 3
        assert f"Last: {game.card(lot).name} to ann/Batiatus" in screen_text(cat)
        await until_prompt(bob, "bid")
        assert decisions(bob)[0]["kind"] == "bid"


async def test_the_countdown_ticks_each_second_only_on_the_screens_it_asks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The seconds left are drawn from the window's closing time on every tick (one a second,
    and only while the window asks that screen's player: ann, the winner, ticks nothing)."""
    lobby, table, _claim, _lot = _lot_won_by_ann()
    closes = table.view_for(CAT)["table"]["window"]["closes"]
    async with (
        session(lobby, ANN, "ann") as (ann, _),
        session(lobby, CAT, "cat") as (cat, _),
    ):
        await until(lambda: "s left) " in prompt_bar(cat).text)
        screen = table_screen(cat)
        assert screen._tick_every == table_screen_module.WINDOW_TICK == 1.0
        assert table_screen(ann)._tick_every is None
        for left in (7, 3, 0):
            monkeypatch.setattr(
                table_screen_module.time, "time", lambda left=left: closes - left + 0.5
            )
            screen._clock_tick()
            await until(lambda left=left: prompt_bar(cat).text.startswith(f"({left} s left) "))
