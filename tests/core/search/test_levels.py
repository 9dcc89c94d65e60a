"""The bot levels (issue 27): easy, normal (heuristic) and hard (search) for both games, played
by `harena simulate`; the search bot's choice repeats for a seed and an iteration budget."""

from __future__ import annotations

import pytest

from harena.core.bots import MISTAKE_RATE, EasyBot, bot_seed, decide
from harena.core.engine import game_class, new_game
from harena.core.search.bot import Budget, SearchBot
from harena.core.simulate import parse_bots, simulate


@pytest.mark.parametrize("name", ["carthage", "spartacus"])
def test_every_game_offers_the_three_levels(name: str) -> None:
    assert {"easy", "heuristic", "search"} <= set(game_class(name).bots)


def test_simulate_plays_search_against_the_other_levels() -> None:
    report = simulate("carthage", 1, 2, 2, ["search", "easy"])
    assert report.errors == [] and report.games == 1 and sum(report.wins_by_seat) == 1


def test_a_decision_repeats_for_a_seed_and_an_iteration_budget() -> None:
    game = new_game("carthage", 2, 11)
    heuristic = [game_class("carthage").bots["heuristic"](bot_seed(11, s)) for s in range(2)]
    while game.version < 40:  # past the setup, into the fight
        seat = game.awaited()[0]
        game.act(seat, decide(game, seat, heuristic[seat]))
    seat = game.awaited()[0]
    runs = []
    for _ in range(2):
        bot = SearchBot(5, Budget(iterations=12, depth=10))
        runs.append((bot.decide(game, seat), bot.stats.values, bot.stats.iterations))
    assert runs[0] == runs[1] and 0 < runs[0][2] <= 12 and bot.stats.searched


def test_the_easy_bot_slips_now_and_then_but_mostly_plays_the_heuristic() -> None:
    game = new_game("carthage", 2, 13)
    heuristic = game_class("carthage").bots["heuristic"]
    easy, normal = EasyBot(21), heuristic(21)
    other = heuristic(22)
    asked = slips = 0
    while game.result() is None and game.version < 400:
        seat = game.awaited()[0]
        if seat == 0:
            view = game.view(0)
            choice, plain = easy.choose(view), normal.choose(view)
            multiple = sum(len(p["choices"]) for p in view["prompts"]) > 1
            asked += multiple
            slips += multiple and choice != plain
        else:
            choice = other.choose(game.view(1))
        game.act(seat, choice)
    assert asked > 40
    assert 0 < slips / asked < 2 * MISTAKE_RATE


def test_simulate_takes_levels_for_kinds() -> None:
    assert parse_bots("hard,normal,easy,random", 4) == ["search", "heuristic", "easy", "random"]
