"""The Essedari Maximo's rules (rulebook: "Essedari Maximo Rules", "Co-op Rules", "Solo
Rules"). Positions are built by hand; his Actions come from a test deck (essedari_helpers)."""

from __future__ import annotations

from pathlib import Path

from harena.core.carthage.content import default_content
from harena.core.carthage.essedari.actions import Mode
from harena.core.carthage.essedari.track import track
from harena.core.carthage.hexgrid import Hex, distance
from harena.core.carthage.state import Phase
from tests.core.carthage.essedari_helpers import chariot_game
from tests.core.carthage.table_helpers import play


def ring_hex_of(k: int) -> Hex:
    return track(default_content().arena)[k]


FAR = Hex(4, -4)  # the north-east corner: out of reach of track positions 0-5
FAR2 = Hex(0, -4)


def test_he_always_moves_counter_clockwise(tmp_path: Path) -> None:
    """ "The Essedari Maximo always moves counter clockwise along the outside edge of the
    Inner Circle.\""""
    game = chariot_game(tmp_path, "coop", [FAR, FAR2], at=0, deck=["move-2", "move-2"])
    game.essedari_mode.chariot_acts()
    assert game.state.essedari.pos == 2 and game.essedari_mode.chariot_hex() == Hex(-3, 3)
    # counter-clockwise on screen: from the west corner down towards the south-west
    game.essedari_mode.chariot_acts()
    assert game.essedari_mode.chariot_hex() == Hex(-1, 3)


def test_moving_next_to_a_player_deals_the_actions_damage_once(tmp_path: Path) -> None:
    """ "When Essedari Maximo moves onto a Hex which is adjacent to a player, it immediately
    deals Damage in the amount of its current Action." Next to two hexes of one move: once."""
    beside = Hex(-4, 3)  # next to track positions 1 and 2
    game = chariot_game(tmp_path, "coop", [beside, FAR], at=0, deck=["move-2"])
    game.essedari_mode.chariot_acts()
    s = game.state
    assert s.players[0].armor == 15 - 2 and s.players[1].armor == 15


def test_damage_rises_with_the_rounds(tmp_path: Path) -> None:
    """Co-op Rules: "The Damage output gets increasingly higher as the number of Rounds grow.\""""
    beside = Hex(-4, 3)
    game = chariot_game(tmp_path, "coop", [beside, FAR], at=0, deck=["move-2"])
    game.state.round = 4  # the test deck adds 3 in round 4
    game.essedari_mode.chariot_acts()
    assert game.state.players[0].armor == 15 - (2 + 3)


def test_javelin_reaches_range_1_and_arrow_range_3(tmp_path: Path) -> None:
    """ "The Essedari Maximo can use Javelin (+1 Range) and Arrow Actions (+3 Range) to deal
    Damage to player(s) from a distance, while also moving in its Chariot.\""""
    # he ends on track position 1, (-3, 2); (-1, 2) is 2 away, (1, 1) 4 away
    two, four = Hex(-1, 2), Hex(1, 1)
    assert distance(two, Hex(-3, 2)) == 2 and distance(four, Hex(-3, 2)) == 4
    javelin = chariot_game(tmp_path, "coop", [two, FAR], at=0, deck=["javelin"])
    javelin.essedari_mode.chariot_acts()
    assert javelin.state.players[0].armor == 14
    short = chariot_game(tmp_path, "coop", [four, FAR], at=0, deck=["javelin"])
    short.essedari_mode.chariot_acts()
    assert short.state.players[0].armor == 15
    arrow = chariot_game(tmp_path, "coop", [four, FAR], at=0, deck=["arrow"])
    arrow.essedari_mode.chariot_acts()
    assert arrow.state.players[0].armor == 14


def test_a_chase_stops_next_to_the_first_gladiator(tmp_path: Path) -> None:
    """harena's Chase (docs/essedari.md): up to 6 spaces, stopping beside a gladiator."""
    waiting = Hex(-2, 4)  # next to track positions 3 and 4
    game = chariot_game(tmp_path, "coop", [waiting, FAR], at=0, deck=["chase"])
    game.essedari_mode.chariot_acts()
    assert game.state.essedari.pos == 3 and game.state.players[0].armor == 14


