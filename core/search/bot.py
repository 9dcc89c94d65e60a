"""The search bot: determinized flat Monte Carlo at the root, paired (see docs/bots.md).

For one decision of its seat it samples a world (`world.sample_world`: everything the seat
may not know drawn again), plays each candidate choice from that same world with the same
dice and policies (the heuristic bots, for every seat, for at most `depth` decisions), and
scores the ends (`evaluate`); then another world, until the budget is spent. It keeps the
heuristic bot's own pick unless another choice did clearly better world by world, so it plays
at least as the heuristic does where the samples cannot tell choices apart.

The budget is in iterations (deterministic for a seed: `harena simulate`, tests) and,
optionally, in wall-clock seconds (the server's worker stops at whichever comes first).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

from harena.core.bots import awaited_prompts
from harena.core.engine import Game, Rng, game_class
from harena.core.search.evaluate import evaluate
from harena.core.search.world import copier, sample_world

EXPLORE = 0.7  # UCB1's exploration constant, for values in [0, 1]


@dataclass(frozen=True)
class Budget:
    iterations: int = 48  # sampled playouts per decision (a choice alone is taken at once)
    depth: int = 30  # decisions a playout runs before it is scored (0: to the end)
    margin: float = 0.02  # how much better than the heuristic's pick another must score
    seconds: float | None = None  # wall clock; None: iterations alone decide
    paired: bool = True  # every choice on the same samples (False: UCB1, a sample each)
    width: int = 8  # choices weighed at most when paired (the heuristic's pick among them)


@dataclass
class Stats:
    """What the last decision cost, for benchmarks and the server's log."""

    iterations: int = 0
    steps: int = 0  # decisions played in playouts
    errors: int = 0  # playouts cut short by an error in the rules or a policy
    seconds: float = 0.0
    searched: bool = False  # False: one choice, or the budget ran out before every choice
    values: dict[str, tuple[int, float]] = field(default_factory=dict)  # choice: visits, total


def clearly_best(rows: list[list[float]], margin: float) -> int:
    """The column (a candidate) of paired playout scores that did best, if it beat column 0
    (the incumbent: the heuristic's pick, or the choice a player made) clearly world by world,
    by more than `margin` and more than its standard error; else 0."""
    if not rows:
        return 0
    n = len(rows)
    best = max(range(len(rows[0])), key=lambda k: sum(r[k] for r in rows))
    if best == 0:
        return 0
    gains = [r[best] - r[0] for r in rows]
    mean = sum(gains) / n
    spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1) / n) if n > 1 else 1.0
    return best if mean > max(margin, spread) else 0


