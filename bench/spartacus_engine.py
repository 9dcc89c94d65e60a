"""Spartacus rules-engine benchmark: complete bot games, one core, no I/O.

    python bench/spartacus_engine.py [--games 100] [--players 4] [--bots random] [--seed 1]
                                     [--length standard] [--round-limit 30]

Prints decisions/s, the median (and p95) ms per complete game, rounds per game and the winners
by House, measured the way `harena simulate` plays: each decision builds the prompts and the
view the seat's bot reads (`Game.view_for_bot`), then `act` validates and applies the choice.
The target (issue 5): a complete 4-player random-bot game in under 200 ms median on one core
(`--bots heuristic` measures the heuristic bots, which think harder per decision).
Figures, not pass/fail: the machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.quick import parse_args
from harena.core.bots import bot_seed
from harena.core.engine import make_config
from harena.core.simulate import game_seed, parse_bots, play_to_the_end
from harena.core.spartacus.rules import Spartacus


def play_one(
    players: int, seed: int, bots: list[str], options: dict[str, str]
) -> tuple[float, Spartacus]:
    """Seconds for one complete game, and the finished game."""
    begin = time.perf_counter()
    game = Spartacus(make_config("spartacus", players, seed, options))
    play_to_the_end(game, [Spartacus.bots[kind](bot_seed(seed, s)) for s, kind in enumerate(bots)])
    return time.perf_counter() - begin, game


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--length", default="standard", choices=("quick", "standard", "advanced"))
    parser.add_argument("--round-limit", default="30")
    args = parse_args(parser, argv, games=2)
    bots = parse_bots(args.bots, args.players)
    options = {"length": args.length, "round_limit": args.round_limit}
    play_one(args.players, args.seed, bots, options)  # warm up caches (content, imports)
    times: list[float] = []
    decisions = rounds = 0
    houses: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    for index in range(args.games):
        seconds, game = play_one(args.players, game_seed(args.seed, index), bots, options)
        times.append(seconds)
        decisions += game.version
        rounds += game.round_number()
        result = game.result()
        assert result is not None
        for winner in result.winners:
            houses[game.state.players[winner].house] += 1
        reasons["round limit" if "round limit" in result.reason else
                "deciding games" if "deciding" in result.reason else "12 Influence alone"] += 1  # fmt: skip
    total = sum(times)
    times.sort()
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
    print(
        f"spartacus engine: {args.games} games, {args.players} players, bots {','.join(bots)}, "
        f"{args.length}, round limit {args.round_limit}"
    )
    print(f"  decisions/s          {decisions / total:,.0f}")
    print(f"  decisions per game   {decisions / len(times):,.0f}")
    print(f"  rounds per game      {rounds / len(times):.1f}")
    print(f"  median ms per game   {statistics.median(times) * 1000:.1f}   (target < 200)")
    print(f"  p95 ms per game      {p95 * 1000:.1f}")
    print("  wins by house        " + ", ".join(f"{h} {n}" for h, n in sorted(houses.items())))
    print("  how games end        " + ", ".join(f"{r} {n}" for r, n in reasons.most_common()))


if __name__ == "__main__":
    main()
