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

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.fingerprint import run
from harena.core.bots import RandomBot
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


def main(argv: list[str] | None = None) -> None:
    run(__doc__.split("\n\n")[0], "spartacus", Spartacus, cases(), BOTS, argv)


if __name__ == "__main__":
    main()
