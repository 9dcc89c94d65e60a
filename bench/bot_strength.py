"""How strong the bot levels are (issue 27): win rates with 95% confidence intervals, seats
rotated, and the time each level takes per decision.

    python bench/bot_strength.py [--quick] [--games 400] [--rows carthage_1v1,...]
                                 [--iterations 48] [--depth 30] [--seed 1]

Rows (default: all):
  carthage_1v1      search against heuristic, 2 players (target: search wins >= 70%)
  carthage_4p       1 search against 3 heuristic (target >= 40%; 25% is par)
  spartacus_4p      1 search against 3 heuristic (target >= 40%; 25% is par)
  essedari_solo     the players' win rate against the Essedari Maximo per level, 1 player
  essedari_coop     the same, 2 players of one level (the Essedari issue: 40-60% at normal)
Game k of a row puts the tested bot at seat k mod players and uses `simulate.game_seed`, so
a run is reproducible. `--quick` plays one game per row with a tiny budget (CI: it runs, it prints).
Times are wall clock per decision on this (shared) machine: median and 95th percentile.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harena.core.bots import bot_seed
from harena.core.engine import Game, game_class, make_config
from harena.core.search.bot import Budget, SearchBot
from harena.core.simulate import game_seed, play_to_the_end

LEVELS = {"easy": "easy", "normal": "heuristic", "hard": "search"}


@dataclass
class Row:
    name: str
    game: str
    players: int
    options: dict[str, str]
    lineup: list[str]  # kinds at seats 0.. before rotation; lineup[0] is the bot measured
    rotate: bool = True
    wins: int = 0
    games: int = 0
    errors: list[str] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)  # kind -> seconds per decision
    deals: dict[str, dict[str, int]] = field(default_factory=dict)  # kind -> Spartacus deals


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def make_bot(game: Game, kind: str, seed: int, budget: Budget) -> Any:
    if kind == "search":
        return SearchBot(seed, budget)
    return type(game).bots[kind](seed)


def play(row: Row, index: int, seed: int, budget: Budget) -> None:
    cls = game_class(row.game)
    this_seed = game_seed(seed, index)
    game = cls(
        make_config(row.game, row.players, this_seed, {**cls.simulation_options, **row.options})
    )
    shift = index % row.players if row.rotate else 0
    kinds = [row.lineup[(s - shift) % row.players] for s in range(row.players)]
    bots = [make_bot(game, kind, bot_seed(this_seed, s), budget) for s, kind in enumerate(kinds)]

    def timed(seat: int, seconds: float) -> None:
        row.times.setdefault(kinds[seat], []).append(seconds)

    play_to_the_end(game, bots, timed)
    result = game.result()
    assert result is not None
    seat_stats = getattr(game, "seat_stats", None)
    for seat, counts in enumerate(seat_stats() if seat_stats else []):
        totals = row.deals.setdefault(kinds[seat], {})
        for key, n in counts.items():
            totals[key] = totals.get(key, 0) + n
    row.games += 1
    row.wins += shift in result.winners  # the measured bot sits at seat `shift`


def rows(levels: list[str]) -> dict[str, list[Row]]:
    essedari = {
        mode: [
            Row(f"essedari_{mode} {level}", "carthage", players, {"essedari": mode},
                [kind] * players, rotate=False)
            for level, kind in LEVELS.items()
            if level in levels
        ]
        for mode, players in (("solo", 1), ("coop", 2))
    }  # fmt: skip
    return {
        "carthage_1v1": [Row("carthage 1v1 search vs heuristic", "carthage", 2, {},
                             ["search", "heuristic"])],
        "carthage_4p": [Row("carthage 4p 1 search vs 3 heuristic", "carthage", 4, {},
                            ["search", "heuristic", "heuristic", "heuristic"])],
        "spartacus_4p": [Row("spartacus 4p 1 search vs 3 heuristic", "spartacus", 4, {},
                             ["search", "heuristic", "heuristic", "heuristic"])],
        "essedari_solo": essedari["solo"],
        "essedari_coop": essedari["coop"],
    }  # fmt: skip


def report(row: Row, seconds: float) -> None:
    low, high = wilson(row.wins, row.games)
    rate = row.wins / row.games if row.games else 0.0
    print(
        f"{row.name:<40} {row.games:>5} games  won {row.wins:>4} = {rate:6.1%}  "
        f"95% CI [{low:5.1%}, {high:5.1%}]  {seconds:7.1f} s"
    )
    for kind, times in sorted(row.times.items()):
        times = sorted(times)
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        print(
            f"    {kind:<10} {len(times):>7} decisions  median {statistics.median(times) * 1000:8.2f} ms"
            f"  p95 {p95 * 1000:8.2f} ms"
        )
    for kind, counts in sorted(row.deals.items()):
        seats = sum(1 for k in row.lineup if k == kind) * max(1, row.games)
        shown = ", ".join(f"{key} {n / seats:.1f}" for key, n in sorted(counts.items()))
        print(f"    {kind:<10} deals per seat and game: {shown}")
    for error in row.errors[:3]:
        print(f"    error: {error}")
    sys.stdout.flush()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few games, a small budget (CI)")
    parser.add_argument("--games", type=int, default=400, help="per row")
    parser.add_argument(
        "--rows", default="carthage_1v1,carthage_4p,spartacus_4p,essedari_solo,essedari_coop"
    )
    parser.add_argument("--iterations", type=int, default=Budget().iterations)
    parser.add_argument("--depth", type=int, default=Budget().depth)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--minutes", type=float, default=0.0, help="stop a row after this long")
    parser.add_argument("--levels", default="easy,normal,hard", help="the Essedari rows' levels")
    parser.add_argument("--progress", type=int, default=0, help="print a tally every N games")
    args = parser.parse_args(argv)
    games = 1 if args.quick else args.games
    budget = Budget(
        iterations=2 if args.quick else args.iterations, depth=4 if args.quick else args.depth
    )
    print(f"budget: {budget.iterations} iterations, depth {budget.depth}; seed {args.seed}")
    table = rows(args.levels.split(","))
    for key in args.rows.split(","):
        for row in table[key]:
            began = time.perf_counter()
            for index in range(games):
                try:
                    play(row, index, args.seed, budget)
                except Exception as exc:  # a broken game is reported, not counted
                    row.errors.append(f"game {index}: {type(exc).__name__}: {exc}")
                if args.progress and (index + 1) % args.progress == 0:
                    print(f"    ... {row.games} games, {row.wins} won", flush=True)
                if args.minutes and time.perf_counter() - began > args.minutes * 60:
                    break
            report(row, time.perf_counter() - began)
    return 0


if __name__ == "__main__":
    sys.exit(main())
