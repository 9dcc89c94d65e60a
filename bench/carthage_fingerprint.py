"""Carthage fingerprint: a digest per seeded bot game, to prove a refactoring changes nothing.

    python bench/carthage_fingerprint.py [--quick] > /tmp/carthage_fp.txt

Plays a fixed set of games covering every option combination the property tests use (player
counts, token set-ups, gladiator choice, the Modular Rulesets, Equipment, Legend cards, Arena
Beasts, every team mode, the Essedari Maximo solo and co-op, random, heuristic and mixed bots)
and prints one line per game: its label, its result and a SHA-256 of its result, its whole
action log, its whole event log (with each line's seats and redacted form) and the final view
of every seat and of a spectator. Two runs of the same rules print byte-identical output; a
rules change shows up as the games whose digest moved. Ends with a digest of all the lines.
`--quick` plays one seed per case instead of three.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.fingerprint import run
from harena.core.bots import RandomBot
from harena.core.carthage.bots import HeuristicBot
from harena.core.carthage.content import default_content
from harena.core.carthage.rules import Carthage
from harena.core.carthage.rulesets.catalog import OPTION_NAMES
from harena.core.engine import Rng

BOTS = {"random": RandomBot, "heuristic": HeuristicBot}
ALL_RULESETS = ",".join(OPTION_NAMES)
KIT = ("equipment", "legends", "beasts")
LAYOUTS = tuple(layout.id.replace("-", "_") for layout in default_content().layouts)


def subset(seed: int) -> str:
    """A reproducible subset of the rulesets (as tests/core/carthage/test_rulesets_games.py)."""
    rng = Rng.from_seed(seed)
    return ",".join(name for name in OPTION_NAMES if rng.below(3) == 0)


def cases() -> list[tuple[str, int, dict[str, str], tuple[str, ...]]]:
    """(label, players, options, bot kinds by seat, repeated round the table)."""
    out: list[tuple[str, int, dict[str, str], tuple[str, ...]]] = []
    sd = {"sudden_death": "10"}
    for players in (2, 3, 4, 5):
        for tokens in ("first_match", "players_choose"):
            base = {"gladiators": "choose", "tokens": tokens}
            out.append((f"ffa-{players}-{tokens}-random", players, {**base, **sd}, ("random",)))
            out.append((f"ffa-{players}-{tokens}-heuristic", players, base, ("heuristic",)))
            out.append(
                (f"ffa-{players}-{tokens}-mixed", players, {**base, **sd}, ("heuristic", "random"))
            )
    for layout in LAYOUTS:
        out.append((f"layout-{layout}", 3, {"tokens": layout, **sd}, ("random", "heuristic")))
    out.append(("by-seat", 4, {"gladiators": "by_seat", **sd}, ("random",)))
    for players in (2, 3, 4, 5):
        rules = {"gladiators": "choose", "rulesets": ALL_RULESETS, **sd}
        out.append((f"rulesets-all-{players}-random", players, rules, ("random",)))
        out.append((f"rulesets-all-{players}-heuristic", players, rules, ("heuristic",)))
        some = {"gladiators": "choose", "rulesets": subset(players * 7), **sd}
        out.append((f"rulesets-some-{players}", players, some, ("random", "heuristic")))
    for bits in range(1, 8):
        kit = {name: "on" if bits >> k & 1 else "off" for k, name in enumerate(KIT)}
        label = "+".join(name for name in KIT if kit[name] == "on")
        opts = {"gladiators": "choose", **kit, **sd}
        out.append((f"kit-{label}-random", 3 + bits % 3, opts, ("random",)))
        out.append((f"kit-{label}-heuristic", 3 + bits % 3, opts, ("heuristic",)))
    everything = {"rulesets": ALL_RULESETS, "equipment": "on", "legends": "on", "beasts": "on"}
    for mode, players in (("off", 3), ("off", 5), ("2v2", 4), ("2v2_chained", 4), ("2v3", 5)):
        opts = {"gladiators": "choose", "teams": mode, **everything, **sd}
        out.append((f"everything-{mode}-{players}-random", players, opts, ("random",)))
        out.append((f"everything-{mode}-{players}-heuristic", players, opts, ("heuristic",)))
    for mode, players in (("2v2", 4), ("2v2_chained", 4), ("2v3", 5)):
        for tokens in ("first_match", "players_choose"):
            opts = {"gladiators": "choose", "tokens": tokens, "teams": mode, **sd}
            for kinds in (("random",), ("heuristic",), ("heuristic", "random")):
                out.append((f"teams-{mode}-{tokens}-{'-'.join(kinds)}", players, opts, kinds))
    for mode, players in (("solo", 1), ("coop", 2), ("coop", 3), ("coop", 4)):
        for kinds in (("random",), ("heuristic",), ("heuristic", "random")):
            opts = {"essedari": mode}
            out.append((f"essedari-{mode}-{players}-{'-'.join(kinds)}", players, opts, kinds))
    return out


def main(argv: list[str] | None = None) -> None:
    run(__doc__.split("\n\n")[0], "carthage", Carthage, cases(), BOTS, argv)


if __name__ == "__main__":
    main()
