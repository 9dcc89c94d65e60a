"""Carthage balance: how often each gladiator colour wins the games it plays.

    python bench/carthage_balance.py [--games 1000] [--players 4] [--bots heuristic] [--seed 1]
                                     [--option NAME=VALUE ...]

Plays complete bot games (as `harena simulate` does, with its default `sudden_death=10` so
every game ends) with gladiators chosen by the bots (`gladiators=choose`: the heuristic bot
takes any, so who plays which colour is random), and prints, per colour, the games it appeared
in, the games it won and the share. The issue 13 target: in 1,000 four-player heuristic-bot
games of the base game no colour wins more than 30% of its appearances. Figures, not pass/fail.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.quick import parse_args
from harena.core.bots import bot_seed
from harena.core.engine import game_class, make_config
from harena.core.simulate import game_seed, parse_bots, play_to_the_end

TARGET = 0.30


def balance(
    games: int, players: int, bots: list[str], seed: int, options: dict[str, str]
) -> tuple[Counter[str], Counter[str]]:
    """Appearances and wins per gladiator name over `games` games."""
    cls = game_class("carthage")
    options = {**cls.simulation_options, "gladiators": "choose", **options}
    seen: Counter[str] = Counter()
    won: Counter[str] = Counter()
    for index in range(games):
        this_seed = game_seed(seed, index)
        game = cls(make_config("carthage", players, this_seed, options))
        play_to_the_end(
            game, [cls.bots[kind](bot_seed(this_seed, s)) for s, kind in enumerate(bots)]
        )
        for s in range(players):
            seen[game.gladiator_names[game.state.players[s].colour]] += 1
        result = game.result()
        assert result is not None
        for winner in result.winners:
            won[game.gladiator_names[game.state.players[winner].colour]] += 1
    return seen, won


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="heuristic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    args = parse_args(parser, argv, games=2)
    options = dict(o.split("=", 1) for o in args.option)
    seen, won = balance(
        args.games, args.players, parse_bots(args.bots, args.players), args.seed, options
    )
    shown = ", ".join(f"{k}={v}" for k, v in sorted(options.items())) or "base game"
    print(
        f"Carthage balance: {args.games} games, {args.players} players, {args.bots} bots, {shown}"
    )
    print(f"{'gladiator':<18} {'played':>6} {'won':>5} {'share':>6}")
    worst = 0.0
    for name in sorted(seen):
        share = won[name] / seen[name]
        worst = max(worst, share)
        print(f"{name:<18} {seen[name]:>6} {won[name]:>5} {share:>6.1%}")
    verdict = "within" if worst <= TARGET else "ABOVE"
    print(f"highest share {worst:.1%}: {verdict} the {TARGET:.0%} target")


if __name__ == "__main__":
    main()
