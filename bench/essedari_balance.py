"""How often the players beat the Essedari Maximo: heuristic bots in solo and co-op (the brief
asks for 30-50% solo, 40-60% co-op with two players), random bots for contrast.

    python bench/essedari_balance.py [--games 500] [--seed 1]

Each game is seeded (`core.simulate.game_seed`), so a run is reproducible; prints one row per
mode and bot, with the share of wins, how the losses came and the mean rounds played.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.quick import parse_args
from harena.core.simulate import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--modes", default="solo:1,coop:2,coop:3,coop:4")
    parser.add_argument("--bots", default="heuristic,random")
    args = parse_args(parser, games=1)
    print(f"{'mode':<6} {'players':>7} {'bots':<10} {'games':>6} {'won':>6} {'rounds':>7} {'s':>6}")
    for spec in args.modes.split(","):
        mode, players = spec.split(":")
        for bot in args.bots.split(","):
            start = time.perf_counter()
            report = simulate(
                "carthage",
                args.games,
                int(players),
                args.seed,
                [bot] * int(players),
                {"essedari": mode},
            )
            won = report.wins_by_seat[0]  # everyone wins together or nobody does
            done = report.games - len(report.errors)
            print(
                f"{mode:<6} {players:>7} {bot:<10} {done:>6} {won / max(done, 1):>6.1%} "
                f"{report.mean_rounds:>7.2f} {time.perf_counter() - start:>6.1f}"
            )
            for error in report.errors[:3]:
                print("   error:", error)


if __name__ == "__main__":
    main()
