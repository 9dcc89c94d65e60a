"""What a game's review costs on one core, and what it finds: each game's top turning point.

    python bench/review.py [--games 20] [--worlds 24] [--depth 30] [--seed 1]

Plays seeded games in which seat 0 is the easy bot (the heuristic that now and then slips, as a
newcomer does) and the other seats the heuristic bot: half Carthage (2 players, its simulation
options), half Spartacus (3 players, quick, 10 rounds). Reviews seat 0's decisions in this one
process (core/review/turns.py, the budget the server uses unless told otherwise, in worlds so
it repeats) and prints, per game, the decisions weighed, the seconds per decision and per game,
and the top turning point: round, who, the choice made, the bot's best, the chance to win each
gave and the drop, with the public state then, so a reader can judge whether it mattered. Ends
with the median and p95 seconds per decision for each game and what a 60-decision game costs.
Figures, not pass/fail: the machine is shared.
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
from harena.core.engine import Game, game_class, new_game, replay
from harena.core.review.turns import ReviewBudget, percent, review_table
from harena.core.simulate import play_to_the_end
from harena.server.runners.reviews import SERVER_BUDGET

CASES = [("carthage", 2, None), ("spartacus", 3, {"round_limit": "10", "length": "quick"})]


def standing(game: Game) -> str:
    """The public state a reader judges a decision by."""
    s = game.state
    if game.name == "carthage":
        return ", ".join(
            f"{game.seat_label(k)} A{p.armor} F{p.favor}{'' if p.alive else ' out'}"
            for k, p in enumerate(s.players)
        )
    return ", ".join(f"{game.seat_label(k)} I{p.influence}" for k, p in enumerate(s.players))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--worlds", type=int, default=SERVER_BUDGET.worlds)
    parser.add_argument("--depth", type=int, default=SERVER_BUDGET.depth)
    parser.add_argument("--seed", type=int, default=1)
    args = parse_args(parser, games=2, worlds=2)
    budget = ReviewBudget(worlds=args.worlds, depth=args.depth)
    print(f"budget per decision: {budget.worlds} worlds, depth {budget.depth}, one core")
    per_decision: dict[str, list[float]] = {name: [] for name, _, _ in CASES}
    per_game: dict[str, list[tuple[int, float]]] = {name: [] for name, _, _ in CASES}
    for index in range(args.games):
        name, players, options = CASES[index % len(CASES)]
        seed = args.seed + index // len(CASES)
        cls = game_class(name)
        game = new_game(name, players, seed, options or dict(cls.simulation_options))
        bots = [
            cls.bots["easy" if s == 0 else "heuristic"](bot_seed(seed, s)) for s in range(players)
        ]
        game = play_to_the_end(game, bots)
        began = time.perf_counter()
        review = review_table(game.config, game.actions, seats=[0], budget=budget)
        seconds = time.perf_counter() - began
        count = len(review.decisions)
        per_game[name].append((count, seconds))
        per_decision[name].append(seconds / max(1, count))
        result = game.result()
        assert result is not None
        outcome = "won" if 0 in result.winners else "lost"
        print(
            f"{name} seed {seed}: {game.seat_label(0)} {outcome} ({result.reason}); "
            f"{count} decisions in {seconds:.1f} s ({seconds / max(1, count):.2f} s each)"
        )
        top = review.turning_points(0, 1)
        if not top:
            print("  no turning point: every choice as good as the bot's best")
            continue
        t = top[0]
        then = replay(game.config, game.actions[: t.position])
        print(
            f"  top: round {t.round}, move {t.position}: chose {t.chosen.label!r} "
            f"({percent(t.chosen.value)}%), best {t.best.label!r} ({percent(t.best.value)}%), "
            f"drop {percent(t.drop)} points"
        )
        print(f"  then: {standing(then)}")
        for line in [e.text for e in then.events if e.seats is None][-3:]:
            print(f"    | {line}")
    print()
    for name, values in per_decision.items():
        if not values:
            continue
        values = sorted(values)
        p95 = values[min(int(len(values) * 0.95), len(values) - 1)]
        games = per_game[name]
        mean_decisions = statistics.mean(c for c, _ in games)
        mean_seconds = statistics.mean(s for _, s in games)
        print(
            f"{name}: {statistics.median(values):.2f} s per decision (median of games, "
            f"p95 {p95:.2f}); {mean_decisions:.0f} decisions and {mean_seconds:.1f} s per game; "
            f"a 60-decision game: {60 * statistics.median(values):.0f} s"
        )


if __name__ == "__main__":
    main()
