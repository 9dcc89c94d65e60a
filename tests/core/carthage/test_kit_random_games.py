"""Random-bot and heuristic-bot games with every combination of Equipment, Legend cards and
Arena Beasts turned on: each ends with one living gladiator as the winner, keeps the game's
invariants after every decision, hides what it must, and replays and restores exactly."""

from __future__ import annotations

import itertools
import json

import pytest

from harena.core.bots import RandomBot, bot_seed
from harena.core.carthage.bots import HeuristicBot
from harena.core.carthage.rules import Carthage
from harena.core.engine import replay, restore
from harena.server.commands.cli import main
from tests.core.carthage.table_helpers import new_carthage
from tests.core.carthage.test_rules_random_games import play_with_bots

COMBOS = [
    {
        name: "on" if on else "off"
        for name, on in zip(("equipment", "legends", "beasts"), bits, strict=False)
    }
    for bits in itertools.product((False, True), repeat=3)
    if any(bits)
]


def play(
    options: dict[str, str], players: int, seed: int, heuristic: bool = False, views: bool = False
):
    game = new_carthage(players, seed, gladiators="choose", sudden_death="10", **options)
    kind = HeuristicBot if heuristic else RandomBot
    bots = [kind(bot_seed(seed, s)) for s in range(players)]

    def kit_rules(game: Carthage) -> None:
        s = game.state
        standing = [p.at for p in s.players if p.at is not None]
        assert len(standing) == len(set(standing))  # gladiators and Beasts never share a hex
        assert all(p.beast is None or not p.alive for p in s.players)

    play_with_bots(game, bots, cards_every=8, views_every=5 if views else 0, also=kit_rules)
    result = game.result()
    assert result is not None and len(result.winners) == 1
    assert game.state.players[result.winners[0]].alive  # a Beast never wins
    return game


@pytest.mark.parametrize(
    "options", COMBOS, ids=lambda o: "+".join(k for k, v in o.items() if v == "on")
)
def test_random_games_with_the_expansions_end_well(options: dict[str, str]) -> None:
    beasts_seen = 0
    for seed in range(6):
        game = play(options, 3 + seed % 3, seed, views=seed == 0)
        beasts_seen += any("returns as the" in line for line in game.log_for(None))
        if seed % 3 == 0:
            assert replay(game.config, game.actions).state == game.state
            assert restore(game.snapshot()).state == game.state
    if options["beasts"] == "on":
        assert beasts_seen  # random players sometimes take a Beast


@pytest.mark.parametrize("options", [COMBOS[-1], {"equipment": "on"}], ids=["all", "equipment"])
def test_heuristic_games_with_the_expansions_use_them(options: dict[str, str]) -> None:
    log: list[str] = []
    for seed in range(4):
        log += play(options, 4, seed, heuristic=True).log_for(None)
    assert any(" uses " in line for line in log) and any(" Readies " in line for line in log)
    if options.get("beasts") == "on":
        assert any("returns as the" in line for line in log)


def test_harena_games_lists_the_expansions_and_simulate_plays_them(capsys) -> None:
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    for option in ("equipment=off|on", "legends=off|on", "beasts=off|on"):
        assert option in out
    argv = [
        "simulate",
        "carthage",
        "--games",
        "4",
        "--players",
        "4",
        "--bots",
        "heuristic",
        "--json",
        "--option",
        "equipment=on",
        "--option",
        "legends=on",
        "--option",
        "beasts=on",
    ]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["errors"] == [] and sum(report["wins_by_seat"]) == 4
    assert report["options"]["equipment"] == "on" and report["options"]["beasts"] == "on"
