"""How strong the bot levels are (issue 27): win rates with 95% confidence intervals, seats
rotated, and the time each level takes per decision.

    python bench/bot_strength.py [--quick] [--games 400] [--rows carthage_1v1,...]
                                 [--iterations 48] [--depth 30] [--seed 1]
                                 [--jobs 2] [--record FILE.jsonl] [--first 0]

Rows (default: all):
  carthage_1v1      search against heuristic, 2 players (target: search wins >= 70%)
  carthage_4p       1 search against 3 heuristic (target >= 40%; 25% is par)
  spartacus_4p      1 search against 3 heuristic (target >= 40%; 25% is par)
  essedari_solo     the players' win rate against the Essedari Maximo per level, 1 player
  essedari_coop     the same, 2 players of one level (the Essedari issue: 40-60% at normal)
Game k of a row puts the tested bot at seat k mod players and uses `simulate.game_seed`, so
a run is reproducible. `--quick` plays one game per row with a tiny budget (CI: it runs, it prints).
Times are wall clock per decision on this (shared) machine: median and 95th percentile.

A row of 400 games with search takes hours (Spartacus: about a minute a game). `--record`
appends every finished game to a JSON-lines file and, run again, plays only the games of the
row (same seed and budget) that file does not hold yet and reports them all: a long row can
be played in pieces, on several machines (`--first` picks where a piece starts), and merged
by concatenating the files. `--jobs` plays that many games at once in worker processes.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
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
    times: dict[str, dict[int, int]] = field(default_factory=dict)  # kind -> bucket -> decisions
    deals: dict[str, dict[str, int]] = field(default_factory=dict)  # kind -> Spartacus deals
    seconds: float = 0.0  # time the games took, summed (not wall clock when --jobs > 1)

    def add(self, record: dict[str, Any]) -> None:
        """Count one finished game (a record of `play`)."""
        if record.get("error"):
            self.errors.append(f"game {record['index']}: {record['error']}")
            return
        self.games += 1
        self.wins += bool(record["won"])
        self.seconds += record["seconds"]
        for kind, buckets in record["times"].items():
            tally = self.times.setdefault(kind, {})
            for bucket, n in buckets.items():
                tally[int(bucket)] = tally.get(int(bucket), 0) + n
        for kind, counts in record["deals"].items():
            totals = self.deals.setdefault(kind, {})
            for key, n in counts.items():
                totals[key] = totals.get(key, 0) + n


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


STEP = 1.1  # time buckets: 10% wide, so a game's record is a few hundred bytes, not thousands


def bucket(seconds: float) -> int:
    return round(math.log(max(seconds, 1e-7) * 1e6, STEP)) if seconds >= 1e-6 else 0


def quantile(tally: dict[int, int], q: float) -> float:
    """The q-quantile in seconds of decisions tallied by bucket (to within 5%)."""
    total = sum(tally.values())
    seen = 0
    for b in sorted(tally):
        seen += tally[b]
        if seen > q * (total - 1):
            return float(STEP**b / 1e6)
    return 0.0


def make_bot(game: Game, kind: str, seed: int, budget: Budget) -> Any:
    if kind == "search":
        return SearchBot(seed, budget)
    return type(game).bots[kind](seed)


def play(row: Row, index: int, seed: int, budget: Budget) -> dict[str, Any]:
    """Game `index` of `row`: a JSON-able record of who won and what each decision took."""
    record: dict[str, Any] = {
        "row": row.name,
        "index": index,
        "seed": seed,
        "iterations": budget.iterations,
        "depth": budget.depth,
    }
    began = time.perf_counter()
    try:
        cls = game_class(row.game)
        this_seed = game_seed(seed, index)
        options = {**cls.simulation_options, **row.options}
        game = cls(make_config(row.game, row.players, this_seed, options))
        shift = index % row.players if row.rotate else 0
        kinds = [row.lineup[(s - shift) % row.players] for s in range(row.players)]
        bots = [
            make_bot(game, kind, bot_seed(this_seed, s), budget) for s, kind in enumerate(kinds)
        ]
        times: dict[str, dict[int, int]] = {}

        def timed(seat: int, seconds: float) -> None:
            tally = times.setdefault(kinds[seat], {})
            tally[bucket(seconds)] = tally.get(bucket(seconds), 0) + 1

        play_to_the_end(game, bots, timed)
        result = game.result()
        assert result is not None
        deals: dict[str, dict[str, int]] = {}
        seat_stats = getattr(game, "seat_stats", None)
        for seat, counts in enumerate(seat_stats() if seat_stats else []):
            totals = deals.setdefault(kinds[seat], {})
            for key, n in counts.items():
                totals[key] = totals.get(key, 0) + n
        record.update(won=shift in result.winners, times=times, deals=deals)  # measured: `shift`
    except Exception as exc:  # a broken game is reported, not counted
        record["error"] = f"{type(exc).__name__}: {exc}"
    record["seconds"] = round(time.perf_counter() - began, 3)
    return record


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
        f" ({row.seconds / max(1, row.games):.1f} s a game)"
    )
    for kind, tally in sorted(row.times.items()):
        print(
            f"    {kind:<10} {sum(tally.values()):>7} decisions  "
            f"median {quantile(tally, 0.5) * 1000:8.2f} ms  p95 {quantile(tally, 0.95) * 1000:8.2f} ms"
        )
    for kind, counts in sorted(row.deals.items()):
        seats = sum(1 for k in row.lineup if k == kind) * max(1, row.games)
        shown = ", ".join(f"{key} {n / seats:.1f}" for key, n in sorted(counts.items()))
        print(f"    {kind:<10} deals per seat and game: {shown}")
    for error in row.errors[:3]:
        print(f"    error: {error}")
    sys.stdout.flush()


def recorded(path: Path | None, seed: int, budget: Budget) -> dict[tuple[str, int], dict[str, Any]]:
    """The games `path` holds for this seed and budget, by (row, index); a line that does not
    parse (a run killed mid-write) is skipped."""
    found: dict[tuple[str, int], dict[str, Any]] = {}
    if path is None or not path.exists():
        return found
    for line in path.read_text().splitlines():
        try:
            record = json.loads(line)
            key = (str(record["row"]), int(record["index"]))
            same = (record["seed"], record["iterations"], record["depth"]) == (
                seed, budget.iterations, budget.depth)  # fmt: skip
        except (ValueError, KeyError, TypeError):
            continue
        if same and not record.get("error"):
            found[key] = record
    return found


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
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    parser.add_argument("--record", type=Path, help="JSON lines: games kept, and resumed from")
    parser.add_argument("--first", type=int, default=0, help="the index of the first game")
    parser.add_argument(
        "--report", action="store_true", help="report the games --record holds; play none"
    )
    args = parser.parse_args(argv)
    games = 1 if args.quick else args.games
    budget = Budget(
        iterations=2 if args.quick else args.iterations, depth=4 if args.quick else args.depth
    )
    print(f"budget: {budget.iterations} iterations, depth {budget.depth}; seed {args.seed}")
    table = rows(args.levels.split(","))
    done = recorded(args.record, args.seed, budget)
    with ProcessPoolExecutor(args.jobs) if args.jobs > 1 else _Inline() as pool:
        for key in args.rows.split(","):
            for row in table[key]:
                play_row(row, range(args.first, args.first + games), args, budget, done, pool)
    return 0


def play_row(
    row: Row, indices: range, args: argparse.Namespace, budget: Budget,
    done: dict[tuple[str, int], dict[str, Any]], pool: Any,
) -> None:  # fmt: skip
    """Play the games of `indices` the record lacks (in order, `--jobs` at a time), append each
    to the record as it ends, and report the row over every game of `indices` recorded."""
    began = time.perf_counter()
    for index in indices:
        if (row.name, index) in done:
            row.add(done[(row.name, index)])
    todo = [] if args.report else [i for i in indices if (row.name, i) not in done]
    if len(todo) < len(indices) and not args.report:
        print(f"    {row.name}: {len(indices) - len(todo)} games from {args.record}", flush=True)
    pending = [pool.submit(play, row, i, args.seed, budget) for i in todo[: max(1, args.jobs)]]
    todo = todo[len(pending) :]
    while pending:
        record = pending.pop(0).result()
        row.add(record)
        if args.record is not None:
            with args.record.open("a") as out:
                out.write(json.dumps(record) + "\n")
        if args.progress and row.games and row.games % args.progress == 0:
            print(f"    ... {row.games} games, {row.wins} won", flush=True)
        if args.minutes and time.perf_counter() - began > args.minutes * 60:
            todo = []
        if todo:
            pending.append(pool.submit(play, row, todo.pop(0), args.seed, budget))
    report(row, time.perf_counter() - began)


class _Inline:
    """A pool of one that plays each game in this process when it is asked for the result."""

    def __enter__(self) -> _Inline:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def submit(self, function: Any, *args: Any) -> Any:
        class Later:
            def result(self) -> Any:
                return function(*args)

        return Later()


if __name__ == "__main__":
    sys.exit(main())
