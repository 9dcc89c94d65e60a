"""The Essedari Maximo as a seat may know him: where he is, his Armor, the round counter, the
Action he took last. Co-op shows his next Action (rulebook: "easier to anticipate"); solo shows
nothing of his deck but its size ("much more dynamic and difficult to anticipate")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from harena.core.carthage.essedari.actions import Mode
from harena.core.carthage.essedari.chariot import action_text

if TYPE_CHECKING:
    from harena.core.carthage.rules import Carthage


def essedari_view(game: Carthage, seat: int | None) -> dict[str, Any] | None:
    s = game.state
    ess = s.essedari
    if ess is None:
        return None
    at = game.essedari_mode.track[ess.pos]

    def action(action_id: str | None) -> dict[str, Any] | None:
        if action_id is None:
            return None
        a = game.essedari.action(action_id)
        damage = game.essedari_mode.round_damage(a) if s.round >= 1 else a.damage
        return {"id": a.id, "name": a.name, "text": action_text(a, damage)}

    return {
        "mode": ess.mode.value,
        "seat": game.essedari_mode.chariot,  # his id in "target:<id>" choices
        "at": [at.q, at.r],
        "armor": max(ess.armor, 0),
        "max_armor": ess.max_armor,
        "rounds": game.essedari.rounds,
        "actions": ess.actions,
        "actions_per_round": game.essedari.actions_per_round,
        "last": action(ess.current),
        "next": action(ess.deck[-1]) if ess.mode is Mode.COOP else None,
        "deck_size": len(ess.deck),
        "netted": list(ess.netted),
        "net_next": list(ess.net_next),
        "track": [[h.q, h.r] for h in game.essedari_mode.track],  # counter-clockwise
    }
