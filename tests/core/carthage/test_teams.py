"""The team modes: 2 vs 2, the 2 vs 2 Chained Match and 2 vs 3 (rulebook: Player Modes), and
the rulings of docs/rulings.md, "Team modes"."""

from __future__ import annotations

import pytest

from harena.core.carthage.bots import HeuristicBot
from harena.core.carthage.chain import chain_holds, chain_via
from harena.core.carthage.content import default_content
from harena.core.carthage.hexgrid import Hex
from harena.core.carthage.rules import Carthage
from harena.core.carthage.state import BoardToken, Phase
from harena.core.carthage.teams import EXCLUSIVE_RULESETS, RULESETS
from harena.core.engine import GameConfigError, default_players, make_config
from harena.core.lobby import Lobby
from tests.core.carthage.table_helpers import arena, choices, give, kind, new_carthage, play

O = Hex(0, 0)
ARENA = default_content().arena
FAR = Hex(-3, 3)  # out of everyone's reach in these positions


def hit(game: Carthage, seat: int, card: str, target: int | None = None) -> None:
    """`seat` plays `card`; if it must pick whom to damage, it picks `target`."""
    play(game, seat, card)
    if game.prompts() and kind(game) == "choose_target":
        game.act(seat, f"target:{target}")


def dirs(game: Carthage) -> set[str]:
    return {c.removeprefix("dir:") for c in choices(game)}


# --- 2 vs 2 -----------------------------------------------------------------------------------


def test_teams_alternate_in_turn_order_whoever_starts() -> None:
    # rulebook: 2 VS 2, "Clockwise Turn Order would be Team 1 player A, Team 2 player A, Team 1
    # player B, Team 2 player B"
    game = new_carthage(4, teams="2v2")
    teams = game.teams
    assert teams is not None and teams.members == ((0, 2), (1, 3))
    for start in range(4):
        order = [teams.team_of((start + k) % 4) for k in range(4)]
        assert order in ([0, 1, 0, 1], [1, 0, 1, 0])


def test_each_team_mode_needs_its_player_count_with_a_clear_message() -> None:
    # rulebook: 2 VS 2 "In this 4 player game"; 2 VS 3 "In this 5 player Mode"
    with pytest.raises(GameConfigError, match=r"2 vs 2 .* needs 4 players, not 3"):
        make_config("carthage", 3, 1, {"teams": "2v2"})
    with pytest.raises(GameConfigError, match=r"Chained Match .* needs 4 players, not 5"):
        make_config("carthage", 5, 1, {"teams": "2v2_chained"})
    with pytest.raises(GameConfigError, match=r"2 vs 3 .* needs 5 players, not 4"):
        make_config("carthage", 4, 1, {"teams": "2v3"})
    assert make_config("carthage", 5, 1, {"teams": "2v3"}).options["teams"] == "2v3"
    assert (
        default_players("carthage", {"teams": "2v2"}) == 4
        and default_players("carthage", {"teams": "2v3"}) == 5
    )


def test_a_table_with_the_wrong_count_for_its_mode_is_refused_and_nothing_is_made() -> None:
    lobby = Lobby()
    with pytest.raises(GameConfigError, match="needs 4 players, not 2"):
        lobby.create_table("id-alice", "alice", "carthage", 2, {"teams": "2v2"})
    assert not lobby.tables
    table = lobby.create_table("id-alice", "alice", "carthage", 4, {"teams": "2v2"}, bots=3)
    assert table.game.teams is not None and table.game.teams.members == ((0, 2), (1, 3))


def test_the_game_ends_once_both_members_of_a_team_are_eliminated() -> None:
    # rulebook: 2 VS 2, "The game ends once both members of a team are eliminated."
    game = arena([O, Hex(1, 0), FAR, Hex(-1, 0)], teams="2v2")
    s = game.state
    s.players[1].armor = s.players[3].armor = 2
    s.players[0].armor = 20
    hit(game, 0, "slash", target=1)
    assert not s.players[1].alive and game.result() is None  # one of Team 2 is left
    hit(game, 0, "slash", target=3)
    result = game.result()
    assert result is not None and result.winners == (0, 2)
    assert result.reason == "Team 1 wins: Team 2 eliminated"
    assert "Team 1 (Blue Retiarius, Green Murmillo) wins" in game.events[-1].text


