"""rules: Game Objective - 12 Influence at the end of a phase, alone; ties settled in the Arena;
ruling: the round limit."""

from __future__ import annotations

from harena.core.spartacus import flow
from harena.core.spartacus.rules import Spartacus
from harena.core.spartacus.state import Phase
from tests.core.spartacus.helpers import choices, clear_table, give, kinds, play_until, started


def _end_intrigue(game: Spartacus) -> None:
    s = game.state
    while s.phase is Phase.INTRIGUE:
        seat = s.intrigue.turn
        game.act(seat, "end" if "end" in choices(game, seat) else choices(game, seat)[0])


def test_the_first_dominus_to_end_a_phase_alone_at_12_wins() -> None:
    game = started(4, seed=1)
    game.state.players[2].influence = 12
    game.state_changed()
    _end_intrigue(game)
    result = game.result()
    assert result is not None and result.winners == (2,)
    assert "ends the intrigue phase alone at 12" in result.reason
    assert game.prompts() == []


def test_reaching_12_is_not_enough_if_you_drop_below_before_the_phase_ends() -> None:
    game = started(4, seed=1)
    s = game.state
    s.players[2].influence = 12
    s.players[2].influence = 11  # e.g. slandered later in the same phase
    game.state_changed()
    _end_intrigue(game)
    assert game.result() is None and s.phase is Phase.MARKET


def test_several_at_12_settle_it_in_the_arena() -> None:
    """rules: Game Objective - glory is decided in the Arena."""
    game = started(4, seed=1)
    s = game.state
    for seat in range(4):
        clear_table(game, seat)
    give(game, 1, "crixus")
    give(game, 3, "house-slave")
    s.players[1].influence = 12
    s.players[3].influence = 13
    game.state_changed()
    _end_intrigue(game)
    assert s.phase is Phase.FINAL
    first = s.arena.contenders[0]
    assert kinds(game) == {first: "choose_combatant"}
    play_until(game, lambda g: g.result() is not None, seed=4)
    result = game.result()
    assert result is not None and len(result.winners) == 1 and result.winners[0] in (1, 3)
    assert "deciding games" in result.reason


def test_a_contender_with_no_combatant_forfeits() -> None:
    game = started(4, seed=1)
    s = game.state
    for seat in range(4):
        clear_table(game, seat)
    give(game, 1, "crixus")
    s.players[1].influence = 12
    s.players[3].influence = 12
    game.state_changed()
    _end_intrigue(game)
    assert game.result() is not None and game.result().winners == (1,)


def test_at_the_round_limit_the_most_influence_wins_and_ties_share() -> None:
    """ruling (docs/rulings.md): the table's round limit ends the game after its Arena."""
    game = started(4, seed=1, round_limit="10")
    s = game.state
    s.round = 10
    s.phase = Phase.ARENA
    s.intrigue = None
    for seat, influence in enumerate((6, 9, 9, 2)):
        s.players[seat].influence = influence
    flow.end_phase(game)
    result = game.result()
    assert result is not None and result.winners == (1, 2) and "round limit" in result.reason


def test_without_a_round_limit_only_the_rules_end_the_game() -> None:
    """rules: Game Objective - "The first Dominus to reach 12 Influence points and end a phase
    alone in that position wins the game": a table of people plays with no round limit unless
    it chose one (docs/rulings.md, the end)."""
    game = started(4, seed=1)
    assert game.config.options["round_limit"] == "off" and game.round_limit() is None
    s = game.state
    s.round = 500
    s.phase = Phase.ARENA
    s.intrigue = None
    for seat, influence in enumerate((6, 9, 11, 2)):
        s.players[seat].influence = influence
    flow.end_phase(game)
    assert game.result() is None and s.round == 501  # round 501 has begun


def test_simulations_and_tables_of_bots_alone_keep_a_round_limit() -> None:
    """ruling: bots alone (harena simulate, a table nobody sits at) play with a limit of 30."""
    from harena.core.lobby import Lobby

    assert Spartacus.simulation_options == {"round_limit": "30"}
    lobby = Lobby()
    bots_alone = lobby.create_table("key-a", "ann", "spartacus", 3, bots=3, sit=False)
    assert bots_alone.game.config.options["round_limit"] == "30"
    chosen = lobby.create_table(
        "key-a", "ann", "spartacus", 3, {"round_limit": "50"}, bots=3, sit=False
    )
    assert chosen.game.config.options["round_limit"] == "50"
    people = lobby.create_table("key-b", "bob", "spartacus", 3, bots=2)
    assert people.game.config.options["round_limit"] == "off"
