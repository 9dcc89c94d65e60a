"""'Pass automatically' (lobby key `p`, a player setting kept per key): a reaction window that
asks the player is answered "Let it be" for them at once, shown as their answer, and their key
still changes it until the window closes, when every other person asked has answered too
(docs/rulings.md, reaction windows; issues 24 and 36)."""

from __future__ import annotations

from harena.core.spartacus import market
from harena.tui.screens.help import HelpScreen
from harena.tui.screens.lobby import LobbyScreen
from harena.tui.screens.table import TableScreen
from tests.core.spartacus.helpers import give
from tests.tui.harness import screen_text, session, until
from tests.tui.screen_keys import press_choice, prompt_bar, until_prompt
from tests.tui.spartacus.helpers import PLAYERS, bare_market

ANN, BOB, CAT = (identity for identity, _ in PLAYERS)


async def test_a_player_who_passes_automatically_is_answered_and_may_still_react() -> None:
    lobby, table, game = bare_market()
    for p in game.state.players:
        p.influence = 4
    envy = give(game, 1, "envy-of-the-forum", hand=True)
    give(game, 2, "slander", hand=True)
    market.start(game)
    game.state_changed()
    for seat in range(3):
        table.act(PLAYERS[seat][0], "close")
    async with session(lobby, BOB, "bob") as (bob, keys):
        if isinstance(bob.screen, TableScreen):  # back at his seat: to the lobby for the key
            await keys.press("escape")
        assert isinstance(bob.screen, LobbyScreen)
        await keys.press("p")
        assert "auto-pass" in screen_text(bob)
        assert lobby.settings.get(BOB, "auto_pass") is True
        await keys.press("enter")  # back to his seat
        await until(lambda: isinstance(bob.screen, TableScreen))
        for seat in range(3):  # ann wins the lot: the window asks bob, who holds a Reaction
            table.act(PLAYERS[seat][0], f"bid:{3 if seat == 0 else 0}")
        await until_prompt(bob, "event_reaction")
        # answered for him without a key: no "your move", the game has no answer yet
        await until(lambda: prompt_bar(bob).text.startswith("(answered; "))
        assert table.awaiting(BOB) is None and game.state.window.answers[1] is None
        await press_choice(keys, bob, f"react:{envy}")  # he changes his mind
        await until(lambda: "plays (you; secret)" in screen_text(bob))
        table.act(CAT, "pass")  # cat, the last person asked, answers: the window closes
        await until(lambda: game.state.window is None)
        assert game.state.players[0].influence == 3  # envied after all
        await keys.press("escape", "p")  # and the setting turns off again
        assert lobby.settings.get(BOB, "auto_pass") is False
        assert "auto-pass" not in screen_text(bob)


async def test_the_lobby_help_explains_the_auto_pass_key() -> None:
    lobby, _table, _game = bare_market()
    async with session(lobby, "id-dan", "dan") as (app, keys):
        await keys.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert any(
            line.startswith("p ") and "reaction window 'Let it be'" in line
            for line in app.screen.text.splitlines()
        )


async def test_no_bell_rings_for_a_window_answered_for_you() -> None:
    """In the lobby, a window opening rings for bob when he must answer, not when he passes
    automatically; it rings for cat too, who holds nothing that answers: the table waits for
    his "Let it be" as for anyone's (issue 36)."""
    for auto, bells in ((False, 1), (True, 0)):
        lobby, table, game = bare_market()
        give(game, 1, "envy-of-the-forum", hand=True)
        give(game, 2, "slander", hand=True)
        lobby.settings.set(BOB, "auto_pass", auto)
        market.start(game)
        game.state_changed()
        for seat in range(3):
            table.act(PLAYERS[seat][0], "close")
        for seat in (1, 2):
            table.act(PLAYERS[seat][0], "bid:0")
        async with (
            session(lobby, BOB, "bob") as (bob, bob_keys),
            session(lobby, CAT, "cat") as (cat, cat_keys),
        ):
            for app, keys in ((bob, bob_keys), (cat, cat_keys)):
                if isinstance(app.screen, TableScreen):
                    await keys.press("escape")
                assert isinstance(app.screen, LobbyScreen)
            rung = bob.bells, cat.bells
            table.act(ANN, "bid:3")  # ann wins the lot: the window opens
            assert game.state.window is not None
            await bob_keys.pause()
            await cat_keys.pause()
            assert (bob.bells - rung[0], cat.bells - rung[1]) == (bells, 1), auto
