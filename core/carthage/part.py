"""What every piece of the Carthage rules shares: the game it belongs to.

The rules are pieces with one job each (`board`, `resolver`, `flow`, `setup_rules`, the optional
features' `beast_rules`, `equipment_rules`, the Modular Rulesets' `ruleset_table`,
`favor_actions`, `conditions`, `naked` and `rulesets`, and the mode policies `team_mode` and
`essedari_mode`), each an attribute of `rules.Carthage` that holds its game weakly (`bind`). A
piece reads the state and content through its game and calls another piece by name
(`self.game.board.lose_armor(...)`), so every call says where its rule lives; nothing is
overridden, and no order of classes matters.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast
from weakref import proxy

from harena.core.carthage.cards import ArenaToken
from harena.core.carthage.content import Content
from harena.core.carthage.hexgrid import Arena
from harena.core.carthage.state import CarthageState

if TYPE_CHECKING:
    from harena.core.carthage.rules import Carthage


def bind(game: Carthage) -> Carthage:
    """The game as a piece holds it: weakly, so a game and its pieces make no reference cycle
    (the server avoids cyclic garbage: docs/architecture.md, the collector) and a game no
    longer referenced is freed at once."""
    return cast("Carthage", proxy(game))


class Part:
    """One piece of the Carthage rules (see the module docstring).

    `state`, `content`, `arena` and `token_defs` are plain attributes, the rules' most read
    ones: the content never changes, and `Carthage.state`'s setter hands every piece the new
    state whenever it is replaced (setup, restore, a copy), so no read goes through the weak
    reference."""

    state: CarthageState

    def __init__(self, game: Carthage) -> None:
        self.game = bind(game)
        self.content: Content = game.content
        self.arena: Arena = game.arena
        self.token_defs: dict[str, ArenaToken] = game.token_defs
