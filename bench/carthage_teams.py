"""Carthage team modes with bots: who wins, how long games last, how often a teammate is hit.

    python bench/carthage_teams.py [--games 200] [--seed 1]

For each mode (2v2, 2v2_chained, 2v3) and bot line-up (every seat heuristic; one team heuristic
and the other random, both ways round), plays seeded games with sudden death from round 10 (as
`harena simulate` does) and prints the teams' win shares, the mean rounds, and, for each bot
kind, the share of the Damage it dealt that landed on a teammate. Figures vary with the machine
only in speed.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.quick import parse_args
from harena.core.bots import RandomBot, bot_seed
from harena.core.carthage.bots import HeuristicBot
from harena.core.carthage.rules import Carthage
from harena.core.engine import make_config
from harena.core.simulate import game_seed, play_to_the_end

MODES = {"2v2": 4, "2v2_chained": 4, "2v3": 5}
DEALS = re.compile(r"^(.+) deals (\d+) Damage to (.+)$")


def lineups(mode: str) -> dict[str, tuple[str, ...]]:
    """Name -> the bot kind of each team (team 1, team 2)."""
    return {
        "all heuristic": ("heuristic", "heuristic"),
        "T1 heuristic v T2 random": ("heuristic", "random"),
        "T1 random v T2 heuristic": ("random", "heuristic"),
    }


def play(mode: str, seed: int, kinds: tuple[str, str]) -> tuple[int, int, dict[str, list[int]]]:
    """(winning team, rounds, bot kind -> [Damage on teammates, all Damage]) of one game."""
    players = MODES[mode]
    options = {"teams": mode, "sudden_death": "10"}
    game = Carthage(make_config("carthage", players, seed, options))
    teams = game.teams
    assert teams is not None
    make = {"heuristic": HeuristicBot, "random": RandomBot}
    bots = [make[kinds[teams.team_of(s)]](bot_seed(seed, s)) for s in range(players)]
    play_to_the_end(game, bots)
    names = {game.board.name_of(s): s for s in range(players)}
    damage = {kind: [0, 0] for kind in make}
    for event in game.events:
        match = DEALS.match(event.text)
        if match and match.group(1) in names and match.group(3) in names:
            by, to = names[match.group(1)], names[match.group(3)]
            tally = damage[kinds[teams.team_of(by)]]
            tally[1] += int(match.group(2))
            if teams.team_of(by) == teams.team_of(to):
                tally[0] += int(match.group(2))
    won = game.team_mode.winning_team()
    assert won is not None
    return won, game.round_number(), damage


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parse_args(parser, games=1)
    print(
        f"{'mode':<12} {'bots':<26} {'T1 wins':>8} {'T2 wins':>8} {'rounds':>7} "
        f"{'heuristic on mates':>19} {'random on mates':>16} {'s':>6}"
    )
    for mode in MODES:
        for name, kinds in lineups(mode).items():
            started = time.perf_counter()
            wins = [0, 0]
            rounds: list[int] = []
            damage = {"heuristic": [0, 0], "random": [0, 0]}
            for index in range(args.games):
                won, n, dealt = play(mode, game_seed(args.seed, index), kinds)
                wins[won] += 1
                rounds.append(n)
                for kind, (on_mates, total) in dealt.items():
                    damage[kind][0] += on_mates
                    damage[kind][1] += total
            share = [f"{100 * w / args.games:.0f}%" for w in wins]
            mates = {k: f"{100 * f / t:.1f}%" if t else "-" for k, (f, t) in damage.items()}
            elapsed = time.perf_counter() - started
            print(
                f"{mode:<12} {name:<26} {share[0]:>8} {share[1]:>8} {statistics.fmean(rounds):>7.1f} "
                f"{mates['heuristic']:>19} {mates['random']:>16} {elapsed:>6.1f}"
            )


if __name__ == "__main__":
    main()
