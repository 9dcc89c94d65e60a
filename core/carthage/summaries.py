"""The rules summaries of Carthage, one screen per phase (`data/summaries.toml`), and which one
a board view is in: setup (gladiators and their hexes), the token setup of later games, the
Theater phase (and a Theater card resolving late), the Action phase, an attack being aimed,
the Favor phase and the end of the game; in solo and co-op, the Essedari Maximo.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from harena.core.carthage.schema import Where
from harena.core.summaries import BoardView, Summaries, load_summaries

KEYS = ("setup", "tokens", "theater", "action", "combat", "favor", "end", "essedari")

PHASE_KEYS = {
    "gladiators": "setup",
    "ruleset_pick": "setup",  # 2 vs 3: the team of two chooses its rulesets (teams.py)
    "placement": "setup",
    "token_pick": "tokens",
    "token_placement": "tokens",
    "theater": "theater",
    "after_actions": "theater",
    "action": "action",
    "favor": "favor",
    "over": "end",
}
# An effect waiting for whom to hit or which way to knock: the fighting page.
COMBAT_WAITS = ("choose_target", "knockback_direction")


def key_for(board: BoardView) -> str:
    """Which summary fits the moment this board view shows."""
    pending = board.get("pending")
    if board.get("essedari") is not None and board.get("phase") in ("placement", "over"):
        return "essedari"  # solo and co-op: his rules as the gladiators enter, and the end
    if (
        board.get("phase") == "action"
        and pending is not None
        and pending.get("kind") in COMBAT_WAITS
    ):
        return "combat"
    return PHASE_KEYS.get(board.get("phase", ""), KEYS[0])


@cache
def _default() -> Summaries:
    return load_summaries("harena.core.carthage", KEYS, key_for, None, Where)


def summaries(data_dir: str | Path | None = None) -> Summaries:
    """The summaries shipped with the game (read once), or those in `data_dir`."""
    if data_dir is None:
        return _default()
    return load_summaries("harena.core.carthage", KEYS, key_for, data_dir, Where)