class SearchBot:
    """A seat's bot that thinks: `decide(game, seat)`. Drivers that only have a view get the
    heuristic bot's choice from `choose(view)`; deals (`standing`) are the heuristic's too."""

    def __init__(self, seed: int, budget: Budget | None = None) -> None:
        self.seed = seed
        self.rng = Rng.from_seed(seed ^ 0x5EA2C4)
        self.budget = budget or Budget()
        self.stats = Stats()
        self._normal: Any = None
        self._policy_class: Any = None

    # -- the plain-bot protocol ------------------------------------------------------------------

    def bind(self, name: str) -> None:
        """Learn which game it plays (its heuristic bot is its fallback and playout policy)."""
        if self._normal is None:
            self._policy_class = game_class(name).bots["heuristic"]
            self._normal = self._policy_class(self.seed)

    def choose(self, view: dict[str, Any]) -> str:
        self.bind(view["game"])
        return str(self._normal.choose(view))

    def standing(self, view: dict[str, Any]) -> str | None:
        self.bind(view["game"])
        hook = getattr(self._normal, "standing", None)
        return None if hook is None else hook(view)

    # -- search ----------------------------------------------------------------------------------

    def decide(self, game: Game, seat: int, *, log_from: int = 0) -> str:
        """The choice for `seat`'s open decision, from its view and samples of the rest."""
        began = time.perf_counter()
        self.stats = Stats()
        view = game.view(seat, log_from=log_from)
        normal = self.choose(view)
        ids = [cid for prompt in awaited_prompts(view) for cid, _ in prompt["choices"]]
        if normal not in ids:
            ids.append(normal)  # the heuristic may answer with a standing choice (a payment)
        if len(ids) > 1:
            picked = self._search(game, seat, ids, normal, began)
        else:
            picked = normal
        self.stats.seconds = time.perf_counter() - began
        return picked

    def _search(self, game: Game, seat: int, ids: list[str], normal: str, began: float) -> str:
        if self.budget.paired:
            return self._paired(game, seat, ids, normal, began)
        return self._ucb(game, seat, ids, normal, began)

    def _paired(self, game: Game, seat: int, ids: list[str], normal: str, began: float) -> str:
        """Every candidate played from the same sampled world with the same policies (common
        random numbers): the differences between choices are measured, not the luck of the
        draw, so few samples tell them apart."""
        budget = self.budget
        deadline = None if budget.seconds is None else began + budget.seconds
        others = [c for c in ids if c != normal]
        while len(others) > budget.width - 1:
            others.pop(self.rng.below(len(others)))
        candidates = [normal, *others]
        rows = self.paired_rows(game, seat, candidates, deadline)
        self.stats.values = {
            c: (len(rows), sum(r[k] for r in rows)) for k, c in enumerate(candidates)
        }
        if not rows:
            return normal
        self.stats.searched = True
        return candidates[clearly_best(rows, budget.margin)]

    def paired_rows(
        self, game: Game, seat: int, candidates: list[str], deadline: float | None = None
    ) -> list[list[float]]:
        """One row a sampled world, while the budget lasts: each candidate's playout score from
        that world (`sample_world`: the seat's view, the rest drawn again), with the same dice
        and policies for all of them. The review of a finished game weighs choices this way."""
        self.bind(game.name)
        budget = self.budget
        rows: list[list[float]] = []
        while self.stats.iterations + len(candidates) <= max(budget.iterations, len(candidates)):
            if deadline is not None and time.perf_counter() >= deadline:
                break
            world = sample_world(game, seat, self.rng)
            seed = self.rng.next64()
            twins = copier(world)  # the world pickled once for all the candidates
            row = []
            for choice in candidates:
                twin = twins()
                twin.rng = Rng(world.rng.state)
                policies = {s: self._policy_class(seed + s) for s in range(game.players)}
                row.append(self._playout(twin, seat, choice, policies))
                self.stats.iterations += 1
            rows.append(row)
        return rows

    def _ucb(self, game: Game, seat: int, ids: list[str], normal: str, began: float) -> str:
        budget = self.budget
        deadline = None if budget.seconds is None else began + budget.seconds
        policies = {s: self._policy_class(self.rng.next64()) for s in range(game.players)}
        visits = dict.fromkeys(ids, 0)
        totals = dict.fromkeys(ids, 0.0)
        for n in range(budget.iterations):
            if deadline is not None and time.perf_counter() >= deadline:
                break
            choice = self._select(ids, visits, totals, n)
            world = sample_world(game, seat, self.rng)
            value = self._playout(world, seat, choice, policies)
            visits[choice] += 1
            totals[choice] += value
            self.stats.iterations += 1
        self.stats.values = {c: (visits[c], totals[c]) for c in ids}
        if any(v == 0 for v in visits.values()):
            return normal  # not every choice was tried: the budget was too short to judge
        self.stats.searched = True
        mean = {c: totals[c] / visits[c] for c in ids}
        best = max(ids, key=lambda c: (mean[c], visits[c]))
        return best if mean[best] > mean[normal] + budget.margin else normal

    def _select(
        self, ids: list[str], visits: dict[str, int], totals: dict[str, float], n: int
    ) -> str:
        """UCB1: each choice once (in the order offered), then value plus doubt."""
        for c in ids:
            if visits[c] == 0:
                return c
        log_n = math.log(n)
        return max(
            ids, key=lambda c: totals[c] / visits[c] + EXPLORE * math.sqrt(log_n / visits[c])
        )

    def _playout(self, world: Game, seat: int, choice: str, policies: dict[int, Any]) -> float:
        """Play `choice`, then the policies for every seat, up to the depth; the score for
        `seat`. A playout the rules or a policy break off scores as a draw would."""
        depth = self.budget.depth
        try:
            world.act(seat, choice)
            steps = 0
            while world.result() is None and (depth == 0 or steps < depth):
                awaited = world.awaited()
                if not awaited:
                    break
                mover = awaited[0]
                world.act(mover, self._policy_choice(world, mover, policies[mover]))
                steps += 1
            self.stats.steps += steps
        except Exception:  # a playout is a guess: one that fails must not take the seat down
            self.stats.errors += 1
            return 0.5
        return evaluate(world, seat)

    @staticmethod
    def _policy_choice(world: Game, mover: int, bot: Any) -> str:
        """The playout policy's move: a lone choice is taken without building a view, and the
        board of the view is built only as far as the policy reads it."""
        only: str | None = None
        for prompt in world.open_prompts():
            if prompt.seat != mover or prompt.standing:
                continue
            if only is not None or len(prompt.choices) != 1:
                return str(bot.choose(world.view_for_bot(mover, bot, lazy=True)))
            only = prompt.choices[0].id
        if only is None:
            return str(bot.choose(world.view_for_bot(mover, bot, lazy=True)))
        return only