def test_a_fallen_teammate_shares_the_win() -> None:
    game = arena([O, Hex(1, 0), Hex(2, 0), FAR], teams="2v2")
    s = game.state
    s.players[2].armor = 2
    s.players[3].armor = 2
    hit(game, 1, "slash", target=2)  # Team 2 fells Team 1's second gladiator
    assert not s.players[2].alive and game.result() is None
    s.players[3].at = Hex(0, 1)
    hit(game, 0, "slash", target=1)
    s.players[1].armor = 2
    hit(game, 0, "slash", target=1)
    hit(game, 0, "slash", target=3)
    result = game.result()
    assert result is not None and result.winners == (0, 2)


def test_a_teammate_who_came_back_as_a_beast_is_not_among_the_winners() -> None:
    # rulebook: Arena Beasts, those players "can no longer win the game"
    game = arena([O, Hex(1, 0), Hex(2, 0), FAR], teams="2v2", beasts="on")
    s = game.state
    s.players[2].armor = 2
    hit(game, 1, "slash", target=2)  # Team 2 fells Team 1's second gladiator
    assert kind(game) == "choose_beast"
    game.act(2, "beast:bear")
    game.act(2, choices(game)[0])
    s.players[3].at = Hex(0, 1)
    s.players[1].armor = s.players[3].armor = 2
    s.players[2].at = Hex(-3, 0)  # the Bear keeps out of reach
    hit(game, 0, "slash", target=1)
    if kind(game) == "choose_beast":
        game.act(1, "decline")
    hit(game, 0, "slash", target=3)
    result = game.result()
    assert result is not None and result.winners == (0,)
    assert result.reason == "Team 1 wins: Team 2 eliminated"


def test_teammates_may_damage_one_another_and_get_the_strike_bonus() -> None:
    # rulebook: 2 VS 2, "Teammates may Damage one another if they choose. (E.g. Using the Slash
    # Action Card to Damage the teammate in order to receive 3 Favor)."
    game = arena([O, FAR, Hex(1, 0), Hex(3, -3)], teams="2v2")
    play(game, 0, "slash")
    assert kind(game) == "choose_target" and set(choices(game)) == {"target:2", "target:none"}
    game.act(0, "target:2")
    assert game.state.players[2].armor == 13
    assert game.state.players[0].favor == 3


@pytest.mark.parametrize("mode", ["2v2", "2v2_chained", "2v3"])
def test_a_damage_that_reaches_a_teammate_lets_its_player_hold_back(mode: str) -> None:
    # rulebook: 2 VS 2, "Teammates may Damage one another if they choose" (the Chained Match and
    # 2 VS 3: "Same rules apply from 2 VS 2"): with only a teammate in reach, nobody is made to
    # hit them
    positions = [O, FAR, Hex(1, 0), Hex(3, -3)] + ([Hex(-3, 0)] if mode == "2v3" else [])
    game = arena(positions, teams=mode)
    play(game, 0, "slash")
    assert kind(game) == "choose_target" and set(choices(game)) == {"target:2", "target:none"}
    game.act(0, "target:none")
    assert game.state.players[2].armor == 15 and game.state.players[0].favor == 0
    assert "holds back" in game.events[-1].text


def test_a_damage_that_reaches_only_opponents_asks_nothing_more() -> None:
    game = arena([O, Hex(1, 0), FAR, Hex(3, -3)], teams="2v2")
    play(game, 0, "slash")
    assert game.state.players[1].armor == 13  # one opponent in reach: hit at once, as always


def test_twin_blades_asks_before_striking_a_teammate_beside_its_player() -> None:
    # rulebook: Twin Blades, "Deal 2 Damage to every opponent ... immediately surrounding";
    # 2 VS 2, "Teammates may Damage one another if they choose"
    # seat 1 (Red Dimachaerus) stands between seat 0 (Blue, a foe) and seat 3 (Yellow, its mate)
    for spare, armor, favor in ((True, 15, 2), (False, 13, 4)):
        g = arena([Hex(1, 0), O, FAR, Hex(-1, 0)], teams="2v2", equipment="on")
        instance = give(g, 1, "guard")
        give(g, 1, "hail-the-crowd")
        g.state.turn = 1
        g.state_changed()
        g.act(1, f"equip:twin-blades:{instance}")
        assert kind(g) == "choose_target" and set(choices(g)) == {"target:3", "target:none"}
        g.act(1, "target:none" if spare else "target:3")
        s = g.state
        assert s.players[0].armor == 13  # the foe is hit either way
        assert s.players[3].armor == armor and s.players[1].favor == favor


