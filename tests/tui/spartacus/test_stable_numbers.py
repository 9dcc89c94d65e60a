"""A number key acts on the choices the player was shown (issue 36, "choices renumber under a
finger"): in the Open Market "6 Offer bob a trade" must never become "6 Close" when bob leaves
the Market; a key sent for a list that has changed since is refused, and nothing is done."""

from __future__ import annotations

from harena.core.spartacus import market
from harena.core.table import STALE_LIST
from tests.core.spartacus.helpers import give
from tests.tui.harness import screen_text, session, until
from tests.tui.screen_keys import prompt_bar, slot_of, status, table_screen, until_prompt
from tests.tui.spartacus.helpers import PLAYERS, bare_market, game_of

ANN, BOB, CAT = (identity for identity, _ in PLAYERS)
FIVE = ("net", "gladius", "scutum", "galea", "trident")  # five Bank sales: choices 1-5


def _market_with_five_sales() -> tuple:
    lobby, table, game = bare_market()
    for card in FIVE:
        give(game, 0, card)
    market.start(game)
    game.state_changed()
    return lobby, table


async def test_a_choice_keeps_its_number_when_another_leaves_the_list() -> None:
    lobby, table = _market_with_five_sales()
    async with session(lobby, ANN, "ann") as (ann, keys):
        await until_prompt(ann, "open_market")
        assert slot_of(ann, "offer:1") == 5  # key 6: "Offer bob/Glaber a trade"
        assert slot_of(ann, "offer:2") == 6 and slot_of(ann, "close") == 7
        table.act(BOB, "close")  # bob leaves the Market: nobody can offer him a trade now
        await until(lambda: "offer:1" not in dict(prompt_bar(ann).choices))
        # Every choice still offered keeps its key; bob's old number is struck out, not reused.
        assert (slot_of(ann, "offer:2"), slot_of(ann, "close")) == (6, 7)
        assert "6  gone: Offer bob/Glaber a trade" in screen_text(ann)
        decision = game_of(table).decision_number(0)
        await keys.press("6")  # meant for bob's trade
        assert status(ann) == (
            "Error: 6 Offer bob/Glaber a trade: no longer offered, nothing was done"
        )
        assert game_of(table).decision_number(0) == decision
        assert not game_of(table).state.market.closed[0]  # ann is still in the Market


async def test_numbers_start_afresh_with_the_next_decision() -> None:
    lobby, table = _market_with_five_sales()
    async with session(lobby, ANN, "ann") as (ann, _keys):
        await until_prompt(ann, "open_market")
        table.act(BOB, "close")
        await until(lambda: "offer:1" not in dict(prompt_bar(ann).choices))
        assert slot_of(ann, "offer:2") == 6
        table.act(ANN, "bank:" + str(game_of(table).state.players[0].assets[0].card))
        await until(lambda: len(prompt_bar(ann).choices) == 6)  # ann's own answer: a new list
        assert "gone:" not in screen_text(ann)
        assert (slot_of(ann, "offer:2"), slot_of(ann, "close")) == (4, 5)


async def test_a_key_for_a_list_that_changed_before_the_screen_heard_is_refused() -> None:
    lobby, table = _market_with_five_sales()
    async with session(lobby, ANN, "ann") as (ann, _keys):
        await until_prompt(ann, "open_market")
        screen = table_screen(ann)
        # bob leaves the Market, and ann's key arrives before her screen heard of it: her
        # screen still shows "7 Offer cat/Solonius a trade" in the list with bob's trade in it.
        table.act(BOB, "close")
        assert "offer:1" in dict(prompt_bar(ann).choices)
        offers = len(game_of(table).state.market.offers)
        decision = game_of(table).decision_number(0)
        screen.action_prompt_choose(6)
        assert status(ann) == f"Error: {STALE_LIST}"
        assert len(game_of(table).state.market.offers) == offers  # nothing was done
        assert game_of(table).decision_number(0) == decision
        await until(lambda: "offer:1" not in dict(prompt_bar(ann).choices))
        await until(lambda: prompt_bar(ann).guarded() == 0)
        screen.action_prompt_choose(6)  # the same key, on the list now shown: it acts
        assert status(ann).startswith("You chose: Offer cat/Solonius a trade")
        await until_prompt(ann, "compose_offer")
