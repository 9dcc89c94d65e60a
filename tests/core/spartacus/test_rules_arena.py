"""rules: Arena Phase - Host honour, invitations, tribute, bets, and what follows a fight."""

from __future__ import annotations

from harena.core.spartacus import arena
from harena.core.spartacus.rules import Spartacus
from harena.core.spartacus.state import ArenaStep, Phase
from tests.core.spartacus.helpers import choices, clear_table, coins, give, kinds, started


def _arena(host: int = 0, seed: int = 1) -> Spartacus:
    game = started(4, seed=seed)
    s = game.state
    s.intrigue = None
    s.host = host
    for seat, p in enumerate(s.players):
        clear_table(game, seat)
        p.denarii = 10
        p.influence = 5
    return game


def _begin(game: Spartacus) -> None:
    arena.start(game)
    game.state_changed()


def test_the_host_gains_influence_and_must_invite() -> None:
    """rules: Honor to the Host; Hosting the Event."""
    game = _arena(host=1)
    for seat in range(4):
        give(game, seat, "veteran")
    _begin(game)
    assert game.state.players[1].influence == 6
    assert kinds(game) == {1: "invite"}
    assert sorted(choices(game, 1)) == [f"invite:{s}" for s in range(4)]  # yourself too


def test_refusing_costs_one_influence_and_the_host_invites_another() -> None:
    """rules: Refusing an Invitation."""
    game = _arena()
    for seat in range(4):
        give(game, seat, "veteran")
    _begin(game)
    game.act(0, "invite:2")
    assert kinds(game) == {2: "invitation"}
    game.act(2, "refuse")
    assert game.state.players[2].influence == 4
    assert "invite:2" not in choices(game, 0)


def test_if_nobody_accepts_the_phase_ends_without_games() -> None:
    game = _arena()
    give(game, 1, "veteran")
    give(game, 2, "veteran")
    _begin(game)
    game.act(0, "invite:1")
    game.act(1, "refuse")
    game.act(0, "invite:2")
    game.act(2, "refuse")
    assert (
        game.state.arena is None and game.state.phase is Phase.MAINTENANCE
    ) or game.state.phase is Phase.INTRIGUE


def test_exhausted_or_wounded_combatants_cannot_be_sent() -> None:
    """rules: Exhausting a Card - exhausted cards cannot be used."""
    game = _arena()
    give(game, 1, "veteran", exhausted=True)
    give(game, 2, "veteran", exhausted=True, wounded=True)
    give(game, 3, "house-slave")
    _begin(game)
    assert choices(game, 0) == ["invite:3"]


def test_an_accepting_dominus_chooses_a_combatant_and_one_equipment_of_each_type() -> None:
    """rules: Hosting the Event - a Gladiator or Slave, up to one Equipment of each type."""
    game = _arena()
    crixus = give(game, 1, "crixus")
    slave = give(game, 1, "house-slave")
    gladius = give(game, 1, "gladius")
    give(game, 1, "trident")
    net = give(game, 1, "net")
    give(game, 2, "veteran")
    _begin(game)
    game.act(0, "invite:1")
    game.act(1, "accept")
    assert sorted(choices(game, 1)) == sorted([f"fighter:{crixus}", f"fighter:{slave}"])
    game.act(1, f"fighter:{crixus}")
    assert kinds(game) == {1: "choose_equipment"}
    assert len(choices(game, 1)) == 3  # gladius, trident, or no weapon
    game.act(1, f"equip:{gladius}")
    game.act(1, f"equip:{net}")  # no armour to choose: straight to the special slot
    a = game.state.arena
    assert a.fighters[0].equipment == [gladius, net]
    assert a.fighters[0].at == game.content.board.starts[0]  # hex I


def _two_fighters(
    game: Spartacus, first: str = "veteran", second: str = "secutor", **marks: object
) -> tuple[int, int]:
    a = give(game, 1, first, **marks)
    b = give(game, 2, second)
    _begin(game)
    game.act(0, "invite:1")
    game.act(1, "accept")
    game.act(1, f"fighter:{a}")
    game.act(0, "invite:2")
    game.act(2, "accept")
    game.act(2, f"fighter:{b}")
    return a, b


def test_the_bank_pays_tribute_for_favor_and_champion_markers() -> None:
    """rules: Tribute - 2 per Favor marker, 6 per Champion marker."""
    game = _arena()
    _two_fighters(game, favor=2, champion=True)
    assert game.state.players[1].denarii == 10 + 2 * 2 + 6
    assert game.state.players[2].denarii == 10


