"""Property games of the Essedari Maximo modes: random and heuristic bots, solo and co-op,
played to the end with the rules' invariants checked after every choice."""

from __future__ import annotations

import pytest

from harena.core.bots import RandomBot
from harena.core.carthage.bots import HeuristicBot
from harena.core.carthage.essedari.track import track
from harena.core.carthage.rules import Carthage
from harena.core.carthage.state import Phase
from harena.core.engine import make_config, replay
from harena.core.simulate import bot_seed, game_seed

CASES = [
    ("solo", 1, ("random",)),
    ("solo", 1, ("heuristic",)),
    ("coop", 2, ("random", "random")),
    ("coop", 2, ("heuristic", "heuristic")),
    ("coop", 3, ("heuristic", "random", "heuristic")),
    ("coop", 4, ("random", "heuristic", "random", "heuristic")),
]
BOTS = {"random": RandomBot, "heuristic": HeuristicBot}


def check(game: Carthage) -> None:
    s = game.state
    ess = s.essedari
    if ess is None:  # he enters the arena once the gladiators are chosen
        assert s.phase is Phase.GLADIATORS
        return
    ring = track(game.arena)
    assert 0 <= ess.pos < len(ring) and ess.armor <= ess.max_armor
    assert ess.actions <= game.essedari.actions_per_round
    assert s.round <= game.essedari.rounds
    assert all(p.at != ring[ess.pos] for p in s.players if p.alive)  # nobody shares his hex
    assert not s.theater_deck and s.theater_card is None


@pytest.mark.parametrize(("mode", "players", "kinds"), CASES)
def test_bot_games_end_by_the_8th_round_with_one_shared_result(
    mode: str, players: int, kinds: tuple[str, ...]
) -> None:
    outcomes = set()
    for index in range(12):
        seed = game_seed(40 + players, index)
        game = Carthage(make_config("carthage", players, seed, {"essedari": mode}))
        bots = [BOTS[k](bot_seed(seed, s)) for s, k in enumerate(kinds)]
        while game.result() is None:
            prompt = game.open_prompts()[0]
            game.act(
                prompt.seat,
                bots[prompt.seat].choose(game.view_for_bot(prompt.seat, bots[prompt.seat])),
            )
            check(game)
        result = game.result()
        ess = game.state.essedari
        assert result is not None and ess is not None and game.state.phase is Phase.OVER
        if ess.won:
            assert ess.armor <= 0 and result.winners == tuple(range(players))
        else:
            assert result.winners == ()
            assert game.state.round == 8 or not any(p.alive for p in game.state.players)
        outcomes.add(ess.won)
        again = replay(game.config, game.actions)  # deterministic: the log rebuilds it
        assert again.state == game.state
    if set(kinds) == {"heuristic"}:
        assert outcomes == {True, False}  # he can be beaten, and he can win
