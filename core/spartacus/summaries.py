"""The rules summaries of Spartacus, one screen per phase (`data/summaries.toml`), and which
one a board view is in: choosing houses, Maintenance, an Intrigue turn, a Scheme being
launched, the Open Market, the auctions, a Reaction window (a lot won, a wound), the Arena, a
fight, and how the game is won.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from harena.core.spartacus.schema import Where
from harena.core.summaries import BoardView, Summaries, load_summaries

KEYS = ("houses", "maintenance", "intrigue", "schemes", "market", "auction", "reactions", "arena",
        "fight", "end")  # fmt: skip

PHASE_KEYS = {
    "houses": "houses",
    "maintenance": "maintenance",
    "intrigue": "intrigue",
    "market": "market",
    "arena": "arena",
    "final": "end",
    "over": "end",
}


def key_for(board: BoardView) -> str:
    """Which summary fits the moment this board view shows: the phase's, or its part."""
    phase = board.get("phase", "")
    intrigue, market, arena = board.get("intrigue"), board.get("market"), board.get("arena")
    if board.get("window") is not None:  # a lot won or a wound, waiting for Reactions
        return "reactions"
    if phase == "intrigue" and intrigue is not None and intrigue.get("scheme") is not None:
        return "schemes"
    if phase == "market" and market is not None and market.get("auction") is not None:
        return "auction"
    if phase in ("arena", "final") and arena is not None and arena.get("step") == "fight":
        return "fight"
    return PHASE_KEYS.get(phase, KEYS[0])


@cache
def _default() -> Summaries:
    return load_summaries("harena.core.spartacus", KEYS, key_for, None, Where)


def summaries(data_dir: str | Path | None = None) -> Summaries:
    """The summaries shipped with the game (read once), or those in `data_dir`."""
    if data_dir is None:
        return _default()
    return load_summaries("harena.core.spartacus", KEYS, key_for, data_dir, Where)
