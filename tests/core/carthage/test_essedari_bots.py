"""The heuristic bot against the Essedari Maximo: it attacks him, spares its teammates, and
keeps off the path of his telegraphed Action (co-op). Real games with the default deck."""

from __future__ import annotations

from harena.core.carthage.bots import HeuristicBot
from harena.core.carthage.essedari.track import track
from harena.core.carthage.hexgrid import Hex
from harena.core.carthage.rules import Carthage
from harena.core.carthage.state import Phase
from tests.core.carthage.table_helpers import new_carthage, play


def coop(positions: list[Hex], at: int, top: str = "hunt") -> Carthage:
    game = new_carthage(len(positions), 3, essedari="coop")
    s = game.state
    assert s.essedari is not None
    for p, h in zip(s.players, positions, strict=False):
        p.at = h
    s.tokens, s.placed, s.phase, s.round = {}, len(positions), Phase.ACTION, 1
    s.essedari.pos, s.essedari.lap_open = at, True
    s.essedari.deck.append(top)  # his next Action, shown to everyone
    game.state_changed()
    return game


def test_it_hits_him_rather_than_a_teammate() -> None:
    game = coop([Hex(-2, 0), Hex(-1, -1)], at=0)  # Blue is next to him and to Red
    play(game, 0, "jab")
    assert HeuristicBot(1).choose(game.view(0)) == f"target:{game.essedari_mode.chariot}"


def test_it_holds_back_when_only_a_teammate_is_in_reach() -> None:
    game = coop([Hex(0, 0), Hex(1, 0)], at=0)
    play(game, 0, "jab")
    assert HeuristicBot(1).choose(game.view(0)) == "target:none"


def test_it_keeps_off_his_telegraphed_path() -> None:
    """Stampede (Move 5) from track position 0 runs over positions 1-5, killing whoever stands
    there. Twin Cut (Move 1, Damage 1) from (-2, 2) can reach him from (-2, 1) or from (-3, 2),
    track position 1: the bot strikes from off his path, whatever its seed."""
    for seed in range(8):
        game = coop([Hex(-2, 2), Hex(4, -4)], at=0, top="stampede")
        play(game, 0, "twin-cut")
        game.act(0, HeuristicBot(seed).choose(game.view(0)))
        assert game.state.players[0].at == Hex(-2, 1)
        assert track(game.arena)[1] == Hex(-3, 2)