def test_curved_sica_does_not_switch_places_when_that_would_break_a_chain() -> None:
    # rulebook: Chained Match, teammates "CANNOT have more than 1 Hex space between them for the
    # entirety of the game"; Curved Sica, "the Thracian switches places with the Impacted
    # opponent"
    # Yellow (seat 3, chained to Red at -2,0) hits Blue (seat 0, chained to Green at 3,0) at 1,0
    positions = [Hex(1, 0), Hex(-2, 0), Hex(3, 0), O]
    for mode, switched in (("2v2", True), ("2v2_chained", False)):
        game = arena(positions, teams=mode, equipment="on")
        instance = give(game, 3, "guard")
        give(game, 3, "hail-the-crowd")
        game.state.turn = 3
        game.state_changed()
        game.act(3, f"equip:curved-sica:{instance}")
        s = game.state
        assert s.players[0].armor == 12  # the Damage lands either way
        assert (s.players[3].at == Hex(1, 0)) is switched
        if not switched:
            assert s.players[0].at == Hex(1, 0) and "The chain holds" in game.events[-1].text
            assert all(chain_holds(ARENA, game.board.is_pillar, s.players[a].at, s.players[b].at)
                       for a, b in ((0, 2), (1, 3)))  # fmt: skip


def test_curved_sica_switches_places_when_both_chains_hold() -> None:
    # each teammate stays within 2 hexes of the hex its partner ends on: every chain holds
    positions = [Hex(1, 0), Hex(2, -1), Hex(-1, 2), O]
    game = arena(positions, teams="2v2_chained", equipment="on")
    instance = give(game, 3, "guard")
    give(game, 3, "hail-the-crowd")
    game.state.turn = 3
    game.state_changed()
    game.act(3, f"equip:curved-sica:{instance}")
    assert game.state.players[3].at == Hex(1, 0) and game.state.players[0].at == O


# --- the chain --------------------------------------------------------------------------------


def test_the_chain_spans_at_most_one_hex_and_never_through_a_pillar() -> None:
    # rulebook: Chained Match, teammates "CANNOT have more than 1 Hex space between them";
    # "Chain cannot pass through Pillars"
    pillars: set[Hex] = set()
    is_pillar = pillars.__contains__
    assert chain_holds(ARENA, is_pillar, O, Hex(1, 0))
    assert chain_holds(ARENA, is_pillar, O, Hex(2, 0))
    assert not chain_holds(ARENA, is_pillar, O, Hex(3, 0))
    pillars.add(Hex(1, 0))  # the one hex between two on a straight line
    assert not chain_holds(ARENA, is_pillar, O, Hex(2, 0))
    assert chain_holds(ARENA, is_pillar, O, Hex(1, 1))  # bent: around the pillar, via 0,1
    assert chain_via(ARENA, is_pillar, O, Hex(1, 1)) == Hex(0, 1)
    pillars.add(Hex(0, 1))
    assert not chain_holds(ARENA, is_pillar, O, Hex(1, 1))
    assert chain_holds(ARENA, is_pillar, O, Hex(1, -1))  # adjacent: nothing in between


def test_a_step_that_would_break_the_chain_is_not_offered() -> None:
    # seat 0 at 0,0 with its teammate (seat 2) at -2,0: only the steps that stay within reach
    positions = [O, FAR, Hex(-2, 0), Hex(3, -3)]
    free = arena(positions, teams="2v2")
    play(free, 0, "sprint")
    assert dirs(free) == {"NE", "E", "SE", "SW", "W", "NW"}
    chained = arena(positions, teams="2v2_chained")
    play(chained, 0, "sprint")
    assert dirs(chained) == {"NW", "W", "SW"}


