"""Making and paying an ask by keys at 80x24 (Pilot, issue 16): the Host asks a fee to spare a
beaten combatant (`k`, whom and what, then the sum), its owner sees the ask on the phase panel
and pays it (`p`); numbers meant for a decision never ask or pay; `?` explains asks."""

from __future__ import annotations

from harena.core.spartacus import arena
from harena.tui.screens.asks import AskScreen
from harena.tui.screens.help import HelpScreen
from tests.core.spartacus.helpers import clear_table, give
from tests.tui.harness import screen_text, session, until
from tests.tui.screen_keys import prompt_kind
from tests.tui.spartacus.helpers import PLAYERS, game_of, new_table

ANN, BOB, CAT = (identity for identity, _ in PLAYERS)


def _at_the_thumbs() -> tuple:
    """ann hosts; bob's Secutor lost to cat's Veteran: ann turns the thumb."""
    lobby, table = new_table(seed=1)
    game = game_of(table)
    s = game.state
    s.intrigue = None
    s.host = 0
    for seat, p in enumerate(s.players):
        clear_table(game, seat)
        p.denarii = 10
    secutor = give(game, 1, "secutor")
    veteran = give(game, 2, "veteran")
    arena.start(game)
    game.state_changed()
    for who, choice in ((ANN, "invite:1"), (BOB, "accept"), (BOB, f"fighter:{secutor}"),
                        (ANN, "invite:2"), (CAT, "accept"), (CAT, f"fighter:{veteran}"),
                        (ANN, "bet:none"), (BOB, "bet:none"), (CAT, "bet:none")):  # fmt: skip
        table.act(who, choice)
    a = s.arena
    a.fight, a.loser, a.outcome = None, 0, "yield"
    arena._after_fight(game)
    game.state_changed()
    return lobby, table


async def test_an_ask_is_made_and_paid_by_keys_at_80x24() -> None:
    lobby, table = _at_the_thumbs()
    game = game_of(table)
    async with (
        session(lobby, ANN, "ann") as (ann, ann_keys),
        session(lobby, BOB, "bob") as (bob, bob_keys),
    ):
        await until(lambda: prompt_kind(ann) == "thumbs")
        assert "ask" not in [
            cid.split(":")[0] for cid, _ in ann.screen.query_one("PromptBar").choices
        ]
        await bob_keys.press("k")  # bob has nothing to ask for now
        assert not isinstance(bob.screen, AskScreen)
        await ann_keys.press("k")
        await until(lambda: isinstance(ann.screen, AskScreen))
        assert "bob/Glaber, to spare Secutor" in ann.screen.text
        await ann_keys.press("1")
        assert "How many denarii (1-9)" in ann.screen.text
        await ann_keys.press("3")
        await until(lambda: game.state.asks != [])
        assert game.state.asks[0].amount == 3 and prompt_kind(ann) == "thumbs"  # still ann's thumb
        await until(lambda: "Batiatus>Glaber 3d spare" in screen_text(bob))  # the phase panel
        await bob_keys.press("p")
        await until(lambda: isinstance(bob.screen, AskScreen))
        assert "Pay ann/Batiatus 3 denarii to spare Secutor" in bob.screen.text
        await bob_keys.press("1")
        await until(lambda: game.state.asks[0].paid)
        assert game.state.players[1].denarii == 7 and game.state.players[0].denarii == 13
        await until(lambda: "Batiatus>Glaber 3d spare paid" in screen_text(ann))
        await bob_keys.press("p")  # nothing more to answer
        assert not isinstance(bob.screen, AskScreen)


async def test_an_ask_is_refused_by_keys_and_everyone_reads_it() -> None:
    lobby, table = _at_the_thumbs()
    game = game_of(table)
    table.act(ANN, "ask:1:3:spare")
    async with (
        session(lobby, ANN, "ann") as (ann, _),
        session(lobby, BOB, "bob") as (bob, bob_keys),
    ):
        await until(lambda: "Batiatus>Glaber 3d spare (p)" in screen_text(bob))  # p answers it
        await bob_keys.press("p")
        await until(lambda: isinstance(bob.screen, AskScreen))
        assert "Refuse ann/Batiatus's ask of 3 denarii to spare Secutor" in bob.screen.text
        await bob_keys.press("2")  # 1 pays, 2 refuses
        await until(lambda: game.state.asks[0].refused)
        assert game.state.players[1].denarii == 10  # nothing moved
        await until(lambda: "Batiatus>Glaber 3d spare refused" in screen_text(ann))


async def test_the_help_explains_asks() -> None:
    lobby, _table = new_table()
    async with session(lobby, ANN, "ann", size=(80, 40)) as (app, pilot):
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = "\n".join(f"{keys} {what}" for keys, what in app.screen.entries)
        for words in (
            "ask a Dominus for denarii for a favour",
            "pay or refuse an ask addressed to you",
            "not binding",
        ):
            assert words in text, words