def test_coop_tramples_to_death_a_player_whose_hex_he_enters(tmp_path: Path) -> None:
    """Co-op Rules: "IF the Essedari Maximo moves onto a space occupied by a player, the
    player is trampled to death and instantly eliminated.\""""
    game = chariot_game(tmp_path, "coop", [ring_hex_of(1), FAR], at=0, deck=["move-2"])
    game.essedari_mode.chariot_acts()
    s = game.state
    assert not s.players[0].alive and s.players[1].alive and s.phase is not Phase.OVER
    assert any("tramples" in e.text and "to death" in e.text for e in game.events)


def test_solo_trample_deals_3_to_a_player_he_moves_over(tmp_path: Path) -> None:
    """Solo: "Trample - If the Essedari Maximo moves over a Hex occupied by a player, they
    receive 3 Damage.\""""
    game = chariot_game(tmp_path, "solo", [ring_hex_of(1)], at=0, deck=["trample"])
    game.essedari_mode.chariot_acts()
    assert game.state.players[0].armor == 12 and game.state.players[0].alive


def test_solo_crushed_when_he_ends_on_the_player(tmp_path: Path) -> None:
    """Solo: "Crushed - If the Essedari Maximo ends its Movement on top of a player's space,
    the player instantly loses the game.\""""
    game = chariot_game(tmp_path, "solo", [ring_hex_of(2)], at=0, deck=["crush"])
    game.essedari_mode.chariot_acts()
    result = game.result()
    assert result is not None and result.winners == () and not game.state.players[0].alive


def test_solo_without_crush_he_drives_past_a_player(tmp_path: Path) -> None:
    """Ruling (docs/essedari.md): in solo he only stops on a player he Crushes."""
    game = chariot_game(tmp_path, "solo", [ring_hex_of(2)], at=0, deck=["move-2"])
    game.essedari_mode.chariot_acts()
    assert game.state.essedari.pos == 3 and game.state.players[0].alive


def test_solo_cross_dashes_across_at_90_or_45_degrees(tmp_path: Path) -> None:
    """Solo: "Cross - refers to Essedari Maximo dashing across the Inner Circle in a 45° or 90°
    angle (but never a 135° angle)": 90 lands him opposite, 45 a quarter of the way on."""
    game = chariot_game(tmp_path, "solo", [FAR], at=0, deck=["cross-90", "cross-45"])
    game.essedari_mode.chariot_acts()
    assert game.state.essedari.pos == 9 and game.essedari_mode.chariot_hex() == Hex(3, -1)
    game.essedari_mode.chariot_acts()
    assert game.state.essedari.pos == 14


def test_solo_net_stops_movement_next_round(tmp_path: Path) -> None:
    """Solo: "Net (+1 Range) - If the Essedari Maximo hits a player with the Net they can not
    activate any Movement the next Round.\""""
    near = Hex(-1, 2)  # 2 from track position 1
    game = chariot_game(tmp_path, "solo", [near], at=0, deck=["net"])
    game.essedari_mode.chariot_acts()
    ess = game.state.essedari
    assert ess is not None and ess.net_next == [0]
    game.theater_phase.start_round()
    assert ess.netted == [0]
    game.state.phase = Phase.ACTION
    ess.lap_open = True
    play(game, 0, "advance")
    assert game.state.players[0].at == near
    assert any("netted and cannot Move" in e.text for e in game.events)


def test_solo_javelin_costs_2_favor_within_range_1(tmp_path: Path) -> None:
    """Solo: "Javelin (+1 Range) - If a player is within 1 Range (adjacent + 1 extra Hex
    space) lose 2 Favor.\""""
    game = chariot_game(tmp_path, "solo", [Hex(-1, 2)], at=0, deck=["solo-javelin"])
    game.state.players[0].favor = 5
    game.essedari_mode.chariot_acts()
    assert game.state.players[0].favor == 3


def test_solo_javelin_costs_2_favor_to_a_player_his_drive_by_just_hit(tmp_path: Path) -> None:
    """Solo: "If a player is within 1 Range (adjacent + 1 extra Hex space) lose 2 Favor": a
    player next to his final hex is within it, though his drive-by has just hit them. ruling
    (docs/essedari.md): the Action's Damage reaches them once."""
    beside = Hex(-2, 2)  # next to track position 1, (-3, 2), where he ends
    game = chariot_game(tmp_path, "solo", [beside], at=0, deck=["solo-javelin"])
    game.state.round = 2  # the test deck adds 1 Damage in round 2: the drive-by hits
    game.state.players[0].favor = 5
    game.essedari_mode.chariot_acts()
    assert game.state.players[0].armor == 15 - 1  # swept past once, not hit again
    assert game.state.players[0].favor == 3


