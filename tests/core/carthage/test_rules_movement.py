"""Movement and Arena tokens (rulebook: Action Cards - Movement; How to Use the Arena Tokens;
Token Rules; Phase 1 A)."""

from __future__ import annotations

from harena.core.carthage.hexgrid import Hex
from tests.core.carthage.table_helpers import arena, choices, kind, play

O = Hex(0, 0)


def test_a_step_onto_an_occupied_hex_or_a_pillar_is_not_offered() -> None:
    # rulebook: Movement "may not move onto an occupied space"; Pillar "cannot be occupied"
    game = arena([O, Hex(1, 0)], {Hex(-1, 0): "pillar", Hex(0, 1): "spiked-pillar"})
    play(game, 0, "advance")
    assert kind(game) == "move_step"
    assert sorted(choices(game, 0)) == ["dir:NE", "dir:NW", "dir:SW"]


def test_movement_is_exactly_x_steps_one_prompt_each_and_may_revisit_a_hex() -> None:
    game = arena([O, Hex(3, -3)])
    play(game, 0, "advance")
    game.act(0, "dir:E")
    game.act(0, "dir:W")  # back where it started: revisiting is allowed
    assert game.state.players[0].at == O
    assert kind(game) == "play_card"


def test_entering_a_face_up_token_resolves_it_at_once_and_leaving_flips_it() -> None:
    # rulebook: How to Use the Arena Tokens
    game = arena([O, Hex(-3, 3)], {Hex(1, -1): "favor-2"})
    play(game, 0, "advance")
    game.act(0, "dir:NE")
    assert game.state.players[0].favor == 2  # before the second step
    assert game.state.tokens[Hex(1, -1)].face_up
    game.act(0, "dir:SW")
    assert not game.state.tokens[Hex(1, -1)].face_up
    play(game, 0, "advance")
    game.act(0, "dir:NE")  # face down: nothing happens
    assert game.state.players[0].favor == 2


def test_a_movement_token_moves_at_once_then_the_card_goes_on() -> None:
    # rulebook: Arena Token Definitions, Movement "then resolve any remaining Actions"
    game = arena([O, Hex(-3, 3)], {Hex(1, 0): "movement-1"})
    play(game, 0, "sidestep")  # Move 2, Armor +1
    game.act(0, "dir:E")
    assert kind(game) == "move_step"  # the token's own step
    game.act(0, "dir:E")
    assert game.state.players[0].at == Hex(2, 0)
    game.act(0, "dir:E")  # the card's second step
    assert game.state.players[0].at == Hex(3, 0)
    assert game.state.players[0].armor == 16


def test_king_of_the_hill_does_not_resolve_when_entered_and_scores_before_the_favor_phase() -> None:
    # rulebook: King of the Hill; ruling: it scores as the fighting ends (docs/rulings.md)
    game = arena([O, Hex(-3, 3)], {Hex(1, 0): "king-of-the-hill-3"})
    s = game.state
    s.players[0].at = Hex(1, 0)
    game.action_phase.king_of_the_hill()
    assert s.players[0].favor == 3


def test_a_boxed_in_gladiator_loses_the_remaining_steps() -> None:
    # ruling: Movement that cannot be done is lost, the card goes on (docs/rulings.md)
    walls = {h: "pillar" for h in O.neighbours()[:5]}
    game = arena([O, O.neighbours()[5]], walls)  # the sixth side is another gladiator
    play(game, 0, "sidestep")  # Move 2, Armor +1
    assert kind(game) == "play_card"
    assert game.state.players[0].at == O
    assert game.state.players[0].armor == 16
    assert "boxed in" in game.log_for(None)[-2]


def test_the_theater_phase_flips_unoccupied_tokens_face_up_but_not_occupied_ones() -> None:
    # rulebook: Phase 1 A, Token Rules
    game = arena([O, Hex(-3, 3)], {O: "favor-2", Hex(2, 0): "armor-1"})
    s = game.state
    s.tokens[O].face_up = False
    s.tokens[Hex(2, 0)].face_up = False
    s.phase = game.state.phase.FAVOR
    game.theater_phase.start_round()
    assert not s.tokens[O].face_up
    assert s.tokens[Hex(2, 0)].face_up


def test_every_seat_sees_whose_effect_decision_is_pending_and_whom_it_concerns() -> None:
    game = arena([O, Hex(3, -3)])
    play(game, 0, "advance")
    for viewer in (None, 0, 1):
        assert game.view(viewer)["board"]["pending"] == {
            "seat": 0,
            "kind": "move_step",
            "target": None,
        }
    game.act(0, "dir:E")
    game.act(0, "dir:W")
    assert game.view(None)["board"]["pending"] is None  # the card has resolved
