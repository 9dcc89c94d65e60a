"""Spartacus fingerprint: a digest per seeded bot game, to prove a refactoring changes nothing.

    python bench/spartacus_fingerprint.py [--quick] > /tmp/spartacus_fp.txt

Plays a fixed set of games covering every table option (each game length, each round limit,
each number of Market offers) at every player count, with random, heuristic and mixed bots,
and prints one line per game: its label, its result and a SHA-256 of its result, its whole
action log, its whole event log (with each line's seats and redacted form) and the final view
of every seat and of a spectator. Two runs of the same rules print byte-identical output; a
rules change shows up as the games whose digest moved. Ends with a digest of all the lines.
`--quick` plays one seed per case instead of three. The twin of bench/carthage_fingerprint.py.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harena.core.bots import RandomBot, bot_seed
from harena.core.engine import make_config
from harena.core.simulate import play_to_the_end
from harena.core.spartacus.bots import HeuristicBot
from harena.core.spartacus.rules import Spartacus

BOTS = {"random": RandomBot, "heuristic": HeuristicBot}
KINDS = (("random",), ("heuristic",), ("heuristic", "random"))


def option_values(name: str) -> tuple[str, ...]:
    return next(spec.choices for spec in Spartacus.options if spec.name == name)


def cases() -> list[tuple[str, int, dict[str, str], tuple[str, ...]]]:
    """(label, players, options, bot kinds by seat, repeated round the table). Every game has a
    round limit but the last few: bots alone could trade Influence back and forth for ever."""
    out: list[tuple[str, int, dict[str, str], tuple[str, ...]]] = []
    limits = [v for v in option_values("round_limit") if v != "off"]
    offers = option_values("market_offers")
    k = 0
    for players in (2, 3, 4):
        for length in option_values("length"):
            for kinds in KINDS:
                options = {
                    "length": length,
                    "round_limit": limits[k % len(limits)],
                    "market_offers": offers[k % len(offers)],
                }
                k += 1
                label = f"{players}-{length}-{'-'.join(kinds)}"
                out.append((label, players, options, kinds))
    for players in (2, 3, 4):  # the rules' own end only
        options = {"length": "quick", "round_limit": "off"}
        out.append((f"{players}-quick-nolimit-heuristic", players, options, ("heuristic",)))
    return out


def digest(game: Spartacus) -> str:
    result = game.result()
    record: dict[str, Any] = {
        "result": None if result is None else [list(result.winners), result.reason],
        "actions": [[a.seat, a.choice] for a in game.actions],
        "events": [[e.text, e.seats, e.redacted] for e in game.events],
        "views": [game.view(seat) for seat in [None, *range(game.players)]],
    }
    blob = json.dumps(record, sort_keys=True, separators=(",", ":"), default=repr)
    return hashlib.sha256(blob.encode()).hexdigest()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one seed per case, not three")
    args = parser.parse_args(argv)
    seeds = (1,) if args.quick else (1, 2, 3)
    lines: list[str] = []
    began = time.perf_counter()
    for label, players, options, kinds in cases():
        for seed in seeds:
            game = Spartacus(make_config("spartacus", players, seed, options))
            bots = [BOTS[kinds[s % len(kinds)]](bot_seed(seed, s)) for s in range(players)]
            play_to_the_end(game, bots)
            result = game.result()
            winners = "-" if result is None else ",".join(map(str, result.winners)) or "none"
            line = f"{label} seed={seed} decisions={game.version} winners={winners} {digest(game)}"
            lines.append(line)
            print(line, flush=True)
    total = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    print(f"all {len(lines)} games {total}")
    print(f"({time.perf_counter() - began:.0f} s)", file=sys.stderr)


if __name__ == "__main__":
    main()
