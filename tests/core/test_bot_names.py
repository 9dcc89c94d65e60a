"""Bots as players meet them: named by the level the table owner picked ("normal bot"), told
apart by a number when two share a level, and an easy bot's slips are never the blunders the
screen asks a person to press twice for (issue 36)."""

from __future__ import annotations

from typing import Any

from harena.core.bots import EasyBot, awaited_prompts, bot_seat_names
from harena.core.lobby import Lobby
from tests.core.spartacus.helpers import give, started


def test_bot_seats_are_named_by_level_and_numbered_when_they_share_one() -> None:
    assert bot_seat_names([None, "heuristic", "easy"]) == [None, "normal bot", "easy bot"]
    assert bot_seat_names(["heuristic", None, "heuristic", "search"]) == [
        "normal bot 1",
        None,
        "normal bot 2",
        "hard bot",
    ]


def test_a_table_lists_its_bots_by_level() -> None:
    lobby = Lobby()
    table = lobby.create_table("key-ann", "ann", "spartacus", 3, bots=2, bot_kind="heuristic")
    names = [seat["name"] for seat in table.view_for("key-ann")["table"]["seats"]]
    assert names == ["ann", "normal bot 1", "normal bot 2"]


class _Picks:
    """A stand-in for the heuristic bot: always the first choice."""

    def choose(self, view: dict[str, Any]) -> str:
        return str(awaited_prompts(view)[0]["choices"][0][0])


def test_an_easy_bots_slip_never_aims_a_harmful_scheme_at_its_own_house() -> None:
    """rules: Set Up Schemes - a target "which can be yourself" is legal (docs/rulings.md), but
    a person is asked twice before harming their own House; a newcomer's slip is not that."""
    game = started(3)
    seat = game.state.intrigue.turn
    game.state.players[seat].influence = 5
    card = give(game, seat, "arson", hand=True)
    game.state_changed()
    game.act(seat, f"scheme:{card}")
    view = game.view(seat)
    (prompt,) = awaited_prompts(view)
    assert prompt["confirm"] == [f"target:{seat}"]  # the choice a person presses twice for
    bot = EasyBot(seed=5)
    bot._normal = _Picks()
    picks = {bot.choose(view) for _ in range(400)}
    assert f"target:{seat}" not in picks and len(picks) == 2  # a slip, or the heuristic
