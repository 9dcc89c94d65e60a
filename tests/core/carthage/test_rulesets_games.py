"""Random-bot games with the Modular Rulesets: every one on, and random subsets; every
invariant after every decision, the secrecy of every view, replay and restore."""

from __future__ import annotations

import pytest

from harena.core.bots import RandomBot, bot_seed
from harena.core.carthage.bots import HeuristicBot
from harena.core.carthage.rulesets.catalog import OPTION_NAMES
from harena.core.engine import Rng, replay, restore
from tests.core.carthage.table_helpers import new_carthage
from tests.core.carthage.test_rules_random_games import play_with_bots

ALL = ",".join(OPTION_NAMES)


def subset(seed: int) -> str:
    rng = Rng.from_seed(seed)
    return ",".join(name for name in OPTION_NAMES if rng.below(3) == 0)


def play_out(
    players: int, seed: int, rulesets: str, *, views: bool = False, heuristic: bool = False
):
    setup = {"gladiators": "choose", "tokens": "players_choose" if seed % 2 else "first_match"}
    game = new_carthage(players, seed, sudden_death="10", rulesets=rulesets, **setup)
    kind = HeuristicBot if heuristic else RandomBot
    bots = [kind(bot_seed(seed, s)) for s in range(players)]
    return play_with_bots(game, bots, cards_every=1 if views else 8, views_every=int(views))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_with_every_ruleset_end_with_one_winner(players: int) -> None:
    for seed in range(20):
        game = play_out(players, seed, ALL)
        assert game.result() is not None and len(game.result().winners) == 1
        if seed % 10 == 0:
            assert replay(game.config, game.actions).state == game.state
            assert restore(game.snapshot()).state == game.state


@pytest.mark.parametrize("players", [2, 4])
def test_random_games_with_random_subsets_of_rulesets(players: int) -> None:
    for seed in range(30):
        game = play_out(players, seed, subset(seed * 7 + players))
        assert game.result() is not None
        if seed % 10 == 0:
            assert restore(game.snapshot()).state == game.state


@pytest.mark.parametrize("players", [2, 4])
def test_heuristic_games_with_every_ruleset_end(players: int) -> None:
    for seed in range(6):
        game = play_out(players, seed, ALL, heuristic=True)
        assert game.result() is not None


def test_every_view_of_a_game_with_every_ruleset_keeps_the_secrets() -> None:
    for seed in (3, 4):
        play_out(3, seed, subset(seed) or ALL, views=True)
    play_out(3, 5, ALL, views=True)


def test_the_secrecy_checker_finds_no_leak_with_every_ruleset_on() -> None:
    # issue 12's checker (tests/core/secrecy.py): the rulesets add only public things to views
    from tests.core.secrecy import check_games
    from tests.core.secrecy_models import CARTHAGE

    tally = check_games(
        "carthage",
        CARTHAGE,
        games=40,
        seed=13,
        players=(2, 3, 4),
        options=({"rulesets": ALL}, {"rulesets": "campaign,retain,intimidate,repair"}),
        scramble_rate=0.05,
        decision_rate=0.3,
        alternatives=1,
        follow=8,
        max_followed=3,
    )
    assert tally.games == 40 and tally.views > 500
    assert [str(leak) for leak in tally.leaks[:10]] == []
