"""A reaction window over SSH (issue 36): every person asked reads the same prompt and a live
countdown; the last "Let it be" closes the window at once; whether bob holds a Reaction never
reaches ann's or a spectator's terminal; and the countdown costs few bytes, and only on the
terminals of those it asks."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from harena.core.spartacus.rules import Spartacus
from tests.core.spartacus.helpers import give
from tests.server.players import press_choice
from tests.server.test_spartacus_ssh import Run, at_the_auction, hidden_twins, seated

ANN, BOB, CAT, DAN = range(4)


def lot_won_with(card: str) -> Callable[[Spartacus], None]:
    """At the auction, Influence 4 each: bob holds `card`, cat a Slander (nothing that answers
    a lot won); ann will win the first lot."""
    base = at_the_auction((10, 10, 10))

    def arrange(game: Spartacus) -> None:
        base(game)
        for p in game.state.players:
            p.influence = 4
        give(game, 1, card, hand=True)
        give(game, 2, "slander", hand=True)

    return arrange


async def open_the_window(run: Run) -> None:
    await run.press(ANN, "2 denarii")
    await run.press(BOB, "0 denarii")
    await run.press(CAT, "0 denarii")  # ann wins: the window asks bob and cat
    assert run.game.state.window is not None


async def hold(run: Run, seat: int, label: str) -> None:
    """`seat` answers the window by keys; the table holds the answer (no move yet)."""
    identity = run.table.seats[seat].identity
    await press_choice(run.clients[seat], label)
    for _ in range(250):
        if "answer" in run.table.view_for(identity)["table"].get("window", {}):
            break
        await asyncio.sleep(0.02)
    else:
        raise AssertionError(f"seat {seat}'s {label!r} was not held")
    await run.settle()
    run.record()


async def test_whether_bob_holds_a_reaction_reaches_no_other_terminal(make_server):
    """Bob holds Envy of the Forum or a Slander; bob and cat both press "1 Let it be" on the
    same prompt and countdown, and cat's key closes the window at once. Ann (the winner, not
    asked) and dan (watching) receive the same bytes in both runs (bob and cat are left out:
    their countdowns tick with the wall clock)."""

    async def play(run: Run, _: str) -> None:
        await open_the_window(run)
        for seat in (BOB, CAT):
            await run.clients[seat].wait_until(
                lambda s=seat: "s left) " in run.clients[s].screen_text(), 5, "the countdown"
            )
            assert "1  Let it be" in run.clients[seat].screen_text()
        await hold(run, BOB, "Let it be")
        assert run.game.state.window is not None  # cat has not answered
        await run.press(CAT, "Let it be")  # the last answer: closed now, not at 10 s
        assert run.game.state.window is None

    await hidden_twins(
        make_server,
        lot_won_with,
        play,
        ("envy-of-the-forum", "slander"),
        knowing=(BOB, CAT),
    )


async def test_the_countdown_ticks_only_on_the_terminals_it_asks_and_costs_few_bytes(
    make_server,
):
    run = await seated(make_server, "tick", lot_won_with("slander"))
    try:
        await open_the_window(run)
        cat = run.clients[CAT]
        await cat.wait_until(lambda: "s left) " in cat.screen_text(), 5, "the countdown")
        shown = next(line for line in cat.lines() if "s left) " in line)
        before = [len(c.raw) for c in run.clients]
        await cat.wait_until(lambda: shown not in cat.lines(), 5, "a tick of the countdown")
        await asyncio.sleep(1.2)  # one more tick, at least
        sent = [len(c.raw) - b for c, b in zip(run.clients, before, strict=True)]
        # ~40-60 B a tick (the digits and the cursor moves) on bob's and cat's terminals;
        # nothing at all on ann's and dan's, which the window does not ask
        assert 0 < sent[CAT] < 400 and 0 < sent[BOB] < 400, sent
        assert sent[ANN] == 0 and sent[DAN] == 0, sent
    finally:
        await run.close()
