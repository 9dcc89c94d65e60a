"""The screen audit (issue 36) on many games: every screen a person receives, checked.

    python bench/screen_audit.py [--seeds 2] [--game carthage|spartacus|both] [--moves 5000]
                                 [--sizes 80x24,120x40] [--examples 1]

Plays seeded games through the real TUI (tests/tui/screen_audit.py): every seat count of each
game (Carthage 2-5, Spartacus 2-4) with one, two and three people (the rest heuristic bots) and
a spectator, at each terminal size (Spartacus with reaction windows open 10 s on odd seeds),
plus the guided game of each; every screen is checked
against the rules of tests/tui/screen_checks.py. Prints, per game, how many screens were
checked, then a table of findings by rule (screens that showed one) and every kind of finding
with an example screen line. Figures, not pass/fail: the suite (tests/tui/test_screen_audit.py)
holds the rules on a few games.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.quick import parse_args
from tests.tui import screen_checks as checks
from tests.tui.screen_audit import AuditGame, AuditResult, Finding, audit_game

SEATS = {"carthage": range(2, 6), "spartacus": range(2, 5)}
WINDOW = {"carthage": 0.0, "spartacus": 10.0}
"""Reaction windows as a table has them by default, on odd seeds (even: answered by keys)."""
OPTIONS = {
    "carthage": {"sudden_death": "10"},
    "spartacus": {"length": "quick", "round_limit": "10"},
}


def games(args: argparse.Namespace) -> list[AuditGame]:
    names = ("carthage", "spartacus") if args.game == "both" else (args.game,)
    sizes = [tuple(int(n) for n in size.split("x")) for size in args.sizes.split(",")]
    out = []
    for name in names:
        ordinary = []
        for seed in range(1, args.seeds + 1):
            for players in SEATS[name]:
                people = 1 + (seed + players) % min(players, 3)  # 1, 2 or 3 people, in turn
                size = sizes[(seed + players) % len(sizes)]
                ordinary.append(
                    AuditGame(
                        name,
                        players=players,
                        people=people,
                        seed=seed,
                        size=(size[0], size[1]),
                        options=OPTIONS[name],
                        window=WINDOW[name] if seed % 2 else 0,
                        moves=args.moves,
                    )
                )
        out += ordinary[: args.per_game] if args.per_game else ordinary
        out.append(AuditGame(name, guided=True, moves=args.moves))
    return out


def report(results: list[AuditResult], examples: int, screens: bool) -> None:
    names = sorted({r.game.game for r in results})
    print()
    print(f"{'findings (screens)':<22}" + "".join(f"{n:>12}" for n in names))
    for rule in checks.RULES:
        row = [
            sum(
                n
                for r in results
                if r.game.game == name
                for (k, _), n in r.counts.items()
                if k == rule
            )
            for name in names
        ]
        print(f"{rule:<22}" + "".join(f"{n:>12}" for n in row))
    print()
    for rule in checks.RULES:
        kinds: dict[tuple[str, str], list[tuple[AuditResult, Finding]]] = {}
        for result in results:
            for finding in result.by_rule(rule):
                kinds.setdefault((finding.game, finding.kind), []).append((result, finding))
        for (game, kind), found in sorted(kinds.items()):
            screens = sum(r.counts[(rule, kind)] for r, _ in found)
            print(f"{rule} / {game}: {kind}: {screens} screens in {len(found)} games")
            for result, finding in found[:examples]:
                print(f"    {result.game.name}, {finding.who}: {finding.detail}")
                print(f"    | {finding.line}")
                if screens:
                    print("\n".join(f"    # {row}" for row in finding.screen.splitlines()))


async def main(args: argparse.Namespace) -> None:
    results = []
    for spec in games(args):
        start = time.perf_counter()
        try:
            result = await audit_game(spec)
        except AssertionError as failure:  # a game the audit could not play on: say so, go on
            print(f"{spec.name}: not played to its end: {failure}")
            continue
        results.append(result)
        found = sum(result.counts.values())
        state = "ended" if result.finished else f"stopped after {result.moves} moves"
        print(
            f"{spec.name}: {result.screens} screens, {state}, {found} findings,"
            f" {time.perf_counter() - start:.1f} s"
        )
    report(results, args.examples, args.screens)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--game", choices=("carthage", "spartacus", "both"), default="both")
    parser.add_argument("--moves", type=int, default=5000, help="moves per game at most")
    parser.add_argument("--sizes", default="80x24,120x40")
    parser.add_argument("--examples", type=int, default=1, help="example lines per finding")
    parser.add_argument("--screens", action="store_true", help="print each example's screen")
    parser.add_argument(
        "--per-game", type=int, default=0, help="games of each besides the guided one (0: all)"
    )
    asyncio.run(main(parse_args(parser, seeds=1, moves=30, per_game=1)))
