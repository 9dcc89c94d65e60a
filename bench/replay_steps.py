"""What a replay costs on the server's one event loop: opening one, and each kind of step.

    python bench/replay_steps.py [--game carthage] [--players 4] [--games 3] [--seed 1]

Plays complete heuristic-bot games (Carthage with its simulation options, so games end), then
for each opens a revealed replay (rebuilding every position's metadata and a snapshot every 32
moves) and times a step forward through every move, a step back through every move, turn and
round steps, and jumps to the start and the end, each building the view a board draws. Prints
moves per game and median/p95 ms per operation. Figures, not pass/fail: the machine is shared.
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
from harena.core.engine import game_class, new_game
from harena.core.replays import Replay
from harena.core.simulate import play_to_the_end


def timed(work) -> float:
    start = time.perf_counter()
    work()
    return (time.perf_counter() - start) * 1000


def figures(name: str, values: list[float]) -> str:
    values = sorted(values)
    p95 = values[min(int(len(values) * 0.95), len(values) - 1)]
    return f"  {name:<14} median {statistics.median(values):7.2f} ms   p95 {p95:7.2f} ms   ({len(values)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="carthage")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parse_args(parser, games=1)
    cls = game_class(args.game)
    kind = "heuristic" if "heuristic" in cls.bots else "random"
    ops: dict[str, list[float]] = {
        k: [] for k in ("open", "forward", "back", "turn", "round", "jump")
    }
    moves = []
    for index in range(args.games):
        seed = args.seed + index
        game = new_game(args.game, args.players, seed, dict(cls.simulation_options))
        game = play_to_the_end(
            game, [cls.bots[kind](bot_seed(seed, s)) for s in range(args.players)]
        )
        moves.append(len(game.actions))
        holder: list[Replay] = []
        ops["open"].append(
            timed(lambda h=holder, g=game: h.append(Replay(g.config, g.actions, reveal=True)))
        )
        replay = holder[0]
        for position in range(replay.first, replay.last + 1):
            ops["forward"].append(
                timed(lambda r=replay, p=position: r.view_at(p, p % args.players))
            )
        for position in range(replay.last, replay.first - 1, -1):
            ops["back"].append(timed(lambda r=replay, p=position: r.view_at(p, 0)))
        position = 0
        while position < replay.last:
            position = replay.next_turn(position)
            ops["turn"].append(timed(lambda r=replay, p=position: r.view_at(p, 0)))
        position = 0
        while position < replay.last:
            position = replay.next_round(position)
            ops["round"].append(timed(lambda r=replay, p=position: r.view_at(p, 0)))
        for target in (0, replay.last, 0, replay.last):
            ops["jump"].append(timed(lambda r=replay, p=target: r.view_at(p, 0)))
    print(
        f"{cls.title}, {args.players} players, {kind} bots, {args.games} games, "
        f"{statistics.mean(moves):.0f} moves per game on average"
    )
    for name, values in ops.items():
        print(figures(name, values))


if __name__ == "__main__":
    main()
