"""Reaction-window waiting at a Spartacus table of two people and bots (issue 36).

    python bench/windows.py [--games 5] [--players 4] [--bots heuristic] [--window 10]
                            [--seed 1] [--rounds 0]

Plays whole Spartacus games through the Table API (the code a server runs: held answers,
`next_deadline`, `expire`) on a fake clock, seats 0 and 1 people and the rest bots. The people
choose what a heuristic bot would from their own view, and every decision that is not a
reaction window they make at once (0 s). Two kinds of people:
- "answer at once": they answer every window that asks them the moment it opens;
- "never answer": they leave every window to run out its time.
Reported per round, for each: the windows that asked a person, and the seconds the table stood
waiting on a window (the fake clock moved only when nothing could happen before a window
closed). Before issue 36 every such window lasted its full time whatever the people did, so the
"never answer" figure is also what a table waited before. Figures, not pass/fail.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.quick import parse_args
from harena.core import windows
from harena.core.bots import bot_seed, decide
from harena.core.clocks import ClockPolicy
from harena.core.lobby import Lobby
from harena.core.plural import counted
from harena.core.simulate import game_seed
from harena.core.spartacus.rules import Spartacus
from harena.core.table import Table

PEOPLE = (("id-ann", "ann"), ("id-bob", "bob"))
START = 1_000_000.0
MAX_STEPS = 200_000  # a game that gets stuck is reported, not waited on


class FakeClock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


@dataclass
class Run:
    rounds: int = 0
    windows: int = 0  # windows that asked a person
    waited: float = 0.0  # fake-clock seconds the table stood waiting on a window
    error: str | None = None


def _table(args: argparse.Namespace, seed: int, clock: FakeClock) -> Table:
    lobby = Lobby(clock=clock, new_seed=lambda: seed)
    (ann, ann_name), (bob, bob_name) = PEOPLE
    table = lobby.create_table(
        ann,
        ann_name,
        "spartacus",
        args.players,
        policy=ClockPolicy(window=args.window),
    )
    table.sit(bob, bob_name, 1)
    for seat in range(len(PEOPLE), args.players):
        table.set_bot(seat, args.bots)
    return table


def play(args: argparse.Namespace, seed: int, answers: bool) -> Run:
    """One whole game; `answers`: the people answer windows at once, else never."""
    clock = FakeClock()
    table = _table(args, seed, clock)
    game = table.game
    assert isinstance(game, Spartacus)
    minds = [Spartacus.bots["heuristic"](bot_seed(seed, seat)) for seat in range(len(PEOPLE))]
    run = Run()
    asked_before: set[int] = set()
    for _ in range(MAX_STEPS):
        if game.result() is not None or (args.rounds and game.state.round > args.rounds):
            run.rounds = game.state.round - (game.result() is None)
            return run
        asked = {s for s in windows.window_prompts(game) if s < len(PEOPLE)}
        if table.next_deadline() is not None and asked and not asked_before:
            run.windows += 1  # a window that asks a person opened
        asked_before = asked if table.next_deadline() is not None else set()
        if _person_moves(table, game, minds, answers):
            continue
        if table.play_bot_step():
            continue
        deadline = table.next_deadline()
        if deadline is None:
            run.error = f"stuck at round {game.state.round}: waiting for {game.awaited()}"
            return run
        run.waited += max(0.0, deadline - clock.now)  # nothing else can happen: time passes
        clock.now = max(clock.now, deadline)
        table.expire(clock.now)
    run.error = f"no result after {MAX_STEPS} steps"
    return run


def _person_moves(table: Table, game: Spartacus, minds: list[Any], answers: bool) -> bool:
    """A person awaited makes a decision at once (a window's only if `answers`): True if one
    did."""
    held = table.view_for(None)["table"].get("window") is not None
    for seat, (identity, _) in enumerate(PEOPLE):
        if seat not in game.awaited():
            continue
        window = windows.window_prompts(game).get(seat)
        if window is not None and held:
            mine = table.view_for(identity)["table"]["window"]
            if not answers or "answer" in mine:
                continue  # never answers, or answered already (the table holds it)
        table.act(identity, decide(game, seat, minds[seat], log_from=table.seats[seat].log_from))
        return True
    return False


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--bots", default="heuristic")
    parser.add_argument("--window", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=0, help="stop after these (0: the end)")
    args = parse_args(parser, argv, games=1, rounds=2)
    print(
        f"Spartacus, {args.players} seats: 2 people ({', '.join(n for _, n in PEOPLE)}) and "
        f"{args.players - 2} {args.bots} bots; reaction window {args.window:g} s; "
        f"{counted(args.games, 'game')}, "
        f"{counted(args.rounds, 'round') + ' each' if args.rounds else 'to the end'}"
    )
    for answers, label in ((True, "answer at once"), (False, "never answer")):
        runs = [play(args, game_seed(args.seed, index), answers) for index in range(args.games)]
        for run in runs:
            if run.error:
                print(f"  error: {run.error}")
        done = [r for r in runs if not r.error]
        rounds = sum(r.rounds for r in done) or 1
        per_game = [r.waited / max(r.rounds, 1) for r in done]
        print(
            f"people who {label:15}: {sum(r.windows for r in done) / rounds:5.1f} windows asking "
            f"a person a round, {sum(r.waited for r in done) / rounds:6.1f} s of window waiting "
            f"a round (median game {statistics.median(per_game) if per_game else 0:.1f} s), "
            f"{rounds} rounds"
        )


if __name__ == "__main__":
    main()