def test_a_javelin_card_played_on_him_stays_with_its_player(tmp_path: Path) -> None:
    """ "If a player uses the Javelin Action card against the Essedari Maximo, the card does not
    pass to the Essedari Maximo, but goes in the Discard Pile of the player.\""""
    game = chariot_game(tmp_path, "solo", [Hex(-1, 1)], at=0)  # 2 from him at (-3, 1)
    game.state.essedari.lap_open = True
    card = play(game, 0, "javelin")
    assert game.state.essedari.armor == 14
    assert card in game.state.players[0].discard


def test_he_blocks_his_hex_and_is_not_knocked_back(tmp_path: Path) -> None:
    """Ruling (docs/essedari.md): nobody may enter his hex (an occupied space); Knockback does
    not move a chariot."""
    game = chariot_game(tmp_path, "solo", [Hex(-2, 1)], at=0)
    game.state.essedari.lap_open = True
    assert not game.board.can_enter(Hex(-3, 1))
    play(game, 0, "gallic-shove")  # Damage 1, Knockback 1
    assert game.state.essedari.armor == 14
    assert not any("knocked back" in e.text for e in game.events)
    assert game.state.players[0].at == Hex(-2, 1)


def test_coop_players_may_damage_teammates(tmp_path: Path) -> None:
    """Co-op Rules: "Players may deal Damage to their teammates if desired.\""""
    game = chariot_game(tmp_path, "coop", [Hex(-2, 0), Hex(-1, -1)], at=0)  # both next to Blue
    game.state.essedari.lap_open = True
    play(game, 0, "jab")
    prompt = game.prompts()[0]
    assert {c.id for c in prompt.choices} == {
        "target:1",
        f"target:{game.essedari_mode.chariot}",
        "target:none",
    }
    assert {c.label for c in prompt.choices} == {
        game.board.name_of(1),
        "Essedari Maximo",
        "Nobody: hold back",
    }
    game.act(0, "target:1")
    assert game.state.players[1].armor == 14


def test_coop_a_player_never_has_to_hit_a_teammate(tmp_path: Path) -> None:
    """ "... if desired": with only a teammate in reach the player may hold back (docs/essedari.md)."""
    game = chariot_game(tmp_path, "coop", [Hex(0, 0), Hex(1, 0)], at=0)
    game.state.essedari.lap_open = True
    play(game, 0, "jab")
    assert [c.id for c in game.prompts()[0].choices] == ["target:1", "target:none"]
    game.act(0, "target:none")
    assert game.state.players[1].armor == 15
    assert any("holds back" in e.text for e in game.events)


def test_players_win_when_his_armor_reaches_0(tmp_path: Path) -> None:
    """ "teammates are granted 8 Rounds to either defeat the Essedari Maximo, or be
    eliminated by him": everyone wins together."""
    game = chariot_game(tmp_path, "coop", [Hex(-2, 1), FAR], at=0)
    game.state.essedari.armor = 1
    game.state.essedari.lap_open = True
    play(game, 0, "jab")
    result = game.result()
    assert result is not None and result.winners == (0, 1) and "defeated" in result.reason
    assert game.prompts() == []


def test_players_lose_when_all_are_eliminated(tmp_path: Path) -> None:
    game = chariot_game(tmp_path, "coop", [ring_hex_of(1), ring_hex_of(2)], at=0, deck=["move-2"])
    game.essedari_mode.chariot_acts()
    result = game.result()
    assert (
        result is not None
        and result.winners == ()
        and "eliminated every gladiator" in result.reason
    )


def test_one_eliminated_coop_player_does_not_end_the_game(tmp_path: Path) -> None:
    """In co-op the last gladiator standing does not win: the team fights on."""
    game = chariot_game(tmp_path, "coop", [ring_hex_of(1), FAR], at=0, deck=["move-2"])
    game.essedari_mode.chariot_acts()
    assert game.result() is None and game.state.winner is None