def test_a_step_whose_chain_would_cross_a_pillar_is_not_offered() -> None:
    # teammate at 2,0; a pillar at 1,0. From 1,-1, stepping to 0,0 leaves only the pillar
    # between them; 2,-2 keeps a free hex (2,-1) between them.
    positions = [Hex(1, -1), FAR, Hex(2, 0), Hex(-3, 0)]
    game = arena(positions, {Hex(1, 0): "pillar"}, teams="2v2_chained")
    play(game, 0, "lunge")
    assert dirs(game) == {"NE", "E"}
    open_ground = arena(positions, teams="2v2_chained")
    play(open_ground, 0, "lunge")
    assert dirs(open_ground) == {"NE", "E", "SE", "SW"}


def test_a_gladiator_boxed_in_by_its_chain_loses_the_steps() -> None:
    # ruling: Movement is "exactly X steps"; with no step that keeps the chain, the rest is lost.
    # Teammate at -2,1, a pillar at -1,1, opponents at -1,0 and 0,-1: only NE, E, SE are free,
    # and each is 3 hexes from the teammate or has only the pillar between.
    positions = [O, Hex(-1, 0), Hex(-2, 1), Hex(0, -1)]
    free = arena(positions, {Hex(-1, 1): "pillar"}, teams="2v2")
    play(free, 0, "sprint")
    assert dirs(free) == {"NE", "E", "SE"}
    game = arena(positions, {Hex(-1, 1): "pillar"}, teams="2v2_chained")
    play(game, 0, "sprint")
    assert game.state.players[0].at == O and kind(game) == "play_card"
    assert any("boxed in: 4 steps lost" in e.text for e in game.events)


def test_a_knockback_that_would_break_the_chain_stops_short_with_1_more_damage() -> None:
    # ruling: the chain holds a knocked gladiator back as a Pillar would (docs/rulings.md)
    positions = [O, Hex(-1, 0), Hex(0, -1), FAR]
    free = arena(positions, teams="2v2")
    hit(free, 1, "shield-bash", target=0)  # Damage 1, Knockback 2, east
    assert free.state.players[0].at == Hex(2, 0) and free.state.players[0].armor == 14
    chained = arena(positions, teams="2v2_chained")
    hit(chained, 1, "shield-bash", target=0)
    assert chained.state.players[0].at == Hex(1, 0)  # 2,0 is 3 hexes from the teammate
    assert chained.state.players[0].armor == 13


def test_an_eliminated_teammate_is_removed_and_frees_the_survivor() -> None:
    # rulebook: Chained Match, "If a team member is eliminated, remove their miniature"
    game = arena([O, Hex(1, 0), Hex(-2, 0), FAR], teams="2v2_chained")
    s = game.state
    s.players[2].armor = 2
    s.players[2].at = Hex(2, 0)
    hit(game, 1, "slash", target=2)
    assert not s.players[2].alive and s.players[2].at is None
    assert game.team_mode.chain_partner(0) is None
    play(game, 0, "sprint")
    assert dirs(game) == {"NE", "SE", "SW", "W", "NW"}  # E is where seat 1 stands


def test_the_second_of_a_chained_pair_enters_within_the_chain_on_the_outer_edge() -> None:
    # rulebook: Setup 5 (the outside edge, not adjacent to one another) with the chain
    game = new_carthage(4, teams="2v2_chained")
    s = game.state
    assert s.phase is Phase.PLACEMENT
    while s.phase is Phase.PLACEMENT:
        seat = s.turn
        partner = game.team_mode.chain_partner(seat)
        offered = [Hex(*map(int, c.removeprefix("hex:").split(","))) for c in choices(game)]
        assert offered
        if partner is not None:
            assert all(ARENA.is_edge(h) and game.team_mode.keeps_chain(seat, h) for h in offered)
        game.act(seat, f"hex:{offered[0].q},{offered[0].r}")
    for a, b in game.teams.members:
        assert chain_holds(ARENA, game.board.is_pillar, s.players[a].at, s.players[b].at)


