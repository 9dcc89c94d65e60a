"""The search bot never peeks (issue 27): with everything its seat may not know scrambled (the
secrecy checker's scramble: other hands, deck orders, hidden bids, treasuries, bets, a hidden
Scheme, the dice) and its own sampling seeded alike, it weighs every choice exactly as before
and makes the same decision. A bot that plays on the real hidden state is caught."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from harena.core import bots as core_bots
from harena.core.engine import Game, Rng, game_class, make_config
from harena.core.search import bot as search_bot
from harena.core.search.bot import Budget, SearchBot
from harena.core.search.world import copy_game
from tests.core.secrecy import fork
from tests.core.secrecy_models import MODELS

BUDGET = Budget(iterations=10, depth=12)
CASES = [
    ("carthage", 2, {}),
    ("carthage", 4, {}),
    ("spartacus", 3, {"round_limit": "10", "length": "quick"}),
    ("spartacus", 4, {"round_limit": "10"}),
]


def positions(name: str, players: int, options: dict[str, str], games: int) -> Iterator[Game]:
    """Moments of heuristic games (with asks and bribes) where the seat to move has a choice."""
    cls = game_class(name)
    for index in range(games):
        seed = 4_000 + index
        game = cls(make_config(name, players, seed, {**cls.simulation_options, **options}))
        bots = {s: cls.bots["heuristic"](core_bots.bot_seed(seed, s)) for s in range(players)}
        step = 0
        while game.result() is None and step < 900:
            deal = core_bots.standing_move(game, bots)
            if deal is not None:
                game.act(*deal)
                continue
            seat = game.awaited()[0]
            if (
                step % 17 == 5
                and sum(len(p.choices) for p in game.prompts_for(seat) if not p.standing) > 1
            ):
                yield game
            game.act(seat, core_bots.decide(game, seat, bots[seat]))
            step += 1


def scrambled(game: Game, seat: int, k: int) -> Game:
    """The game with all `seat` may not know rewritten; the seat's view is unchanged."""
    twin = fork(game)
    determinize = MODELS[game.name].determinize
    assert determinize is not None
    determinize(twin, seat, Rng.from_seed(k))
    twin.rng = Rng(Rng.from_seed(k + 1).next64())
    twin.state_changed()
    assert twin.view(seat) == game.view(seat)
    return twin


def differences(name: str, players: int, options: dict[str, str], games: int) -> list[str]:
    found = []
    tried = 0
    for k, game in enumerate(positions(name, players, options, games)):
        seat = game.awaited()[0]
        twin = scrambled(game, seat, k)
        if twin.state == game.state:
            continue  # nothing hidden differs here
        tried += 1
        a, b = SearchBot(k, BUDGET), SearchBot(k, BUDGET)
        picked = a.decide(game, seat), b.decide(twin, seat)
        assert a.stats.iterations > 0
        if picked[0] != picked[1] or a.stats.values != b.stats.values:
            found.append(f"{name} seat {seat} after {game.version} moves: {picked}")
    assert tried >= 10, f"only {tried} positions with something hidden"
    return found


@pytest.mark.parametrize(("name", "players", "options"), CASES)
def test_the_search_bot_decides_alike_whatever_it_may_not_know(
    name: str, players: int, options: dict[str, str]
) -> None:
    assert differences(name, players, options, games=2) == []


def test_a_bot_that_plays_on_the_real_hidden_state_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def peeking(game: Game, seat: int, rng: Rng) -> Game:
        world = copy_game(game)  # the real hands and decks, not a sample
        world.rng = Rng(rng.next64())
        return world

    monkeypatch.setattr(search_bot, "sample_world", peeking)
    assert differences("carthage", 2, {}, games=2) != []
