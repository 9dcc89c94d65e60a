"""Where a game turned: each decision of a finished game weighed by the search bot, from the
deciding seat's own knowledge at that moment.

For one decision the game is rebuilt at the position before the move and the search bot's
paired playouts (`SearchBot.paired_rows`) run every candidate, the choice made among them, from
the same worlds: each world is `sample_world(game, seat, rng)`, the game as that seat could
imagine it (its own hand, the public board, everything else drawn again), never the true
hidden state. The choice made is the incumbent: another is called better only when it beat it
clearly world by world (`clearly_best`, the rule the bot itself decides by), so sampling noise
does not make a sound choice look like a mistake.

What a value means (`core/search/evaluate.py`): a playout that reaches the end scores 1 for a
win (a shared win split), 0 for a loss; one cut short after `depth` decisions scores the
seat's share of what wins the game. Carthage: its gladiator's Armor (and a quarter of its
Favor) next to the others still standing, squared, so the leader's share grows faster than
its Armor; in the 2 vs 2 game the team's share; against the Essedari Maximo how much of his
Armor is gone next to how much of the players' is left. Spartacus: its House's Influence (and
a little for denarii and assets, which become Influence later) next to the others', squared.
So a value reads as an estimated chance to win, 0 to 1, and `percent` shows it to a player.

Pure: no I/O, no clock unless a budget in seconds asks for one.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from harena.core.engine import Action, Game, GameConfig, Rng, game_class
from harena.core.review.verdict import DecisionReview, Estimate, Hint, TableReview
from harena.core.search.bot import Budget, SearchBot, clearly_best

Progress = Callable[[int, int], None]  # (decisions reviewed, decisions to review)

REVIEW_SEED = 0x7E71E4  # the reviewer's own sampling: never drawn from the game's seed


@dataclass(frozen=True)
class ReviewBudget:
    """What one decision may cost. `worlds`: sampled worlds (each plays every candidate);
    `seconds`: a wall clock too (None: worlds alone, so a review repeats exactly)."""

    worlds: int = 24
    depth: int = 30  # decisions a playout runs before it is scored (0: to the end)
    width: int = 8  # candidates weighed at most: the choice made, the heuristic's, others
    margin: float = 0.02  # how much better another choice must score to be called better
    seconds: float | None = None


# About 0.5 s a decision on one core: a 60-decision game in about half a minute
# (bench/review.py).
DEFAULT_REVIEW = ReviewBudget()


def percent(value: float) -> int:
    """A value as a player reads it: a chance to win in whole percent."""
    return round(100 * min(1.0, max(0.0, value)))


SHORT_LABEL = 3  # characters: a label this short is told with its prompt's question


def decision_seed(seed: int, position: int) -> int:
    """The sampling seed of the decision at `position`: the same decision gets the same worlds."""
    return Rng.from_seed(seed * 1_000_003 + position).next64()


def offered(game: Game, seat: int) -> list[tuple[str, str]]:
    """`seat`'s choices the game waits for now (ids and the labels its prompt showed), in the
    order offered; standing ones (a gift, an ask) are deals, not decisions. A label too short
    to read alone (a step's "E") comes with its prompt's question: "E (Move: 2 steps left)"."""
    return [
        (c.id, c.label if len(c.label) > SHORT_LABEL else f"{c.label} ({p.text})")
        for p in game.prompts_for(seat)
        if not p.standing
        for c in p.choices
    ]


def review_decision(
    game: Game,
    seat: int,
    chosen: str,
    budget: ReviewBudget = DEFAULT_REVIEW,
    seed: int = REVIEW_SEED,
) -> DecisionReview | None:
    """The choice `chosen` that `seat` made in `game` (as it stood before the move) against
    the search bot's best, from `seat`'s view alone; None when there was nothing to weigh (one
    choice, or a deal rather than a decision). `game` is read, never changed."""
    began = time.perf_counter()
    choices = offered(game, seat)
    labels = dict(choices)
    if chosen not in labels:
        chosen = game.offered_as(seat, chosen) or chosen  # a copy offered once (two Guards)
    if chosen not in labels or len(choices) < 2:
        return None
    bot = SearchBot(seed, _search_budget(budget, len(choices)))
    normal = bot.choose(game.view(seat))
    candidates = [chosen] + ([normal] if normal != chosen and normal in labels else [])
    others = [cid for cid, _ in choices if cid not in candidates]
    while len(candidates) + len(others) > max(budget.width, len(candidates)):
        others.pop(bot.rng.below(len(others)))
    candidates += others
    deadline = None if budget.seconds is None else began + budget.seconds
    rows = bot.paired_rows(game, seat, candidates, deadline)
    if not rows:
        return None
    means = [sum(r[k] for r in rows) / len(rows) for k in range(len(candidates))]
    best = clearly_best(rows, budget.margin)
    estimates = [Estimate(c, labels[c], means[k]) for k, c in enumerate(candidates)]
    return DecisionReview(game.version, seat, game.round_number(), estimates[0], estimates[best])


def _search_budget(budget: ReviewBudget, choices: int) -> Budget:
    width = min(budget.width, choices)
    return Budget(
        iterations=budget.worlds * width, depth=budget.depth, margin=budget.margin,
        seconds=budget.seconds, width=width,
    )  # fmt: skip


def decisions(
    config: GameConfig, actions: list[Action], seats: Iterable[int] | None = None
) -> list[int]:
    """The positions of the decisions a review weighs: each move of `seats` (None: every seat)
    made where its seat had more than one choice; deals and lone choices are left out."""
    wanted = set(range(config.players)) if seats is None else set(seats)
    game = game_class(config.game)(config)
    found = []
    for position, action in enumerate(actions):
        if action.seat in wanted:
            ids = {cid for cid, _ in offered(game, action.seat)}
            chosen = action.choice
            if chosen not in ids:
                chosen = game.offered_as(action.seat, chosen) or chosen
            if len(ids) > 1 and chosen in ids:
                found.append(position)
        game.act(action.seat, action.choice)
    return found


def review_table(
    config: GameConfig,
    actions: list[Action],
    *,
    table_id: str = "",
    seats: Iterable[int] | None = None,
    budget: ReviewBudget = DEFAULT_REVIEW,
    seed: int = REVIEW_SEED,
    progress: Progress | None = None,
    positions: list[int] | None = None,
) -> TableReview:
    """Every decision of `seats` (None: all, for a finished game revealed to everyone) weighed
    by `review_decision`, each from its own seat's knowledge then. `positions`: only these
    (a worker's share of the decisions); `progress(done, total)` after each one."""
    todo = decisions(config, actions, seats) if positions is None else sorted(positions)
    game = game_class(config.game)(config)
    found = review_onward(game, actions, todo, budget, seed, progress)
    return TableReview(table_id, config.game, tuple(found))


def review_onward(
    game: Game,
    actions: list[Action],
    positions: list[int],
    budget: ReviewBudget = DEFAULT_REVIEW,
    seed: int = REVIEW_SEED,
    progress: Progress | None = None,
) -> list[DecisionReview]:
    """The decisions at `positions` (sorted, none before where `game` stands) of the game whose
    moves are `actions`, weighed in turn; `game` is moved on to the last of them (a worker
    goes on from there with the next share)."""
    reviewed: list[DecisionReview] = []
    for done, position in enumerate(positions):
        for action in actions[game.version : position]:
            game.act(action.seat, action.choice)
        action = actions[position]
        found = review_decision(
            game, action.seat, action.choice, budget, decision_seed(seed, position)
        )
        if found is not None:
            reviewed.append(found)
        if progress is not None:
            progress(done + 1, len(positions))
    return reviewed


HINT_BUDGET = Budget(iterations=1_000_000, seconds=1.0)  # the hard bot's own thinking time


def hint(
    game: Game, seat: int, budget: Budget = HINT_BUDGET, seed: int = REVIEW_SEED,
    *, log_from: int = 0,
) -> Hint:  # fmt: skip
    """What the hard bot (the search bot) would choose for `seat` now, and its estimated
    chance to win with it, from the seat's view alone. A lone choice is still weighed (a few
    worlds), so a learner always reads a chance to win."""
    bot = SearchBot(decision_seed(seed, game.version), budget)
    choice = bot.decide(game, seat, log_from=log_from)
    labels = dict(offered(game, seat))
    visits, total = bot.stats.values.get(choice, (0, 0.0))
    if not visits:
        rows = SearchBot(bot.seed, Budget(iterations=4, depth=budget.depth)).paired_rows(
            game, seat, [choice]
        )
        visits, total = len(rows), sum(r[0] for r in rows)
    value = total / visits if visits else 0.5
    return Hint(choice, labels.get(choice, choice), value)