def test_with_no_edge_hex_left_in_the_chain_the_second_enters_off_the_edge() -> None:
    # ruling: the chain comes first; then "not adjacent to one another"; the edge yields first
    game = new_carthage(4, teams="2v2_chained")
    s = game.state
    s.tokens = {}
    s.players[0].at, s.players[1].at, s.players[3].at = Hex(4, -4), Hex(2, -4), Hex(4, -2)
    s.placed, s.turn = 3, 2
    game.state_changed()
    assert choices(game) == ["hex:2,-2"]


def test_a_pillar_may_not_be_moved_onto_a_chain_it_would_break() -> None:
    # the hook for Renovate (Modular Rulesets: "Move an Arena Token")
    game = arena([O, FAR, Hex(2, 0), Hex(-2, 3)], teams="2v2_chained")
    assert not game.team_mode.chain_allows_pillar_at(Hex(1, 0))
    assert game.team_mode.chain_allows_pillar_at(Hex(-1, 0))
    assert arena([O, FAR, Hex(2, 0), Hex(3, -3)], teams="2v2").team_mode.chain_allows_pillar_at(
        Hex(1, 0)
    )


def test_the_view_shows_the_teams_and_where_each_chain_runs() -> None:
    game = arena([O, Hex(3, -1), Hex(1, 1), Hex(3, 1)], {Hex(1, 0): "pillar"}, teams="2v2_chained")
    teams = game.view(None)["board"]["teams"]
    assert teams["members"] == [[0, 2], [1, 3]] and teams["names"] == ["Team 1", "Team 2"]
    assert teams["chains"] == [{"seats": [0, 2], "via": [0, 1]}, {"seats": [1, 3], "via": [3, 0]}]
    assert new_carthage(4).view(None)["board"]["teams"] is None


# --- 2 vs 3 -----------------------------------------------------------------------------------


def test_the_team_of_two_chooses_4_modular_rulesets_taking_turns() -> None:
    # rulebook: 2 VS 3, "The team of 2 selects 4 Modular Rulesets for the match"
    game = new_carthage(5, teams="2v3")
    s = game.state
    assert game.teams is not None and game.teams.members == ((0, 2, 4), (1, 3))
    pickers = []
    while s.phase is Phase.RULESET_PICK:
        prompt = game.prompts()[0]
        assert prompt.kind == "pick_ruleset" and prompt.seat in (1, 3)
        pickers.append(prompt.seat)
        game.act(prompt.seat, prompt.choices[0].id)
    assert len(s.team_rulesets) == EXCLUSIVE_RULESETS == 4
    assert len(set(s.team_rulesets)) == 4 and set(s.team_rulesets) <= set(RULESETS)
    assert sorted(pickers) == [1, 1, 3, 3] and pickers[0] != pickers[1]
    assert s.phase is Phase.PLACEMENT
    assert game.view(0)["board"]["teams"]["ruleset_names"][0] == "Actuate"


def test_only_the_team_of_two_may_use_its_rulesets() -> None:
    # rulebook: 2 VS 3, "that they may exclusively use, however the team of 3 can still be
    # affected"
    game = new_carthage(5, teams="2v3")
    while game.state.phase is Phase.RULESET_PICK:
        game.act(game.prompts()[0].seat, game.prompts()[0].choices[0].id)
    chosen = game.state.team_rulesets[0]
    other = next(r for r in RULESETS if r not in game.state.team_rulesets)
    assert [game.team_mode.may_use_ruleset(seat, chosen) for seat in range(5)] == [
        False,
        True,
        False,
        True,
        False,
    ]
    assert all(game.team_mode.may_use_ruleset(seat, other) for seat in range(5))
    assert new_carthage(4, teams="2v2").team_mode.may_use_ruleset(0, chosen)


def pick(game: Carthage, *rulesets: str) -> None:
    """The team of two picks `rulesets` (in order, whoever is asked)."""
    for ruleset in rulesets:
        prompt = game.prompts()[0]
        assert prompt.kind == "pick_ruleset"
        game.act(prompt.seat, f"ruleset:{ruleset}")


