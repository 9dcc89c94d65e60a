"""What the Modular Rulesets add to every seat's view (`board["rulesets"]`); all of it public:
which rulesets the table plays, the Retain cubes on the Action row, each gladiator's cubes
left, and whom the Naked and Afraid window is asking."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from harena.core.carthage.rules import Carthage


def rulesets_view(game: Carthage) -> dict[str, Any]:
    s = game.state
    retain = game.active("retain")
    return {
        "active": [r for r in game.ruleset_defs if game.active(r)],
        # [slot, [seat, ...]] for each row card with cubes on it, cubes in the order placed
        "cubes": [[slot, list(game.rs.cubes[i])] for slot, i in enumerate(s.row) if i in game.rs.cubes],
        "cubes_left": [game.cubes_left(i) if retain else 0 for i in range(len(s.players))],
        "window": game.rs.window[0] if game.window_open() else None,
    }
