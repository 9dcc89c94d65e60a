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
    table = game.ruleset_table
    retain = table.active("retain")
    cubes = s.rulesets.cubes
    return {
        "active": [r for r in table.ruleset_defs if table.active(r)],
        # [slot, [seat, ...]] for each row card with cubes on it, cubes in the order placed
        "cubes": [[slot, list(cubes[i])] for slot, i in enumerate(s.row) if i in cubes],
        "cubes_left": [
            game.favor_actions.cubes_left(i) if retain else 0 for i in range(len(s.players))
        ],
        "window": s.rulesets.window[0] if game.naked.window_open() else None,
        # the ruleset whose Movement the waiting decision is ("naked-and-afraid", "outbreak" ...)
        "moving": top.ref
        if top is not None and top.source is Source.RULESET and top.wait
        else None,
    }