def test_the_team_of_twos_favor_actions_are_offered_to_them_alone() -> None:
    # rulebook: 2 VS 3, "4 Modular Rulesets for the match that they may exclusively use"
    game = new_carthage(5, teams="2v3")
    pick(game, "ordinance", "taunt", "retain", "concentrate")
    assert game.ruleset_table.active("ordinance") and not game.ruleset_table.active("outbreak")
    s = game.state
    for p in s.players:
        p.favor, p.armor = 10, 10
    offered = {
        seat: {c.id.split(":")[0] for c in game.favor_actions.ruleset_favor_choices(seat)}
        for seat in range(5)
    }
    assert {"ordinance", "taunt", "retain"} <= offered[1] and {
        "ordinance",
        "taunt",
        "retain",
    } <= offered[3]
    assert offered[0] == offered[2] == offered[4] == set()


def test_the_team_of_three_is_still_affected_by_the_twos_rulesets() -> None:
    # rulebook: 2 VS 3, "however the team of 3 can still be affected as a result of these
    # Modular Rulesets"; ruling: a gain is the two's alone, a harm reaches everyone
    game = new_carthage(5, teams="2v3")
    pick(game, "crocodile_island", "featured_match", "battle_hardened", "ordinance")
    s = game.state
    assert [p.armor for p in s.players] == [
        15,
        20,
        15,
        20,
        15,
    ]  # Battle Hardened: the two begin with 20
    s.theater_discard = s.theater_deck[:3]
    favor = [p.favor for p in s.players]
    game.conditions.start_of_actions()
    gained = [p.favor - before for p, before in zip(s.players, favor, strict=True)]
    assert gained == [0, 3, 0, 3, 0]  # Featured Match: the two gain
    for seat in (0, 1):  # Crocodile Island bites both teams
        armor = s.players[seat].armor
        s.players[seat].at = Hex(4, -4)  # outside the Inner Circle
        game.conditions.stepped(seat)
        assert s.players[seat].armor == armor - 1


def test_the_team_of_two_is_not_offered_a_ruleset_the_whole_table_plays() -> None:
    game = new_carthage(5, teams="2v3", rulesets="retain")
    ids = {c.id for c in game.prompts()[0].choices}
    assert "ruleset:retain" not in ids and "ruleset:ordinance" in ids


def test_2v3_ends_when_the_team_of_three_has_fallen() -> None:
    game = arena([O, Hex(1, 0), Hex(2, 0), FAR, Hex(1, 1)], teams="2v3")
    s = game.state
    for seat in (0, 2, 4):
        s.players[seat].armor = 2
    hit(game, 1, "slash", target=0)
    hit(game, 1, "slash", target=2)
    assert game.result() is None
    hit(game, 1, "slash", target=4)
    result = game.result()
    assert result is not None and result.winners == (1, 3)


def test_the_off_mode_keeps_every_gladiator_for_themself() -> None:
    game = new_carthage(4)
    assert game.teams is None and game.team_mode.may_use_ruleset(0, "actuate")
    s = game.state
    s.tokens = {}
    for p, at in zip(s.players, [O, Hex(1, 0), Hex(-1, 0), FAR], strict=True):
        p.at = at
    s.phase, s.round = Phase.ACTION, 1
    s.tokens[Hex(4, 0)] = BoardToken("pillar")
    game.state_changed()
    s.players[1].armor = 2
    hit(game, 0, "slash", target=1)
    assert game.result() is None  # two others are still standing


# --- the heuristic bot as a teammate ------------------------------------------------------------


def test_the_heuristic_bot_hits_the_opponent_rather_than_its_teammate() -> None:
    game = arena([O, Hex(1, 0), Hex(-1, 0), FAR], teams="2v2")
    play(game, 0, "slash")
    assert kind(game) == "choose_target"
    assert HeuristicBot(1).choose(game.view(0)) == "target:1"


def test_the_heuristic_bot_keeps_a_damage_card_that_would_only_hit_its_teammate() -> None:
    # rulebook: 2 VS 2 allows it; the bot does it only when the bonus is worth it
    for mode, expected in (("2v2", "sidestep"), ("off", "slash")):
        options = {} if mode == "off" else {"teams": mode}
        game = arena([O, Hex(3, -3), Hex(1, 0), FAR], **options)
        cards = {give(game, 0, "slash"): "slash", give(game, 0, "sidestep"): "sidestep"}
        game.state.turn = 0
        game.state_changed()
        choice = HeuristicBot(1).choose(game.view(0))
        assert cards[int(choice.removeprefix("play:"))] == expected, mode
