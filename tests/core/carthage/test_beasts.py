"""Arena Beasts (rulebook: Arena Beasts): the choice to return as one, its entry, when it acts,
tokens, Theater cards, being slain and choosing again, and that a Beast never wins."""

from __future__ import annotations

from harena.core.carthage.beasts import BeastTiming
from harena.core.carthage.cards import Recipients
from harena.core.carthage.content import default_content
from harena.core.carthage.effects import Hook
from harena.core.carthage.hexgrid import Direction, Hex
from harena.core.carthage.state import BoardToken, Frame, Phase, Source
from tests.core.carthage.kit_helpers import BLUE, GREEN, RED, beast, kit_arena
from tests.core.carthage.table_helpers import choices, give, kind, play

O = Hex(0, 0)
E1, E2, E3 = Hex(1, 0), Hex(2, 0), Hex(3, 0)
W1, W2 = Hex(-1, 0), Hex(-2, 0)
FAR = Hex(-3, 3)


def beasts_arena(positions: list[Hex | None], tokens: dict[Hex, str] | None = None):
    return kit_arena(positions, tokens, beasts="on", equipment="off")


def test_there_are_8_beasts_each_with_armor_and_an_action() -> None:
    beasts = default_content().beasts
    assert len(beasts) == 8
    assert all(b.armor > 0 and b.effects for b in beasts)
    assert {b.acts for b in beasts} == set(BeastTiming)  # some at the start, some at the end


def test_an_eliminated_player_may_choose_a_beast_which_enters_at_once() -> None:
    # rulebook: "When a player's Armor is reduced to 0 or less, they may choose to take on the
    # role of an Arena Beast ... The Arena Beast immediately enters the Arena"
    game = beasts_arena([O, E1, FAR])
    game.state.players[RED].armor = 2
    play(game, BLUE, "slash")
    assert not game.state.players[RED].alive and game.result() is None
    assert kind(game) == "choose_beast" and game.prompts()[0].seat == RED
    assert "decline" in choices(game) and "beast:lion" in choices(game)
    game.act(RED, "beast:bear")
    assert game.state.players[RED].armor == 12  # "use the Armor tracking area"
    assert kind(game) == "place_beast"
    edge = choices(game)
    assert edge and all(game.arena.is_edge(Hex(*map(int, c[4:].split(",")))) for c in edge)
    game.act(RED, edge[0])
    assert game.state.players[RED].at is not None
    assert game.view(GREEN)["board"]["players"][RED]["beast"] == "bear"


def test_an_eliminated_player_may_decline_to_return() -> None:
    game = beasts_arena([O, E1, FAR])
    game.state.players[RED].armor = 2
    play(game, BLUE, "slash")
    game.act(RED, "decline")
    assert game.state.players[RED].beast is None and kind(game) == "play_card"


def test_without_the_option_nobody_returns() -> None:
    game = kit_arena([O, E1, FAR], equipment="off")
    game.state.players[RED].armor = 2
    play(game, BLUE, "slash")
    assert kind(game) == "play_card"


def test_a_beast_acts_at_the_start_of_the_action_phase_in_turn_order() -> None:
    # rulebook: "resolve each Round in Turn Order at the beginning or end of the Action Phase"
    game = beasts_arena([O, FAR, Hex(3, -3)])
    beast(game, RED, "lion", Hex(4, 0))  # Move 3, Damage 3, at the start
    game.state.phase = Phase.THEATER
    game.action_phase.begin_action_phase()
    game.flow.advance()
    assert kind(game) == "move_step" and game.prompts()[0].seat == RED
    for _ in range(3):
        game.act(RED, "dir:W")
    assert game.state.players[RED].at == E1 and game.state.players[BLUE].armor == 12
    assert kind(game) == "play_card"  # then the gladiators play their cards


def test_a_beast_acting_at_the_end_acts_when_the_last_card_is_played() -> None:
    game = beasts_arena([O, FAR, Hex(3, -3)])
    beast(game, RED, "nile-crocodile", E2)  # Move 2, Damage 3, at the end
    give(game, BLUE, "guard")
    game.state.turn = BLUE
    game.state_changed()
    game.act(BLUE, f"play:{game.state.players[BLUE].hand[0]}")
    assert kind(game) == "move_step" and game.prompts()[0].seat == RED


