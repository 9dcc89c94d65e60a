"""Carthage rules-engine benchmark: complete bot games, one core, no I/O.

    python bench/carthage_engine.py [--games 200] [--players 4] [--bots random] [--seed 1]
                                    [--sudden-death 10]

Prints decisions/s and the median (and p95) ms per complete game, measured the way
`harena simulate` plays: each decision builds the seat's prompts and the view its bot reads, then
`act` validates and applies the choice. The target (issue 4): a complete 4-player random-bot game
in under 50 ms median on one core.

Random bots rarely fight and keep healing, so without an end they can circle for thousands of
rounds: by default the random games use the table option `sudden_death` from round 10 (docs/
rulings.md); `--sudden-death off` measures the rules as printed (and reports unfinished games).
Figures, not pass/fail: the machine is shared and noisy.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.quick import parse_args
from harena.core.bots import bot_seed
from harena.core.engine import game_class, make_config
from harena.core.simulate import game_seed, parse_bots, play_to_the_end


def play_one(
    players: int, seed: int, bots: list[str], options: dict[str, str]
) -> tuple[float, int]:
    """Seconds and decisions for one complete game."""
    cls = game_class("carthage")
    begin = time.perf_counter()
    game = cls(make_config("carthage", players, seed, options))
    play_to_the_end(game, [cls.bots[kind](bot_seed(seed, s)) for s, kind in enumerate(bots)])
    return time.perf_counter() - begin, game.version


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="random")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--sudden-death", help="round, or off (default: as `harena simulate` plays)"
    )
    args = parse_args(parser, argv, games=2)
    bots = parse_bots(args.bots, args.players)
    if args.sudden_death is None:
        args.sudden_death = game_class("carthage").simulation_options["sudden_death"]
    options = {"sudden_death": args.sudden_death}
    game_class("carthage")  # load the game before timing
    play_one(args.players, args.seed, bots, options)  # warm up caches (content, imports)
    times: list[float] = []
    decisions = 0
    failed = 0
    for index in range(args.games):
        try:
            seconds, made = play_one(args.players, game_seed(args.seed, index), bots, options)
        except RuntimeError:
            failed += 1
            continue
        times.append(seconds)
        decisions += made
    total = sum(times)
    times.sort()
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))] if times else 0.0
    print(
        f"carthage engine: {args.games} games, {args.players} players, bots {','.join(bots)}, "
        f"sudden death {args.sudden_death}"
    )
    print(f"  decisions/s          {decisions / total:,.0f}" if total else "  no game finished")
    print(f"  decisions per game   {decisions / max(len(times), 1):,.0f}")
    print(f"  median ms per game   {statistics.median(times) * 1000:.1f}   (target < 50)")
    print(f"  p95 ms per game      {p95 * 1000:.1f}")
    if failed:
        print(f"  unfinished games     {failed}")


if __name__ == "__main__":
    main()
