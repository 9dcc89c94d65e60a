"""How good a position is for a seat, in [0, 1], where a playout stops before the game ends.

A finished game scores 1 for a win (shared wins split it) and 0 for a loss. A running game
scores the seat's share of what wins the game: in Carthage the Armor of gladiators still
standing (and a little Favor, which buys cards); in Spartacus Influence, with a little for
denarii and assets that become Influence later; against the Essedari Maximo, how much of his
Armor is gone next to how much of the players' is left.
"""

from __future__ import annotations

from collections.abc import Callable

from harena.core.engine import Game

Evaluator = Callable[[Game, int], float]


def outcome(game: Game, seat: int) -> float | None:
    result = game.result()
    if result is None:
        return None
    return 1.0 / len(result.winners) if seat in result.winners else 0.0


def carthage(game: Game, seat: int) -> float:
    s = game.state
    if s.essedari is not None:
        ess = s.essedari
        hurt = 1.0 - ess.armor / max(1, ess.max_armor)
        alive = [p.armor for p in s.players if p.alive]
        health = sum(alive) / (20.0 * len(s.players))
        return float(0.5 * hurt + 0.5 * health)

    def strength(k: int) -> float:
        p = s.players[k]
        return (p.armor + 0.25 * p.favor + 1.0) if p.alive else 0.0

    teams = getattr(game, "teams", None)  # Carthage's team mode, if any
    if teams is not None:
        mine = next(m for m in teams.members if seat in m)
        total = sum(strength(k) for k in range(game.players))
        return sum(strength(k) for k in mine) / total if total else 0.0
    total = sum(strength(k) ** 2 for k in range(game.players))
    return float(strength(seat) ** 2 / total) if total else 0.0


def spartacus(game: Game, seat: int) -> float:
    s = game.state

    def strength(k: int) -> float:
        p = s.players[k]
        return float(p.influence + 0.05 * p.denarii + 0.25 * len(p.assets) + 1.0)

    total = sum(strength(k) ** 2 for k in range(game.players))
    return float(strength(seat) ** 2 / total) if total else 0.0


EVALUATORS: dict[str, Evaluator] = {"carthage": carthage, "spartacus": spartacus}


def evaluate(game: Game, seat: int) -> float:
    done = outcome(game, seat)
    return done if done is not None else EVALUATORS[game.name](game, seat)
