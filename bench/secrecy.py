"""Hidden-information benchmark: thousands of bot games of each game under the secrecy checker.

    python bench/secrecy.py [--games 1000] [--game carthage|spartacus|both] [--seed 1]
                            [--bots random|random,heuristic] [--scramble-rate 0.1]
                            [--decision-rate 1] [--alternatives all] [--follow 40]
                            [--max-followed 60]

For every game it prints how many moves were played, how many scrambled views were compared
with the real one (everything the viewer may not know rewritten: tests/core/secrecy_models.py),
how many views after another secret choice were compared with the real one (every alternative
unless told otherwise, played on until the rules reveal it), and every leak found, grouped by
check and place. The suite runs the same checker on a few hundred sampled games
(tests/core/test_secrecy.py); this runs it wide. Figures, not pass/fail.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.quick import parse_args
from tests.core.secrecy import Leak, check_games
from tests.core.secrecy_models import MODELS

OPTIONS = {
    "carthage": ({},),
    "spartacus": (
        {"round_limit": "10", "length": "quick"},
        {"round_limit": "10"},
        {"round_limit": "10", "length": "advanced"},
    ),
}


def _where(leak: Leak) -> tuple[str, str]:
    check = (
        leak.check.split(" instead of ")[0].rsplit(":", 1)[0]
        if leak.check.startswith("decision:")
        else leak.check
    )
    return check, leak.where.split(":")[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="of each game")
    parser.add_argument("--game", default="both", choices=("both", "carthage", "spartacus"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--bots", default="random,random,heuristic")
    parser.add_argument("--scramble-rate", type=float, default=0.1)
    parser.add_argument("--decision-rate", type=float, default=1.0)
    parser.add_argument("--alternatives", default="all")
    parser.add_argument("--follow", type=int, default=40)
    parser.add_argument("--max-followed", type=int, default=60)
    args = parse_args(parser, argv, games=1)
    names = ("carthage", "spartacus") if args.game == "both" else (args.game,)
    found = 0
    for name in names:
        begin = time.perf_counter()
        tally = check_games(
            name, MODELS[name], games=args.games, seed=args.seed, players=(2, 3, 4),
            options=OPTIONS[name], bots=tuple(args.bots.split(",")), gift_rate=0.02,
            scramble_rate=args.scramble_rate, decision_rate=args.decision_rate,
            alternatives=None if args.alternatives == "all" else int(args.alternatives),
            follow=args.follow, max_followed=args.max_followed,
        )  # fmt: skip
        seconds = time.perf_counter() - begin
        print(f"{name}: {tally.games} games, bots {args.bots}, {seconds:.1f} s")
        print(f"  moves played              {tally.moves:,}")
        print(f"  scrambled views compared  {tally.views:,}")
        print(f"  secret decisions tried    {tally.decisions:,}")
        print(f"  alternative views compared {tally.alternatives:,}")
        print(
            f"  alternatives not played   {tally.skipped:,}   (more than --max-followed copies at once)"
        )
        print(f"  leaks                     {len(tally.leaks)}")
        groups = Counter(_where(leak) for leak in tally.leaks)
        first = {}
        for leak in tally.leaks:
            first.setdefault(_where(leak), leak)
        for key, count in groups.most_common():
            print(f"    {count:6} x {first[key]}")
        found += len(tally.leaks)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
