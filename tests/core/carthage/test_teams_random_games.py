"""Seeded bot games in every team mode (rulebook: Player Modes): random and heuristic bots as
teammates and opponents, every invariant after every decision, the chain never broken in the
Chained Match, and a game that ends only when a whole team has fallen."""

from __future__ import annotations

import os

import pytest

from harena.core.bots import RandomBot, bot_seed
from harena.core.carthage.bots import HeuristicBot
from harena.core.carthage.chain import chain_holds
from harena.core.carthage.rules import Carthage
from harena.core.carthage.state import SETUP_PHASES
from harena.core.engine import replay, restore
from tests.core.carthage.table_helpers import new_carthage
from tests.core.carthage.test_rules_random_games import play_with_bots

MODES = {"2v2": 4, "2v2_chained": 4, "2v3": 5}
GAMES = int(os.environ.get("HARENA_RANDOM_GAMES", "75")) // 5  # 15 per mode in the suite


def check_teams(game: Carthage) -> None:
    s, teams = game.state, game.teams
    assert teams is not None
    if teams.chained and s.phase not in SETUP_PHASES:
        for a, b in teams.members:
            pa, pb = s.players[a], s.players[b]
            if pa.alive and pb.alive:
                assert chain_holds(game.arena, game.board.is_pillar, pa.at, pb.at), (
                    a,
                    pa.at,
                    b,
                    pb.at,
                )
    standing = [
        k for k, seats in enumerate(teams.members) if any(s.players[i].alive for i in seats)
    ]
    assert len(standing) == (1 if game.result() is not None else 2)


def play_out(mode: str, seed: int, kinds: tuple[str, ...], views: bool = False) -> Carthage:
    players = MODES[mode]
    setup = {"gladiators": "choose", "tokens": "players_choose" if seed % 2 else "first_match"}
    game = new_carthage(players, seed, teams=mode, sudden_death="10", **setup)
    make = {"random": RandomBot, "heuristic": HeuristicBot}
    bots = [make[kinds[s % len(kinds)]](bot_seed(seed, s)) for s in range(players)]
    return play_with_bots(
        game, bots, cards_every=1 if views else 16, views_every=int(views), also=check_teams
    )


def check_result(game: Carthage) -> None:
    result, teams = game.result(), game.teams
    assert result is not None and teams is not None
    won = teams.team_of(result.winners[0])
    assert result.winners == teams.members[won]  # the whole team wins, fallen members too
    losers = [seat for k, seats in enumerate(teams.members) if k != won for seat in seats]
    assert all(not game.state.players[seat].alive for seat in losers)
    assert set(losers) <= set(game.state.eliminated)


@pytest.mark.parametrize("mode", MODES)
def test_random_team_games_end_with_a_whole_team_standing(mode: str) -> None:
    for seed in range(GAMES):
        game = play_out(mode, seed, ("random",))
        check_result(game)
        if seed % 7 == 0:
            assert replay(game.config, game.actions).state == game.state
            assert restore(game.snapshot()).state == game.state


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "kinds", [("heuristic",), ("heuristic", "random"), ("random", "heuristic")]
)
def test_heuristic_bots_play_every_mode_as_teammates_and_opponents(
    mode: str, kinds: tuple[str, ...]
) -> None:
    # ("heuristic", "random"): even seats heuristic, so one team of each kind in 2 vs 2
    for seed in range(max(GAMES // 3, 2)):
        check_result(play_out(mode, seed, kinds))


@pytest.mark.parametrize("mode", MODES)
def test_every_view_of_a_team_game_hides_other_hands(mode: str) -> None:
    game = play_out(mode, 3, ("random", "heuristic"), views=True)
    check_result(game)


def test_a_heuristic_team_beats_a_random_team_in_2v2() -> None:
    wins = 0
    for seed in range(10):
        game = play_out("2v2", seed, ("heuristic", "random"))
        wins += game.result().winners == (0, 2)
    assert wins >= 8
