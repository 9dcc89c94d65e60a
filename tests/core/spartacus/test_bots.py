"""The bots play from views alone; the heuristic one plays to win."""

from __future__ import annotations

from harena.core.bots import RandomBot, bot_seed
from harena.core.spartacus.bots import HeuristicBot
from harena.core.spartacus.rules import Spartacus
from tests.core.spartacus.helpers import new_game


def _play(game: Spartacus, bots: list[object]) -> None:
    while game.result() is None:
        seat = game.awaited()[0]
        game.act(seat, bots[seat].choose(game.view(seat)))


def test_the_heuristic_bot_beats_random_bots() -> None:
    wins = 0
    for seed in range(8):
        game = new_game(4, seed)
        _play(
            game,
            [HeuristicBot(bot_seed(seed, 0))] + [RandomBot(bot_seed(seed, s)) for s in (1, 2, 3)],
        )
        result = game.result()
        assert result is not None
        wins += result.winners == (0,)
    assert wins >= 6


def test_the_heuristic_bot_answers_every_prompt_from_the_view_alone() -> None:
    """It is given nothing but `view(seat)`: a choice it makes is always one offered there."""
    game = new_game(3, 5, round_limit="10")
    bots = [HeuristicBot(bot_seed(5, s)) for s in range(3)]
    while game.result() is None:
        seat = game.awaited()[0]
        view = game.view(seat)
        choice = bots[seat].choose(view)
        assert any(choice == c[0] for p in view["prompts"] for c in p["choices"])
        game.act(seat, choice)
