"""Positions for the Modular Ruleset tests: a real game with the table's rulesets turned on."""

from __future__ import annotations

from harena.core.carthage.hexgrid import Hex
from harena.core.carthage.rules import Carthage
from tests.core.carthage.table_helpers import arena


def with_rulesets(
    rulesets: str, positions: list[Hex], tokens: dict[Hex, str] | None = None
) -> Carthage:
    """Like table_helpers.arena, with the option rulesets=`rulesets`."""
    return arena(positions, tokens, rulesets=rulesets)


def favor_phase(rulesets: str, favor: list[int], positions: list[Hex] | None = None) -> Carthage:
    """The Favor phase with these Favor totals; seat 0 is the Last Player and buys first."""
    spots = positions or [Hex(0, 0), Hex(3, 0), Hex(-3, 0)][: len(favor)]
    game = with_rulesets(rulesets, spots)
    s = game.state
    s.starting = 1
    for p, f in zip(s.players, favor, strict=False):
        p.favor = f
    game.favor_phase.begin_favor_phase()
    game.flow.advance()
    game.state_changed()
    return game


def put_in_row(game: Carthage, slot: int, card_id: str) -> int:
    """A new copy of `card_id` in the Action row's `slot`; returns its instance."""
    s = game.state
    s.cards.append(card_id)
    s.row[slot] = len(s.cards) - 1
    game.state_changed()
    return s.row[slot]


def to_discard(game: Carthage, seat: int, card_id: str) -> int:
    s = game.state
    s.cards.append(card_id)
    s.players[seat].discard.append(len(s.cards) - 1)
    game.state_changed()
    return len(s.cards) - 1
