"""Where a game turned (issue 40): each decision weighed by the search bot from its seat's own
knowledge, never the true hidden state, and planted blunders found first."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from harena.core import bots as core_bots
from harena.core.engine import Action, Game, Rng, game_class, make_config
from harena.core.review import turns
from harena.core.review.turns import ReviewBudget, decisions, hint, review_decision, review_table
from harena.core.search import bot as search_bot
from harena.core.search.bot import Budget
from harena.core.search.world import copy_game
from tests.core.search.test_never_peeks import positions, scrambled

SMALL = ReviewBudget(worlds=3, depth=10)
SPARTACUS = {"round_limit": "10", "length": "quick"}


def played(name: str, players: int, seed: int, prefix: Iterable[Action] = ()) -> Game:
    """A game played by heuristic bots (deals too) from `prefix` to its end."""
    cls = game_class(name)
    options = SPARTACUS if name == "spartacus" else dict(cls.simulation_options)
    game = cls(make_config(name, players, seed, options))
    bots = {s: cls.bots["heuristic"](core_bots.bot_seed(seed, s)) for s in range(players)}
    for action in prefix:
        game.act(action.seat, action.choice)
    while game.result() is None and game.version < 3000:
        deal = core_bots.standing_move(game, bots)
        if deal is not None:
            game.act(*deal)
            continue
        seat = game.awaited()[0]
        game.act(seat, core_bots.decide(game, seat, bots[seat]))
    return game


# -- never peeks -----------------------------------------------------------------------------------


def review_differences(name: str, players: int, options: dict[str, str]) -> list[str]:
    """Decisions whose review changed when all their seat could not know was drawn again."""
    found, tried = [], 0
    for k, game in enumerate(positions(name, players, options, games=2)):
        seat = game.awaited()[0]
        twin = scrambled(game, seat, k)
        if twin.state == game.state:
            continue  # nothing hidden differs here
        chosen = turns.offered(game, seat)[-1][0]
        tried += 1
        mine, theirs = (review_decision(g, seat, chosen, SMALL, seed=k) for g in (game, twin))
        assert mine is not None
        if mine != theirs:
            found.append(f"{name} seat {seat} after {game.version} moves: {mine} / {theirs}")
    assert tried >= 10, f"only {tried} positions with something hidden"
    return found


@pytest.mark.parametrize(
    ("name", "players", "options"),
    [("carthage", 2, {}), ("carthage", 4, {}), ("spartacus", 3, SPARTACUS)],
)
def test_a_review_is_the_same_whatever_its_seat_could_not_know(
    name: str, players: int, options: dict[str, str]
) -> None:
    """Other hands, deck orders, hidden bids and treasuries, the dice: all drawn again, and
    every estimate of the decision is the same to the last digit."""
    assert review_differences(name, players, options) == []


def test_a_reviewer_that_plays_on_the_true_hidden_state_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def peeking(game: Game, seat: int, rng: Rng) -> Game:
        world = copy_game(game)  # the real hands, decks and bids, not a sample
        world.rng = Rng(rng.next64())
        return world

    monkeypatch.setattr(search_bot, "sample_world", peeking)
    assert review_differences("carthage", 2, {}) != []


def test_a_hint_is_the_same_whatever_its_seat_could_not_know() -> None:
    budget = Budget(iterations=24, depth=10)
    tried = 0
    for k, game in enumerate(positions("spartacus", 3, SPARTACUS, games=1)):
        seat = game.awaited()[0]
        twin = scrambled(game, seat, k)
        if twin.state == game.state:
            continue
        tried += 1
        assert hint(game, seat, budget, seed=k) == hint(twin, seat, budget, seed=k)
    assert tried >= 5


# -- what is reviewed ------------------------------------------------------------------------------


def test_only_decisions_with_a_choice_are_reviewed_and_progress_is_told() -> None:
    game = played("carthage", 2, 44)
    todo = decisions(game.config, game.actions, [0])
    replayed = game_class("carthage")(game.config)
    lone = 0
    for position, action in enumerate(game.actions):
        offered = turns.offered(replayed, action.seat)
        if action.seat == 0:
            assert (position in todo) == (len(offered) > 1)
            lone += len(offered) == 1
        replayed.act(action.seat, action.choice)
    assert lone > 0 and len(todo) > 10
    told: list[tuple[int, int]] = []
    part = todo[-6:]
    review = review_table(
        game.config, game.actions, seats=[0], budget=SMALL, positions=part,
        progress=lambda done, total: told.append((done, total)), table_id="7",
    )  # fmt: skip
    assert told == [(n, 6) for n in range(1, 7)]
    assert [d.position for d in review.decisions] == part
    assert all(d.seat == 0 and 0 <= d.chosen.value <= 1 for d in review.decisions)
    assert review.table_id == "7" and review.game == "carthage"
    again = review_table(game.config, game.actions, seats=[0], budget=SMALL, positions=part)
    assert again.decisions == review.decisions  # a seed and a budget in worlds repeat it


def test_a_lone_choice_or_a_deal_is_not_weighed() -> None:
    game = played("carthage", 2, 44)
    replayed = game_class("carthage")(game.config)
    for action in game.actions:
        if len(turns.offered(replayed, action.seat)) == 1:
            assert review_decision(replayed, action.seat, action.choice, SMALL) is None
            return
        replayed.act(action.seat, action.choice)
    raise AssertionError("no lone choice in the game")


def test_percent_reads_a_value_as_a_chance_to_win() -> None:
    assert (turns.percent(0.623), turns.percent(1.2), turns.percent(-0.1)) == (62, 100, 0)


# -- planted blunders ------------------------------------------------------------------------------


def wins_at_once(game: Game, seat: int, steps: int = 4) -> bool:
    """Whether `seat` can win before anyone else chooses (its own follow-up choices only)."""
    result = game.result()
    if result is not None:
        return result.winners == (seat,)
    if steps == 0 or game.awaited() != [seat]:
        return False
    for choice, _ in turns.offered(game, seat):
        after = copy_game(game)
        after.act(seat, choice)
        if wins_at_once(after, seat, steps - 1):
            return True
    return False


def test_carthage_a_card_not_played_that_would_eliminate_the_last_opponent_is_listed_first() -> (
    None
):
    """rulebook: Victory - the last gladiator standing wins. Seeded play to move 102, where
    Red Dimachaerus holds a card that eliminates Blue Retiarius, the last opponent; Red plays
    another instead and goes on to lose the game."""
    honest = played("carthage", 2, 44)
    at, seat, blunder = 102, 0, "play:88"
    before = game_class("carthage")(honest.config)
    for action in honest.actions[:at]:
        before.act(action.seat, action.choice)
    assert before.awaited() == [seat]
    killers = [c for c, _ in turns.offered(before, seat) if _wins_with(before, seat, c)]
    assert killers and blunder not in killers
    game = played("carthage", 2, 44, [*honest.actions[:at], Action(seat, blunder)])
    assert game.result() is not None and seat not in game.result().winners  # type: ignore[union-attr]
    review = review_table(
        game.config, game.actions, seats=[seat], budget=ReviewBudget(worlds=4, depth=12)
    )
    top = review.turning_points(seat)
    assert top[0].position == at and top[0].chosen.choice == blunder
    assert top[0].best.choice in killers and top[0].drop > 0.5


def _wins_with(game: Game, seat: int, choice: str) -> bool:
    after = copy_game(game)
    after.act(seat, choice)
    return wins_at_once(after, seat)


def test_spartacus_a_host_title_let_go_for_1_denarius_that_decides_the_game_is_listed_first() -> (
    None
):
    """rules: Contest for the Host Title, Honor to the Host (+1 Influence). Seeded play to
    the Host contest of round 5, Solonius at 11 Influence; Tullius bids nothing, Batiatus
    becomes Host for 1 denarius and Solonius ends the Arena phase alone at 13. With 2 denarii
    bid instead, Tullius wins the game."""
    honest = played("spartacus", 3, 11)
    at, seat = 418, 2
    before = game_class("spartacus")(honest.config)
    for action in honest.actions[:at]:
        before.act(action.seat, action.choice)
    assert "Host" in before.prompts_for(seat)[0].text
    game = played("spartacus", 3, 11, [*honest.actions[:at], Action(seat, "bid:0")])
    assert any(
        e.text.endswith("pays 1 and becomes the Host") for e in game.events[len(before.events) :]
    )
    assert game.result() is not None and seat not in game.result().winners  # type: ignore[union-attr]
    bid = played("spartacus", 3, 11, [*honest.actions[:at], Action(seat, "bid:2")])
    assert bid.result() is not None and bid.result().winners == (seat,)  # type: ignore[union-attr]
    # The seat's decisions of the last rounds (a whole game is bench/review.py's: seconds).
    todo = [p for p in decisions(game.config, game.actions, [seat]) if p >= at - 120]
    review = review_table(
        game.config, game.actions, seats=[seat], positions=todo,
        budget=ReviewBudget(worlds=4, depth=30),
    )  # fmt: skip
    top = review.turning_points(seat)
    assert top[0].position == at and top[0].chosen.choice == "bid:0"
    assert top[0].best.choice != "bid:0" and top[0].drop > 0.3


# -- the hint --------------------------------------------------------------------------------------


def test_a_hint_names_an_offered_choice_with_its_chance_to_win() -> None:
    game = played("carthage", 2, 44)
    position = decisions(game.config, game.actions, [1])[5]
    before = game_class("carthage")(game.config)
    for action in game.actions[:position]:
        before.act(action.seat, action.choice)
    seat = game.actions[position].seat
    budget = Budget(iterations=24, depth=10)
    first, second = hint(before, seat, budget), hint(before, seat, budget)
    assert first == second
    assert (first.choice, first.label) in turns.offered(before, seat)
    assert 0.0 <= first.value <= 1.0


def test_a_step_is_told_with_its_question_not_as_a_bare_direction() -> None:
    """A turning point reads "you chose E (Move: 2 steps left)", never a lone "E"."""
    game = game_class("carthage")(make_config("carthage", 2, 5, {}))
    pickers = [core_bots.RandomBot(5 + seat) for seat in range(2)]
    for _ in range(2_000):
        seat = game.awaited()[0]
        prompts = [p for p in game.prompts_for(seat) if not p.standing]
        if any(c.label in ("E", "W", "NE", "NW", "SE", "SW") for p in prompts for c in p.choices):
            labels = [label for _, label in turns.offered(game, seat)]
            assert all(len(label) > 3 for label in labels), labels
            assert any(label.endswith(f"({prompts[0].text})") for label in labels)
            return
        game.act(seat, core_bots.decide(game, seat, pickers[seat]))
    raise AssertionError("no step was offered in 2,000 moves")
