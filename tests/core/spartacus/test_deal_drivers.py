"""Bots deal before a bot Host decides, however they are driven: `harena simulate`
(core/simulate.play_to_the_end), the server's BotRunner (Table.play_bot_step), the test helper
(helpers.bot_move). The deal is an ordinary recorded action, so a replay repeats it (checked
in test_random_games)."""

from __future__ import annotations

import asyncio

from harena.core.bots import bot_seed
from harena.core.lobby import Lobby
from harena.core.simulate import play_to_the_end, simulate
from harena.core.spartacus.bots import HeuristicBot
from harena.core.table import Table
from harena.server.runners.bot_runner import BotRunner
from tests.core.spartacus.test_asks import at_the_thumbs


def _thumb_and_deals(actions: list) -> tuple[int, list[str]]:
    """Where the thumb turned, and every deal made before it (after the fight)."""
    at = next(i for i, a in enumerate(actions) if a.choice.startswith("thumbs:"))
    deals = [a.choice for a in actions[:at] if a.choice.startswith(("ask:", "payask:", "give:"))]
    return at, deals


def test_in_simulate_the_owner_pays_before_the_bot_host_turns_the_thumb() -> None:
    game = at_the_thumbs()
    start = game.version
    play_to_the_end(game, [HeuristicBot(bot_seed(5, s)) for s in range(4)])
    at, deals = _thumb_and_deals(game.actions[start:])
    assert deals and game.actions[start + at].choice == "thumbs:up"


async def test_through_bot_runner_the_owner_pays_before_the_bot_host_turns_the_thumb() -> None:
    lobby = Lobby()
    table = Table.create("spartacus", 4, 1)
    for seat in range(4):
        table.set_bot(seat, "heuristic")
    table.game = at_the_thumbs()  # the same table, moved on to the thumb
    start = table.game.version
    lobby.add_table(table)
    runner = BotRunner(lobby, delay=0.001)
    try:
        for _ in range(2000):
            if any(a.choice.startswith("thumbs:") for a in table.game.actions[start:]):
                break
            await asyncio.sleep(0.002)
        at, deals = _thumb_and_deals(table.game.actions[start:])
    finally:
        runner.close()
    assert deals and table.game.actions[start + at].choice == "thumbs:up"
    assert not any(
        a.choice.startswith(("ask:", "payask:", "give:")) and a.seat in (1, 3)
        for a in table.game.actions[start : start + at]
    )  # only the two it concerns


def test_simulate_reports_bribes_and_asks_per_bot_kind() -> None:
    report = simulate("spartacus", 3, 4, 1, ["heuristic", "heuristic", "random", "random"])
    assert report.errors == []
    assert (
        report.stats_by_bot["heuristic"]["bribes"] > 0
        and report.stats_by_bot["heuristic"]["asks"] > 0
    )
    assert report.stats_by_bot["random"]["bribes"] == 0 == report.stats_by_bot["random"]["asks"]


def test_bots_deal_only_for_their_own_seats_never_for_a_human_or_a_stood_in_player() -> None:
    """The Host bot asks the human owner; nothing pays for the human, whose combatant, unpaid
    for, is executed; a bot standing in for the human plays its decisions, not its deals."""
    table = Table.create("spartacus", 4, 1)
    for seat in (0, 1, 3):
        table.set_bot(seat, "heuristic")
    table.sit("id-cat", "cat", 2)
    table.game = at_the_thumbs()
    assert table.bot_deal() == (0, "ask:2:4:spare")
    assert table.play_bot_step()
    assert table.bot_deal() is None  # the bot asked once; the human may pay, or not
    table.seats[2].stand_in = "away"
    assert table.bot_deal() is None and table.bots_to_move() == [0]
    assert table.play_bot_step()
    assert table.game.actions[-1].choice == "thumbs:down"


async def test_bot_runner_gives_a_human_asked_to_pay_time_then_goes_on_when_they_pay() -> None:
    """A bot Host asks the human owner a fee to spare: the bots' next move waits DEAL_WAIT
    delays instead of one (the human can read the ask); paying ends the wait."""
    lobby = Lobby()
    table = Table.create("spartacus", 4, 1)
    for seat in (0, 1, 3):
        table.set_bot(seat, "heuristic")
    table.sit("id-cat", "cat", 2)
    table.game = at_the_thumbs()
    lobby.add_table(table)
    runner = BotRunner(lobby, delay=0.05)
    try:
        for _ in range(400):
            if table.game.state.asks:
                break
            await asyncio.sleep(0.005)
        assert table.humans_asked() and table.id in runner._waiting
        assert not any(a.choice.startswith("thumbs:") for a in table.game.actions)
        table.act("id-cat", "payask:0")
        assert not table.humans_asked() and table.id not in runner._waiting
        for _ in range(400):
            if table.game.actions[-1].choice.startswith("thumbs:"):
                break
            await asyncio.sleep(0.005)
    finally:
        runner.close()
    assert table.game.actions[-1].choice == "thumbs:up"  # paid: spared
