"""How long Spartacus fights last, now that a fight has no round limit (issue 24).

    python bench/spartacus_fights.py [--games 200] [--players 4] [--bots heuristic] [--seed 1]

Plays complete seeded bot games and watches every fight: its rounds, and
whether it ended by the rules (a pool at zero) or by the safeguard (QUIET_ROUNDS rounds in a
row without an attack, settled by a Speed roll-off). Prints the distribution of fight lengths
and how often the safeguard fired. Figures, not pass/fail.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.quick import parse_args
from harena.core.bots import bot_seed, standing_move
from harena.core.engine import make_config
from harena.core.simulate import MAX_DECISIONS, game_seed, parse_bots
from harena.core.spartacus.rules import Spartacus
from harena.core.spartacus.state import QUIET_ROUNDS, Fight


def play_and_measure(game: Spartacus, bots: list[Any]) -> list[tuple[int, bool]]:
    """Play `game` to its end as `harena simulate` does (simulate.play_to_the_end), watching
    the state after every decision: (rounds, settled by the safeguard) per fight."""
    seats = dict(enumerate(bots))
    fights: list[tuple[int, bool]] = []
    watched: Fight | None = None
    while game.result() is None:
        if game.version >= MAX_DECISIONS:
            raise RuntimeError(f"still running after {MAX_DECISIONS} decisions")
        deal = standing_move(game, seats)
        if deal is not None:
            game.act(*deal)
        else:
            seat = game.awaited()[0]
            game.act(seat, bots[seat].choose(game.view_for_bot(seat, bots[seat])))
        arena = game.state.arena
        fight = arena.fight if arena is not None else None
        if watched is not None and fight is not watched:
            fights.append((watched.round, watched.quiet >= QUIET_ROUNDS))
        watched = fight
    return fights


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="heuristic")
    parser.add_argument("--seed", type=int, default=1)
    args = parse_args(parser, argv, games=2)
    bots = parse_bots(args.bots, args.players)
    options = {"round_limit": "30"}
    lengths: list[int] = []
    quiet = 0
    for index in range(args.games):
        seed = game_seed(args.seed, index)
        game = Spartacus(make_config("spartacus", args.players, seed, options))
        seated = [Spartacus.bots[k](bot_seed(seed, s)) for s, k in enumerate(bots)]
        for rounds, settled in play_and_measure(game, seated):
            lengths.append(rounds)
            quiet += settled
    if not lengths:
        print("no fights")
        return
    lengths.sort()
    buckets = Counter(min(n, 21) for n in lengths)
    print(
        f"spartacus fights: {args.games} games, {args.players} players, bots {','.join(bots)}, "
        f"no round limit per fight, safeguard after {QUIET_ROUNDS} rounds without an attack"
    )
    print(f"  fights               {len(lengths)}")
    print(f"  rounds: median {statistics.median(lengths):g}, mean {statistics.mean(lengths):.2f}, "
          f"p99 {lengths[int(len(lengths) * 0.99)]}, max {lengths[-1]}")  # fmt: skip
    print(f"  longer than 10       {sum(n > 10 for n in lengths)}")
    print(f"  settled by safeguard {quiet} ({100 * quiet / len(lengths):.2f}%)")
    print("  rounds: fights       " + ", ".join(
        f"{'21+' if n == 21 else n}: {c}" for n, c in sorted(buckets.items())))  # fmt: skip


if __name__ == "__main__":
    main()
