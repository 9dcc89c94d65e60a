"""A Reaction to an auction won, played by keys at 80x24 (Pilot): the window's question shows
on every asked screen alike, the holder presses the card's key, `?` explains the window, and
the log tells the play once all have answered (rules: Intrigue Phase - Reactions "in response
to other events")."""

from __future__ import annotations

import time

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
        table.act(PLAYERS[seat][0], "close")
    lot = game.state.market.auction.card
    for seat in range(3):  # through the table: it opens the reaction window's time
        table.act(PLAYERS[seat][0], f"bid:{3 if seat == 0 else 0}")
    return lobby, table, claim, lot


async def test_envy_of_the_forum_is_played_by_keys_and_explained_by_the_help() -> None:
    """bob holds Envy of the Forum and is asked; cat holds nothing that answers a lot won and
    is never asked for a key: the table lets it be for cat when the window closes
    (docs/rulings.md, reaction windows)."""
    lobby, table, claim, lot = _lot_won_by_ann()
    game = game_of(table)
    async with (
        session(lobby, BOB, "bob") as (bob, bob_keys),
        session(lobby, CAT, "cat") as (cat, _),
    ):
        await until_prompt(bob, "event_reaction")
        question = decisions(bob)[0]["text"]
        assert question.endswith("play a Reaction?")
        assert prompt_bar(bob).text.startswith(question.replace("Batiatus", "ann/Batiatus"))
        assert "no key: let it be" in prompt_bar(bob).text
        # cat: no choice to make, no key to press, told why
        await until(lambda: "no key needed, it closes in 10 s" in prompt_bar(cat).text)
        assert prompt_bar(cat).choices == []
        assert "2  Play Envy of the Forum: ann/Batiatus loses 1 Influence" in screen_text(bob)
        assert "Reactions (secret until all in):" in screen_text(bob)
        await bob_keys.press("question_mark")
        await until(lambda: "Reaction window" in screen_text(bob))
        assert "first clockwise plays" in screen_text(bob)
        await bob_keys.press("escape")
        await until(lambda: "Reaction window" not in screen_text(bob))
        before = screen_text(cat)
        await press_choice(bob_keys, bob, f"react:{claim}")
        await until(lambda: "plays (you; secret)" in screen_text(bob))
        assert "(answered, may change)" in prompt_bar(bob).text
        assert game.state.window.answers[1] is None  # held by the table until it closes
        assert screen_text(cat) == before  # nothing tells cat that bob answered
        table.expire(time.time() + 10)  # the window's time is up
        await until(lambda: game.state.window is None)
        assert any(a.card == lot for a in game.state.players[0].assets)  # the lot stays
        # revealed on every screen (the log wraps at 80x24): who played it, and what it did
        await until(lambda: "bob/Glaber plays Envy of the" in screen_text(cat))
        assert game.state.players[0].influence == 3
        assert f"Last: {game.card(lot).name} to ann/Batiatus" in screen_text(cat)
        await until_prompt(bob, "bid")
        assert decisions(bob)[0]["kind"] == "bid"
