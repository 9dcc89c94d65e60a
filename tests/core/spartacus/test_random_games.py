"""Seeded random games from the house choice to a winner: every decision keeps the invariants
(coins conserved, Influence never negative, the Rule of One, every card in one place, hand
limits at the end of each Intrigue turn), every view hides what it must, and a game replays
and restores to the same state. Random bots always finish: every loop in the rules is bounded
(docs/rulings.md) and the round limit ends the rest."""

from __future__ import annotations

import os

import pytest

from harena.core.bots import RandomBot, bot_seed
from harena.core.engine import Rng, replay, restore
from harena.core.spartacus.bots import HeuristicBot
from harena.core.spartacus.rules import Spartacus
from harena.core.spartacus.state import Phase
from tests.core.spartacus.helpers import bot_move, new_game
from tests.core.spartacus.invariants import check_state, check_view

# SPARTACUS_GAMES=3000 runs the long version; the default keeps the suite quick.
GAMES = int(os.environ.get("SPARTACUS_GAMES", "240"))
MAX_DECISIONS = 20_000


def play_fast(players: int, seed: int, **options: str) -> Spartacus:
    """Uniformly random legal choices straight from the prompts (what RandomBot picks, without
    building views), checking the invariants after every decision."""
    game = new_game(players, seed, **options)
    rng = Rng.from_seed(seed + 7)
    turn: tuple[int, int] | None = None
    while game.result() is None:
        assert game.version < MAX_DECISIONS, "a random game did not end"
        prompts = [p for p in game.open_prompts() if not p.standing]
        assert prompts, "the game waits on nothing but standing prompts"
        prompt = prompts[rng.below(len(prompts))]
        game.act(prompt.seat, prompt.choices[rng.below(len(prompt.choices))].id)
        check_state(game, cards=game.version % 8 == 0)
        turn = _check_hand_limit(game, turn)
    return game


def _check_hand_limit(game: Spartacus, turn: tuple[int, int] | None) -> tuple[int, int] | None:
    """rules: End of Your Turn - when a turn passes, its player is within the hand limit."""
    s = game.state
    now = (s.round, s.intrigue.turn) if s.intrigue is not None else None
    if turn is not None and now != turn:
        p = s.players[turn[1]]
        assert len(p.hand) <= game.content.hand_limit(p.influence)
    return now


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_with_a_legal_winner_and_keep_every_invariant(players: int) -> None:
    for seed in range(GAMES // 3):
        options = {"round_limit": "10"} if seed % 2 else {"length": "quick", "round_limit": "20"}
        game = play_fast(players, seed, **options)
        result = game.result()
        assert result is not None and result.winners
        assert all(0 <= w < players for w in result.winners)
        s = game.state
        assert s.phase is Phase.OVER and game.prompts() == []
        best = max(p.influence for p in s.players)
        if "round limit" in result.reason or "most Influence" in result.reason:
            assert all(s.players[w].influence == best for w in result.winners)
        elif "alone" in result.reason:
            assert (
                len(result.winners) == 1
                and s.players[result.winners[0]].influence >= game.content.target
            )
        if seed % 20 == 0:
            assert replay(game.config, game.actions).state == s
            assert restore(game.snapshot()).state == s


@pytest.mark.parametrize(("players", "kind"), [(3, "random"), (4, "heuristic")])
def test_every_view_of_a_bot_game_hides_what_it_must(players: int, kind: str) -> None:
    seed = 11
    game = new_game(players, seed, round_limit="10")
    factory = RandomBot if kind == "random" else HeuristicBot
    bots = [factory(bot_seed(seed, s)) for s in range(players)]
    while game.result() is None:
        game.act(*bot_move(game, bots))  # heuristic bots deal too: asks and bribes are checked
        check_state(game)
        for viewer in [None, *range(players)]:
            check_view(game, viewer)


def test_heuristic_bots_finish_their_games_dealing_and_keeping_every_invariant() -> None:
    """Property games with bribes: the bots ask, pay asks and give, coins stay conserved."""
    made = {"ask": 0, "payask": 0, "give": 0}
    for seed in range(6):
        game = new_game(4, seed)
        bots = [HeuristicBot(bot_seed(seed, s)) for s in range(4)]
        while game.result() is None:
            assert game.version < MAX_DECISIONS
            seat, choice = bot_move(game, bots)
            game.act(seat, choice)
            verb = choice.split(":")[0]
            if verb in made and (verb != "ask" or choice.count(":") == 3):
                made[verb] += 1
                check_state(game)
        assert game.result() is not None
        if seed == 0:  # deals are recorded actions: the game replays and restores exactly
            assert replay(game.config, game.actions).state == game.state
            assert restore(game.snapshot()).state == game.state
        assert sum(game.seat_stats()[s]["asks"] for s in range(4)) == sum(
            1 for a in game.actions if a.choice.startswith("ask:") and a.choice.count(":") == 3
        )
    assert made["ask"] >= 6 and made["payask"] >= 6 and made["give"] >= 6, made


def test_random_trades_of_every_size_move_exactly_what_was_agreed() -> None:
    """rules: Open Market - any Resource cards and denarii for any of theirs (issue 16): in
    random games every accepted trade moves the cards named each way and the denarii, and
    nothing else, whatever its size; the invariants hold after every decision."""
    from harena.core.spartacus.holdings import owner_of

    sizes: set[tuple[int, int]] = set()
    for seed in range(30):
        game = new_game(4, seed, round_limit="10")
        rng = Rng.from_seed(seed + 99)
        while game.result() is None:
            prompts = [p for p in game.open_prompts() if not p.standing]
            prompt = prompts[rng.below(len(prompts))]
            choice = prompt.choices[rng.below(len(prompt.choices))].id
            m = game.state.market
            offer = None
            if choice.startswith("accept:") and m is not None:
                offer = next(o for o in m.offers if o.id == int(choice.split(":")[1]))
                before = [p.denarii for p in game.state.players]
                others = {
                    a.card: seat for seat, p in enumerate(game.state.players) for a in p.assets
                }
            game.act(prompt.seat, choice)
            check_state(game, cards=game.version % 8 == 0)
            if offer is not None and game.log_for(None)[-1].startswith("Trade done"):
                t = offer.terms
                assert all(owner_of(game, c) == offer.recipient for c in t.give)
                assert all(owner_of(game, c) == offer.proposer for c in t.want)
                moved = set(t.give) | set(t.want)
                now = {a.card: seat for seat, p in enumerate(game.state.players) for a in p.assets}
                assert {c: s for c, s in others.items() if c not in moved} == {
                    c: s for c, s in now.items() if c not in moved}  # fmt: skip
                after = [p.denarii for p in game.state.players]
                assert after[offer.proposer] - before[offer.proposer] == -t.price
                assert after[offer.recipient] - before[offer.recipient] == t.price
                sizes.add((min(len(t.give), 3), min(len(t.want), 3)))
    assert {(0, 1), (1, 0), (1, 1), (2, 2)} <= sizes, sizes
    assert any(3 in size for size in sizes), sizes  # 3 or more cards one way
