"""What every piece of the Carthage rules shares: the game it belongs to.

The rules are pieces with one job each (`board`, `resolver`, `flow`, `setup_rules`, the optional
features' `beast_rules`, `equipment_rules`, the Modular Rulesets' `ruleset_table`,
`favor_actions`, `conditions`, `naked` and `rulesets`, and the mode policies `team_mode` and
`essedari_mode`), each an attribute of `rules.Carthage`. A piece reads the state and content
through its game and calls another piece by name (`self.game.board.lose_armor(...)`), so every
call says where its rule lives; nothing is overridden, and no order of classes matters.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harena.core.carthage.cards import ArenaToken
from harena.core.carthage.content import Content
from harena.core.carthage.hexgrid import Arena
from harena.core.carthage.state import CarthageState

if TYPE_CHECKING:
    from harena.core.carthage.rules import Carthage


class Part:
    """One piece of the Carthage rules (see the module docstring)."""

    def __init__(self, game: Carthage) -> None:
        self.game = game

    @property
    def state(self) -> CarthageState:
        return self.game.state

    @property
    def content(self) -> Content:
        return self.game.content

    @property
    def arena(self) -> Arena:
        return self.game.arena

    @property
    def token_defs(self) -> dict[str, ArenaToken]:
        return self.game.token_defs
