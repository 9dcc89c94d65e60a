"""Building Essedari Maximo positions for rule tests: a real game in the mode, with his deck
and everyone's hex arranged by hand, and a small deck of test Actions (an owner's own
essedari.toml) so the tests do not move when the default deck is retuned."""

from __future__ import annotations

from pathlib import Path

from harena.core.carthage.essedari.actions import EssedariContent, load_essedari
from harena.core.carthage.hexgrid import Hex
from harena.core.carthage.rules import Carthage
from harena.core.carthage.state import Phase
from tests.core.carthage.table_helpers import new_carthage

TEST_ACTIONS = """
[chariot]
rounds = 8
actions_per_round = 5
trample_damage = 3

[solo]
armor = 15
min_tokens = 3
min_players = 1
max_players = 1
damage_bonus = [0, 1, 2, 3, 4, 5, 6, 7]

[coop]
armor = 15
min_tokens = 4
min_players = 2
max_players = 4
damage_bonus = [0, 1, 2, 3, 4, 5, 6, 7]

[[action]]
id = "move-2"
name = "Move Two"
modes = ["solo", "coop"]
move = 2
damage = 2

[[action]]
id = "javelin"
name = "Javelin"
modes = ["solo", "coop"]
move = 1
damage = 1
attack = "javelin"

[[action]]
id = "arrow"
name = "Arrow"
modes = ["solo", "coop"]
move = 1
damage = 1
attack = "arrow"

[[action]]
id = "chase"
name = "Chase"
modes = ["solo", "coop"]
move = 6
chase = true
damage = 1

[[action]]
id = "net"
name = "Net"
modes = ["solo"]
move = 1
damage = 0
attack = "net"

[[action]]
id = "solo-javelin"
name = "Javelin"
modes = ["solo"]
move = 1
damage = 0
attack = "javelin"
favor_loss = 2

[[action]]
id = "trample"
name = "Trample"
modes = ["solo"]
move = 3
damage = 0
trample = true

[[action]]
id = "crush"
name = "Crush"
modes = ["solo"]
move = 2
damage = 0
crush = true

[[action]]
id = "cross-90"
name = "Cross"
modes = ["solo"]
cross = 90
damage = 0

[[action]]
id = "cross-45"
name = "Cross"
modes = ["solo"]
cross = 45
damage = 0
"""


def test_content(tmp: Path) -> EssedariContent:
    (tmp / "essedari.toml").write_text(TEST_ACTIONS, encoding="utf-8")
    return load_essedari(tmp)


def chariot_game(
    tmp: Path,
    mode: str,
    positions: list[Hex],
    at: int = 0,
    deck: list[str] | None = None,
    seed: int = 1,
) -> Carthage:
    """A game of `mode` in round 1's Action phase: gladiators at `positions`, no tokens, the
    Essedari Maximo at track position `at` with `deck` to draw from, first card first."""
    game = new_carthage(len(positions), seed, essedari=mode)
    game.essedari = test_content(tmp)
    s = game.state
    assert s.essedari is not None
    for p, h in zip(s.players, positions, strict=False):
        p.at = h
    s.tokens = {}
    s.placed = len(positions)
    s.phase = Phase.ACTION
    s.round = 1
    s.essedari.pos = at
    # in draw order, with a spare at the bottom so a draw never reshuffles
    s.essedari.deck = ["move-2"] + list(reversed(deck or ["move-2"] * 5))
    game.state_changed()
    return game
