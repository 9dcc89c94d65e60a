"""Building Carthage positions for rule tests: a real game, with the arena arranged by hand."""

from __future__ import annotations

from harena.core.carthage.hexgrid import Hex
from harena.core.carthage.rules import Carthage
from harena.core.carthage.state import BoardToken, Phase
from harena.core.engine import make_config


def new_carthage(players: int = 2, seed: int = 1, **options: str) -> Carthage:
    """A new game; seat k plays the k-th colour unless `gladiators="choose"` is asked for."""
    return Carthage(make_config("carthage", players, seed, {"gladiators": "by_seat", **options}))


def arena(
    positions: list[Hex],
    tokens: dict[Hex, str] | None = None,
    seed: int = 1,
    **options: str,
) -> Carthage:
    """A game in its Action phase with gladiators at `positions` and exactly `tokens` on the
    board; hands are empty until `give` puts cards in them."""
    game = new_carthage(len(positions), seed, **options)
    s = game.state
    for p, at in zip(s.players, positions, strict=False):
        p.at = at
    s.tokens = {h: BoardToken(t) for h, t in (tokens or {}).items()}
    s.placed = len(positions)
    s.phase = Phase.ACTION
    s.round = 1
    game.state_changed()
    return game


def give(game: Carthage, seat: int, card_id: str) -> int:
    """A new copy of `card_id` in `seat`'s hand; returns its instance id."""
    s = game.state
    s.cards.append(card_id)
    instance = len(s.cards) - 1
    s.players[seat].hand.append(instance)
    game.state_changed()
    return instance


def play(game: Carthage, seat: int, card_id: str) -> int:
    """`seat` plays a new `card_id` now; a spare card in hand keeps the Action phase open
    afterwards, so the position can be inspected."""
    instance = give(game, seat, card_id)
    give(game, seat, "guard")
    game.state.turn = seat
    game.state_changed()
    game.act(seat, f"play:{instance}")
    return instance


def choices(game: Carthage, seat: int | None = None) -> list[str]:
    prompts = game.prompts()
    return [c.id for p in prompts if seat is None or p.seat == seat for c in p.choices]


def kind(game: Carthage) -> str:
    return game.prompts()[0].kind