def test_bets_are_simultaneous_hidden_and_never_against_your_own_combatant() -> None:
    """rules: Making Bets - 1 to 3 denarii, simultaneous; not against your own combatant."""
    game = _arena()
    _two_fighters(game)
    assert kinds(game) == {s: "bet" for s in range(4)}
    mine = choices(game, 1)
    assert "bet:win:2:1" not in mine and "bet:win:1:1" in mine  # no bet against your own
    assert "bet:win:1:4" not in mine and "bet:decap:3" in mine
    game.act(0, "bet:win:2:3")
    assert game.view(3)["board"]["arena"]["bets"][0] is None
    assert game.view(0)["board"]["arena"]["bets"][0] == {"kind": "win", "on": 2, "amount": 3}
    before = coins(game)
    game.act(1, "bet:wound:2")
    game.act(2, "bet:none")
    game.act(3, "bet:decap:1")
    assert game.view(3)["board"]["arena"]["bets"][0] == {"kind": "win", "on": 2, "amount": 3}
    assert game.state.players[0].denarii == 7 and coins(game) == before
    assert game.state.arena.step is ArenaStep.FIGHT


def _finish(game: Spartacus, loser: int, outcome: str) -> None:
    """End the fight now as if `loser` (fighter index) had lost that way."""
    a = game.state.arena
    a.fight = None
    a.loser = loser
    a.outcome = outcome
    arena._after_fight(game)
    game.state_changed()


def test_the_winner_gains_influence_and_favor_and_bets_are_paid() -> None:
    """rules: Victory and Defeat; Resolving Bets - 1:1 on victory, 2:1 on wound."""
    game = _arena()
    veteran, _ = _two_fighters(game)
    for seat, bet in enumerate(("bet:win:1:3", "bet:wound:2", "bet:none", "bet:decap:1")):
        game.act(seat, bet)
    _finish(game, loser=1, outcome="wound")
    s = game.state
    assert s.players[1].influence == 6
    assert next(a for a in s.players[1].assets if a.card == veteran).favor == 1
    assert s.players[0].denarii == 10 + 3  # stake back and 3 more
    assert s.players[1].denarii == 10 + 4  # 2 staked, back with 4 more
    assert s.players[3].denarii == 9  # lost
    assert s.players[2].assets[0].wounded and s.players[2].assets[0].exhausted
    assert kinds(game) == {0: "thumbs"}


def test_a_third_favor_crowns_a_champion_worth_one_influence() -> None:
    """rules: Crowning a Champion."""
    game = _arena()
    veteran, _ = _two_fighters(game, favor=2)
    for seat in range(4):
        game.act(seat, "bet:none")
    _finish(game, loser=1, outcome="yield")
    asset = next(a for a in game.state.players[1].assets if a.card == veteran)
    assert asset.champion and asset.favor == 0
    assert game.state.players[1].influence == 5 + 1 + 1


def test_thumbs_down_executes_and_costs_the_host_one_influence_per_favor() -> None:
    """rules: The Power of Life & Death."""
    game = _arena()
    _, secutor = _two_fighters(game)
    next(a for a in game.state.players[2].assets if a.card == secutor).favor = 2
    for seat in range(4):
        game.act(seat, "bet:none")
    _finish(game, loser=1, outcome="yield")
    game.act(0, "thumbs:down")
    assert secutor in game.state.market_discard
    assert game.state.players[0].influence == 6 - 2


def test_a_champion_cannot_be_executed() -> None:
    game = _arena()
    _two_fighters(game, champion=True)
    for seat in range(4):
        game.act(seat, "bet:none")
    _finish(game, loser=0, outcome="yield")
    assert game.state.arena is None  # no thumbs asked
    assert game.state.players[1].assets[0].champion


def test_a_decapitated_champion_costs_its_house_one_influence() -> None:
    game = _arena()
    veteran, _ = _two_fighters(game, champion=True)
    for seat in range(4):
        game.act(seat, "bet:none")
    _finish(game, loser=0, outcome="decapitation")
    assert veteran in game.state.market_discard
    assert game.state.players[1].influence == 4


def test_a_reaction_answers_an_invitation_refused_without_losing_influence() -> None:
    """rules: Intrigue Phase - Reactions "can be played in response to other events, not just
    on your turn": Feigned Illness answers an invitation."""
    game = started(4, seed=1)
    s = game.state
    s.intrigue = None
    s.host = 0
    for seat in range(4):
        clear_table(game, seat)
    give(game, 1, "veteran")
    give(game, 2, "veteran")
    excuse = give(game, 1, "feigned-illness", hand=True)
    scheme_reaction = give(game, 1, "counter-plot", hand=True)
    arena.start(game)
    game.state_changed()
    game.act(0, "invite:1")
    assert f"react:{excuse}" in choices(game, 1)
    assert f"react:{scheme_reaction}" not in choices(game, 1)  # it answers Schemes only
    before = s.players[1].influence
    game.act(1, f"react:{excuse}")
    assert s.players[1].influence == before and excuse in s.intrigue_discard
    assert (
        "Feigned Illness" in game.log_for(None)[-2] or "Feigned Illness" in game.log_for(None)[-1]
    )
    assert kinds(game) == {0: "invite"}
