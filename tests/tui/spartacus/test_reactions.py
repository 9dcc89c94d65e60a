"""A Reaction to an auction won, played by keys at 80x24 (Pilot): the window's question shows
on every asked screen alike, the holder presses the card's key, `?` explains the window, and
the log tells the play once all have answered (rules: Intrigue Phase - Reactions "in response
to other events")."""

from __future__ import annotations

from harena.core.spartacus import market
from tests.core.spartacus.helpers import give
from tests.tui.harness import screen_text, session, until
from tests.tui.screen_keys import decisions, press_choice, prompt_bar, until_prompt
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
        game.act(seat, "close")
    lot = game.state.market.auction.card
    for seat in range(3):
        game.act(seat, f"bid:{3 if seat == 0 else 0}")
    return lobby, table, claim, lot


async def test_envy_of_the_forum_is_played_by_keys_and_explained_by_the_help() -> None:
    lobby, table, claim, lot = _lot_won_by_ann()
    game = game_of(table)
    async with (
        session(lobby, BOB, "bob") as (bob, bob_keys),
        session(lobby, CAT, "cat") as (cat, cat_keys),
    ):
        await until_prompt(bob, "event_reaction")
        await until_prompt(cat, "event_reaction")
        # the same question on both screens; only bob's has a card to play
        question = decisions(bob)[0]["text"]
        assert decisions(cat)[0]["text"] == question and question.endswith("play a Reaction?")
        assert prompt_bar(bob).text.startswith(question.replace("Batiatus", "ann/Batiatus"))
        assert [cid for cid, _ in prompt_bar(cat).choices] == ["pass"]
        assert "2  Play Envy of the Forum: ann/Batiatus loses 1 Influence" in screen_text(bob)
        assert "Reactions (secret until all in):" in screen_text(bob)
        await bob_keys.press("question_mark")
        await until(lambda: "Reaction window" in screen_text(bob))
        assert "first clockwise plays" in screen_text(bob)
        await bob_keys.press("escape")
        await until(lambda: "Reaction window" not in screen_text(bob))
        await press_choice(bob_keys, bob, f"react:{claim}")
        await until(
            lambda: game.state.window is not None and game.state.window.answers[1] is not None
        )
        await until(lambda: "plays (you; secret)" in screen_text(bob))
        await until(lambda: "answered" in screen_text(cat))
        assert "Envy" not in screen_text(cat)  # nothing tells cat what bob answered
        await press_choice(cat_keys, cat, "pass")
        await until(lambda: game.state.window is None)
        assert any(a.card == lot for a in game.state.players[0].assets)  # the lot stays
        # revealed on every screen (the log wraps at 80x24): who played it, and what it did
        await until(lambda: "bob/Glaber plays Envy of the" in screen_text(cat))
        assert game.state.players[0].influence == 3
        assert f"Last: {game.card(lot).name} to ann/Batiatus" in screen_text(cat)
        await until_prompt(bob, "bid")
        assert decisions(bob)[0]["kind"] == "bid"
