"""A checker for hidden information: nothing a seat may not know changes what it receives.

Two checks, both on real games played by bots, comparing whole views (`Game.view`: board, log
lines, prompt texts, who is waited for), so they cannot be fooled by how a card is named:

- **Scrambles.** For a viewer, a game's `SecrecyModel` rewrites everything that viewer may not
  know, in a way the rules allow (other hands dealt again from the same cards, every deck order,
  face-down lots, hidden treasuries, bids, bets, a hidden Scheme's card and target, support
  answers not yet revealed, the RNG). The viewer's view must not change. Some scrambles are also
  followed: the same moves are played on, and the view must stay the same for as long as the
  rules keep that thing hidden (a hidden treasury must not decide anything public before the
  treasuries open).
- **Secret decisions.** Before a secret choice (a bid, a bet, a support answer, a hidden
  Scheme's card or target, a Lobby that may stay secret), each alternative is played on a copy;
  every seat that may not know the choice (and a spectator) must see the same as after the
  choice really made, then and after each later move, until the rules reveal it.

A game takes part by providing a `SecrecyModel` (see `tests/core/secrecy_models.py`).
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from harena.core.bots import RandomBot, bot_seed, standing_move
from harena.core.engine import Game, IllegalAction, Rng, game_class, make_config

# `still_secret(game)`: the thing that differs between a game and its copy is still hidden
StillSecret = Callable[[Game], bool]


@dataclass(frozen=True)
class Scramble:
    """Rewrites what `viewer` may not know, in place; returns False when there was nothing to
    rewrite. With `hidden_while`, the copy is also played on while the predicate holds."""

    name: str
    apply: Callable[[Game, int | None, Rng], bool]
    hidden_while: Callable[[Game, int | None], bool] | None = None


@dataclass(frozen=True)
class Secret:
    """A choice about to be made whose alternatives the `others` must not tell apart."""

    alternatives: tuple[str, ...]
    others: tuple[int | None, ...]  # seats (None: a spectator) that may not know the choice
    still_secret: StillSecret


@dataclass
class SecrecyModel:
    scrambles: tuple[Scramble, ...]
    secret: Callable[[Game, int, str], Secret | None]  # (game, seat, choice) -> what is secret
    # everything a viewer may not know sampled again at once (what the search bot plays on)
    determinize: Callable[[Game, int | None, Rng], None] | None = None


@dataclass(frozen=True)
class Leak:
    check: str  # "scramble:<name>" or "decision:<choice> instead of <choice>"
    seed: int
    version: int
    viewer: int | None
    where: str  # the first place the two views differ

    def __str__(self) -> str:
        return (
            f"{self.check}: seat {self.viewer} sees a difference at {self.where} "
            f"(seed {self.seed}, after {self.version} moves)"
        )


@dataclass
class Tally:
    games: int = 0
    moves: int = 0
    views: int = 0  # scrambled views compared with the real one (then and played on)
    alternatives: int = 0  # views after another choice compared with the real one
    decisions: int = 0  # secret decisions whose alternatives were played
    skipped: int = 0  # alternatives not played: too many copies followed at once
    deals: int = 0  # standing choices made (gifts, asks, payments), by bots' hooks or at random
    leaks: list[Leak] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.moves += other.moves
        self.views += other.views
        self.alternatives += other.alternatives
        self.decisions += other.decisions
        self.skipped += other.skipped
        self.deals += other.deals
        self.leaks.extend(other.leaks)


def first_difference(a: Any, b: Any, path: str = "view") -> str | None:
    """Where two plain-data values first differ (None: equal)."""
    if type(a) is not type(b):
        return f"{path}: {a!r} != {b!r}"
    if isinstance(a, dict):
        for key in sorted(set(a) | set(b), key=str):
            if key not in a or key not in b:
                return f"{path}.{key}: only on one side"
            found = first_difference(a[key], b[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(a, list | tuple):
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)} items ({a!r:.200} / {b!r:.200})"
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            found = first_difference(x, y, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if a == b else f"{path}: {a!r:.200} != {b!r:.200}"


def fork(game: Game) -> Game:
    """An independent copy that shares only the immutable content (cards, board)."""
    twin = copy.copy(game)
    twin.state = pickle.loads(
        pickle.dumps(game.state, pickle.HIGHEST_PROTOCOL)
    )  # a deep copy, faster
    twin.rng = Rng(game.rng.state)
    twin.events = list(game.events)
    twin.actions = list(game.actions)
    twin._decisions = list(game._decisions)
    twin.state_changed()
    return twin


@dataclass
class _Followed:
    """A copy that differs from the real game in something hidden, played on in step."""

    twin: Game
    viewers: tuple[int | None, ...]
    still_secret: StillSecret
    check: str
    left: int


class SecrecyChecker:
    """Runs both checks on a game as it is played (call `before` and `after` around each move).

    `scramble_rate`: the share of moves after which every viewer's view is scrambled;
    `decision_rate`: the share of secret decisions whose alternatives are tried;
    `alternatives`: how many alternatives of each are tried (None: all);
    `follow`: how many moves a copy is played on at most."""

    def __init__(
        self,
        model: SecrecyModel,
        seed: int,
        *,
        scramble_rate: float = 1.0,
        decision_rate: float = 1.0,
        alternatives: int | None = None,
        follow: int = 40,
        max_followed: int = 12,
    ) -> None:
        self.model = model
        self.seed = seed
        self.rng = Rng.from_seed(seed ^ 0x5EC12E7)
        self.scramble_rate = scramble_rate
        self.decision_rate = decision_rate
        self.alternatives = alternatives
        self.follow = follow
        self.max_followed = max_followed
        self.tally = Tally()
        self._followed: list[_Followed] = []

    # -- the two checks -------------------------------------------------------------------------

    def scramble(self, game: Game) -> None:
        """Every viewer: all its unknowns rewritten at once, then each followed scramble alone."""
        for viewer in viewers_of(game):
            real = game.view(viewer)
            twin = fork(game)
            if self.model.determinize is not None:
                self.model.determinize(twin, viewer, self.rng)
            else:
                for s in self.model.scrambles:
                    s.apply(twin, viewer, self.rng)
            twin.rng = Rng(self.rng.next64())
            twin.state_changed()
            self._compare(real, twin.view(viewer), "scramble:all", game, viewer, views=True)
            for s in self.model.scrambles:
                if s.hidden_while is None or len(self._followed) >= self.max_followed:
                    continue
                twin = fork(game)
                if s.apply(twin, viewer, self.rng):
                    twin.state_changed()
                    predicate = s.hidden_while
                    self._compare(
                        real, twin.view(viewer), f"scramble:{s.name}", game, viewer, views=True
                    )
                    self._followed.append(
                        _Followed(
                            twin,
                            (viewer,),
                            lambda g, v=viewer, p=predicate: p(g, v),
                            f"scramble:{s.name}",
                            self.follow,
                        )
                    )

    def before(self, game: Game, seat: int, choice: str) -> None:
        """A secret decision is about to be made: play its alternatives on copies."""
        secret = self.model.secret(game, seat, choice)
        if secret is None or not self._chance(self.decision_rate):
            return
        others = [a for a in secret.alternatives if a != choice]
        if self.alternatives is not None and len(others) > self.alternatives:
            picked: list[str] = []
            while len(picked) < self.alternatives:
                alt = self.rng.choice(others)
                if alt not in picked:
                    picked.append(alt)
            others = picked
        self.tally.decisions += 1
        for k, alt in enumerate(others):
            if len(self._followed) >= self.max_followed:
                self.tally.skipped += len(others) - k
                break
            twin = fork(game)
            twin.act(seat, alt)
            self._followed.append(
                _Followed(
                    twin,
                    secret.others,
                    secret.still_secret,
                    f"decision:{alt} instead of {choice}",
                    self.follow + 1,
                )
            )

    def after(self, game: Game, seat: int, choice: str, *, fresh: int = 0) -> None:
        """The real move was made: play it on every followed copy (but the `fresh` newest,
        which made their own choice instead) and compare while the difference is hidden."""
        kept = []
        for k, f in enumerate(self._followed):
            is_fresh = k >= len(self._followed) - fresh
            if not is_fresh:
                try:
                    f.twin.act(seat, choice)
                except IllegalAction:
                    continue  # the copies part ways: the difference shows in what one may do
            f.left -= 1
            if f.left < 0 or not (f.still_secret(game) and f.still_secret(f.twin)):
                continue
            leaked = False
            for viewer in f.viewers:
                leaked |= self._compare(game.view(viewer), f.twin.view(viewer), f.check, game,
                                        viewer, views=f.check.startswith("scramble:"))  # fmt: skip
            if not leaked:
                kept.append(f)
        self._followed = kept

    # -- running a whole game -------------------------------------------------------------------

    def play(self, game: Game, bots: list[Any], *, gift_rate: float = 0.0) -> Game:
        """Let the bots play to the end, checking as they go. `gift_rate`: how often a seat
        takes one of its standing choices (random bots never do), so gifts are checked too."""
        self.tally.games += 1
        while game.result() is None:
            if self._chance(self.scramble_rate):
                self.scramble(game)
            seat, choice = self._next_move(game, bots, gift_rate)
            before = len(self._followed)
            self.before(game, seat, choice)
            fresh = len(self._followed) - before
            standing = any(
                p.standing and any(c.id == choice for c in p.choices)
                for p in game.prompts_for(seat)
            )
            game.act(seat, choice)
            self.tally.moves += 1
            self.tally.deals += standing
            self.after(game, seat, choice, fresh=fresh)
        self._followed = []
        return game

    def _chance(self, rate: float) -> bool:
        return rate >= 1.0 or self.rng.below(1_000_000) < rate * 1_000_000

    def _next_move(self, game: Game, bots: list[Any], gift_rate: float) -> tuple[int, str]:
        deal = standing_move(game, dict(enumerate(bots)))  # bots that deal, as drivers let them
        if deal is not None:
            return deal
        if gift_rate and self._chance(gift_rate):
            standing = [p for p in game.open_prompts() if p.standing and p.choices]
            if standing:
                prompt = self.rng.choice(standing)
                return prompt.seat, self.rng.choice(prompt.choices).id
        # any seat the game waits for may move first: simultaneous decisions come in any order
        seat = self.rng.choice(game.awaited())
        bot = bots[seat]
        return seat, bot.choose(game.view_for_bot(seat, bot))

    def _compare(
        self, real: dict[str, Any], other: dict[str, Any], check: str, game: Game,
        viewer: int | None, *, views: bool = False,
    ) -> bool:  # fmt: skip
        if views:
            self.tally.views += 1
        else:
            self.tally.alternatives += 1
        if real == other:
            return False
        where = first_difference(real, other) or "view (equal only as ordered data)"
        self.tally.leaks.append(Leak(check, self.seed, game.version, viewer, where))
        return True


def viewers_of(game: Game) -> Iterator[int | None]:
    yield from range(game.players)
    yield None


def check_games(
    name: str,
    model: SecrecyModel,
    *,
    games: int,
    seed: int,
    players: tuple[int, ...],
    options: tuple[dict[str, str], ...] = ({},),
    bots: tuple[str, ...] = ("random",),
    gift_rate: float = 0.0,
    **checker: Any,
) -> Tally:
    """Bot games of `name`, all checked: game k has players[k % ...] seats, options[k % ...],
    and its seats take the bot kinds in turn (("random", "heuristic"): seat 1 is heuristic)."""
    cls = game_class(name)
    tally = Tally()
    for index in range(games):
        this_seed = seed * 10_007 + index
        n = players[index % len(players)]
        opts = {**cls.simulation_options, **options[index % len(options)]}
        game = cls(make_config(name, n, this_seed, opts))
        kinds = [bots[(index + s) % len(bots)] for s in range(n)]
        players_bots = [
            cls.bots.get(k, RandomBot)(bot_seed(this_seed, s)) for s, k in enumerate(kinds)
        ]
        run = SecrecyChecker(model, this_seed, **checker)
        run.play(game, players_bots, gift_rate=gift_rate)
        tally.add(run.tally)
    return tally
