"""Search-bot speed: playouts and playout steps per second, and what a decision costs.

    python bench/search_speed.py [--game carthage|spartacus|both] [--positions 12]
                                 [--iterations 32] [--depth 30] [--profile]

Positions are taken from heuristic games (every few decisions); at each one the search bot
decides for the seat to move with the given budget. Rates are per CPU second (process time:
the machine is shared). Prints playouts/s, playout steps/s (the engine's speed under search),
sampled worlds per second, and with --profile the functions that cost most. Figures, not
pass/fail.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.quick import parse_args
from harena.core.bots import bot_seed, decide
from harena.core.engine import Game, Rng, game_class, make_config
from harena.core.search.bot import Budget, SearchBot
from harena.core.search.world import sample_world

PLAYERS = {"carthage": 2, "spartacus": 4}
OPTIONS = {"carthage": {}, "spartacus": {}}


def positions(name: str, count: int, seed: int) -> list[Game]:
    """Copies of heuristic games at evenly spread moments (a world sampled for the mover is
    itself a legal game, so it serves as a position)."""
    cls = game_class(name)
    found: list[Game] = []
    index = 0
    while len(found) < count:
        game = cls(make_config(name, PLAYERS[name], seed + index, {**cls.simulation_options}))
        bots = [cls.bots["heuristic"](bot_seed(seed + index, s)) for s in range(game.players)]
        step = 0
        while game.result() is None and len(found) < count:
            seat = game.awaited()[0]
            if step % 23 == 7 and len(game.prompts_for(seat)[0].choices) > 1:
                found.append(sample_world(game, seat, Rng(step)))
            game.act(seat, decide(game, seat, bots[seat]))
            step += 1
        index += 1
    return found


def run(name: str, count: int, budget: Budget, seed: int) -> None:
    games = positions(name, count, seed)
    bot = SearchBot(seed, budget)
    began = time.process_time()
    worlds = 0
    for g in games:
        seat = g.awaited()[0]
        for k in range(10):
            sample_world(g, seat, Rng(k))
            worlds += 1
    world_s = worlds / (time.process_time() - began)
    times: list[float] = []
    playouts = steps = 0
    began = time.process_time()
    for g in games:
        seat = g.awaited()[0]
        bot.decide(g, seat)
        times.append(bot.stats.seconds)
        playouts += bot.stats.iterations
        steps += bot.stats.steps
    elapsed = time.process_time() - began
    print(f"{name} ({PLAYERS[name]} players), {len(games)} positions, budget {budget}")
    print(f"  sampled worlds/s        {world_s:,.0f}")
    print(f"  playouts/s              {playouts / elapsed:,.1f}")
    print(f"  playout steps/s         {steps / elapsed:,.0f}")
    print(f"  decision median / max   {statistics.median(times):.3f} s / {max(times):.3f} s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="both", choices=("both", "carthage", "spartacus"))
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--iterations", type=int, default=32)
    parser.add_argument("--depth", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true")
    args = parse_args(parser, argv, positions=2, iterations=4)
    budget = Budget(iterations=args.iterations, depth=args.depth)
    names = ("carthage", "spartacus") if args.game == "both" else (args.game,)
    for name in names:
        if args.profile:
            profiler = cProfile.Profile()
            profiler.runcall(run, name, args.positions, budget, args.seed)
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(35)
        else:
            run(name, args.positions, budget, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
