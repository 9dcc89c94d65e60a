"""The turn: Maintenance, Intrigue, Market, Arena (rules: The Game Turn), and how it ends.

rules: Game Objective - the first Dominus to reach 12 Influence and end a phase alone there
wins; several at 12 in the same phase settle it in the Arena (a deciding bout, `arena`).
ruling (docs/rulings.md): a table may set a round limit (off by default; tables of bots alone
and `harena simulate` play with one): a game still running after it ends with the highest
Influence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from harena.core.spartacus import arena, intrigue, maintenance, market
from harena.core.spartacus.state import Phase

if TYPE_CHECKING:
    from harena.core.spartacus.rules import Spartacus


def start_round(game: Spartacus) -> None:
    game.state.round += 1
    game.state.gifts.clear()
    game.state.asks.clear()
    maintenance.start(game)


def end_phase(game: Spartacus) -> None:
    s = game.state
    if s.phase is Phase.OVER:
        return
    if s.phase is Phase.FINAL:
        return  # the deciding bouts end the game themselves
    leaders = [seat for seat, p in enumerate(s.players) if p.influence >= game.content.target]
    if len(leaders) == 1:
        finish(game, leaders, f"{game.name_of(leaders[0])} ends the {s.phase.value} phase alone "
                              f"at {s.players[leaders[0]].influence} Influence")  # fmt: skip
        return
    if len(leaders) > 1:
        arena.start_final(game, leaders)
        return
    if s.phase is Phase.MAINTENANCE:
        intrigue.start(game)
    elif s.phase is Phase.INTRIGUE:
        market.start(game)
    elif s.phase is Phase.MARKET:
        arena.start(game)
    elif s.phase is Phase.ARENA:
        limit = game.round_limit()
        if limit is not None and s.round >= limit:
            best = max(p.influence for p in s.players)
            top = [seat for seat, p in enumerate(s.players) if p.influence == best]
            finish(
                game,
                top,
                f"the round limit ({limit}) is reached; most Influence ({best})",
            )
            return
        start_round(game)


def finish(game: Spartacus, winners: list[int], reason: str) -> None:
    s = game.state
    s.phase = Phase.OVER
    s.winners = sorted(winners)
    s.reason = reason
    s.intrigue = s.market = s.arena = None
    for p in s.players:
        p.hidden = False
    game.emit(f"Game over: {reason}")