def test_a_beast_occupies_but_never_activates_a_token_and_it_stays_face_up() -> None:
    # rulebook: "Arena Beasts may occupy but not activate Arena Tokens. Arena Tokens do not flip
    # face down after an Arena Beasts has moved off them."
    game = beasts_arena([O, FAR, Hex(3, -3)], {E2: "favor-2", W1: "pillar"})
    beast(game, RED, "nile-crocodile", E3)
    s = game.state
    s.players[GREEN].armor = 15
    give(game, BLUE, "guard")
    s.turn = BLUE
    game.state_changed()
    game.act(BLUE, f"play:{s.players[BLUE].hand[0]}")
    game.act(RED, "dir:W")  # onto the Favor token
    assert s.players[RED].favor == 0 and s.tokens[E2].face_up
    game.act(RED, "dir:E")  # off it again
    assert s.tokens[E2].face_up


def test_a_beast_never_scores_king_of_the_hill() -> None:
    game = beasts_arena([O, FAR, Hex(3, -3)], {E2: "king-of-the-hill-3"})
    beast(game, RED, "bear", E2)
    game.action_phase.king_of_the_hill()
    assert game.state.players[RED].favor == 0


def test_theater_cards_do_not_affect_beasts() -> None:
    # rulebook: "Theater cards and Active Rulesets do not affect Arena Beasts"
    game = beasts_arena([O, FAR, Hex(3, -3)])
    beast(game, RED, "bear", E1)
    assert sorted(game.theater_phase.recipients(Recipients.ALL)) == [BLUE, GREEN]
    assert sorted(game.theater_phase.recipients(Recipients.LEAST_ARMOR)) == [
        BLUE,
        GREEN,
    ]  # not the Bear's 12
    game.state.hooks.append(Hook.DAMAGE_PLUS_ONE.value)  # Roar of the Crowd
    play(game, BLUE, "heavy-blow")  # Damage 4 to the Bear: no +1
    assert game.state.players[RED].armor == 8


def test_theater_cards_that_limit_movement_do_limit_beasts() -> None:
    # rulebook: "unless they limit places of movement (i.e. Caged Animals)"
    game = beasts_arena([O, FAR, Hex(3, -3)])
    at = Hex(3, -1)
    beast(game, RED, "bear", at)
    game.state.hooks.append(Hook.EDGE_CLOSED.value)
    game.state.stack.append(Frame(RED, Source.BEAST, "bear"))
    game.flow.advance()
    assert kind(game) == "move_step"
    steps = [game.arena.step(at, Direction[c.removeprefix("dir:")]) for c in choices(game)]
    assert steps and not any(game.arena.is_edge(h) for h in steps)
    assert any(game.arena.is_edge(h) for h in game.arena.neighbours(at))


def test_a_gladiator_can_slay_a_beast_and_its_player_may_choose_another() -> None:
    # rulebook: "If one's Arena Beast is eliminated, the player may choose another Arena Beast"
    game = beasts_arena([O, FAR, Hex(3, -3)])
    beast(game, RED, "wolf", E1)  # Armor 5
    play(game, BLUE, "executioners-swing")  # Damage 5
    assert game.state.players[RED].beast is None and game.state.players[RED].at is None
    assert kind(game) == "choose_beast"
    assert "beast:wolf" not in choices(game) and "beast:lion" in choices(game)


def test_a_beast_never_attacks_another_beast() -> None:
    game = beasts_arena([FAR, O, E1, Hex(3, -3)])
    beast(game, RED, "bear", O)
    beast(game, GREEN, "lion", E1)
    frame = Frame(RED, Source.BEAST, "bear")
    assert game.board.damage_targets(frame, 1) == []


def test_beasts_can_never_win_the_last_gladiator_standing_does() -> None:
    # rulebook: "These players can no longer win the game"
    game = beasts_arena([O, E1, FAR])
    beast(game, GREEN, "elephant", Hex(-2, 3))
    game.state.players[RED].armor = 2
    play(game, BLUE, "slash")
    assert game.result() is not None and game.result().winners == (BLUE,)
    assert game.state.phase is Phase.OVER


def test_sudden_death_is_for_gladiators_not_beasts() -> None:
    game = kit_arena([O, E3, FAR], beasts="on", equipment="off", sudden_death="10")
    beast(game, GREEN, "bear", Hex(-2, 3))
    game.state.round = 10
    game.action_phase.sudden_death()
    assert [p.armor for p in game.state.players] == [14, 14, 12]


def test_a_beast_enters_anywhere_free_when_no_hex_of_its_kind_is() -> None:
    game = beasts_arena([O, E3, FAR])
    panther = game.content.beast("panther")  # enters the Inner Circle
    for h in game.arena.inner_circle:
        if game.board.occupant(h) is None:
            game.state.tokens[h] = BoardToken("pillar")
    hexes = game.beast_rules.beast_entry_hexes(panther)
    assert hexes and not any(game.arena.in_inner_circle(h) for h in hexes)
