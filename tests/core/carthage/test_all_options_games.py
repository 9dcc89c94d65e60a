"""Every Carthage option at once: all 17 Modular Rulesets, Equipment, Legend cards and Arena
Beasts, in the free-for-all and in every team mode, with random and heuristic bots. Each game
ends with a winner the mode allows, keeps the game's invariants after every decision, and
replays and restores exactly (issue 13: property games with every combination turned on; issue
14: property games in every mode)."""

from __future__ import annotations

import pytest

from harena.core.bots import RandomBot, bot_seed
from harena.core.carthage.bots import HeuristicBot
from harena.core.carthage.rulesets.catalog import OPTION_NAMES
from harena.core.engine import replay, restore
from tests.core.carthage.table_helpers import new_carthage
from tests.core.carthage.test_rules_random_games import play_with_bots

EVERYTHING = {
    "rulesets": ",".join(OPTION_NAMES),
    "equipment": "on",
    "legends": "on",
    "beasts": "on",
}
MODES = [("off", 3), ("off", 5), ("2v2", 4), ("2v2_chained", 4), ("2v3", 5)]


def play(mode: str, players: int, seed: int, heuristic: bool):
    game = new_carthage(
        players, seed, gladiators="choose", sudden_death="10", teams=mode, **EVERYTHING
    )
    kind = HeuristicBot if heuristic else RandomBot
    bots = [kind(bot_seed(seed, s)) for s in range(players)]
    return play_with_bots(game, bots, check_every=7, cards_every=21)


@pytest.mark.parametrize(("mode", "players"), MODES, ids=[f"{m}-{n}" for m, n in MODES])
@pytest.mark.parametrize("heuristic", [False, True], ids=["random", "heuristic"])
def test_games_with_every_option_on_end_with_a_winner_the_mode_allows(
    mode: str, players: int, heuristic: bool
) -> None:
    for seed in range(4):
        game = play(mode, players, seed, heuristic)
        result = game.result()
        assert result is not None and result.winners
        if game.teams is None:
            assert (
                len(result.winners) == 1 and game.state.players[result.winners[0]].alive
            )  # never a Beast
        else:
            assert {game.teams.team_of(w) for w in result.winners} == {
                game.teams.team_of(result.winners[0])
            }
        if seed == 0:
            assert replay(game.config, game.actions).state == game.state
            assert restore(game.snapshot()).state == game.state
