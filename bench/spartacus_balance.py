"""Spartacus balance: how often each House wins 4-player bot games, and how much the bots deal.

    python bench/spartacus_balance.py [--games 1000] [--bots random heuristic] [--seed 1]

Prints one table per bot kind (every seat that kind): wins by House (a shared win counts for
each winner), and offers sent, trades done, Bank sales, bribes paid (gifts and asks paid) and asks
made per game. The goal (issue 16): no
House above 33% with random bots, above 30% with heuristic bots. Plays what `harena simulate`
plays (the same seeds), one process: the machine is shared.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.quick import parse_args
from harena.core.simulate import simulate

GOALS = {"random": 33.0, "heuristic": 30.0}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--bots", nargs="+", default=["random", "heuristic"])
    parser.add_argument("--seed", type=int, default=1)
    args = parse_args(parser, argv, games=2)
    for kind in args.bots:
        begin = time.perf_counter()
        report = simulate("spartacus", args.games, 4, args.seed, [kind] * 4)
        done = args.games - len(report.errors)
        print(f"{kind} bots, {done} four-player games (seed {args.seed}), "
              f"{time.perf_counter() - begin:.0f} s, {report.mean_rounds:.1f} rounds a game")  # fmt: skip
        top = 0.0
        for house, wins in sorted(report.wins_by_label.items(), key=lambda kv: -kv[1]):
            share = 100 * wins / done
            top = max(top, share)
            print(f"  {house:<10} {wins:>5} wins  {share:5.1f}%")
        goal = GOALS.get(kind)
        if goal is not None:
            verdict = "met" if top <= goal else "NOT met"
            print(f"  goal: no House above {goal:.0f}%: {verdict} (top {top:.1f}%)")
        stats = report.stats_by_bot.get(kind, {})
        per_game = ", ".join(
            f"{k.replace('_', ' ')} {n / max(done, 1):.2f}" for k, n in stats.items()
        )
        # a trade has two sides: "trades" counts each House's, so a table's trades are half
        print(f"  per game (all four Houses): {per_game} (trades: each side counted)")
        if report.errors:
            print(f"  errors: {len(report.errors)}; first: {report.errors[0]}")


if __name__ == "__main__":
    main()
