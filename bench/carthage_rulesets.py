"""Carthage with the Modular Rulesets, bot against bot: how long games run, who wins, and how
often the bots use each ruleset.

    python bench/carthage_rulesets.py                    # 40 four-player heuristic games per line
    python bench/carthage_rulesets.py --games 200 --bots random --players 3

One line per ruleset played alone, then one with all 17 on. Columns: mean rounds, the share of
games each gladiator colour won of those it played (every game seats 4 of the 5), and how many
times per game the ruleset's own choices were taken (Favor Actions bought, Naked and Afraid
steps, Strict Discipline Focuses; Active Conditions that act by themselves show '-').
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.quick import parse_args
from harena.core.bots import RandomBot, bot_seed
from harena.core.carthage.bots import HeuristicBot
from harena.core.carthage.rulesets.catalog import OPTION_NAMES, ruleset_id
from harena.core.engine import new_game

# the choice (prompt kind, choice prefix) that counts as using each ruleset
USES = {
    "actuate": ("favor", "actuate"), "campaign": ("favor", "campaign"), "outbreak": ("favor", "outbreak"),
    "concentrate": ("favor", "concentrate"), "discipline": ("favor", "discipline"),
    "intimidate": ("favor", "intimidate"), "ordinance": ("favor", "ordinance"),
    "renovate": ("favor", "renovate"), "repair": ("favor", "repair"), "retain": ("favor", "retain"),
    "taunt": ("favor", "taunt"), "naked_and_afraid": ("naked_and_afraid", "naked"),
    "strict_discipline": ("strict_discipline", "focus"),
}  # fmt: skip


def play(
    rulesets: str, games: int, players: int, kind: str, seed: int
) -> tuple[float, Counter, Counter, Counter]:
    rounds = 0
    wins: Counter[str] = Counter()
    seen: Counter[str] = Counter()
    used: Counter[tuple[str, str]] = Counter()
    for index in range(games):
        game_seed = seed * 100_003 + index
        game = new_game(
            "carthage", players, game_seed, {"rulesets": rulesets, "sudden_death": "30"}
        )
        bots = [
            (HeuristicBot if kind == "heuristic" else RandomBot)(bot_seed(game_seed, s))
            for s in range(players)
        ]
        while game.result() is None:
            seat = game.awaited()[0]
            view = game.view(seat)
            choice = bots[seat].choose(view)
            used[(view["prompts"][0]["kind"], choice.split(":")[0])] += 1
            game.act(seat, choice)
        rounds += game.round_number()
        for seat in range(players):
            seen[game.seat_label(seat)] += 1
        wins[game.seat_label(game.result().winners[0])] += 1
    return rounds / games, wins, seen, used


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", choices=("heuristic", "random"), default="heuristic")
    parser.add_argument("--seed", type=int, default=1)
    args = parse_args(parser, games=1)
    started = time.perf_counter()
    colours = ("Blue", "Red", "Green", "Yellow", "Purple")
    print(
        f"{args.games} {args.players}-player {args.bots} games per line (sudden death from round 30)"
    )
    print(
        f"{'rulesets':<20} {'rounds':>6}  " + " ".join(f"{c:>6}" for c in colours) + "  uses/game"
    )
    for name in (*OPTION_NAMES, "ALL"):
        rulesets = ",".join(OPTION_NAMES) if name == "ALL" else name
        rounds, wins, seen, used = play(rulesets, args.games, args.players, args.bots, args.seed)
        shares = []
        for colour in colours:
            label = next((g for g in seen if g.startswith(colour)), None)
            shares.append(f"{100 * wins[label] / seen[label]:5.0f}%" if label else "     -")
        if name == "ALL":
            use = " ".join(f"{k[1]}={v / args.games:.1f}" for k, v in sorted(used.items())
                           if k in USES.values())  # fmt: skip
        else:
            use = f"{used[USES[name]] / args.games:.2f}" if name in USES else "-"
        print(f"{ruleset_id(name):<20} {rounds:6.1f}  " + " ".join(shares) + f"  {use}")
    print(f"({time.perf_counter() - started:.0f} s)")


if __name__ == "__main__":
    main()
