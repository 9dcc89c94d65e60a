"""What both games' fingerprints share (bench/carthage_fingerprint.py and
bench/spartacus_fingerprint.py): the digest of one game and the run over every case, so the two
print their lines the same way and a refactoring of either game is checked alike."""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections.abc import Callable, Mapping
from typing import Any

from harena.core.bots import Bot, bot_seed
from harena.core.engine import Game, make_config
from harena.core.simulate import play_to_the_end

Case = tuple[str, int, dict[str, str], tuple[str, ...]]  # label, players, options, bot kinds


def digest(game: Game) -> str:
    """SHA-256 of a game's result, action log, event log (seats and redacted form) and the final
    view of every seat and of a spectator."""
    result = game.result()
    record: dict[str, Any] = {
        "result": None if result is None else [list(result.winners), result.reason],
        "actions": [[a.seat, a.choice] for a in game.actions],
        "events": [[e.text, e.seats, e.redacted] for e in game.events],
        "views": [game.view(seat) for seat in [None, *range(game.players)]],
    }
    blob = json.dumps(record, sort_keys=True, separators=(",", ":"), default=repr)
    return hashlib.sha256(blob.encode()).hexdigest()


def run(
    description: str,
    game_name: str,
    make_game: Callable[[Any], Game],
    cases: list[Case],
    bots: Mapping[str, Callable[[int], Bot]],
    argv: list[str] | None = None,
) -> None:
    """Play every case for each seed and print a line per game, then a digest of all lines."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--quick", action="store_true", help="one seed per case, not three")
    args = parser.parse_args(argv)
    seeds = (1,) if args.quick else (1, 2, 3)
    lines: list[str] = []
    began = time.perf_counter()
    for label, players, options, kinds in cases:
        for seed in seeds:
            game = make_game(make_config(game_name, players, seed, options))
            seated = [bots[kinds[s % len(kinds)]](bot_seed(seed, s)) for s in range(players)]
            play_to_the_end(game, seated)
            result = game.result()
            winners = "-" if result is None else ",".join(map(str, result.winners)) or "none"
            line = f"{label} seed={seed} decisions={game.version} winners={winners} {digest(game)}"
            lines.append(line)
            print(line, flush=True)
    total = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    print(f"all {len(lines)} games {total}")
    print(f"({time.perf_counter() - began:.0f} s)", file=sys.stderr)