def test_players_lose_when_the_8_rounds_end(tmp_path: Path) -> None:
    """8 Rounds "to either defeat the Essedari Maximo, or be eliminated by him": the 8th
    round's fighting ends the game, with no Favor phase after it."""
    game = chariot_game(tmp_path, "coop", [FAR, FAR2], at=0)
    game.state.round = 8
    game.action_phase.end_action_phase()
    game.flow.advance()
    result = game.result()
    assert result is not None and result.winners == () and "8 rounds ended" in result.reason
    game = chariot_game(tmp_path, "coop", [FAR, FAR2], at=0)
    game.state.round = 7
    game.action_phase.end_action_phase()
    game.flow.advance()
    assert game.result() is None and game.state.phase in (Phase.FAVOR, Phase.ACTION)


def test_he_acts_before_the_starting_player_5_times_a_round() -> None:
    """ "Each Round the Essedari Maximo will take 5 Actions in Turn Order as a normal player."
    and "The Essedari Maximo takes the Engage Action BEFORE the Starting Player. If the
    Starting Player Token changes, the Essedari Maximo will continue to take its Action
    first." Played with the real deck, to the end of round 2."""
    from harena.core.carthage.bots import HeuristicBot
    from tests.core.carthage.table_helpers import new_carthage

    game = new_carthage(3, 5, essedari="coop")
    bots = [HeuristicBot(k) for k in range(3)]
    game.state.initiator = None
    while game.state.round < 3 and game.result() is None:
        seat = game.prompts()[0].seat
        if (
            game.state.phase is Phase.FAVOR
            and game.state.round == 1
            and game.state.initiator is None
        ):
            choice = (
                "initiate" if any(c.id == "initiate" for c in game.prompts()[0].choices) else None
            )
            if choice:
                game.act(seat, choice)
                continue
        game.act(seat, bots[seat].choose(game.view(seat)))
    lines = [e.text for e in game.events]
    starters = [
        line.split(": ")[1].removesuffix(" is the Starting Player")
        for line in lines
        if line.startswith("Round ") and line.endswith("is the Starting Player")
    ]
    assert starters[0] != starters[1]  # the Initiate moved the Starting Player token
    for rnd in (1, 2):
        start = lines.index(f"Round {rnd} of 8 against the Essedari Maximo")
        end = lines.index(f"Round {rnd + 1} of 8 against the Essedari Maximo")
        block = lines[start:end]
        acts = [k for k, line in enumerate(block) if line.startswith("The Essedari Maximo (")]
        assert len(acts) == 5
        for k, begin in enumerate(acts):  # each lap: he acts, then each living player once
            lap = block[begin : acts[k + 1] if k + 1 < len(acts) else len(block)]
            players = [line.split(" plays ")[0] for line in lap if " plays " in line]
            assert players and len(set(players)) == len(players)
            if k == 0:
                assert players[0] == starters[rnd - 1]
    assert game.state.essedari.mode is Mode.COOP


def test_coop_view_shows_his_next_action_solo_does_not(tmp_path: Path) -> None:
    """Co-op: "easier to anticipate"; Solo: "much more dynamic and difficult to anticipate\""""
    coop = chariot_game(tmp_path, "coop", [FAR, FAR2], at=0, deck=["arrow", "javelin"])
    view = coop.board_view(0)["essedari"]
    assert view["next"]["id"] == "arrow" and view["armor"] == 30 and view["rounds"] == 8
    solo = chariot_game(tmp_path, "solo", [FAR], at=0, deck=["arrow", "javelin"])
    assert solo.board_view(0)["essedari"]["next"] is None
    assert solo.board_view(None)["essedari"]["next"] is None


def test_snapshot_round_trip_keeps_him(tmp_path: Path) -> None:
    from harena.core.carthage.bots import HeuristicBot
    from harena.core.engine import restore
    from tests.core.carthage.table_helpers import new_carthage

    game = new_carthage(2, 8, essedari="coop")
    bot = HeuristicBot(1)
    for _ in range(40):
        seat = game.prompts()[0].seat
        game.act(seat, bot.choose(game.view(seat)))
    again = restore(game.snapshot())
    assert again.state == game.state and again.view(0) == game.view(0)
