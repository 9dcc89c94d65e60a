"""What the Modular Rulesets add to every seat's view (`board["rulesets"]`); all of it public:
which rulesets the table plays, the Retain cubes on the Action row, each gladiator's cubes
left, whom the Naked and Afraid window is asking, and which ruleset a step is for."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from harena.core.carthage.state import Source

if TYPE_CHECKING:
    from harena.core.carthage.rules import Carthage


def rulesets_view(game: Carthage) -> dict[str, Any]:
    s = game.state
    top = s.stack[-1] if s.stack else None
    retain = game.ruleset_table.active("retain")
    return {
        "active": [r for r in game.ruleset_table.ruleset_defs if game.ruleset_table.active(r)],
        # [slot, [seat, ...]] for each row card with cubes on it, cubes in the order placed
        "cubes": [
            [slot, list(game.ruleset_table.rs.cubes[i])]
            for slot, i in enumerate(s.row)
            if i in game.ruleset_table.rs.cubes
        ],
        "cubes_left": [
            game.favor_actions.cubes_left(i) if retain else 0 for i in range(len(s.players))
        ],
        "window": game.ruleset_table.rs.window[0] if game.naked.window_open() else None,
        # the ruleset whose Movement the waiting decision is ("naked-and-afraid", "outbreak" ...)
        "moving": top.ref
        if top is not None and top.source is Source.RULESET and top.wait
        else None,
    }
